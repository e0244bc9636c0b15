package verify

import (
	"fmt"
	"time"

	"github.com/lockgen/lockgen/verify/sched"
)

func (e *explorer) addPhase(p ExplorePhase) *ExplorePhase {
	e.rep.Phases = append(e.rep.Phases, p)
	return &e.rep.Phases[len(e.rep.Phases)-1]
}

// account adds an execution to a phase and the totals.
func (e *explorer) account(ph *ExplorePhase, res *sched.Result, start time.Time) {
	ph.Executions++
	ph.Steps += int64(res.Steps)
	if e.plan != nil { // only the crash phase's executions crash
		for i := range res.Events {
			if res.Events[i].Kind == sched.EvCrash {
				ph.Crashes++
			}
		}
	}
	ph.Elapsed = time.Since(start)
	e.rep.Executions++
	e.rep.Steps += int64(res.Steps)
	e.kSteps = max(e.kSteps, res.Steps)
	if e.shared {
		e.rep.Shared++
	}
}

// seeded runs the executions of a seeded strategy; it returns false if one
// failed.
func (e *explorer) seeded(name string, runs, passages int, salt uint64, deadline time.Time,
	choose func(seed uint64, g int) tokenChooser) bool {
	e.t.Helper()
	g, p := e.size(e.cfg.goroutines), max(passages, 1)
	ph := e.addPhase(ExplorePhase{Strategy: name, Goroutines: g, Passages: p, Bound: -1})
	start := time.Now()
	for i := 0; i < runs; i++ {
		if !deadline.IsZero() && time.Now().After(deadline) {
			ph.Stopped = "budget"
			break
		}
		c := choose(sched.Seed(e.cfg.seed^salt, i), g)
		res := e.run(c, g, p)
		e.account(ph, res, start)
		if res.Failure != nil || res.Accesses == 0 {
			ph.Stopped = "failure"
			e.report(res, fmt.Sprintf("%s, execution %d of %d", name, i+1, runs),
				e.token(g, p, c.Token()))
			return false
		}
	}
	return true
}

func (e *explorer) random(deadline time.Time) bool {
	e.t.Helper()
	return e.seeded("random", e.cfg.randomRuns, e.cfg.short(), 0x52414e44, deadline, func(seed uint64, _ int) tokenChooser {
		return sched.NewRandom(seed)
	})
}

func (e *explorer) pct(deadline time.Time) bool {
	e.t.Helper()
	d := max(e.cfg.pctDepth, 1)
	return e.seeded(fmt.Sprintf("pct(d=%d)", d), e.cfg.pctRuns, e.cfg.passages, 0x504354, deadline, func(seed uint64, g int) tokenChooser {
		return e.newPCT(seed, g, d)
	})
}

// tokenChooser is a chooser whose execution a replay token names.
type tokenChooser interface {
	sched.Chooser
	Token() string
}

// newPCT is a PCT chooser of depth d for one execution of g goroutines,
// its step count estimated from the executions run so far.
func (e *explorer) newPCT(seed uint64, g, d int) *sched.PCT {
	return sched.NewPCT(seed, g, d, max(e.kSteps, 16))
}

func (e *explorer) dfs(deadline time.Time) bool {
	e.t.Helper()
	g, p := e.size(e.cfg.dfsG), max(e.cfg.dfsP, 1)
	ph := e.addPhase(ExplorePhase{Strategy: fmt.Sprintf("dfs(P=%d)", e.cfg.dfsBound), Goroutines: g, Passages: p,
		Bound: -1})
	start := time.Now()
	// Iterative context bounding: exhaust 0 preemptions, then 1, ... up to
	// the bound, so that a run cut short by the budget still covers every
	// schedule of a smaller bound, and failures come with few preemptions.
	for b := 0; b <= e.cfg.dfsBound; b++ {
		d := e.newDFS(b)
		for d.Next() {
			if ph.Executions >= e.cfg.dfsLimit {
				ph.Stopped = "limit"
				return true
			}
			if !deadline.IsZero() && time.Now().After(deadline) {
				ph.Stopped = "budget"
				return true
			}
			res := e.run(d, g, p)
			e.account(ph, res, start)
			if res.Pruned {
				ph.Pruned++
				continue
			}
			if res.Failure != nil || res.Accesses == 0 {
				ph.Stopped = "failure"
				e.report(res, fmt.Sprintf("dfs(P=%d), schedule %d", b, ph.Executions),
					e.token(g, p, sched.ChoicesToken(res.Choices)))
				return false
			}
		}
		ph.Bound = b
	}
	ph.Exhausted = true
	e.rep.Exhausted = true
	return true
}

// newDFS is the exhaustive search with at most bound preemptions, reduced
// unless the configuration says otherwise. With FIFE the harness counts
// each goroutine's steps since another's entry: every observed step then
// depends on the harness's events.
func (e *explorer) newDFS(bound int) *sched.DFS {
	d := sched.NewDFS(bound)
	d.Reduce, d.ObserveSteps = !e.cfg.dfsFull, e.s.FIFE
	return d
}
