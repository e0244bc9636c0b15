package spin

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lockgen/lockgen/backend/promela"
	"github.com/lockgen/lockgen/ir"
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
//   - With opts.SplitCrashes, a model with crashes runs once per set of
//     po.Crashes processes, only they may crash (promela.Options.Victims);
//     with opts.Victims, only the run of that set.
//
// The runs share opts.Timeout; the result is the first failure, else the
// first run without a verdict, else a pass with the states, transitions
// and times summed. It also returns the models' notes. A model that cannot
// be lowered is a Skipped result with the reason, not an error.
func CheckAlgorithm(ctx context.Context, a *ir.Algorithm, p ir.Params, po promela.Options, prop Property, opts Options) (Result, []string, error) {
	models := splitModels(prop, p.N, po, opts)
	deadline := time.Now().Add(opts.withDefaults().Timeout)
	var sum Result
	var notes []string
	for i, m := range models {
		mpo := m.po
		mpo.Fold = (mpo.Fold || opts.Fold) && !mpo.Abort // aborts are modelled unfolded
		low, err := promela.Lower(a, p, mpo)
		if err != nil {
			return Result{Property: prop, Status: Skipped, Reason: err.Error()}, nil, nil
		}
		notes = appendNew(notes, low.Notes)
		left := opts
		if mpo.Crashes > 0 {
			// A crash is a rendezvous received in an unless escape, where
			// pan cannot vouch for its partial-order reduction (it warns,
			// and Check would not pass). The reduction prunes nothing in
			// these models (TestCrashReductionPrunesNothing): without it
			// the search is the same, and sound by construction.
			left.NoReduce = true
		}
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
		res.Omission += sum.Omission
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

// splitModels is the runs CheckAlgorithm makes for prop at n processes:
// one kind of split per check, the first that applies (no check has two:
// crashes are checked for k-exclusion only, bounded waiting without them).
func splitModels(prop Property, n int, po promela.Options, opts Options) []model {
	switch {
	case opts.Victims != nil && po.Crashes > 0 && po.Victims == nil:
		m := model{po: po, label: "crashing only " + processList(opts.Victims)}
		m.po.Victims = opts.Victims
		return []model{m}
	case opts.SplitCrashes && po.Crashes > 0 && po.Victims == nil:
		var out []model
		for _, set := range subsets(n, po.Crashes) {
			m := model{po: po, label: "crashing only " + processList(set)}
			m.po.Victims = set
			out = append(out, m)
		}
		return out
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

// subsets is every set of k of the processes 0..n-1, in lexicographic
// order.
func subsets(n, k int) [][]int {
	if k == 0 {
		return [][]int{nil}
	}
	var out [][]int
	for first := range n - k + 1 {
		for _, rest := range subsets(n-first-1, k-1) {
			set := []int{first}
			for _, r := range rest {
				set = append(set, first+1+r)
			}
			out = append(out, set)
		}
	}
	return out
}

// processList says "process 0" or "processes 0, 1 and 3".
func processList(ps []int) string {
	var s []string
	for _, p := range ps {
		s = append(s, fmt.Sprint(p))
	}
	if len(s) == 1 {
		return "process " + s[0]
	}
	return "processes " + strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
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
