package mutation

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/lockgen/lockgen/backend/promela"
	"github.com/lockgen/lockgen/ir"
	"github.com/lockgen/lockgen/lab/spin"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/templates"
)

// spinCheck is one kind of SPIN run: a standard property of the entry
// (spin.CheckEntry's models), or a property of the model in which every
// passage may take the try-acquire instead (which CheckEntry never builds).
type spinCheck struct {
	Prop spin.Property
	Try  bool
	// Passages, when > 0, bounds each process's passages (tries count):
	// every process eventually stops for good, so a try that gives up
	// leaving the others blocked shows even where a process trying for
	// ever could starve an acquirer in the original too.
	Passages int
}

func (c spinCheck) String() string {
	s := string(c.Prop)
	if c.Try {
		s += " with TryAcquire"
	}
	if c.Passages > 0 {
		s += fmt.Sprintf(", %d passages", c.Passages)
	}
	return s
}

// spinStep is one run of a mutant's SPIN plan.
type spinStep struct {
	N       int
	Check   spinCheck
	Timeout time.Duration
}

// cheapBaseline is how long the original's run at a larger size may take
// for the mutants to be checked at that size too ("n = 3 where cheap").
const cheapBaseline = 5 * time.Second

// tryPassages bounds the passages of the bounded try-acquire liveness
// models.
const tryPassages = 3

// spinChecks are the runs that apply to a: the entry's standard
// properties (spin.CheckEntry's models; its safety models let each passage
// take the try-acquire), the properties with aborts when a gives its waits
// abort code (spin.AbortProperties), and, when a has a try-acquire, the claimed
// liveness property on the model where every passage may take the
// try-acquire: a try that gives up with its flag still raised blocks the
// others while it rests in its remainder section, which CheckEntry's
// liveness models (plain acquires) cannot show.
func spinChecks(u *Unit, a *ir.Algorithm, keep []spin.Property) []spinCheck {
	var out []spinCheck
	std := spin.StandardProperties(u.Entry, u.Options)
	if a.Abortable() {
		// The abort code is mutated too; these models run it.
		std = append(std, spin.AbortProperties(u.Entry, u.Options)...)
	}
	if keep != nil {
		std = slices.DeleteFunc(std, func(p spin.Property) bool { return !slices.Contains(keep, p) })
	}
	for _, p := range std {
		out = append(out, spinCheck{Prop: p})
	}
	if a.TryAcquire != nil && !u.Options.Mode.Readers() {
		for _, p := range std {
			if p.Liveness() && !p.Aborts() {
				out = append(out, spinCheck{Prop: p, Try: true, Passages: tryPassages}, spinCheck{Prop: p, Try: true})
			}
		}
	}
	return out
}

func (r *runner) spinSizes(u *Unit) []int {
	sizes := r.cfg.Spin.Sizes
	if sizes == nil {
		sizes = []int{2, 3}
		if u.Options.Mode.TakesK() {
			// k = 2 needs 3 processes to be k-exclusion at all, and 4 for
			// algorithms with n - k levels (filter) to have two.
			sizes = []int{3, 4}
		}
	}
	var out []int
	for _, n := range sizes {
		if u.Entry.MinProcs > n || (u.Entry.MaxProcs > 0 && n > u.Entry.MaxProcs) {
			continue
		}
		out = append(out, n)
	}
	return out
}

// spinBaseline runs the unit's original definition through every check at
// every size and returns the plan for its mutants: every check that the
// original does not fail at the first size, and at the larger sizes those
// the original passes within cheapBaseline (with a timeout of five times
// what the original took, at least 10 s). A check the original fails is
// left out and reported: its verdicts would mean nothing. So is one whose
// search the time budget stops for the original (unless hunting with
// bit-state search): it would stop every survivor's too, after the whole
// budget.
func (r *runner) spinBaseline(ctx context.Context, u *Unit) []spinStep {
	start := time.Now()
	a := u.Baseline.Mutant.Alg
	v := &Verdict{Ran: true, Detail: "passed"}
	var plan []spinStep
	var notes []string
	for si, n := range r.spinSizes(u) {
		timeout := r.cfg.Spin.Timeout
		if si > 0 {
			// Only runs within cheapBaseline are kept at larger sizes:
			// give up on the others soon after.
			timeout = 2 * cheapBaseline
		}
		for _, c := range spinChecks(u, a, r.cfg.Spin.Properties) {
			res, err := r.spinRun(ctx, u, a, n, c, timeout)
			switch {
			case err != nil:
				if ctx.Err() != nil {
					return nil
				}
				notes = append(notes, fmt.Sprintf("n=%d %s: %s", n, c, firstLine(err.Error())))
			case res.Status == spin.Failed && c.Try:
				// The try-acquire models are the runner's addition: a
				// property they break for the original (a process calling
				// TryLock in a loop can livelock an acquirer in flag-based
				// algorithms) is noted and not used, not an error.
				notes = append(notes, fmt.Sprintf("n=%d %s fails for the original (%s): not used for its mutants", n, c, res.Failure))
			case res.Status == spin.Failed:
				v.Killed, v.Kind = true, fmt.Sprintf("%s: %s (n=%d)", c, res.Failure, n)
				r.fail(u, "the original definition fails SPIN %s at n = %d (%s); left out for its mutants", c, n, res.Message)
			case si == 0 && res.Status == spin.Incomplete && res.Elapsed >= timeout && !r.cfg.Spin.Bitstate:
				// A search the original does not finish in time would cost
				// every survivor the whole timeout, for no verdict (one
				// that runs out of memory costs what the original's did).
				notes = append(notes, fmt.Sprintf("n=%d %s not run for mutants: the original's search did not finish (%s)", n, c, res.Reason))
			case si == 0 && res.Status != spin.Skipped:
				plan = append(plan, spinStep{N: n, Check: c, Timeout: timeout})
				if res.Status == spin.Incomplete {
					notes = append(notes, fmt.Sprintf("n=%d %s incomplete for the original: %s", n, c, res.Reason))
				}
			case res.Status == spin.Passed && res.Elapsed <= cheapBaseline:
				plan = append(plan, spinStep{N: n, Check: c, Timeout: min(r.cfg.Spin.LargerTimeout, max(10*time.Second, 5*res.Elapsed))})
			default:
				why := res.Reason
				if res.Status == spin.Passed {
					why = fmt.Sprintf("the original took %v", res.Elapsed.Round(100*time.Millisecond))
				}
				notes = append(notes, fmt.Sprintf("n=%d %s not run for mutants: %s", n, c, why))
			}
		}
	}
	if len(notes) > 0 {
		v.Detail = strings.Join(notes, "; ")
	}
	v.Elapsed = time.Since(start)
	r.addTime(u, SPIN, v.Elapsed)
	r.mu.Lock()
	u.Baseline.Layer[SPIN] = v
	u.SpinPlan = describePlan(plan)
	u.SpinNotes = notes
	r.mu.Unlock()
	r.log("%-24s spin baseline in %v: %s", u.Name, v.Elapsed.Round(time.Second), u.SpinPlan)
	return plan
}

func describePlan(plan []spinStep) string {
	var parts []string
	for _, st := range plan {
		parts = append(parts, fmt.Sprintf("n=%d %s", st.N, st.Check))
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, ", ")
}

// spinJob model-checks a mutant along the plan and stops at the first
// violation.
func (r *runner) spinJob(ctx context.Context, u *Unit, res *Result, plan []spinStep) {
	v := &Verdict{}
	start := time.Now()
	defer func() {
		v.Elapsed = time.Since(start)
		r.addTime(u, SPIN, v.Elapsed)
		r.mu.Lock()
		res.Layer[SPIN] = v
		r.mu.Unlock()
	}()
	var notes []string
	for _, st := range plan {
		sr, err := r.spinRun(ctx, u, res.Mutant.Alg, st.N, st.Check, st.Timeout)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			notes = append(notes, fmt.Sprintf("n=%d %s: %s", st.N, st.Check, firstLine(err.Error())))
			continue
		}
		switch sr.Status {
		case spin.Failed:
			v.Ran, v.Killed = true, true
			v.Kind = fmt.Sprintf("%s: %s (n=%d)", st.Check, sr.Failure, st.N)
			v.Detail = fmt.Sprintf("%s\n%s", sr.Message, strings.TrimRight(spin.Counterexample(sr, 16), "\n"))
			return
		case spin.Passed:
			v.Ran = true
		case spin.Incomplete:
			v.Ran = true
			notes = append(notes, fmt.Sprintf("n=%d %s incomplete: %s", st.N, st.Check, sr.Reason))
		case spin.Skipped:
			notes = append(notes, fmt.Sprintf("n=%d %s skipped: %s", st.N, st.Check, sr.Reason))
		}
	}
	v.Detail = "passed"
	if len(notes) > 0 {
		v.Detail = strings.Join(notes, "; ")
	}
	if !v.Ran {
		v.Kind = "not run"
		if len(notes) == 0 {
			v.Detail = "no SPIN run applies"
		}
	}
}

func paramsFor(u *Unit, n int) ir.Params { return u.Entry.SmallParamsFor(u.Options.Mode, n) }

// spinRun is one SPIN run of a at n processes.
func (r *runner) spinRun(ctx context.Context, u *Unit, a *ir.Algorithm, n int, c spinCheck, timeout time.Duration) (spin.Result, error) {
	run := spin.Options{Timeout: timeout, MemLimitMB: r.cfg.Spin.MemLimitMB,
		Collapse: r.cfg.Spin.Collapse, HashBits: r.cfg.Spin.HashBits, Fold: r.cfg.Spin.Fold,
		MaxDepth: r.cfg.Spin.MaxDepth, Bitstate: r.cfg.Spin.Bitstate,
		// Small models: gcc -O0 compiles four times faster than -O2, and
		// the searches are short.
		Optimize: "-O0"}
	if r.cfg.Spin.HashBits > 0 {
		run.Optimize = "-O2" // a targeted large search: worth compiling well
	}
	if c.Try {
		return CheckModel(ctx, u.Entry, u.Options, a, n, c.Prop, true, c.Passages, run)
	}
	if r.cfg.Spin.Passages > 0 {
		return CheckModel(ctx, u.Entry, u.Options, a, n, c.Prop, false, r.cfg.Spin.Passages, run)
	}
	so := spin.SuiteOptions{
		Sizes: []int{n}, Properties: []spin.Property{c.Prop}, Def: a,
		Mode: u.Options.Mode, Preference: u.Options.Preference, Run: run,
		// Parameters valid for n (the anonymous algorithm's memory size
		// depends on it), as the Go locks get them.
		Extra: paramsFor(u, n).Extra,
	}
	so.K = paramsFor(u, n).K
	rep, err := spin.CheckEntry(ctx, u.Entry.Name, so)
	if err != nil {
		return spin.Result{}, err
	}
	if len(rep.Runs) != 1 {
		return spin.Result{}, fmt.Errorf("spin.CheckEntry made %d runs, want 1", len(rep.Runs))
	}
	return rep.Runs[0].Result, nil
}

// CheckModel runs SPIN on the Promela lowering of a (lowered as entry e's
// variant o) with n processes, for property p, optionally letting every
// passage take the try-acquire. Parameters are those the Go locks get
// (templates.Entry.SmallParamsFor), k = 2 for k-exclusion. It is a small
// stand-in for spin.CheckEntry, for definitions outside the catalogue and for the
// try-acquire models CheckEntry does not build. passages > 0 bounds each
// process's passages; otherwise counters are first bounded (the model is
// exact if they stay within ±64), else the passages are (3 per process).
func CheckModel(ctx context.Context, e *templates.Entry, o templates.Options, a *ir.Algorithm, n int, p spin.Property, try bool, passages int, run spin.Options) (spin.Result, error) {
	params := e.SmallParamsFor(o.Mode, n)
	po, err := p.Instrument(e.PropsFor(o), n)
	if err != nil {
		return spin.Result{}, err
	}
	po.Mode, po.TryAcquire = o.Mode.Or(mode.Mutex), try
	attempts := []promela.Options{po}
	if passages > 0 {
		po.Passages = passages
		attempts = []promela.Options{po}
	} else if an := promela.Analyze(a); p.Aborts() {
		if an = promela.AnalyzeAborts(a); len(an.Counters) > 0 {
			bounded, passages := po, po
			bounded.Bound, passages.Passages = 64, 3
			attempts = []promela.Options{bounded, passages}
		}
	} else if len(an.Counters) > 0 {
		bounded, passages := po, po
		bounded.Bound, passages.Passages = 64, 3
		attempts = []promela.Options{bounded, passages}
	}
	bounded := e.PropsFor(o).BoundedAt(n)
	var res spin.Result
	for _, at := range attempts {
		res, _, err = spin.CheckAlgorithm(ctx, a, params, at, p, run)
		if err == nil && res.Status == spin.Skipped {
			err = errors.New(res.Reason) // the mutant's model cannot be lowered
		}
		if err != nil || !res.BoundExceeded {
			return res, err
		}
		if bounded {
			return spin.Unbounded(res), nil
		}
	}
	return res, nil
}
