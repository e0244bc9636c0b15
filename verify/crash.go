package verify

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/lockgen/lockgen/verify/sched"
)

// DefaultExploreCrashRuns is the number of executions of the crash phase.
const DefaultExploreCrashRuns = 1000

// ExploreCrashes adds a crash phase to Explore: random executions in each
// of which m goroutines crash (sched.Proc.Crash: they stop for good) at
// points drawn from the execution's seed: inside the critical section, at
// the end of a doorway, at a wait, or after a random access of a passage
// (inside the critical section only, unless the subject claims
// CrashAnywhere).
// Every other goroutine must still finish its passages: a deadlock among
// them, or no progress, fails the execution, with the crashes in its
// trace. A subject's CrashTolerance sets m by default; 0 turns the phase
// off. The phase runs max(goroutines, m+2) goroutines (capped by Procs).
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
	m        int
	seed     uint64
	inCSOnly bool // every crash inside the critical section
	points   map[int]crashPoint
}

// maxCrashAccess bounds the access after which a crashAtAccess happens
// (small, so that most passages reach it).
const maxCrashAccess = 4

// newCrashPlan draws m victims among g goroutines and a point for each
// (inside the critical section only, if inCSOnly).
func newCrashPlan(m int, seed uint64, inCSOnly bool, g, p int) *crashPlan {
	r := rand.New(rand.NewPCG(seed, seed^0x435241534821))
	plan := &crashPlan{m: m, seed: seed, inCSOnly: inCSOnly, points: map[int]crashPoint{}}
	for _, v := range r.Perm(g)[:min(m, g-1)] {
		pt := crashPoint{at: crashAt(r.IntN(int(crashKinds))), passage: r.IntN(p), access: 1 + r.IntN(maxCrashAccess)}
		if inCSOnly {
			pt.at = crashInCS
		}
		plan.points[v] = pt
	}
	return plan
}

// token is the plan's part of a replay token: "crash=M,SEED", or
// "crashcs=M,SEED" when the crashes are inside the critical section.
func (c *crashPlan) token() string {
	if c.inCSOnly {
		return fmt.Sprintf("crashcs=%d,%d", c.m, c.seed)
	}
	return fmt.Sprintf("crash=%d,%d", c.m, c.seed)
}

func parseCrashToken(s string) (m int, seed uint64, inCSOnly bool, err error) {
	inCSOnly = strings.HasPrefix(s, "crashcs=")
	s = strings.TrimPrefix(strings.TrimPrefix(s, "crashcs="), "crash=")
	ms, ss, ok := strings.Cut(s, ",")
	if !ok {
		return 0, 0, false, fmt.Errorf("bad crash plan %q", s)
	}
	if m, err = strconv.Atoi(ms); err != nil || m < 1 {
		return 0, 0, false, fmt.Errorf("bad crash count %q", ms)
	}
	if seed, err = strconv.ParseUint(ss, 10, 64); err != nil {
		return 0, 0, false, fmt.Errorf("bad crash seed %q", ss)
	}
	return m, seed, inCSOnly, nil
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
	for i := 0; i < e.cfg.crashRuns; i++ {
		if !deadline.IsZero() && time.Now().After(deadline) {
			ph.Stopped = "budget"
			break
		}
		seed := sched.Seed(e.cfg.seed^0x4352, i)
		e.plan = newCrashPlan(m, seed, !e.s.CrashAnywhere, g, p)
		c := sched.NewRandom(seed)
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
