package promela

import (
	"strings"
	"testing"

	"github.com/lockgen/lockgen/ir"
	"github.com/lockgen/lockgen/templates/distributed"
)

func TestNetworkModel(t *testing.T) {
	e, _ := distributed.Lookup("dcrew")
	m, err := Network(e.Def(), NetOptions{N: 3, Requests: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"/*@ on REQUEST|6q.5|send(requester, TOKEN; 1) */", // trails name the paper's lines
		"Token_hldr[0] = 1;",                             // the token starts at process 0
		"inbox[self].s[0].from != inbox[self].s[1].from", // FIFO: one sender's oldest message first
		"g_resume[self] = (g_wait",                       // routines resume first
	} {
		if !strings.Contains(m, want) {
			t.Errorf("model lacks %q", want)
		}
	}
	if strings.Contains(m, "ltl ") {
		t.Error("a safety model carries an LTL claim (it would hide invalid end states)")
	}
	r, _ := Network(e.Def(), NetOptions{N: 3, Requests: 2, Reorder: true, ResumeLater: true, Liveness: true})
	if strings.Contains(r, "].from != inbox") || strings.Contains(r, "g_resume[self] = (g_wait") || !strings.Contains(r, "ltl starvation") {
		t.Error("Reorder, ResumeLater or Liveness ignored")
	}
}

func TestNetworkRejects(t *testing.T) {
	e, _ := distributed.Lookup("dcrew")
	if _, err := Network(e.Def(), NetOptions{N: 1, Requests: 1}); err == nil {
		t.Error("n = 1 accepted")
	}
	shared := &ir.Algorithm{Name: "x", Acquire: ir.Code{}, Release: ir.Code{}}
	if _, err := Network(shared, NetOptions{N: 2, Requests: 1}); err == nil {
		t.Error("a shared-memory algorithm accepted")
	}
}
