package mutation

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/lockgen/lockgen/lab/spin"
)

// HuntSettings configure the SPIN hunt of k-exclusion survivors (layer
// Hunt): a bit-state search at the smallest size where k + 1 processes can
// be inside, for the violation of k-exclusion.
//
// Why: at k = 2 that size is 3, where Zehavi's exhaustive search runs out
// of the spin layer's 1 GB (docs/mutation.md; make spin-zehavi passes it
// with one passage per process in 8 GB), so the spin layer checks its
// k-exclusion mutants at no size at which they can break k-exclusion. A
// bit-state search with one passage per process found three holders in
// about 6 s (9 s with three jobs at once) for each of the three Zehavi
// mutants that only 30 s hunts or a 25-minute SPIN run had killed before
// (2026-11-27; docs/mutation.md's spin-hunt column). Its kills are real: a
// trail is an execution of the model. A search without one says nothing.
type HuntSettings struct {
	Timeout    time.Duration // per SPIN run, the original's included; 0 turns the layer off
	Passages   int           // each process's passages in the model
	HashBits   int           // the bit array: 2^HashBits bits
	MemLimitMB int
}

// hunts reports whether u's survivors get the hunt: k-exclusion units.
func (r *runner) hunts(u *Unit) bool {
	return r.wants(Hunt) && u.Options.Mode.TakesK()
}

// huntSize is the number of processes of u's hunt: k + 1.
func huntSize(u *Unit) int {
	k := u.Entry.SmallParams(u.Options.Mode, u.Entry.DefaultNodes).K
	return max(k+1, u.Entry.MinProcs)
}

// huntRun is one hunt in res's definition, a mutant of u or its original.
func (r *runner) huntRun(ctx context.Context, u *Unit, res *Result) (spin.Result, error) {
	h := r.cfg.Hunt
	run := spin.Options{Timeout: h.Timeout, MemLimitMB: h.MemLimitMB, HashBits: h.HashBits, Fold: true, Bitstate: true, Optimize: "-O2"}
	return CheckModel(ctx, u.Entry, u.Options, res.Mutant.Alg, huntSize(u), spin.MutualExclusion, false, h.Passages, run)
}

// huntBaseline hunts in the original: it must find nothing, or the
// hunt's kills in u would mean nothing. It returns whether the survivors
// may be hunted.
func (r *runner) huntBaseline(ctx context.Context, u *Unit) bool {
	v, err := r.hunt(ctx, u, u.Baseline)
	if err != nil || ctx.Err() != nil {
		return false
	}
	r.record(u, u.Baseline, Hunt, v)
	if v.Killed {
		r.fail(u, "the original definition fails the SPIN hunt: %s; its mutants are not hunted", v.Kind)
		return false
	}
	return true
}

// huntJob hunts in a survivor.
func (r *runner) huntJob(ctx context.Context, u *Unit, res *Result) {
	if v, err := r.hunt(ctx, u, res); err == nil && ctx.Err() == nil {
		r.record(u, res, Hunt, v)
	}
}

func (r *runner) hunt(ctx context.Context, u *Unit, res *Result) (*Verdict, error) {
	start := time.Now()
	sr, err := r.huntRun(ctx, u, res)
	if err != nil {
		if ctx.Err() == nil {
			r.fail(u, "%s %s: %v", res.Mutant.ID, Hunt, err)
		}
		return nil, err
	}
	n, h := huntSize(u), r.cfg.Hunt
	v := &Verdict{Ran: true, Elapsed: time.Since(start)}
	switch sr.Status {
	case spin.Failed:
		v.Killed, v.Kind = true, fmt.Sprintf("%s: %s (n=%d, %d passage(s), bit-state)", spin.MutualExclusion, sr.Failure, n, h.Passages)
		v.Detail = fmt.Sprintf("%s\n%s", sr.Message, strings.TrimRight(spin.Counterexample(sr, 16), "\n"))
	case spin.Skipped:
		v.Ran, v.Kind, v.Detail = false, "not run", sr.Reason
	default:
		v.Detail = fmt.Sprintf("no counterexample (n=%d, %d passage(s), bit-state, %v): %s", n, h.Passages, h.Timeout, sr.Reason)
	}
	return v, nil
}
