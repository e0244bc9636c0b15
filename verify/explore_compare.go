package verify

import (
	"fmt"
	"os"
	"time"

	"github.com/lockgen/lockgen/verify/sched"
)

// ExploreCompareEnv names the environment variable that, set to
// "compare", makes Explore run only its exhaustive search, twice and
// without a time budget: without the partial-order reduction and with it
// (sched.DFS.Reduce). It reports both counts of executions, and fails if
// the reduced search misses a class of schedules (sched.Recorder.Class:
// the schedules that differ only in the order of independent steps) that
// the full search reaches at the preemption bound, or a failure the full
// search finds. It is how the reduction is checked on every lock of the
// catalogue:
//
//	LOCKGEN_EXPLORE_DFS=compare go test -tags lockgen_check -run Explore -v ./generated/...
const ExploreCompareEnv = "LOCKGEN_EXPLORE_DFS"

// compareLimit caps each search of the comparison.
const compareLimit = 5_000_000

// dfsCompare is Explore's comparison mode (ExploreCompareEnv).
func (e *explorer) dfsCompare() {
	e.t.Helper()
	g, p := e.size(e.cfg.dfsG), max(e.cfg.dfsP, 1)
	type outcome struct {
		execs, pruned int
		classes       map[string]bool
		failure       *sched.Result
		elapsed       time.Duration
	}
	search := func(reduce bool) (o outcome) {
		o.classes = map[string]bool{}
		start := time.Now()
		defer func() { o.elapsed = time.Since(start) }()
		saved := e.cfg.dfsFull
		e.cfg.dfsFull = !reduce
		defer func() { e.cfg.dfsFull = saved }()
		// As the DFS phase does: every bound up to the configured one;
		// the classes are those of the last.
		for b := 0; b <= e.cfg.dfsBound; b++ {
			d := e.newDFS(b)
			var c sched.Chooser = d
			var r *sched.Recorder
			if b == e.cfg.dfsBound {
				r = &sched.Recorder{Chooser: d, ObserveSteps: d.ObserveSteps}
				c = r
			}
			for d.Next() {
				if o.execs >= compareLimit {
					e.t.Fatalf("verify.Explore %s: comparison: more than %d executions", e.s, compareLimit)
				}
				res := e.run(c, g, p)
				o.execs++
				class := ""
				if r != nil {
					class = r.Class()
				}
				switch {
				case res.Pruned:
					o.pruned++
				case res.Failure != nil || res.Accesses == 0:
					o.failure = res
					return o
				case r != nil:
					o.classes[class] = true
				}
			}
		}
		return o
	}
	full := search(false)
	red := search(true)
	ph := e.addPhase(ExplorePhase{Strategy: fmt.Sprintf("dfs(P=%d) compared", e.cfg.dfsBound), Goroutines: g, Passages: p,
		Executions: full.execs + red.execs, Bound: -1, Pruned: red.pruned})
	e.rep.Executions += ph.Executions
	line := fmt.Sprintf("dfs compare %s %dx%d P=%d: full %d executions (%v), reduced %d executions, %d cut short (%v)",
		e.s.Name, g, p, e.cfg.dfsBound, full.execs, full.elapsed.Round(time.Millisecond), red.execs, red.pruned,
		red.elapsed.Round(time.Millisecond))
	switch {
	case full.failure != nil && red.failure == nil:
		e.t.Errorf("verify.Explore %s: the full search failed (%v) and the reduced one did not: %s", e.s, full.failure.Failure, line)
	case full.failure == nil && red.failure != nil:
		e.t.Errorf("verify.Explore %s: the reduced search failed (%v) and the full one did not: %s", e.s, red.failure.Failure, line)
	case full.failure != nil:
		e.t.Logf("%s; both failed: %v / %v", line, full.failure.Failure, red.failure.Failure)
		ph.Stopped = "failure"
		e.report(red.failure, "dfs compared, reduced", e.token(g, p, sched.ChoicesToken(red.failure.Choices)))
	default:
		missed := 0
		for c := range full.classes {
			if !red.classes[c] {
				missed++
			}
		}
		if missed > 0 {
			e.t.Errorf("verify.Explore %s: the reduced search missed %d of %d classes: %s", e.s, missed, len(full.classes), line)
			return
		}
		e.t.Logf("%s; %d classes, all reached", line, len(full.classes))
	}
}

// compareMode reports whether Explore runs as ExploreCompareEnv asks.
func compareMode() bool { return os.Getenv(ExploreCompareEnv) == "compare" }
