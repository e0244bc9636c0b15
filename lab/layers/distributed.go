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
	"github.com/lockgen/lockgen/templates/distributed"
)

// Distributed locks (spec.Lock.Distributed) go through the layers
// differently: their stress layer is their own generated tests (netstress
// over the in-process transport: exclusion, fencing tokens, progress,
// cancellation, TryLock, a lost transport); the controlled scheduler does
// not run them; SPIN checks the network model of their definition with
// routines resumed first, as the generated code runs it, over the channels
// the lock's paper assumes (Options.Channels says otherwise).

// The channel models of -channels.
const (
	ChannelsFIFO    = "fifo"    // each pair's messages arrive in the order they were sent
	ChannelsReorder = "reorder" // any message in flight may arrive first
)

// Channels are the values Options.Channels takes besides "".
var Channels = []string{ChannelsFIFO, ChannelsReorder}

// reorders says whether e's SPIN models let messages overtake each other.
func (o *Options) reorders(e *distributed.Entry) bool {
	if o.Channels == "" {
		return !e.AssumesFIFO
	}
	return o.Channels == ChannelsReorder
}

// ChannelsOf names the channel model e's SPIN models use, and why: "FIFO
// channels (the paper's)", "channels that reorder (-channels reorder)".
func (o *Options) ChannelsOf(e *distributed.Entry) string {
	model := map[bool]string{false: "FIFO channels", true: "channels that reorder"}[o.reorders(e)]
	if o.Channels == "" {
		return model + " (the paper's)"
	}
	return model + " (-channels " + o.Channels + ")"
}

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

// netSpinResult checks a distributed lock's definition with SPIN; like
// spinResult, it returns ctx's error when cancelled.
func netSpinResult(ctx context.Context, l spec.Lock, o *Options) (Result, error) {
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
			no := promela.NetOptions{N: n, Requests: l.Distributed.ModelPassages(n), Reorder: o.reorders(l.Distributed)}
			res, err := spin.CheckNetwork(ctx, l.Distributed.Def(), no, prop, o.spinRun())
			if ctx.Err() != nil {
				return r, ctx.Err()
			}
			if err != nil {
				r.Verdict, r.Failure = Fail, err.Error()
				return r, nil
			}
			t.add(n, prop, res)
		}
	}
	r.Elapsed = time.Since(start)
	if len(sizes) == 0 {
		r.Verdict, r.Detail = Skipped, "no process count in -n up to 4"
		return r, nil
	}
	r.Detail = fmt.Sprintf("%s passed (n = %s, %s, bounded passages, FCFS where claimed, %d states in all)", plural(t.passed, "run"), strings.Join(sizes, ", "), o.ChannelsOf(l.Distributed), t.states)
	if t.failed > 0 {
		r.Detail = fmt.Sprintf("%s failed, %s", plural(t.failed, "run"), r.Detail)
	}
	t.noteGaps(&r)
	t.verdict(&r)
	return r, nil
}
