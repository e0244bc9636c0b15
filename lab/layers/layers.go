// Package layers runs lockgen's verification layers on the locks of a
// spec, as `lockgen verify` does: stress and the controlled scheduler on
// the generated code (through a scratch package and go test), SPIN on
// each lock's definition. It returns one Result per lock and layer, judges
// them (verdict.go) and renders them as Markdown (report.go); the command
// line only parses flags and prints.
package layers

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/lockgen/lockgen/backend/golang"
	"github.com/lockgen/lockgen/gen"
	"github.com/lockgen/lockgen/lab/gotest"
	"github.com/lockgen/lockgen/spec"
	"github.com/lockgen/lockgen/verify/harness"
)

// The layers, in the order they run.
const (
	Stress  = "stress"
	Explore = "explore"
	SPIN    = "spin"
)

// All is every layer, in order.
var All = []string{Stress, Explore, SPIN}

// Verdicts of a layer.
const (
	Pass       = "pass"
	Fail       = "FAIL"
	Incomplete = "incomplete" // SPIN could not search the whole space: no verdict
	Skipped    = "skipped"
)

// Result is one layer's outcome for one lock.
type Result struct {
	Lock, Layer, Verdict string
	Elapsed              time.Duration
	Detail               string // figures: passages, executions, states
	Failure              string // what went wrong, with the replay token or trail
}

// Options say which layers run and how.
type Options struct {
	Layers      map[string]bool
	Sizes       []int         // process counts for SPIN
	SpinTimeout time.Duration // one SPIN run's limit
	SpinFold    bool          // fold local work in SPIN models
	// SpinHashCompact stores a 96-bit signature per state
	// (spin.Options.HashCompact): a pass then says how many states the
	// search may have skipped, and one that may have skipped 1e-6 or more
	// is incomplete.
	SpinHashCompact bool
	// SpinMemMB is one SPIN run's memory limit; 0: lab/spin's default.
	SpinMemMB int
	// SpinQuiescence checks liveness over bounded passages as quiescence
	// (spin.SuiteOptions.Quiescence) where the algorithm allows it.
	SpinQuiescence bool
	// Channels is the channel model of message-passing locks' SPIN
	// models: ChannelsFIFO, ChannelsReorder, or "" for each lock's paper's
	// (ChannelsOf).
	Channels string
	// Cache holds SPIN results by model across Run calls; nil: no sharing.
	Cache *SpinCache
	// Say reports what is starting ("x.toml: stress under -race
	// (2 locks)...") and a long SPIN run's progress; Done each result as
	// it comes. Either may be nil.
	Say  func(string)
	Done func(Result)
}

func (o *Options) say(format string, args ...any) {
	if o.Say != nil {
		o.Say(fmt.Sprintf(format, args...))
	}
}

// Run verifies the locks of f: it generates them into a scratch package
// beside the spec (inside its module, so that the tests can import
// verify), runs the Go layers there and SPIN on each definition, and
// removes the package. An error means no verdict (a scratch package that
// could not be written, go test that could not run, ctx cancelled: then
// the error is ctx's, and no Result of the layer it stopped is given).
func Run(ctx context.Context, f *spec.File, o Options) ([]Result, error) {
	dir, err := gen.Scratch(f, "_lockgen-verify-")
	if err != nil {
		return nil, err
	}
	defer dir.Remove()
	var tests []golang.HarnessTest
	netRun := ""
	for _, l := range f.Locks {
		if l.Distributed != nil {
			netRun += "|" + netTests(l.Name)
			continue
		}
		tests = append(tests,
			golang.HarnessTest{Name: testName(l.Name, Stress), Lock: l.Name, Layer: golang.LayerStress},
			golang.HarnessTest{Name: testName(l.Name, Explore), Lock: l.Name, Layer: golang.LayerExplore})
	}
	if len(tests) > 0 {
		files, err := golang.Harness(f.Locks[0].Package, "lockgen verify", tests)
		if err != nil {
			return nil, err
		}
		if err := dir.Add(files...); err != nil {
			return nil, err
		}
	}

	var out []Result
	done := func(r Result) {
		out = append(out, r)
		if o.Done != nil {
			o.Done(r)
		}
	}
	locks := plural(len(f.Locks), "lock")
	for _, layer := range []struct {
		name, what string
		tags       []string
	}{{Stress, "stress under -race", nil}, {Explore, "controlled scheduler", []string{"lockgen_check"}}} {
		if !o.Layers[layer.name] {
			continue
		}
		o.say("%s: %s (%s)...", f.Path, layer.what, locks)
		run := "TestLockgenVerify.*" + title(layer.name)
		if layer.name == Stress {
			run += netRun
		}
		res, err := gotest.Run(ctx, gotest.Options{Dir: dir.Path, Race: layer.tags == nil, Tags: layer.tags,
			Run: "^(" + run + ")$", Timeout: 10 * time.Minute})
		if err == nil && ctx.Err() != nil {
			err = ctx.Err() // interrupted: the tests' outcomes mean nothing
		}
		if err != nil {
			return nil, err
		}
		for _, l := range f.Locks {
			switch {
			case l.Distributed == nil:
				done(goResult(res, l.Name, layer.name))
			case layer.name == Stress:
				done(netStressResult(res, l.Name))
			default:
				done(Result{Lock: l.Name, Layer: layer.name, Verdict: Skipped,
					Detail: "the controlled scheduler does not run message-passing locks; SPIN checks their definition"})
			}
		}
	}
	if o.Layers[SPIN] {
		for _, l := range f.Locks {
			check := spinResult
			if l.Distributed != nil {
				o.say("%s: SPIN over %s...", l.Name, o.ChannelsOf(l.Distributed))
				check = netSpinResult
			} else {
				o.say("%s: SPIN...", l.Name)
			}
			r, err := check(ctx, l, &o)
			if err != nil {
				return nil, err
			}
			done(r)
		}
	}
	return out, nil
}

func title(layer string) string { return strings.ToUpper(layer[:1]) + layer[1:] }

// testName is the harness test that runs layer on lock.
func testName(lock, layer string) string { return "TestLockgenVerify" + lock + title(layer) }

// goResult reads one lock's test of a go test run.
func goResult(res *gotest.Result, lock, layer string) Result {
	r := Result{Lock: lock, Layer: layer}
	if res.BuildFailed {
		r.Verdict, r.Failure = Fail, "the generated package does not build:\n"+res.BuildOutput
		return r
	}
	t, ok := res.Test(testName(lock, layer))
	if !ok {
		r.Verdict, r.Failure = Fail, "the test did not run:\n"+res.Output
		return r
	}
	r.Elapsed = t.Elapsed
	var summary string
	if layer == Stress {
		var f harness.StressFinding
		harness.Find(t.Output, &f)
		summary = f.Summary
	} else {
		var f harness.ExploreFinding
		harness.Find(t.Output, &f)
		summary = f.Summary
	}
	if _, s, ok := strings.Cut(summary, ": "); ok {
		summary = s // the lock's name is the row's
	}
	r.Detail = summary
	switch t.Outcome {
	case gotest.Pass:
		r.Verdict = Pass
	case gotest.Skip:
		r.Verdict = Skipped
	default:
		r.Verdict, r.Failure = Fail, withoutFindings(t.Output)
	}
	return r
}

// withoutFindings is a test's output without the finding lines, which
// repeat as JSON what the output says.
func withoutFindings(output string) string {
	var keep []string
	for _, line := range strings.Split(strings.TrimSpace(output), "\n") {
		if !strings.Contains(line, harness.Marker) {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "\n")
}

// plural says "1 run" or "3 runs".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
