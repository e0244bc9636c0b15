package sched

// DFS enumerates the schedules with at most Bound preemptions, depth first,
// re-executing from scratch for each one (stateless): iterative context
// bounding as in CHESS (Musuvathi and Qadeer, "Iterative Context Bounding
// for Systematic Testing of Multithreaded Programs", PLDI 2007). A
// preemption is a switch away from a goroutine that could have continued at
// an ordinary point; switches at yields, blocked waits and finished
// goroutines are free, so spin loops do not use up the bound.
//
// With Reduce, the search skips schedules that only reorder independent
// steps of one it runs: sleep sets (Godefroid, "Partial-Order Methods for
// the Verification of Concurrent Systems", LNCS 1032, 1996, chapter 5; as
// the stateless searches of VeriSoft and of Flanagan and Godefroid,
// "Dynamic Partial-Order Reduction for Model Checking Software", POPL 2005,
// use them), restricted so that they stay sound under the preemption
// bound (see admit). Two steps are independent when they access different
// registers or Parkers or only read a common one (a write that leaves a
// register's word as it was is a read), neither is a harness event or a
// Doorway while the other is one (or, with ObserveSteps, any observed
// access), neither wakes a goroutine while the other yields, and neither
// crashes or initialises a register (Initialize). Every schedule it skips
// is equivalent to one it runs: the same steps, each dependent pair in the
// same order, so the same states, the same harness events in the same
// order, and no more preemptions. The bodies must share nothing that
// does not go through the scheduler (registers, Parkers, harness events):
// a plain variable two steps share is a dependence it cannot see.
//
// Use: for d.Next() { Run(Config{Chooser: d, ...}) }; d itself is the
// chooser of the current execution.
type DFS struct {
	Bound int
	// Reduce turns the partial-order reduction on (set it before the
	// first Next).
	Reduce bool
	// ObserveSteps says that Config.Observe reads state that harness
	// events write on every access, wait, park and unpark (as verify's
	// FIFE check counts a goroutine's steps since another's entry): each
	// of those is then ordered against every harness event.
	ObserveSteps bool

	// frames is the current path: frames[:len(prefix)] are replayed, the
	// last of them with its next choice; the rest are made as the
	// execution goes (the default: the first candidate the bound and the
	// sleep set allow).
	frames []dfsFrame
	depth  int // decisions taken in the current execution
	replay int // frames to replay
	pre    int // preemptions so far in this execution
	execs  int
	pruned int
	// started: Next has prepared the first execution; done: no more.
	started, done bool
	scratch       footprint
}

// dfsFrame is one decision of the current path.
type dfsFrame struct {
	cands       []int
	cur         int // Choice.Cur
	chosen      int
	pre         int // preemptions before this decision
	preemptible bool
	// sleep are the goroutines whose next step need not run here (it
	// was run, from this state or an earlier one of the path, in a
	// schedule already explored, and nothing since depends on it).
	sleep []sleeper
	// only, if not -1, is the goroutine that must run here: the parent
	// chose a costly sleeper of its (see sleeper.costly), and every other
	// way on is covered.
	only int
	// ran records, for each candidate index explored here, its step
	// (recorded when the next decision came).
	ran []ranStep
}

type sleeper struct {
	g  int
	sh shape
	// costly: the schedules the sleeper stands for may cost one
	// preemption more than those it skips, when its goroutine goes on
	// right after it (see admit): it still runs, but only followed by
	// its goroutine's next step.
	costly bool
}

type ranStep struct {
	known bool
	sh    shape
	// free: after the step its goroutine stood at a point where
	// switching away costs nothing (a yield, a block, its end).
	free bool
}

// NewDFS returns a depth-first search with at most bound preemptions.
func NewDFS(bound int) *DFS { return &DFS{Bound: bound} }

// Next prepares the next schedule; false once every schedule within the
// bound has been run.
func (d *DFS) Next() bool {
	if d.done {
		return false
	}
	d.depth, d.pre = 0, 0
	if !d.started {
		d.started = true
		d.frames, d.replay = d.frames[:0], 0
		d.execs++
		return true
	}
	for i := len(d.frames) - 1; i >= 0; i-- {
		f := &d.frames[i]
		if j := d.pick(f, f.chosen+1); j >= 0 {
			f.chosen = j
			d.frames = d.frames[:i+1]
			d.replay = i + 1
			d.execs++
			return true
		}
	}
	d.done = true
	return false
}

// pick returns the first candidate index of f from j on that the bound
// and the sleep set allow, or -1.
func (d *DFS) pick(f *dfsFrame, j int) int {
	for ; j < len(f.cands); j++ {
		cost := 0
		if f.preemptible && j != 0 {
			cost = 1
		}
		if f.pre+cost > d.Bound || (f.only >= 0 && f.cands[j] != f.only) {
			continue
		}
		if s := f.sleeper(f.cands[j]); s != nil && !s.costly {
			continue
		}
		return j
	}
	return -1
}

// sleeper returns g's entry in f's sleep set, nil if g is awake.
func (f *dfsFrame) sleeper(g int) *sleeper {
	for i := range f.sleep {
		if f.sleep[i].g == g {
			return &f.sleep[i]
		}
	}
	return nil
}

// Choose implements Chooser.
func (d *DFS) Choose(c *Choice) int {
	i := d.depth
	d.depth++
	if d.Reduce && i > 0 {
		d.record(&d.frames[i-1], c)
	}
	var f *dfsFrame
	if i < d.replay {
		f = &d.frames[i]
		if len(f.cands) != len(c.Cands) || f.cands[f.chosen] != c.Cands[f.chosen] {
			return -1 // the program did not repeat itself
		}
	} else {
		if len(d.frames) < cap(d.frames) {
			d.frames = d.frames[:i+1] // reuse the frame's slices
		} else {
			d.frames = append(d.frames, dfsFrame{})
		}
		f = &d.frames[i]
		f.cur, f.pre, f.preemptible = c.Cur, d.pre, c.Preemptible
		f.cands = append(f.cands[:0], c.Cands...)
		f.ran = f.ran[:0]
		f.sleep = f.sleep[:0]
		f.only = -1
		if d.Reduce && i > 0 {
			parent := &d.frames[i-1]
			d.inherit(f, parent, c)
			if s := parent.sleeper(parent.cands[parent.chosen]); s != nil {
				f.only = s.g // a costly sleeper ran: its goroutine goes on
			}
		}
		if f.chosen = d.pick(f, 0); f.chosen < 0 {
			d.pruned++
			return Prune
		}
	}
	if f.preemptible && f.chosen != 0 {
		d.pre++
	}
	return f.chosen
}

// record keeps the shape of the step just taken at frame f (the first
// time that choice is taken there).
func (d *DFS) record(f *dfsFrame, c *Choice) {
	for len(f.ran) <= f.chosen {
		f.ran = append(f.ran, ranStep{})
	}
	if _, cancel := cancelOf(f.cands[f.chosen]); cancel {
		return // a cancellation never sleeps (see inherit)
	}
	if r := &f.ran[f.chosen]; !r.known {
		step := &c.ex.procs[f.cands[f.chosen]].fp
		*r = ranStep{known: true, sh: step.shape(), free: !c.Preemptible}
	}
}

// inherit computes the sleep set of frame f, taken after the step chosen
// at its parent: the parent's sleepers and the steps explored before
// that one there that the bound admits, less those that depend on it.
//
// A cancellation (a goroutine's context cancelled by the scheduler) is
// taken as dependent on every step: after one the sleep set is empty, and
// none sleeps itself. Its effect shows in the cancelled goroutine's next
// step, whose footprint the reduction does not see at the cancellation.
func (d *DFS) inherit(f, parent *dfsFrame, c *Choice) {
	ex := c.ex
	if _, cancel := cancelOf(parent.cands[parent.chosen]); cancel {
		return
	}
	taken := &ex.procs[parent.cands[parent.chosen]].fp
	keep := func(s sleeper) {
		ex.procs[s.g].sleeperFootprint(s.sh, &d.scratch)
		if !dependent(&d.scratch, taken, d.ObserveSteps) || reductionControl == "independent" {
			f.sleep = append(f.sleep, s)
		}
	}
	for _, s := range parent.sleep {
		if s.g != parent.cands[parent.chosen] {
			keep(s)
		}
	}
	for j := 0; j < parent.chosen && j < len(parent.ran); j++ {
		if r := parent.ran[j]; r.known && parent.sleeper(parent.cands[j]) == nil {
			keep(sleeper{g: parent.cands[j], sh: r.sh, costly: !d.admit(parent, j, r)})
		}
	}
}

// admit reports whether the step of candidate j, explored at frame f
// before the one now chosen there, may sleep in the new branch under the
// preemption bound. A schedule the sleep set skips runs, after f's
// state, the chosen goroutine B's step u, steps W of others, then that
// step t of goroutine A, then the rest R; the schedule it stands for runs
// t first: t, u, W, R. Counting switches that cost a preemption (the
// goroutine switched from could continue at an ordinary point), the two
// differ at three places: at f (choosing u or t), after t (to u, or to
// R's first goroutine Y), and after W (to t, or to Y). With z the
// preemption cost at f, n(t) whether A after t could continue at an
// ordinary point, and c the goroutine at f, the skipped schedule costs
// z·([B≠c] − [A≠c]) + n(W's last)·[Y = W's last goroutine] − n(t)·[Y = A]
// more than its stand-in. Whatever W and Y are, that is at least 0 when
// n(t) = 0 (A stops at a yield, blocks or ends), or when A = c and z = 1
// (t continues the goroutine a switch at f would preempt). Then the
// stand-in is within the bound whenever the skipped schedule is, and
// the search, by induction on its order, runs it or another equivalent
// one within the bound. Elsewhere a sleep set could skip a schedule whose
// every equivalent exceeds the bound (Coons, Musuvathi and McKinley,
// "Bounded Partial-Order Reduction", OOPSLA 2013, show the same for
// dynamic partial-order reduction), so the step does not sleep.
func (d *DFS) admit(f *dfsFrame, j int, r ranStep) bool {
	return r.free || (f.preemptible && f.cands[j] == f.cur) || reductionControl == "unbounded-sleep"
}

// reductionControl breaks the reduction on purpose, for the tests that
// show their comparison bites: "independent" takes every two steps for
// independent, "unbounded-sleep" lets every explored step sleep.
var reductionControl string

// Executions returns how many schedules Next has started.
func (d *DFS) Executions() int { return d.execs }

// Pruned returns how many of them the reduction cut short: every way on
// from where they stopped was covered elsewhere.
func (d *DFS) Pruned() int { return d.pruned }

// Exhausted reports whether every schedule within the bound has been run.
func (d *DFS) Exhausted() bool { return d.done }
