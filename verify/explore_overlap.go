package verify

import (
	"fmt"
	"time"
)

// checkOverlap fails a lock that promises to share the critical section
// (readers, k holders) and never did in any execution explored: its
// readers or holders exclude each other. (Stress checks the same with
// real goroutines.)
func (e *explorer) checkOverlap() {
	e.t.Helper()
	s, rep := e.s, e.rep
	if rep.Failure != nil || !(s.Mode.Readers() || s.k() > 1) || rep.Shared > 0 {
		return
	}
	if rep.Executions < minOverlapExecutions {
		e.t.Logf("verify.Explore %s: overlap not checked: %d executions, fewer than %d", s, rep.Executions, minOverlapExecutions)
		return
	}
	if !e.overlapWithAll() || rep.Shared > 0 {
		return
	}
	who := "readers"
	if !s.Mode.Readers() {
		who = fmt.Sprintf("holders of a %d-exclusion lock", s.k())
	}
	msg := fmt.Sprintf("%s never shared the critical section in %d executions, although each execution's harness lets a holder wait inside for another; the lock excludes what it should let share", who, rep.Executions)
	rep.Failure = &ExploreFailure{Kind: ExploreNoOverlap, Message: msg, Strategy: "every strategy"}
	e.t.Errorf("verify.Explore %s: %s: %s", s, ExploreNoOverlap, msg)
}

// overlapAll bounds the extra phase of checkOverlap.
const (
	overlapAllRuns   = 500
	overlapAllBudget = time.Second
	overlapAllMax    = 8 // goroutines
)

// overlapWithAll gives a lock that did not share with the configured
// goroutine count a last chance with every process: some let k in
// together only when all n contend (the filter lock for k-exclusion has
// n - k levels, each holding back one of those present, so 3 of its 4
// processes get in one at a time). It runs random schedules with
// min(Procs, 8) goroutines; it returns false if one of them failed.
func (e *explorer) overlapWithAll() bool {
	e.t.Helper()
	all := min(e.s.Procs, overlapAllMax)
	if all <= e.size(e.cfg.goroutines) {
		return true
	}
	saved := e.cfg
	defer func() { e.cfg = saved }()
	e.cfg.goroutines, e.cfg.passages, e.cfg.shortPassages, e.cfg.randomRuns = all, 1, 0, overlapAllRuns
	return e.random(time.Now().Add(overlapAllBudget))
}
