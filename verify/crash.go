package verify

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lockgen/lockgen/verify/sched"
)

// DefaultExploreCrashRuns is the number of executions of the crash phase.
const DefaultExploreCrashRuns = 1000

// ExploreCrashes adds a crash phase to Explore: executions in each of
// which m goroutines crash (sched.Proc.Crash: they stop for good).
// Every other goroutine must still finish its passages: a deadlock among
// them, or no progress, fails the execution, with the crashes in its
// trace. A subject's CrashTolerance sets m by default; 0 turns the phase
// off. The phase runs max(goroutines, m+2) goroutines (capped by Procs).
//
// Executions alternate between two plans. Even ones crash the victims at
// points drawn from the execution's seed (inside the critical section,
// at the end of a doorway, at a wait, or after a random access of a
// passage; inside the critical section only, unless the subject claims
// CrashAnywhere) under the random scheduler. Odd ones hold: every victim
// crashes on entering the critical section in its first passage, and PCT
// schedules the rest. With k − 1 slots of a k-exclusion lock held for
// good, one more holder is a violation: the check becomes mutual
// exclusion among the others, which PCT's few priority changes find as
// they find a mutex's. Zehavi's mutant that flips line 12's tie-break,
// which the drawn plans alone found only in hunts of 30 s, fell within
// 20 s of explore-deep this way (crash execution 1,706, the mutation rerun
// of 2026-11-27 05:45 UTC).
func ExploreCrashes(m int) ExploreOption {
	return func(c *exploreConfig) { c.crashes, c.crashesSet = m, true }
}

// ExploreCrashRuns sets the executions of the crash phase (default 1000).
func ExploreCrashRuns(n int) ExploreOption { return func(c *exploreConfig) { c.crashRuns = n } }

// crashAt is where a planned crash happens.
type crashAt uint8

const (
	crashInCS      crashAt = iota // on entering the critical section
	crashAtDoorway                // at the end of the acquire's doorway
	crashAtWait                   // at the acquire's first wait
	crashAtAccess                 // after the n-th access of the passage
	crashKinds
)

// crashPoint is one goroutine's planned crash in an execution.
type crashPoint struct {
	at      crashAt
	passage int // 0-based
	access  int // crashAtAccess: 1-based
}

// crashPlan is an execution's crashes: victim goroutine -> its point.
type crashPlan struct {
	m      int
	seed   uint64
	where  crashWhere
	points map[int]crashPoint
}

// crashWhere is what a plan draws its points from.
type crashWhere uint8

const (
	crashAnywhere crashWhere = iota // any kind of point, any passage
	crashCSOnly                     // inside the critical section, any passage
	crashHold                       // inside the critical section, first passage
)

// crashTokens are the plans' names in replay tokens, by crashWhere.
var crashTokens = [...]string{crashAnywhere: "crash", crashCSOnly: "crashcs", crashHold: "crashhold"}

// maxCrashAccess bounds the access after which a crashAtAccess happens
// (small, so that most passages reach it).
const maxCrashAccess = 4

// newCrashPlan draws m victims among g goroutines, of p passages each, and
// a point for each, from where.
func newCrashPlan(m int, seed uint64, where crashWhere, g, p int) *crashPlan {
	r := rand.New(rand.NewPCG(seed, seed^0x435241534821))
	plan := &crashPlan{m: m, seed: seed, where: where, points: map[int]crashPoint{}}
	for _, v := range r.Perm(g)[:min(m, g-1)] {
		pt := crashPoint{at: crashAt(r.IntN(int(crashKinds))), passage: r.IntN(p), access: 1 + r.IntN(maxCrashAccess)}
		switch where {
		case crashCSOnly:
			pt.at = crashInCS
		case crashHold:
			pt.at, pt.passage = crashInCS, 0
		}
		plan.points[v] = pt
	}
	return plan
}

// token is the plan's part of a replay token: "crash=M,SEED", or
// "crashcs=M,SEED" when the crashes are inside the critical section, or
// "crashhold=M,SEED" when inside it on the first passage.
func (c *crashPlan) token() string {
	return fmt.Sprintf("%s=%d,%d", crashTokens[c.where], c.m, c.seed)
}

func parseCrashToken(s string) (m int, seed uint64, where crashWhere, err error) {
	name, rest, _ := strings.Cut(s, "=")
	w := slices.Index(crashTokens[:], name)
	if w < 0 {
		return 0, 0, 0, fmt.Errorf("bad crash plan %q", s)
	}
	ms, ss, ok := strings.Cut(rest, ",")
	if !ok {
		return 0, 0, 0, fmt.Errorf("bad crash plan %q", s)
	}
	if m, err = strconv.Atoi(ms); err != nil || m < 1 {
		return 0, 0, 0, fmt.Errorf("bad crash count %q", ms)
	}
	if seed, err = strconv.ParseUint(ss, 10, 64); err != nil {
		return 0, 0, 0, fmt.Errorf("bad crash seed %q", ss)
	}
	return m, seed, crashWhere(w), nil
}

// crashes is the explorer's number of crashes per execution.
func (e *explorer) crashes() int {
	if e.cfg.crashesSet {
		return e.cfg.crashes
	}
	return e.s.CrashTolerance
}

// crash runs the crash phase; it returns false if an execution failed.
func (e *explorer) crash(deadline time.Time) bool {
	e.t.Helper()
	m := e.crashes()
	g, p := e.size(max(e.cfg.goroutines, m+2)), max(e.cfg.short(), 1)
	if g <= m {
		e.t.Logf("verify.Explore %s: crash phase skipped: %d processes cannot lose %d and keep one", e.s, g, m)
		return true
	}
	name := fmt.Sprintf("crash(m=%d)", m)
	if !e.s.CrashAnywhere {
		name = fmt.Sprintf("crash(m=%d, in CS)", m)
	}
	ph := e.addPhase(ExplorePhase{Strategy: name, Goroutines: g, Passages: p, Bound: -1})
	start := time.Now()
	defer func() { e.plan = nil }()
	seeded := crashAnywhere
	if !e.s.CrashAnywhere {
		seeded = crashCSOnly
	}
	for i := 0; i < e.cfg.crashRuns; i++ {
		if !deadline.IsZero() && time.Now().After(deadline) {
			ph.Stopped = "budget"
			break
		}
		seed := sched.Seed(e.cfg.seed^0x4352, i)
		var c tokenChooser
		if i%2 == 0 {
			e.plan, c = newCrashPlan(m, seed, seeded, g, p), sched.NewRandom(seed)
		} else {
			e.plan, c = newCrashPlan(m, seed, crashHold, g, p), e.newPCT(seed, g, holdPCTDepth)
		}
		res := e.run(c, g, p)
		e.account(ph, res, start)
		if res.Failure != nil || res.Accesses == 0 {
			ph.Stopped = "failure"
			e.report(res, fmt.Sprintf("%s, execution %d of %d", name, i+1, e.cfg.crashRuns),
				e.token(g, p, e.plan.token()+"/"+c.Token()))
			return false
		}
	}
	return true
}

// holdPCTDepth is the PCT depth of the hold executions: a mutex's
// violations need few priority changes.
const holdPCTDepth = 3

// crashTrigger crashes goroutine g at event ev if its planned point is
// reached. passage is g's current passage, accesses its accesses in it.
func (h *exploreHarness) crashTrigger(p *sched.Proc, g int, ev *sched.Event) {
	pt, ok := h.plan.points[g]
	if !ok || h.crashed[g] || h.passage[g] != pt.passage {
		return
	}
	entered := ev.Kind == sched.EvNote && (ev.Tag == tagEnter || ev.Tag == tagREnter)
	var what string
	switch {
	case pt.at == crashInCS && entered:
		what = "inside the critical section"
	case pt.at == crashAtDoorway && ev.Kind == sched.EvDoorway && h.acq[g]:
		what = "at the end of its doorway [" + ev.Label + "]"
	case pt.at == crashAtDoorway && !h.s.FIFO && ev.Kind == sched.EvAccess && h.acq[g] && h.accesses1[g] == 1:
		// Only FIFO subjects report their doorways: take the first step.
		what = "after its first step [" + ev.Label + "]"
	case pt.at == crashAtWait && ev.Kind == sched.EvWait && h.acq[g]:
		what = "while waiting [" + ev.Label + "]"
	case pt.at == crashAtWait && entered:
		what = "inside the critical section (it did not wait)"
	case pt.at == crashAtAccess && ev.Kind == sched.EvAccess && h.accesses1[g] == pt.access:
		what = fmt.Sprintf("after access %d of its passage [%s]", pt.access, ev.Label)
	default:
		return
	}
	h.crashed[g] = true
	h.acq[g] = false // it no longer competes: the order checks leave it out
	p.Crash(fmt.Sprintf("%s, passage %d", what, pt.passage+1))
}
