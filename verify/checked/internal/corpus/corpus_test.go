package corpus

import (
	"slices"
	stdsync "sync"
	"testing"
	"time"
)

// runReal runs one instance of p on real goroutines; it reports what went
// wrong, or that the goroutines did not all finish within limit.
func runReal(p Program, limit time.Duration) string {
	in := p.New()
	var wg stdsync.WaitGroup
	for _, body := range in.Bodies {
		wg.Go(body)
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(limit):
		return "not finished within " + limit.String()
	}
	if in.Check != nil {
		in.Check(in)
	}
	return in.Failure()
}

// TestCorrectProgramsRun: every correct program passes many runs on real
// goroutines (the standard primitives in a normal build; the checked ones
// outside a controlled execution under lockgen_check). Under -race, a
// data race in one fails it too.
func TestCorrectProgramsRun(t *testing.T) {
	runs := 300
	if testing.Short() {
		runs = 30
	}
	for _, p := range correct() {
		t.Run(p.Name, func(t *testing.T) {
			t.Parallel()
			for i := range runs {
				if msg := runReal(p, 10*time.Second); msg != "" {
					t.Fatalf("run %d: %s", i, msg)
				}
			}
		})
	}
}

// TestCorpusCoversEveryPrimitive: each primitive is used by a correct
// program, the programs name only known primitives, and every control
// says what its bug is.
func TestCorpusCoversEveryPrimitive(t *testing.T) {
	used := map[string]bool{}
	for _, p := range correct() {
		if p.Bug != "" {
			t.Errorf("%s: a correct program with a bug (%s)", p.Name, p.Bug)
		}
		for _, u := range p.Uses {
			if !slices.Contains(Primitives, u) {
				t.Errorf("%s uses %q, which is not in Primitives", p.Name, u)
			}
			used[u] = true
		}
	}
	for _, prim := range Primitives {
		if !used[prim] {
			t.Errorf("no correct program uses %s", prim)
		}
	}
	ctl := controls()
	if len(ctl) == 0 {
		t.Fatal("no controls")
	}
	for _, p := range ctl {
		if p.Bug == "" {
			t.Errorf("control %s does not say its bug", p.Name)
		}
	}
}
