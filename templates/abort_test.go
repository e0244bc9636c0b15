package templates

import (
	"strings"
	"testing"
)

// Every entry decides whether a waiting process can give up: an abortable
// one says where its abort code comes from and what it costs, any other
// why not; Lamport's fast mutex, the seeds' abortable algorithm, keeps its
// R7.2 wait, which the paper does not let it leave.
func TestEveryEntryDecidesAbort(t *testing.T) {
	abortable := 0
	for _, e := range All() {
		o := e.AllOptions()[0]
		s := e.AbortSummary(o)
		switch {
		case e.Abortable():
			abortable++
			if len(e.AbortNotes) == 0 {
				t.Errorf("%s: abortable, but no note says where its abort code comes from", e.Name)
			}
			if !strings.HasPrefix(s, "yes (") || len(e.AbortPoints(o)) == 0 {
				t.Errorf("%s: summary %q, points %v", e.Name, s, e.AbortPoints(o))
			}
		default:
			if !strings.HasPrefix(s, "no: ") || e.AbortFinitely != "" || (e.AbortIncorrect != "") == (e.NoAbort != "") {
				t.Errorf("%s: summary %q", e.Name, s)
			}
		}
	}
	if abortable < 10 {
		t.Errorf("%d abortable entries", abortable)
	}
	lf, _ := Lookup("lamport-fast")
	if got := lf.AbortSummary(Options{}); !strings.Contains(got, "at R3, R7.4: nothing") || !strings.Contains(got, "R7.2 cannot be abandoned") {
		t.Errorf("lamport-fast: %s", got)
	}
	ct, _ := Lookup("clh-try")
	if pts := ct.AbortPoints(Options{}); len(pts) != 1 || pts[0].Cost.Bounded() {
		t.Errorf("clh-try: abort points %+v, want one whose abort waits", pts)
	}
}
