package layers

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/lockgen/lockgen/lab/spin"
	"github.com/lockgen/lockgen/spec"
	"github.com/lockgen/lockgen/templates"
)

// SpinCache remembers SPIN results by model: locks that differ only in
// what SPIN does not model (node policy, padding, waiting, TryLock) share
// one run. Make one with NewSpinCache; it may be shared by concurrent
// Runs: a lock whose model is being searched waits for that search.
type SpinCache struct {
	mu sync.Mutex
	m  map[string]*spinRun
}

type spinRun struct {
	done chan struct{} // closed when r and err are set
	r    Result
	err  error // the search was interrupted: r means nothing
}

// NewSpinCache returns an empty cache.
func NewSpinCache() *SpinCache { return &SpinCache{m: map[string]*spinRun{}} }

// claim returns the run of key and whether the caller must do it (and
// then finish it); otherwise the run is another's, to wait for.
func (c *SpinCache) claim(key string) (*spinRun, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if run, ok := c.m[key]; ok {
		return run, false
	}
	run := &spinRun{done: make(chan struct{})}
	c.m[key] = run
	return run, true
}

func spinKey(l spec.Lock, sizes []int) string {
	var params []string
	for k, v := range l.Params {
		params = append(params, fmt.Sprintf("%s=%d", k, v))
	}
	sort.Strings(params)
	return fmt.Sprintf("%s|%s|%s|k=%d|procs=%d|%s|n=%v", l.Algorithm, l.Mode, l.Preference, l.K, l.Procs, strings.Join(params, ","), sizes)
}

// ProgressEvery is how often a long SPIN layer says what it searches.
var ProgressEvery = 10 * time.Second

// trailShown is how many steps of a SPIN trail a failure shows: the end,
// where the violation is (a long trail would bury the summary).
const trailShown = 80

// spinResult runs the entry's standard SPIN properties on the lock's own
// definition (mode, k, preference, parameters) for each size procs allows.
// Cancelling ctx gives no Result but ctx's error: an interrupted search is
// neither a failure nor a gap of the lock's.
func spinResult(ctx context.Context, l spec.Lock, o *Options) (Result, error) {
	r := Result{Lock: l.Name, Layer: SPIN}
	start := time.Now()
	var sizes []int
	for _, n := range o.Sizes {
		if (l.Procs > 0 && n > l.Procs) || (n <= l.Mode.Holders(l.K)) {
			continue
		}
		if l.Entry.MaxProcs > 0 && n > l.Entry.MaxProcs || n < l.Entry.MinProcs {
			continue
		}
		sizes = append(sizes, n)
	}
	if len(sizes) == 0 {
		r.Verdict, r.Detail = Skipped, "no process count in -n fits this lock"
		return r, nil
	}
	if o.Cache != nil {
		run, mine := o.Cache.claim(spinKey(l, sizes))
		if !mine {
			select {
			case <-run.done:
			case <-ctx.Done():
				return r, ctx.Err()
			}
			if run.err != nil {
				return r, run.err
			}
			c := run.r
			c.Lock, c.Elapsed = l.Name, 0
			c.Detail = "same model as " + c.Detail
			return c, nil
		}
		defer func() {
			run.r = r
			run.r.Detail = r.Lock + ": " + r.Detail
			run.err = ctx.Err()
			close(run.done)
		}()
	}
	// A SPIN layer can take minutes: say what it is searching every
	// ProgressEvery, so that a long run is never silent.
	last := start
	progress := func(msg string) {
		if now := time.Now(); now.Sub(last) >= ProgressEvery {
			last = now
			o.say("  %s: spin %s (%s so far)", l.Name, msg, now.Sub(start).Round(time.Second))
		}
	}
	rep, err := spin.CheckEntry(ctx, l.Algorithm, spin.SuiteOptions{
		Progress: progress,
		Sizes:    sizes, Mode: l.Mode, K: l.K, Preference: l.Preference,
		Def:   l.Entry.MustDef(templates.Options{Mode: l.Mode, Preference: l.Preference}),
		Extra: l.Params, Reduce: true, Run: o.spinRun(),
		Quiescence: o.SpinQuiescence,
		Log:        func(line string) { o.say("  %s: spin %s", l.Name, line) },
	})
	r.Elapsed = time.Since(start)
	if ctx.Err() != nil {
		return r, ctx.Err()
	}
	if err != nil {
		r.Verdict, r.Failure = Fail, err.Error()
		return r, nil
	}
	var t spinTally
	var reduced []string
	for _, run := range rep.Runs {
		if run.Reduced != "" && run.Result.Status != spin.Skipped && !slices.Contains(reduced, run.Reduced) {
			reduced = append(reduced, run.Reduced)
		}
		t.add(run.N, run.Property, run.Result)
	}
	r.Detail = fmt.Sprintf("%s passed (n = %s, %d states in all)", plural(t.passed, "run"), joinInts(sizes), t.states)
	if t.failed > 0 {
		r.Detail = fmt.Sprintf("%s failed, %s", plural(t.failed, "run"), r.Detail)
	}
	t.noteGaps(&r)
	if len(reduced) > 0 {
		r.Detail += fmt.Sprintf("; checked with the smallest valid parameters, %s, as %s", strings.Join(reduced, " and "), rep.Reduction)
	}
	if t.skipped > 0 {
		r.Detail += fmt.Sprintf("; %d skipped (a smaller n was already incomplete, or the parameters do not fit n)", t.skipped)
	}
	t.verdict(&r)
	return r, nil
}

// spinTally counts a SPIN layer's runs and decides its verdict.
type spinTally struct {
	passed, failed, incomplete, skipped int
	states                              int64
	failures, gaps                      []string
}

func (t *spinTally) add(n int, prop spin.Property, res spin.Result) {
	switch res.Status {
	case spin.Passed:
		t.passed++
		t.states += res.States
	case spin.Failed:
		t.failed++
		t.failures = append(t.failures, fmt.Sprintf("n=%d %s: %s\n%s", n, prop, res.Message, Indent(spin.Counterexample(res, trailShown), "  ")))
	case spin.Skipped:
		t.skipped++
	default:
		t.incomplete++
		t.gaps = append(t.gaps, fmt.Sprintf("n=%d %s", n, prop))
	}
}

// noteGaps adds the runs without a verdict to the row's figures.
func (t *spinTally) noteGaps(r *Result) {
	if t.incomplete > 0 {
		r.Detail += fmt.Sprintf("; %d incomplete, no verdict (%s)", t.incomplete, strings.Join(t.gaps, ", "))
	}
}

// verdict: a failure fails the layer; a run without a verdict leaves the
// whole layer without one, however many others passed: the layer claims
// every property at every size, and one of them went unchecked.
func (t *spinTally) verdict(r *Result) {
	switch {
	case t.failed > 0:
		r.Verdict, r.Failure = Fail, strings.Join(t.failures, "\n")
	case t.incomplete > 0 || t.passed == 0:
		r.Verdict = Incomplete
	default:
		r.Verdict = Pass
	}
}

func joinInts(xs []int) string {
	var s []string
	for _, x := range xs {
		s = append(s, strconv.Itoa(x))
	}
	return strings.Join(s, ",")
}

// Indent puts pre before every line of s.
func Indent(s, pre string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i := range lines {
		lines[i] = pre + lines[i]
	}
	return strings.Join(lines, "\n")
}

// spinRun is the budget and storage of one SPIN run.
func (o *Options) spinRun() spin.Options {
	return spin.Options{Timeout: o.SpinTimeout, Fold: o.SpinFold, HashCompact: o.SpinHashCompact, MemLimitMB: o.SpinMemMB}
}
