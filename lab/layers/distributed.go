package layers

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/lockgen/lockgen/backend/promela"
	"github.com/lockgen/lockgen/lab/gotest"
	"github.com/lockgen/lockgen/lab/spin"
	"github.com/lockgen/lockgen/spec"
)

// Distributed locks (spec.Lock.Distributed) go through the layers
// differently: their stress layer is their own generated tests (netstress
// over the in-process transport: exclusion, fencing tokens, progress,
// cancellation, TryLock, a lost transport); the controlled scheduler does
// not run them; SPIN checks the network model of their definition with
// FIFO channels and routines resumed first, as the generated code runs it.

// netTests is the regular expression of a distributed lock's own tests.
func netTests(lock string) string { return "Test" + lock + "(Stress|Behaviour)" }

// netStressResult reads a distributed lock's own tests from a go test run.
func netStressResult(res *gotest.Result, lock string) Result {
	r := Result{Lock: lock, Layer: Stress}
	if res.BuildFailed {
		r.Verdict, r.Failure = Fail, "the generated package does not build:\n"+res.BuildOutput
		return r
	}
	var failed []string
	ran := 0
	for _, name := range []string{"Test" + lock + "Stress", "Test" + lock + "Behaviour"} {
		t, ok := res.Test(name)
		if !ok {
			failed = append(failed, name+" did not run")
			continue
		}
		ran++
		r.Elapsed += t.Elapsed
		if t.Outcome != gotest.Pass {
			failed = append(failed, name+":\n"+t.Output)
		}
		if name == "Test"+lock+"Stress" {
			for _, line := range strings.Split(t.Output, "\n") {
				if strings.Contains(line, " reads, ") {
					_, r.Detail, _ = strings.Cut(strings.TrimSpace(line), ": ")
				}
			}
		}
	}
	if len(failed) > 0 {
		r.Verdict, r.Failure = Fail, strings.Join(failed, "\n")
		return r
	}
	r.Verdict = Pass
	r.Detail = "netstress over the in-process transport: " + r.Detail + "; cancellation, TryLock, misuse, lost transport"
	return r
}

// netSpinResult checks a distributed lock's definition with SPIN.
func netSpinResult(ctx context.Context, l spec.Lock, o *Options) Result {
	r := Result{Lock: l.Name, Layer: SPIN}
	start := time.Now()
	var t spinTally
	var sizes []string
	for _, n := range o.Sizes {
		if n > 4 {
			continue
		}
		sizes = append(sizes, fmt.Sprint(n))
		for _, prop := range spin.NetworkPropertiesFor(l.Distributed.Def()) {
			res, err := spin.CheckNetwork(ctx, l.Distributed.Def(), promela.NetOptions{N: n, Requests: l.Distributed.ModelPassages(n)}, prop,
				spin.Options{Timeout: o.SpinTimeout})
			if err != nil {
				r.Verdict, r.Failure = Fail, err.Error()
				return r
			}
			t.add(n, prop, res)
		}
	}
	r.Elapsed = time.Since(start)
	if len(sizes) == 0 {
		r.Verdict, r.Detail = Skipped, "no process count in -n up to 4"
		return r
	}
	r.Detail = fmt.Sprintf("%s passed (n = %s, FIFO channels, bounded passages, FCFS where claimed, %d states in all)", plural(t.passed, "run"), strings.Join(sizes, ", "), t.states)
	t.noteGaps(&r)
	t.verdict(&r)
	return r
}
