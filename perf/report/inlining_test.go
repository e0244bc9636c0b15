package report

import (
	"strings"
	"testing"

	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/perf"
)

// inlining adds the compiler's verdicts to a report.
func inlining(rep *perf.Report, ins ...perf.Inlining) *perf.Report {
	rep.Inlining = append(rep.Inlining, ins...)
	return rep
}

// The phrase names what was inlined and, for the rest, the cost against
// the budget or the compiler's reason; a lock used through handles is
// found under its handle type; a method without a verdict gives no phrase.
func TestCallsPhrase(t *testing.T) {
	rep := inlining(&perf.Report{},
		perf.Inlining{Type: "A", Method: "Lock", Cost: 89, Budget: 80},
		perf.Inlining{Type: "A", Method: "Unlock", Cost: 112, Budget: 80},
		perf.Inlining{Type: "BHandle", Method: "Lock", Cost: 70, Inlinable: true, Inlined: true},
		perf.Inlining{Type: "BHandle", Method: "Unlock", Cost: 60, Inlinable: true, Inlined: true},
		perf.Inlining{Type: "C", Method: "RLock", Reason: "unhandled op DEFER"},
		perf.Inlining{Type: "C", Method: "RUnlock", Cost: 50, Inlinable: true},
		perf.Inlining{Type: "C", Method: "Lock", Cost: 30, Inlinable: true, Inlined: true},
	)
	x := NewIndex(rep)
	for _, c := range []struct {
		subject string
		methods []string
		want    string
	}{
		{"A", []string{"Lock", "Unlock"}, "the compiler inlines neither this lock's Lock (cost 89, budget 80) nor its Unlock (cost 112, budget 80) into the benchmark's loop"},
		{"A", []string{"Unlock"}, "the compiler does not inline this lock's Unlock (cost 112, budget 80) into the benchmark's loop"},
		{"B", []string{"Lock", "Unlock"}, "the compiler inlines this lock's Lock and Unlock into the benchmark's loop"},
		{"C", []string{"RLock", "RUnlock", "Lock"}, "the compiler inlines this lock's Lock into the benchmark's loop, but not RLock (unhandled op DEFER) and RUnlock (cost 50, within the budget, but not inlined at this call)"},
		{"C", []string{"RLock", "RUnlock"}, "the compiler inlines neither this lock's RLock (unhandled op DEFER) nor its RUnlock (cost 50, within the budget, but not inlined at this call) into the benchmark's loop"},
		{"C", []string{"Unlock"}, ""},
		{"D", []string{"Lock"}, ""},
	} {
		if got := x.callsPhrase(c.subject, c.methods...); got != c.want {
			t.Errorf("%s %v:\n got %q\nwant %q", c.subject, c.methods, got, c.want)
		}
	}
}

// The Markdown report has an inlining table when the run recorded the
// compiler's verdicts, one row per generated lock, and none otherwise.
func TestInliningTable(t *testing.T) {
	rep := againstBaseline(mode.Mutex, "sync.Mutex", 10, "TAS", "tas", 12)
	var b strings.Builder
	Markdown(&b, rep, "lockgen bench", nil, nil)
	if strings.Contains(b.String(), "## Inlining") {
		t.Error("an inlining section without verdicts")
	}
	// A verdict under a baseline's name (none is compiled in the package)
	// must not give it a row: the table lists generated locks only.
	inlining(rep, perf.Inlining{Type: "TAS", Method: "Lock", Cost: 89, Budget: 80},
		perf.Inlining{Type: "TAS", Method: "Unlock", Cost: 40, Inlinable: true, Inlined: true},
		perf.Inlining{Type: "sync.Mutex", Method: "Lock", Cost: 30, Inlinable: true, Inlined: true})
	b.Reset()
	Markdown(&b, rep, "lockgen bench", nil, nil)
	for _, want := range []string{"## Inlining", "| lock | Lock | Unlock |\n|---|---|---|\n| TAS | not inlined (cost 89, budget 80) | inlined (cost 40) |\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, b.String())
		}
	}
	_, section, _ := strings.Cut(b.String(), "## Inlining")
	section, _, _ = strings.Cut(section, "\n## ")
	if strings.Contains(section, "| sync.Mutex |") {
		t.Errorf("a baseline row in the inlining table:\n%s", section)
	}
}

// Under the terminal table, one line per generated lock says what was
// inlined and what not, within 100 columns even with a long reason.
func TestInliningLines(t *testing.T) {
	rep := againstBaseline(mode.Mutex, "sync.Mutex", 10, "TAS", "tas", 12)
	var b strings.Builder
	Table(&b, rep)
	if strings.Contains(b.String(), "INLINED") {
		t.Errorf("inlining lines without verdicts:\n%s", b.String())
	}
	inlining(rep, perf.Inlining{Type: "TAS", Method: "Lock", Cost: 89, Budget: 80},
		perf.Inlining{Type: "TAS", Method: "Unlock", Cost: 40, Inlinable: true, Inlined: true},
		perf.Inlining{Type: "TAS", Method: "RLock", Reason: strings.Repeat("a very long reason ", 10)})
	b.Reset()
	Table(&b, rep)
	want := "TAS                    inlined: Unlock; not inlined: Lock 89>80, RLock (a very long reason"
	if !strings.Contains(b.String(), want) {
		t.Errorf("the table lacks %q:\n%s", want, b.String())
	}
	for _, line := range strings.Split(b.String(), "\n") {
		if n := len([]rune(line)); n > 100 {
			t.Errorf("line of %d columns: %q", n, line)
		}
	}
}
