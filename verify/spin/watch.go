package spin

import (
	"context"
	"fmt"
	"time"

	"github.com/lockgen/lockgen/templates/ir"
	"github.com/lockgen/lockgen/templates/promela"
)

// watchFrom is the smallest n at which a bounded-waiting check runs once
// per process: there the other processes' overtake counters would
// multiply the state space by up to (bound+1)^(n-1) (Knuth at n = 4:
// 8.7 GB with all four counters; about 4 GB and 75 s per watched process).
const watchFrom = 4

// CheckAlgorithm lowers a with po for parameters p and checks prop on the
// model. From n = 4 a bounded-waiting check that watches every process is
// split into n runs, each counting one process's overtakes
// (promela.Options.Watch): the bound holds for all processes when it holds
// for each. The runs share opts.Timeout; the result is the first failure,
// else the first run without a verdict, else a pass with the states,
// transitions and times summed. It also returns the model's notes. A model
// that cannot be lowered is a Skipped result with the reason, not an error.
func CheckAlgorithm(ctx context.Context, a *ir.Algorithm, p ir.Params, po promela.Options, prop Property, opts Options) (Result, []string, error) {
	if prop != BoundedWaiting || po.Watch != nil || p.N < watchFrom {
		low, err := promela.Lower(a, p, po)
		if err != nil {
			return Result{Property: prop, Status: Skipped, Reason: err.Error()}, nil, nil
		}
		res, err := Check(ctx, low.Text, prop, opts)
		return res, low.Notes, err
	}
	deadline := time.Now().Add(opts.withDefaults().Timeout)
	var sum Result
	var notes []string
	for w := range p.N {
		one := po
		one.Watch = []int{w}
		low, err := promela.Lower(a, p, one)
		if err != nil {
			return Result{Property: prop, Status: Skipped, Reason: err.Error()}, nil, nil
		}
		notes = low.Notes
		left := opts
		if opts.Timeout > 0 {
			left.Timeout = time.Until(deadline)
			if left.Timeout <= 0 {
				sum.Property, sum.Status, sum.Reason = prop, Incomplete, fmt.Sprintf("time budget exhausted before process %d was watched", w)
				return sum, notes, nil
			}
		}
		res, err := Check(ctx, low.Text, prop, left)
		if err != nil {
			return res, notes, err
		}
		res.States += sum.States
		res.Transitions += sum.Transitions
		res.SearchTime += sum.SearchTime
		res.Elapsed += sum.Elapsed
		res.MemoryMB = max(res.MemoryMB, sum.MemoryMB)
		res.Depth = max(res.Depth, sum.Depth)
		if res.Status != Passed {
			if res.Reason != "" {
				res.Reason = fmt.Sprintf("watching process %d: %s", w, res.Reason)
			}
			return res, notes, nil
		}
		sum = res
	}
	return sum, notes, nil
}
