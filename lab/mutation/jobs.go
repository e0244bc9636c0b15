package mutation

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/lockgen/lockgen/lab/gotest"
	"github.com/lockgen/lockgen/mutate"
	"github.com/lockgen/lockgen/verify/harness"
)

// buildJob writes the unit's package, compiles it for the scheduler and
// under the race detector (dropping mutants that do not compile), and
// queues the test processes.
func (r *runner) buildJob(ctx context.Context, tr *tracker, t mutate.Target, prog *progress) {
	u := tr.u
	start := time.Now()
	pkgName := "mut" + strings.Map(func(c rune) rune {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			return c
		}
		return -1
	}, u.Name)
	results := append([]*Result{u.Baseline}, u.Results...)
	locks := func() []Lock {
		var ls []Lock
		for _, res := range results {
			ls = append(ls, Lock{Config: goConfig(t, res.Mutant.Alg, res.Lock, "", ""), Seed: seedOf(res.Mutant.ID)})
		}
		return ls
	}
	parent := filepath.Join(r.cfg.Module, "verify", "mutation", "testdata")
	deep := r.deepFor(u)
	pkg, err := WritePackage(r.cfg.Module, r.modPath, parent, pkgName, locks(), r.cfg.Stress, r.cfg.Explore, deep)
	if err != nil {
		r.fail(u, "writing the package: %v", err)
		return
	}
	var check, race *gotest.Binary
	cleanup := func() {
		if check != nil {
			check.Remove()
		}
		if race != nil {
			race.Remove()
		}
		os.RemoveAll(pkg.Dir)
	}
	for attempt := 0; ; attempt++ {
		check, err = gotest.Build(ctx, gotest.Options{Dir: pkg.Dir, Tags: []string{"lockgen_check"}})
		if err == nil {
			break
		}
		be, ok := err.(*gotest.BuildError)
		if !ok || attempt > 3 {
			r.fail(u, "compiling the package: %v", err)
			cleanup()
			return
		}
		bad := badLocks(be.Output, results)
		if len(bad) == 0 {
			r.fail(u, "compiling the package: %v", err)
			cleanup()
			return
		}
		if _, ok := bad[u.Baseline.Lock]; ok {
			r.fail(u, "the original definition does not compile: %s", bad[u.Baseline.Lock])
			cleanup()
			return
		}
		var keep []*Result
		r.mu.Lock()
		for _, res := range results {
			if why, ok := bad[res.Lock]; ok {
				u.Discarded = append(u.Discarded, mutate.Discarded{ID: res.Mutant.ID, Operator: res.Mutant.Operator,
					Where: res.Mutant.Where, Change: res.Mutant.Change, Reason: "Go compiler: " + why})
				res.Layer[Stress].Detail, res.Layer[Explore].Detail = "does not compile", "does not compile"
				continue
			}
			keep = append(keep, res)
		}
		r.mu.Unlock()
		results = keep
		r.mu.Lock()
		var kept []*Result
		for _, res := range u.Results {
			if _, ok := bad[res.Lock]; !ok {
				kept = append(kept, res)
			}
		}
		u.Results = kept // a mutant that does not compile is discarded, from every layer
		r.mu.Unlock()
		if err := pkg.Rewrite(locks(), r.cfg.Stress, r.cfg.Explore, deep); err != nil {
			r.fail(u, "rewriting the package: %v", err)
			cleanup()
			return
		}
	}
	if r.wants(Stress) {
		race, err = gotest.Build(ctx, gotest.Options{Dir: pkg.Dir, Race: true})
		if err != nil {
			r.fail(u, "compiling the package with -race: %v", err)
			cleanup()
			return
		}
	}
	el := time.Since(start)
	r.addTime(u, Stress, el/2)
	r.addTime(u, Explore, el-el/2)
	r.log("%-24s built %d mutants in %v", u.Name, len(results), el.Round(time.Second))

	tr.mu.Lock()
	tr.check, tr.cleanup = check, cleanup // removed once the unit's last job ends
	tr.mu.Unlock()
	for _, l := range []Layer{Stress, Explore} {
		if !r.wants(l) {
			continue
		}
		prog.add(l, len(results)-1)
		for _, res := range results {
			tr.push(func(ctx context.Context) {
				if l == Stress {
					r.stressJob(ctx, u, race, res)
				} else {
					r.exploreJob(ctx, u, check, res, Explore)
				}
				if res == u.Baseline {
					if v := r.verdict(res, l); v.Killed {
						r.fail(u, "the original definition fails %s (%s): this layer's verdicts on its mutants are suspect: %s", l, v.Kind, firstLine(v.Detail))
					}
				} else {
					prog.done(l)
				}
			})
		}
	}
}

// seedOf derives a lock's random seed from its mutant ID (FNV-1a), so
// that every run makes the same random choices for it.
func seedOf(id string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(id); i++ {
		h ^= uint64(id[i])
		h *= 1099511628211
	}
	if h == 0 {
		h = 1
	}
	return h
}

// compileErr matches a compiler error in one of the generated lock files.
var compileErr = regexp.MustCompile(`(?m)^\.?/?(m\d+)(?:_test|_check_test)?\.go:\d+:\d+: (.*)$`)

// badLocks maps the locks whose files the compiler rejected to the first
// error.
func badLocks(out string, results []*Result) map[string]string {
	bad := map[string]string{}
	names := map[string]string{}
	for _, res := range results {
		names[strings.ToLower(res.Lock)] = res.Lock
	}
	for _, m := range compileErr.FindAllStringSubmatch(out, -1) {
		if l, ok := names[m[1]]; ok {
			if _, seen := bad[l]; !seen {
				bad[l] = m[2]
			}
		}
	}
	return bad
}

func (r *runner) stressJob(ctx context.Context, u *Unit, bin *gotest.Binary, res *Result) {
	st := r.cfg.Stress
	v := &Verdict{Ran: true}
	out, err := bin.Run(ctx, gotest.RunOptions{Run: "^" + StressTest(res.Lock) + "$", Timeout: st.Timeout + 20*time.Second})
	if err != nil {
		r.fail(u, "%s stress: %v", res.Mutant.ID, err)
		return
	}
	v.Elapsed = out.Elapsed
	tr, ok := out.Test(StressTest(res.Lock))
	var f StressFinding
	switch {
	case !ok:
		v.Killed, v.Kind = true, "crash"
		v.Detail = tail(out.Output, 12)
	case tr.Outcome == gotest.Pass:
		v.Detail = "passed"
	case harness.Find(tr.Output, &f) && len(f.Failures) > 0:
		v.Killed = true
		var kinds []string
		for _, x := range f.Failures {
			if !contains(kinds, x.Kind) {
				kinds = append(kinds, x.Kind)
			}
		}
		v.Kind = strings.Join(kinds, ", ")
		v.Detail = f.Failures[0].Msg
	case strings.Contains(tr.Output, "WARNING: DATA RACE") || strings.Contains(tr.Output, "race detected"):
		v.Killed, v.Kind = true, "data race"
		v.Detail = raceSummary(tr.Output)
	default:
		died(v, tr, out)
	}
	r.record(u, res, Stress, v)
}

// died records a test process that ended without a verdict of its own:
// killed at its timeout (a hang) or crashed.
func died(v *Verdict, tr gotest.Test, out *gotest.Result) {
	v.Killed, v.Kind = true, "crash"
	if tr.Outcome == gotest.Killed {
		v.Kind = "hang (process killed)"
	}
	v.Detail = tail(tr.Output+out.Output, 12)
}

func (r *runner) exploreJob(ctx context.Context, u *Unit, bin *gotest.Binary, res *Result, layer Layer) {
	ex, test := r.cfg.Explore, ExploreTest(res.Lock)
	if layer == Deep {
		ex, test = r.deepFor(u), DeepTest(res.Lock)
	}
	v := &Verdict{Ran: true}
	out, err := bin.Run(ctx, gotest.RunOptions{Run: "^" + test + "$", Timeout: ex.Budget + 4*ex.Stall + 20*time.Second})
	if err != nil {
		r.fail(u, "%s %s: %v", res.Mutant.ID, layer, err)
		return
	}
	v.Elapsed = out.Elapsed
	tr, ok := out.Test(test)
	var f ExploreFinding
	switch {
	case !ok:
		v.Killed, v.Kind = true, "crash"
		v.Detail = tail(out.Output, 12)
	case tr.Outcome == gotest.Pass:
		v.Detail = "passed"
		if harness.Find(tr.Output, &f) {
			v.Detail = f.Summary
		}
	case harness.Find(tr.Output, &f) && f.Kind != "":
		v.Killed, v.Kind = true, f.Kind
		v.Detail = fmt.Sprintf("%s (%s; replay %s)\n%s", f.Message, f.Strategy, f.Token, tail(f.Trace, 16))
	default:
		died(v, tr, out)
	}
	r.record(u, res, layer, v)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// tail returns the last n non-empty lines of s.
func tail(s string, n int) string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			lines = append(lines, l)
		}
	}
	if len(lines) > n {
		lines = append([]string{fmt.Sprintf("… (%d lines before)", len(lines)-n)}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}

func raceSummary(out string) string {
	i := strings.Index(out, "WARNING: DATA RACE")
	if i < 0 {
		return tail(out, 8)
	}
	lines := strings.Split(out[i:], "\n")
	if len(lines) > 10 {
		lines = lines[:10]
	}
	return strings.Join(lines, "\n")
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
