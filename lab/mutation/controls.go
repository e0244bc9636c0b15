package mutation

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/lockgen/lockgen/gen"
	"github.com/lockgen/lockgen/lab/gotest"
	"github.com/lockgen/lockgen/lab/spin"
	"github.com/lockgen/lockgen/mutate"
	"github.com/lockgen/lockgen/verify/harness"
)

// ControlResult is how the checker did on one named negative control.
type ControlResult struct {
	Control mutate.Control
	Lock    string // the lock's name in the generated package
	// Explore: the controlled scheduler's finding (Kind "" if none).
	Explore        ExploreFinding
	ExploreOutcome gotest.Outcome
	ExploreTime    time.Duration
	// Spin: SPIN's verdict on the control's property and size.
	Spin     spin.Result
	SpinText string // the trail, one step per line, and the stuck processes
	// Problems lists every expectation the checker did not meet: the
	// control not caught, caught for another reason, or a trace that does
	// not name the paper's lines. Empty when the control is caught as
	// recorded.
	Problems []string
}

// Caught reports whether both layers caught the control as recorded.
func (c *ControlResult) Caught() bool { return len(c.Problems) == 0 }

// RunControls generates every named negative control (mutate.Controls)
// as a lock of one package, runs the controlled scheduler on all of them
// with one `go test -tags lockgen_check` while SPIN checks each control's
// property, and compares what they find with what each control records.
// mod is the module root ("" finds it); the scratch package goes under
// mod/lab/mutation/testdata and is removed.
func RunControls(ctx context.Context, mod string) ([]*ControlResult, error) {
	controls, err := mutate.Controls()
	if err != nil {
		return nil, err
	}
	if mod == "" {
		if mod, err = FindModule(); err != nil {
			return nil, err
		}
	}
	modPath, err := gen.ImportPath(mod)
	if err != nil {
		return nil, err
	}
	var locks []Lock
	var out []*ControlResult
	for i, c := range controls {
		name := fmt.Sprintf("C%d", i+1)
		out = append(out, &ControlResult{Control: c, Lock: name})
		if c.SpinOnly != "" {
			continue // no lock for the controlled scheduler to catch it in
		}
		t := mutate.Target{Entry: c.Entry, Options: c.Options}
		locks = append(locks, Lock{Config: goConfig(t, c.Alg, name, "", ""), Explore: c.ExploreOptions, NoFIFO: c.ExploreNoFIFO})
	}
	settings := ExploreSettings{Budget: 20 * time.Second, Stall: 2 * time.Second}
	pkg, err := WritePackage(mod, modPath, filepath.Join(mod, "verify", "mutation", "testdata"), "controls", locks,
		StressSettings{Passages: 100, Timeout: 5 * time.Second, Stall: time.Second}, settings, ExploreSettings{})
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(pkg.Dir)

	var wg sync.WaitGroup
	for _, cr := range out {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := cr.Control
			res, err := CheckModel(ctx, c.Entry, c.Options, c.Alg, c.SpinN, spin.Property(c.SpinProperty), false, 0,
				spin.Options{Timeout: 2 * time.Minute, MemLimitMB: 2048, Optimize: "-O0"})
			if err != nil {
				cr.Problems = append(cr.Problems, fmt.Sprintf("spin: %v", err))
				return
			}
			cr.Spin = res
			cr.SpinText = spin.Counterexample(res, 0)
		}()
	}
	gres, gerr := gotest.Run(ctx, gotest.Options{Dir: pkg.Dir, Tags: []string{"lockgen_check"}, Run: "^TestLGExplore",
		Timeout: 5 * time.Minute})
	wg.Wait()
	if gerr != nil {
		return nil, gerr
	}
	if gres.BuildFailed {
		return nil, fmt.Errorf("the controls' package does not build:\n%s%s", gres.BuildOutput, gres.Output)
	}
	for _, cr := range out {
		c := cr.Control
		t, ok := gres.Test(ExploreTest(cr.Lock))
		switch {
		case c.SpinOnly != "":
		case !ok:
			cr.Problems = append(cr.Problems, "explore: the test did not run")
		case t.Outcome == gotest.Pass:
			cr.ExploreOutcome, cr.ExploreTime = t.Outcome, t.Elapsed
			harness.Find(t.Output, &cr.Explore)
			cr.Problems = append(cr.Problems, "explore: not caught: "+cr.Explore.Summary)
		default:
			cr.ExploreOutcome, cr.ExploreTime = t.Outcome, t.Elapsed
			if !harness.Find(t.Output, &cr.Explore) {
				cr.Problems = append(cr.Problems, "explore: no finding logged: "+tail(t.Output, 6))
				break
			}
			if !slices.Contains(strings.Split(c.ExploreKind, " or "), cr.Explore.Kind) {
				cr.Problems = append(cr.Problems, fmt.Sprintf("explore: found %q, want %q: %s", cr.Explore.Kind, c.ExploreKind, cr.Explore.Message))
			}
			for _, l := range c.ExploreLabels {
				if !strings.Contains(cr.Explore.Trace, l) {
					cr.Problems = append(cr.Problems, fmt.Sprintf("explore: the interleaving does not show %s", l))
				}
			}
		}
		if cr.Spin.Status == "" {
			continue // the SPIN error is already a problem
		}
		switch {
		case cr.Spin.Status != spin.Failed:
			cr.Problems = append(cr.Problems, fmt.Sprintf("spin: n=%d %s %s: %s", c.SpinN, c.SpinProperty, cr.Spin.Status, cr.Spin.Reason))
		case !strings.Contains(cr.Spin.Failure, c.SpinFailure):
			cr.Problems = append(cr.Problems, fmt.Sprintf("spin: found %q (%s), want %q", cr.Spin.Failure, cr.Spin.Message, c.SpinFailure))
		default:
			for _, l := range c.SpinLabels {
				if !strings.Contains(cr.SpinText, l+":") {
					cr.Problems = append(cr.Problems, fmt.Sprintf("spin: the trail does not show %s", l))
				}
			}
		}
	}
	return out, nil
}
