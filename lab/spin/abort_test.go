package spin

import (
	"context"
	"testing"
	"time"

	"github.com/lockgen/lockgen/templates"
)

// abortCatalogue is what TestAbortCatalogue checks by default: one entry
// of each kind (an abort that leaves at once, one whose liveness needs
// finitely many aborts, one that loops, a queue lock's, a negative
// control); LOCKGEN_SPIN_LONG checks every abortable entry.
var abortCatalogue = []string{"tas", "lamport-fast", "kessels", "clh-try", "fischer"}

// Every abortable entry passes its properties with aborts at n = 2 (a
// negative control fails them, as it fails without aborts), and an entry
// that claims its liveness only for finitely many aborts does fail it
// when processes give up for ever: the claim is as strong as it holds.
func TestAbortCatalogue(t *testing.T) {
	needSpin(t)
	names := abortCatalogue
	if long() {
		names = nil
		for _, e := range templates.All() {
			if e.Abortable() {
				names = append(names, e.Name)
			}
		}
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e, _ := templates.Lookup(name)
			o := e.AllOptions()[0]
			props := AbortProperties(e, o)
			if e.AbortFinitely != "" {
				// The claim without the premise must fail.
				for _, p := range props {
					switch p {
					case AbortStarvationFinite:
						props = append(props, AbortStarvation)
					case AbortDeadlockFreedomFinite:
						props = append(props, AbortDeadlockFreedom)
					}
				}
			}
			rep, err := CheckEntry(context.Background(), name, SuiteOptions{Sizes: []int{2}, Properties: props, Run: fast,
				Mode: o.Mode, Log: func(s string) { t.Log(s) }})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rep.Runs {
				want := Passed
				switch {
				case e.NegativeControl() && r.Property == AbortMutualExclusion:
					want = Failed
				case e.AbortFinitely != "" && (r.Property == AbortStarvation || r.Property == AbortDeadlockFreedom):
					want = Failed
				}
				if r.Result.Status != want {
					t.Errorf("%s n=%d %s: %s, want %s (%s %s)", name, r.N, r.Property, r.Result.Status, want, r.Result.Reason, r.Result.Message)
				}
			}
		})
	}
}

func TestAbortProperties(t *testing.T) {
	for _, c := range []struct {
		name string
		want []Property
	}{
		{"ticket", nil},
		{"tas", []Property{AbortMutualExclusion, AbortDeadlock, AbortDeadlockFreedom}},
		{"lamport-fast", []Property{AbortMutualExclusion, AbortDeadlock, AbortDeadlockFreedomFinite}},
		{"clh-try", []Property{AbortMutualExclusion, AbortDeadlock, AbortStarvation, AbortFIFO}},
	} {
		e, _ := templates.Lookup(c.name)
		got := AbortProperties(e, e.AllOptions()[0])
		if len(got) != len(c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s: %v, want %v", c.name, got, c.want)
			}
		}
	}
	for _, p := range []Property{AbortMutualExclusion, AbortStarvationFinite} {
		if !p.Aborts() || p.Base() == p {
			t.Errorf("%s: Aborts %v, Base %s", p, p.Aborts(), p.Base())
		}
	}
	if Starvation.Aborts() || Starvation.Base() != Starvation {
		t.Error("starvation-freedom has aborts")
	}
}

// MCS-try's published timeout code has a race at three processes
// (templates: mcs-try's AbortIncorrect): a leaver's late CAS in step 6
// clears the transient mark of a successor that has meanwhile passed its
// critical section and queued again, whose wait then ends on nil. SPIN
// finds it, naming the lines; at two processes, and without aborts at
// three, the lock passes.
func TestMCSTryTimeoutRace(t *testing.T) {
	needSpin(t)
	e, _ := templates.Lookup("mcs-try")
	if e.Abortable() || e.AbortIncorrect == "" {
		t.Fatal("mcs-try's abort is no longer recorded as wrong")
	}
	rep, err := CheckEntry(context.Background(), "mcs-try", SuiteOptions{Sizes: []int{2, 3}, Properties: []Property{AbortDeadlock},
		Run: Options{Optimize: "-O1", Timeout: 5 * time.Minute, MemLimitMB: 2048}})
	if err != nil {
		t.Fatal(err)
	}
	if r := rep.Runs[0].Result; r.Status != Passed {
		t.Errorf("n=2: %s %s", r.Status, r.Message)
	}
	res := rep.Runs[1].Result
	wantFailure(t, res, "invalid array index", "S6", "A4", "A14")
	t.Logf("n=3 abort-deadlock: %s after %d states, %v", res.Failure, res.States, res.Elapsed.Round(time.Millisecond))
}
