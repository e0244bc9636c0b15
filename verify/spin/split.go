package spin

import (
	"context"
	"fmt"
	"slices"
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
// model, or on the several models that together make the check:
//
//   - From n = 4 a bounded-waiting check that watches every process runs
//     once per process, each run counting that process's overtakes
//     (promela.Options.Watch): the bound holds for all processes when it
//     holds for each.
//   - A reader/writer check whose split of the n processes is left open
//     (po.Writers and po.Readers both 0) runs with 1 writer and n − 1
//     readers and, from n = 3, again with 2 writers and n − 2 readers. A
//     lone writer never meets another, so the first model alone leaves
//     writer against writer (exclusion, and the order writers impose on
//     readers) unchecked; the second alone has fewer readers to share.
//
// The runs share opts.Timeout; the result is the first failure, else the
// first run without a verdict, else a pass with the states, transitions
// and times summed. It also returns the models' notes. A model that cannot
// be lowered is a Skipped result with the reason, not an error.
func CheckAlgorithm(ctx context.Context, a *ir.Algorithm, p ir.Params, po promela.Options, prop Property, opts Options) (Result, []string, error) {
	models := splitModels(prop, p.N, po)
	deadline := time.Now().Add(opts.withDefaults().Timeout)
	var sum Result
	var notes []string
	for i, m := range models {
		mpo := m.po
		mpo.Fold = mpo.Fold || opts.Fold
		low, err := promela.Lower(a, p, mpo)
		if err != nil {
			return Result{Property: prop, Status: Skipped, Reason: err.Error()}, nil, nil
		}
		notes = appendNew(notes, low.Notes)
		left := opts
		if opts.Timeout > 0 && i > 0 {
			left.Timeout = time.Until(deadline)
			if left.Timeout <= 0 {
				sum.Property, sum.Status, sum.Reason = prop, Incomplete, fmt.Sprintf("time budget exhausted before the run %s", m.label)
				return sum, notes, nil
			}
		}
		res, err := Check(ctx, low.Text, prop, left)
		if err != nil || len(models) == 1 {
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
				res.Reason = fmt.Sprintf("%s: %s", m.label, res.Reason)
			}
			if res.Message != "" {
				res.Message = fmt.Sprintf("%s (%s)", res.Message, m.label)
			}
			return res, notes, nil
		}
		sum = res
	}
	return sum, notes, nil
}

// model is one of the runs a check is split into, and how to name it.
type model struct {
	po    promela.Options
	label string
}

// splitModels is the runs CheckAlgorithm makes for prop at n processes.
func splitModels(prop Property, n int, po promela.Options) []model {
	switch {
	case prop == BoundedWaiting && po.Watch == nil && n >= watchFrom:
		out := make([]model, n)
		for w := range n {
			out[w].po, out[w].label = po, fmt.Sprintf("watching process %d", w)
			out[w].po.Watch = []int{w}
		}
		return out
	case po.Mode.Readers() && po.Writers == 0 && po.Readers == 0:
		var out []model
		for w := 1; w <= min(2, n-1); w++ {
			m := model{po: po, label: "with " + writersReaders(w, n-w)}
			m.po.Writers, m.po.Readers = w, n-w
			out = append(out, m)
		}
		return out
	}
	return []model{{po: po}}
}

// writersReaders says "2 writers and 1 reader".
func writersReaders(w, r int) string {
	plural := func(k int, s string) string {
		if k == 1 {
			return fmt.Sprintf("1 %s", s)
		}
		return fmt.Sprintf("%d %ss", k, s)
	}
	return plural(w, "writer") + " and " + plural(r, "reader")
}

// appendNew appends the notes not already in have.
func appendNew(have, notes []string) []string {
	for _, n := range notes {
		if !slices.Contains(have, n) {
			have = append(have, n)
		}
	}
	return have
}
