package spin

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/lockgen/lockgen/backend/promela"
	"github.com/lockgen/lockgen/ir"
	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/templates"
)

// SuiteOptions configure CheckEntry.
type SuiteOptions struct {
	// Sizes are the numbers of processes to try, ascending; nil means 2, 3, 4.
	Sizes []int
	// Properties to check; nil means StandardProperties of the variant.
	Properties []Property
	// Run bounds each SPIN run (time, memory); a zero Timeout means 2
	// minutes per run.
	Run Options
	// Passages bounds the passages per process in models whose counters
	// grow without bound (and for liveness when the counters cannot be
	// wrapped); 0 means 3.
	Passages int
	// Mode overrides the mode checked; "" picks mutex when the entry offers
	// it, else k-exclusion with K (default n-1), else reader/writer with
	// Writers writers and the rest readers (default: 1 writer and, from
	// n = 3, a second run with 2; see CheckAlgorithm).
	Mode    mode.Mode
	K       int
	Writers int
	// Preference picks a reader/writer variant; "" means the entry's first.
	Preference templates.Preference
	// Progress, when set, hears what the suite is doing: each run as it
	// starts ("n=3 fifo: searching") and pan's reports while it searches.
	Progress func(msg string)
	// Def, when set, replaces the entry's definition (mutants, tests).
	Def *ir.Algorithm
	// Extra overrides the entry's parameter defaults.
	Extra map[string]int64
	// Reduce, when a run with Extra gives no verdict, runs the property
	// again with the smallest valid parameters for that n
	// (templates.Entry.SmallParamsFor), and at larger n goes straight to
	// them; the run says so in Reduced. For a lock whose parameter (the
	// anonymous algorithm's memory size) puts even n = 2 beyond the
	// budget, the algorithm is then checked at a size SPIN can finish.
	Reduce bool
	// Log, when set, receives a line per finished run.
	Log func(string)
	// Aborts adds, for an abortable entry, the properties with aborts
	// (AbortProperties) to the standard ones when Properties is nil.
	Aborts bool
	// Quiescence checks starvation freedom, deadlock freedom and crash
	// tolerance over bounded passages as a safety property (the Quiescence
	// property) instead of an LTL claim under weak fairness, where the
	// algorithm's loops write nothing (promela.QuiescenceBlocker): the same
	// verdict without weak fairness's product (Zehavi at n = 3: 1.5
	// transitions per stored state instead of about 15). Models where
	// processes loop for ever keep the LTL claim.
	Quiescence bool
}

// Run is one property at one size.
type Run struct {
	N        int
	Property Property
	// Coverage says exactly what the model covers (bounds, abstractions).
	Coverage string
	// Reduced, when set, says which parameters replaced the requested ones
	// by the smallest valid ones (SuiteOptions.Reduce); Report.Reduction
	// says why.
	Reduced string
	// Shared, when set, is the property whose run's search decided this
	// one too (mergedRuns): the figures are that run's, and this one's are
	// zero.
	Shared Property
	Result Result
}

// Report is the outcome of CheckEntry.
type Report struct {
	Entry      string
	Mode       mode.Mode
	Preference templates.Preference // reader/writer variant, if any
	Runs       []Run
	// Notes apply to the whole report (e.g. a known-incorrect entry).
	Notes []string
	// Reduction says why runs used smaller parameters (Run.Reduced).
	Reduction string
}

// StandardProperties is what the catalogue entry claims and SPIN can
// check: mutual exclusion and absence of deadlock (invalid end states)
// always, starvation freedom or deadlock freedom as claimed, FIFO (or
// strong FIFO), bounded waiting and writer priority when claimed. The
// claims are those of the variant o selects (a reader-preference lock does
// not claim starvation freedom).
func StandardProperties(e *templates.Entry, o templates.Options) []Property {
	props := e.PropsFor(o)
	ps := []Property{MutualExclusion, Deadlock}
	switch {
	case strings.HasPrefix(props.Liveness, "starvation-free"):
		ps = append(ps, Starvation)
	case strings.HasPrefix(props.Liveness, "deadlock-free"):
		ps = append(ps, DeadlockFreedom)
	}
	if props.FIFOClaim() {
		ps = append(ps, FIFO)
	}
	if props.Overtakes != nil {
		ps = append(ps, BoundedWaiting)
	}
	if props.WriterPriority {
		ps = append(ps, WriterPriority)
	}
	if props.FIFESteps != nil {
		ps = append(ps, FIFE)
	}
	if props.CrashTolerant && o.Mode.TakesK() {
		ps = append(ps, CrashTolerance)
	}
	return ps
}

// CheckEntry runs the properties of catalogue entry name for each size.
// A property that exhausts its budget at some size is skipped at the
// larger ones, with the reason.
func CheckEntry(ctx context.Context, name string, so SuiteOptions) (*Report, error) {
	e, ok := templates.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("spin: no catalogue entry %q", name)
	}
	if err := Available(); err != nil {
		return nil, err
	}
	if so.Sizes == nil {
		so.Sizes = []int{2, 3, 4}
	}
	if so.Run.Timeout == 0 {
		so.Run.Timeout = 2 * time.Minute
	}
	if so.Passages == 0 {
		so.Passages = 3
	}
	m := so.Mode
	if m == "" {
		// The first of mode.All the entry offers: mutex where it can.
		for _, x := range mode.All {
			if e.SupportsMode(x) {
				m = x
				break
			}
		}
		if m == "" {
			return nil, fmt.Errorf("spin: %s offers no mode", name)
		}
	}
	pref := so.Preference
	if pref == "" && m.Readers() {
		pref = firstPref(e)
	}
	topts := templates.Options{Mode: m, Preference: pref}
	if so.Properties == nil {
		so.Properties = StandardProperties(e, topts)
		if so.Aborts {
			so.Properties = append(so.Properties, AbortProperties(e, topts)...)
		}
	}
	a := so.Def
	if a == nil {
		a = e.Def(topts)
	}
	if err := ir.Check(a); err != nil {
		return nil, err
	}
	rep := &Report{Entry: name, Mode: m, Preference: pref}
	if e.Incorrect != "" {
		rep.Notes = append(rep.Notes, "known incorrect: "+e.Incorrect)
	}
	extra := map[string]int64{}
	for _, ps := range e.Params {
		extra[ps.Key] = ps.Default
	}
	for k, v := range so.Extra {
		extra[k] = v
	}
	exhausted := map[Property]string{}
	tripped := "" // why bounded-counter models are no longer tried
	tooBig := ""  // why the requested parameters are no longer tried (Reduce)
	var merged mergedRuns
	for _, n := range so.Sizes {
		for _, prop := range so.Properties {
			if err := ctx.Err(); err != nil {
				return rep, err
			}
			r := Run{N: n, Property: prop}
			if shared, ok := merged.reuse(n, prop); ok {
				rep.add(shared, so.Log)
				continue
			}
			if why, skip := exhausted[prop]; skip {
				r.Result = Result{Property: prop, Status: Skipped, Reason: why}
				rep.add(r, so.Log)
				continue
			}
			if e.MinProcs > n || (e.MaxProcs > 0 && n > e.MaxProcs) {
				r.Result = Result{Property: prop, Status: Skipped, Reason: fmt.Sprintf("the algorithm supports %d..%d processes", e.MinProcs, e.MaxProcs)}
				rep.add(r, so.Log)
				continue
			}
			if why := badParams(e, extra, n); why != "" {
				r.Result = Result{Property: prop, Status: Skipped, Reason: why}
				rep.add(r, so.Log)
				continue
			}
			k := m.Holders(kOf(so, n))
			claims := e.PropsFor(topts)
			attempts, err := plan(a, claims, m, prop, n, so)
			if err != nil {
				r.Result = Result{Property: prop, Status: Skipped, Reason: err.Error()}
				rep.add(r, so.Log)
				continue
			}
			opts := so.Run
			if opts.Optimize == "" {
				// Small searches finish before gcc -O2 would; big ones repay it.
				opts.Optimize = map[bool]string{true: "-O0", false: "-O2"}[n <= 2]
				if n == 3 {
					opts.Optimize = "-O1"
				}
			}
			if opts.HashBits == 0 {
				opts.HashBits = 20
				if n >= 4 {
					opts.HashBits = 24
				}
			}
			check := func(p ir.Params) (Result, string, error) {
				var spent time.Duration
				var tried string
				attempts := attempts
				if tripped != "" && len(attempts) > 1 {
					// The counters already left the bound with fewer processes
					// or another instrumentation: go straight to the fallback.
					attempts = attempts[1:]
					tried = tripped
				}
				for i, at := range attempts {
					if so.Progress != nil {
						what := fmt.Sprintf("n=%d %s", n, prop)
						so.Progress(what + ": searching")
						opts.Progress = func(states, depth int64) {
							so.Progress(fmt.Sprintf("%s: %.1e states, depth %d", what, float64(states), depth))
						}
					}
					run := prop
					if at.run != "" {
						run = at.run
					}
					res, notes, err := CheckAlgorithm(ctx, a, p, at.po, run, opts)
					if err != nil {
						return res, "", fmt.Errorf("%s, n = %d, %s: %w", name, n, prop, err)
					}
					res.Property = prop
					if res.Status == Skipped {
						return res, "", nil
					}
					rep.note(notes)
					if res.BoundExceeded && claims.BoundedAt(n) {
						res = Unbounded(res) // a violation: no fallback
					} else if res.BoundExceeded && i+1 < len(attempts) {
						// The counters really grow: fall back to the next model.
						spent += res.Elapsed
						tried = fmt.Sprintf(" (a model looping for ever left the counter bound ±%d after %v: %s)",
							at.po.Bound, res.Elapsed.Round(time.Millisecond), res.Message)
						tripped = fmt.Sprintf(" (counters leave the bound ±%d: seen at n = %d, %s)", at.po.Bound, n, prop)
						continue
					}
					res.Elapsed += spent
					return res, at.cov + tried, nil
				}
				return Result{}, "", fmt.Errorf("%s, n = %d, %s: no model to check", name, n, prop)
			}
			small := e.SmallParamsFor(m, n).Extra
			reducible := so.Reduce && !maps.Equal(small, extra)
			decide := func() error {
				var spent time.Duration
				if !reducible || tooBig == "" {
					res, cov, err := check(ir.Params{N: n, K: k, Extra: extra})
					if err != nil {
						return err
					}
					r.Result, r.Coverage = res, cov
					if reducible && res.Status == Incomplete {
						tooBig = fmt.Sprintf("%s gave no verdict at n = %d, %s (%s)", paramList(extra), n, prop, res.Reason)
						spent = res.Elapsed
					}
				}
				if reducible && tooBig != "" {
					res, cov, err := check(ir.Params{N: n, K: k, Extra: small})
					if err != nil {
						return err
					}
					res.Elapsed += spent
					r.Result, r.Coverage = res, cov
					r.Reduced = fmt.Sprintf("%s at n = %d", paramList(small), n)
					rep.Reduction = tooBig
				}
				return nil
			}
			opts.EndStates = merged.merging(prop, so.Properties)
			if err := decide(); err != nil {
				return rep, err
			}
			if opts.EndStates && !merged.keep(r) {
				// A deadlock stopped the search: mutual exclusion alone.
				opts.EndStates = false
				if err := decide(); err != nil {
					return rep, err
				}
			}
			if res := r.Result; res.Status == Incomplete {
				exhausted[prop] = fmt.Sprintf("n = %d already exceeded the budget (%s)", n, res.Reason)
			}
			rep.add(r, so.Log)
		}
	}
	return rep, nil
}

// kOf is the k of a k-exclusion suite at n processes: SuiteOptions.K, or
// n − 1.
func kOf(so SuiteOptions, n int) int {
	if so.K != 0 {
		return so.K
	}
	return max(1, n-1)
}

// paramList renders parameters as "memory = 11", sorted by name.
func paramList(extra map[string]int64) string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(extra)) {
		out = append(out, fmt.Sprintf("%s = %d", k, extra[k]))
	}
	return strings.Join(out, ", ")
}

// badParams checks the entry's parameters against n (e.g. the anonymous
// algorithm's memory size must lie in M(n)).
func badParams(e *templates.Entry, extra map[string]int64, n int) string {
	for _, ps := range e.Params {
		if ps.Check == nil {
			continue
		}
		if err := ps.Check(extra[ps.Key], n); err != nil {
			return fmt.Sprintf("parameter %s = %d is not valid for n = %d: %v", ps.Key, extra[ps.Key], n, err)
		}
	}
	return ""
}

func firstPref(e *templates.Entry) templates.Preference {
	if len(e.Preferences) > 0 {
		return e.Preferences[0]
	}
	return ""
}

// note keeps the model notes the coverage lines do not already say
// (constants represented otherwise, delays without time).
func (rep *Report) note(notes []string) {
	for _, n := range notes {
		if strings.HasPrefix(n, "each process makes") || strings.HasPrefix(n, "counters ") {
			continue
		}
		dup := false
		for _, have := range rep.Notes {
			dup = dup || have == "model: "+n
		}
		if !dup {
			rep.Notes = append(rep.Notes, "model: "+n)
		}
	}
}

func (rep *Report) add(r Run, log func(string)) {
	rep.Runs = append(rep.Runs, r)
	if log != nil {
		log(r.Line())
	}
}

// attempt is one model for a property, with what it covers.
type attempt struct {
	po  promela.Options
	cov string
	run Property // the property pan checks, if not the one planned (Quiescence)
}

// counterBound is the bound within which counters may roam in a model
// where processes loop for ever: if every reachable state keeps them
// inside it, that model is exact.
const counterBound = 64

// plan chooses the models for one property, in the order to try them:
// their instrumentation, bounds and abstractions, and what each covers.
// Without counters the model is exact and loops for ever. With counters,
// first the same model with the counters asserted to stay within
// ±counterBound (exact if they do); if they do not, safety falls back to
// bounded passages (exact for those runs), liveness to counters kept
// modulo n+1 where that is sound, else to bounded passages.
func plan(a *ir.Algorithm, claims templates.Properties, m mode.Mode, prop Property, n int, so SuiteOptions) ([]attempt, error) {
	po, err := prop.Instrument(claims, n)
	if err != nil {
		return nil, err
	}
	po.Mode = m
	if m.Readers() && so.Writers > 0 {
		w := min(so.Writers, n)
		po.Writers, po.Readers = w, n-w
	}
	// Safety and bounded waiting cover the try-acquire too: each passage
	// may take it instead of the acquire (a try that succeeds overtakes
	// like any entry). Liveness and FIFO keep plain acquires: a failed try
	// gives up by design, and a try takes no FIFO snapshot.
	tries := a.TryAcquire != nil && (!m.Readers() || a.TryRAcquire != nil)
	switch prop.Base() {
	case MutualExclusion, Deadlock:
		po.TryAcquire = tries
	case BoundedWaiting:
		po.TryAcquire = tries && !claims.OvertakesAcquireOnly
	}
	if !m.Ordered() && (prop == FIFO || prop == BoundedWaiting || prop == FIFE) {
		return nil, fmt.Errorf("%s does not apply to %s mode", prop, m)
	}
	if prop == CrashTolerance {
		if po.Crashes = m.Crashes(kOf(so, n)); po.Crashes < 1 {
			return nil, fmt.Errorf("a %s lock with one holder tolerates no crash", m)
		}
	}
	if !m.Readers() && prop == WriterPriority {
		return nil, fmt.Errorf("%s is checked for reader/writer locks only", prop)
	}
	an := promela.Analyze(a)
	if po.Abort {
		an = promela.AnalyzeAborts(a)
	}
	head := []string{fmt.Sprintf("n = %d", n)}
	switch {
	case m.TakesK():
		head = append(head, fmt.Sprintf("k = %d", kOf(so, n)))
	case m.Readers():
		var splits []string
		for _, sm := range splitModels(prop, n, po, so.Run) {
			splits = append(splits, writersReaders(sm.po.Writers, sm.po.Readers))
		}
		head = append(head, strings.Join(splits, ", then "))
	}
	head = append(head, "all interleavings")
	if po.TryAcquire {
		head = append(head, "each passage may use TryAcquire instead")
	}
	if po.Abort {
		head = append(head, "a waiting process may give up at every wait with abort code, before any check, any number of times, and try again")
		if prop.Liveness() {
			head = append(head, "each passage chooses whether it may give up; the claim is about those that may not")
		}
	}
	if po.Crashes > 0 {
		who := map[bool]string{true: "1 process crashes", false: fmt.Sprintf("up to %d processes crash", po.Crashes)}[po.Crashes == 1]
		head = append(head, who+" at any point (inside the critical section too) and for ever; the claim is about the others")
		switch {
		case so.Run.Victims != nil:
			head = append(head, "only "+processList(so.Run.Victims)+" may crash: one run of those a split by victim makes, which together cover every crash")
		case so.Run.SplitCrashes:
			per := "process"
			if po.Crashes > 1 {
				per = fmt.Sprintf("set of %d processes", po.Crashes)
			}
			head = append(head, "one run per "+per+" that may crash")
		}
	}
	if prop == FIFE {
		head = append(head, fmt.Sprintf("a process overtaken by a later one then checks its wait at most %d more times (the check under way and the next): it waits for no other process's write", po.FIFEChecks))
	}
	if prop == BoundedWaiting && n >= watchFrom {
		head = append(head, "one run per process, each counting that process's overtakes")
	}
	tail := []string{"a process may stop for ever in its remainder section"}
	fair := prop.Liveness() // the quiescence form needs no fairness
	for _, op := range a.Ops() {
		found := false
		ir.WalkStmts(op.Code, func(s ir.Stmt) {
			_, isDelay := s.(ir.Delay)
			found = found || isDelay
		})
		if found {
			tail = append(tail, "delay is a plain step (no time)")
			break
		}
	}
	cover := func(mid string) string {
		t := tail
		if fair {
			t = slices.Insert(slices.Clone(tail), 1, "weak fairness")
		}
		return strings.Join(append(append(append([]string{}, head...), mid), t...), "; ")
	}
	counters := strings.Join(an.Counters, ", ")
	if len(an.Counters) == 0 {
		return []attempt{{po: po, cov: cover("processes loop for ever")}}, nil
	}
	bounded := po
	bounded.Bound = counterBound
	out := []attempt{{po: bounded, cov: cover(fmt.Sprintf("processes loop for ever; counters %s stayed within ±%d in every reachable state, so the model is exact", counters, counterBound))}}
	if prop.Liveness() && an.WrapSafe {
		w := po
		w.Wrap = n + 1
		out = append(out, attempt{po: w, cov: cover(fmt.Sprintf("processes loop for ever with counters %s kept modulo %d (abstraction: sound because they are only added to and compared for equality, and fewer than %d of their values are live at once)",
			counters, w.Wrap, w.Wrap))})
		return out, nil
	}
	b := po
	b.Passages = so.Passages
	c := fmt.Sprintf("at most %d passages per process (counters %s grow without bound)", so.Passages, counters)
	if prop.Liveness() {
		c += "; liveness only over these bounded runs: a process overtaken for ever is not covered"
		if an.WrapBlocker != "" {
			c += " (counters cannot be wrapped: " + an.WrapBlocker + ")"
		}
	}
	if !prop.Liveness() || !so.Quiescence || prop == Stabilization || po.Abort {
		return append(out, attempt{po: b, cov: cover(c)}), nil
	}
	if why := promela.QuiescenceBlocker(a); why != "" {
		return append(out, attempt{po: b, cov: cover(c + "; the quiescence form does not apply (" + why + ")")}), nil
	}
	b.Checks = promela.Quiescence
	fair = false
	c += "; checked as quiescence, a safety property: no reachable state has every process idle, crashed or stuck in a wait that repeats itself with memory unchanged (with bounded passages and loops that write nothing, exactly the runs where a process waits for ever)"
	return append(out, attempt{po: b, cov: cover(c), run: Quiescence}), nil
}

// Line is a one-line summary of a run.
func (r Run) Line() string {
	res := r.Result
	var line string
	switch res.Status {
	case Skipped:
		return fmt.Sprintf("n=%d %-19s skipped: %s", r.N, r.Property, res.Reason)
	case Incomplete:
		line = fmt.Sprintf("n=%d %-19s INCOMPLETE after %v: %s (%d states)", r.N, r.Property, res.Elapsed.Round(time.Millisecond), res.Reason, res.States)
		if r.Shared != "" {
			line = fmt.Sprintf("n=%d %-19s INCOMPLETE in the %s run's search: %s", r.N, r.Property, r.Shared, res.Reason)
		}
	case Failed:
		line = fmt.Sprintf("n=%d %-19s FAILED (%s: %s) after %d states, %v", r.N, r.Property, res.Failure, res.Message, res.States, res.Elapsed.Round(time.Millisecond))
	default:
		if r.Shared != "" {
			line = fmt.Sprintf("n=%d %-19s passed in the %s run's search", r.N, r.Property, r.Shared)
			break
		}
		line = fmt.Sprintf("n=%d %-19s passed: %d states, %d transitions, %.0f MB, search %v, total %v", r.N, r.Property,
			res.States, res.Transitions, res.MemoryMB, res.SearchTime.Round(time.Millisecond), res.Elapsed.Round(time.Millisecond))
		if res.Omission > 0 {
			line += fmt.Sprintf("; hash-compact, states skipped on average at most %.1g", res.Omission)
		}
	}
	if r.Reduced != "" {
		line += "; with the smallest valid parameters, " + r.Reduced
	}
	return line
}

// String renders the report: a table, the coverage of each model, and the
// trails of the failures.
func (rep *Report) String() string {
	var b strings.Builder
	if rep.Preference != "" {
		fmt.Fprintf(&b, "SPIN verification of %s (%s, %s preference)\n", rep.Entry, rep.Mode, rep.Preference)
	} else {
		fmt.Fprintf(&b, "SPIN verification of %s (%s)\n", rep.Entry, rep.Mode)
	}
	for _, n := range rep.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	if rep.Reduction != "" {
		fmt.Fprintf(&b, "note: the smallest valid parameters where marked, as %s\n", rep.Reduction)
	}
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "n\tproperty\tverdict\tstates\ttransitions\tmemory\tsearch\ttotal")
	for _, r := range rep.Runs {
		res := r.Result
		v := string(res.Status)
		switch {
		case res.Status == Failed:
			v += " (" + res.Failure + ")"
		case res.Status == Passed && res.Omission > 0:
			v += fmt.Sprintf(" (hash-compact, %.1g states skipped on average)", res.Omission)
		}
		if r.Shared != "" {
			v += fmt.Sprintf(" (in the %s run)", r.Shared)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%d\t%.0f MB\t%v\t%v\n", r.N, r.Property, v, res.States, res.Transitions,
			res.MemoryMB, res.SearchTime.Round(time.Millisecond), res.Elapsed.Round(time.Millisecond))
	}
	tw.Flush()
	b.WriteString("\nWhat each run covers:\n")
	for _, r := range rep.Runs {
		switch r.Result.Status {
		case Skipped, Incomplete:
			fmt.Fprintf(&b, "  n=%d %s: %s: %s\n", r.N, r.Property, r.Result.Status, r.Result.Reason)
		default:
			fmt.Fprintf(&b, "  n=%d %s: %s\n", r.N, r.Property, r.Coverage)
		}
		if r.Reduced != "" {
			fmt.Fprintf(&b, "    with the smallest valid parameters, %s\n", r.Reduced)
		}
	}
	for _, r := range rep.Runs {
		if r.Result.Status == Failed {
			fmt.Fprintf(&b, "\nCounterexample, n=%d %s (%s), %d steps, condensed:\n%s", r.N, r.Property, r.Result.Message,
				len(r.Result.Trail), trailText(Condense(r.Result.Trail), r.Result.Stuck))
		}
	}
	return b.String()
}

// Failed reports whether any run failed.
func (rep *Report) Failed() bool { return rep.any(Failed) }

// Incomplete reports whether any run gave no verdict.
func (rep *Report) Incomplete() bool { return rep.any(Incomplete) }

func (rep *Report) any(s Status) bool {
	for _, r := range rep.Runs {
		if r.Result.Status == s {
			return true
		}
	}
	return false
}
