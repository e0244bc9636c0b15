package promela

import (
	"strings"
	"testing"

	"github.com/lockgen/lockgen/ir"
)

// With Options.Abort every wait that has abort code gets an option that
// gives up, taken by a passage that may (g_abt) under the liveness claims,
// at any time otherwise; the claims speak of the passages that may not.
func TestAbortLowering(t *testing.T) {
	a := def(t, "lamport-fast")
	p := ir.Params{N: 2, K: 1}
	plain, err := Model(a, p, Options{Checks: MutualExclusion})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain, "give up waiting") {
		t.Error("a model without aborts gives up")
	}
	safety, err := Model(a, p, Options{Abort: true, Checks: MutualExclusion})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(safety, "|give up waiting */"); n != 2 {
		t.Errorf("%d abort options, want 2 (R3, R7.4):\n%s", n, safety)
	}
	if !strings.Contains(safety, ":: true;\t/*@ Acquire|R3|give up waiting") || strings.Contains(safety, "g_abt") {
		t.Errorf("safety model: the abort should always be open, with no patience ghost:\n%s", safety)
	}
	live, err := Model(a, p, Options{Abort: true, Checks: DeadlockFreedom})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{":: g_abt[lg_me];", "if :: g_abt[lg_me] = 1 :: skip fi", "(g_trying[0] && !g_abt[0])"} {
		if !strings.Contains(live, want) {
			t.Errorf("liveness model lacks %q:\n%s", want, live)
		}
	}
	if strings.Contains(live, "<> []") {
		t.Error("the claim assumes finitely many aborts without AbortFinitely")
	}
	finite, err := Model(a, p, Options{Abort: true, AbortFinitely: true, Checks: DeadlockFreedom})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(finite, "ltl deadlock_freedom { (<> [] (!g_abt[0] && !g_abt[1])) -> [] (") {
		t.Errorf("finitely many aborts: the claim lacks its premise:\n%s", finite[strings.Index(finite, "ltl"):])
	}
}

// A busy loop with abort code exits on its negated condition, not else,
// which the always-open abort option would starve.
func TestAbortBusyLoopExit(t *testing.T) {
	m, err := Model(def(t, "clh-try"), ir.Params{N: 2, K: 1}, Options{Abort: true, Checks: MutualExclusion})
	if err != nil {
		t.Fatal(err)
	}
	head := m[strings.Index(m, "Acquire|5|while true do"):]
	head = head[:strings.Index(head, "od;")]
	if strings.Contains(head, "else -> break") {
		t.Errorf("the loop of line 5 exits through else beside its abort option:\n%s", head)
	}
	if !strings.Contains(m, "|give up waiting */") {
		t.Error("no abort option")
	}
}

func TestAbortRefused(t *testing.T) {
	p := ir.Params{N: 2, K: 1}
	for _, c := range []struct {
		name, alg string
		o         Options
		want      string
	}{
		{"no abort code", "ticket", Options{Abort: true}, "no wait of ticket has abort code"},
		{"folded", "tas", Options{Abort: true, Fold: true}, "without folding"},
		{"crashes", "tas", Options{Abort: true, Crashes: 1}, "crashes"},
		{"bounded waiting", "bakery", Options{Abort: true, Checks: BoundedWaiting, Overtakes: 1}, "not strong FIFO, bounded waiting"},
		{"finitely without a claim", "tas", Options{Abort: true, AbortFinitely: true, Checks: MutualExclusion}, "assumption of the liveness claims"},
		{"finitely without aborts", "tas", Options{AbortFinitely: true, Checks: DeadlockFreedom}, "without aborts"},
	} {
		_, err := Model(def(t, c.alg), p, c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error containing %q", c.name, err, c.want)
		}
	}
}
