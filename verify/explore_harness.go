package verify

import (
	"context"
	"fmt"
	"strings"

	"github.com/lockgen/lockgen/verify/sched"
)

// Harness event tags.
const (
	tagBegin = iota + 1
	tagRBegin
	tagEnter
	tagREnter
	tagCS
	tagExit
	tagRExit
	tagTryBegin
	tagTryFail
	tagCtxBegin
	tagCtxFail
)

// exploreHarness is the state of one execution's checks. Only the running
// managed goroutine touches it (the scheduler hands over through channels,
// which orders the accesses).
type exploreHarness struct {
	s        Subject
	k        int
	accesses int
	writers  int    // holders, for a mutex or k-exclusion
	readers  int    // readers inside
	in       []int8 // 0 out, 1 writer/holder in, 2 reader in
	acq      []bool // in Acquire (begun, not entered)
	// cancelled: the scheduler cancelled the context of the current
	// LockContext. The process may still enter (a wait without abort code
	// goes on, abort code may find the lock), but others may pass it.
	cancelled []bool
	reader    []bool // the current passage reads
	begin     []int  // event index of the current Acquire's start
	door      []int  // event index of its doorway, -1 if none yet
	try       []bool // the current passage is a TryAcquire
	overtook  []int  // entries of others since the doorway of the current Acquire
	gaveUp    bool   // a TryAcquire has failed in this execution
	shared    *bool  // set when two are inside at once
	// The crash phase's: the plan (nil outside it), who crashed, each
	// goroutine's current passage (0-based) and its accesses in it.
	plan      *crashPlan
	crashed   []bool
	passage   []int
	accesses1 []int
	// enabled[g] >= 0 counts g's accesses since a process that began
	// after g's doorway entered first (FIFE: g must now be enabled); -1
	// otherwise. enabledBy[g] is that process.
	enabled, enabledBy []int
}

// acquireContext makes g's AcquireContext with a context the scheduler
// may cancel; it reports whether g entered.
func (e *explorer) acquireContext(pr *sched.Proc, inst ContextInstance, g int) bool {
	ctx, stop := pr.CancelContext(context.Background())
	err := inst.AcquireContext(ctx, g)
	stop()
	switch {
	case err == nil:
		return true
	case ctx.Err() == nil:
		pr.Fail(ExploreAbort, "g%d's LockContext returned %v although its context was not cancelled", g, err)
	case err != ctx.Err():
		pr.Fail(ExploreAbort, "g%d's LockContext returned %v, not its context's error (%v)", g, err, ctx.Err())
	}
	pr.Note(tagCtxFail, "LockContext gave up: "+err.Error())
	return false
}

// run runs one execution of g goroutines × p passages on a fresh instance.
func (e *explorer) run(c sched.Chooser, g, p int) *sched.Result {
	e.t.Helper()
	inst := e.s.New()
	var rw RWInstance
	if e.s.Mode.Readers() {
		var ok bool
		if rw, ok = inst.(RWInstance); !ok {
			e.t.Fatalf("verify.Explore: subject %q is RW but its instances (%T) are not RWInstance", e.s.Name, inst)
		}
	}
	h := &exploreHarness{s: e.s, k: e.s.k(), in: make([]int8, g), acq: make([]bool, g),
		cancelled: make([]bool, g), reader: make([]bool, g), begin: make([]int, g), door: make([]int, g), try: make([]bool, g), overtook: make([]int, g),
		shared: &e.shared, plan: e.plan, crashed: make([]bool, g), passage: make([]int, g), accesses1: make([]int, g),
		enabled: make([]int, g), enabledBy: make([]int, g)}
	for i := range h.passage {
		h.passage[i], h.enabled[i] = -1, -1
	}
	try, _ := inst.(TryInstance)
	ctxInst, _ := inst.(ContextInstance)
	e.shared = false
	bodies := make([]func(*sched.Proc), g)
	for i := range bodies {
		bodies[i] = func(pr *sched.Proc) {
			// When an Acquire begins matters only to the FIFO check; for
			// the others a scheduling point there would only repeat the one
			// at the Acquire's first access.
			begin := pr.Note
			if e.s.FIFO || e.s.WriterPriority {
				begin = pr.Point
			}
			for j := 0; j < p; j++ {
				if rw != nil && (i+j)%2 == 1 {
					begin(tagRBegin, "RAcquire begins")
					rw.RAcquire(i)
					pr.Note(tagREnter, "enters the critical section (reader)")
					pr.Pause(tagCS, "in the critical section")
					pr.Note(tagRExit, "leaves; RRelease begins")
					rw.RRelease(i)
					continue
				}
				if try != nil && rw == nil && (i+j)%2 == 1 {
					// Half the passages try: a TryAcquire that wrongly
					// succeeds breaks the same invariants.
					begin(tagTryBegin, "TryAcquire begins")
					if !try.TryAcquire(i) {
						pr.Note(tagTryFail, "TryAcquire failed")
						continue
					}
				} else if ctxInst != nil && rw == nil && j < p-1 {
					// Every passage but the last may give up: the
					// scheduler may cancel its context at any wait. The
					// last one may not, so a lock lost to a give-up (a
					// handoff to a waiter that left) shows as a deadlock,
					// and so does a process that cannot get back in.
					begin(tagCtxBegin, "LockContext begins")
					if !e.acquireContext(pr, ctxInst, i) {
						continue
					}
				} else {
					begin(tagBegin, "Acquire begins")
					inst.Acquire(i)
				}
				pr.Note(tagEnter, "enters the critical section")
				pr.Pause(tagCS, "in the critical section")
				pr.Note(tagExit, "leaves; Release begins")
				inst.Release(i)
			}
		}
	}
	return sched.Run(sched.Config{Chooser: c, MaxSteps: e.cfg.maxSteps, Stall: e.cfg.stall, Observe: h.observe,
		Shared: h.sharedEvent}, bodies)
}

// sharedEvent tells the scheduler's reduction which harness events check
// or change what the goroutines share (sched.Config.Shared): entries and
// exits always (the count of those inside); beginnings, failed tries and
// doorways only for the checks that compare them across goroutines
// (FIFO, FIFE, writer priority, bounded waiting); the critical section's
// pause never.
func (h *exploreHarness) sharedEvent(ev *sched.Event) bool {
	ordered := h.s.FIFO || h.s.FIFE || h.s.WriterPriority || h.s.BoundedWaiting
	switch ev.Kind {
	case sched.EvDoorway:
		return ordered
	case sched.EvPoint, sched.EvNote, sched.EvYield:
		switch ev.Tag {
		case tagEnter, tagREnter, tagExit, tagRExit:
			return true
		case tagCS:
			return false
		case tagBegin, tagRBegin, tagTryBegin, tagTryFail:
			return ordered
		}
	}
	return true
}

func (h *exploreHarness) observe(p *sched.Proc, ev *sched.Event) {
	h.check(p, ev)
	if h.plan != nil {
		h.crashTrigger(p, ev.G, ev)
	}
}

// check follows one event and checks the invariants it may break.
func (h *exploreHarness) check(p *sched.Proc, ev *sched.Event) {
	g, idx := ev.G, p.Events()-1
	switch ev.Kind {
	case sched.EvAccess:
		h.accesses++
		h.accesses1[g]++
		if h.enabled[g] >= 0 {
			if h.enabled[g]++; h.enabled[g] > h.s.FIFESteps {
				p.Fail(ExploreFIFE, "g%d has taken %d steps since g%d, which began its Acquire after g%d's doorway, entered the critical section, "+
					"and is still not in: the lock claims it enters within %d", g, h.enabled[g], h.enabledBy[g], g, h.s.FIFESteps)
			}
		}
	case sched.EvWait, sched.EvPark:
		if ev.Blocked && h.enabled[g] >= 0 && !strings.HasSuffix(ev.Label, sched.LayerWait) {
			p.Fail(ExploreFIFE, "g%d waits for another process's write (at [%s]) although g%d, which began its Acquire after g%d's doorway, "+
				"entered the critical section first: the lock claims g%d is enabled", g, ev.Label, h.enabledBy[g], g, g)
		}
	case sched.EvDoorway:
		if h.acq[g] && h.door[g] < 0 {
			h.door[g] = idx
		}
	case sched.EvCancel:
		// g gives up its place: those behind may pass it (FIFO among the
		// processes that stay), and bounds counted from its doorway lapse.
		h.cancelled[g], h.gaveUp, h.enabled[g] = true, true, -1
	case sched.EvPoint, sched.EvNote:
		switch ev.Tag {
		case tagBegin, tagRBegin, tagTryBegin, tagCtxBegin:
			h.acq[g], h.reader[g], h.try[g] = true, ev.Tag == tagRBegin, ev.Tag == tagTryBegin
			h.begin[g], h.door[g], h.overtook[g], h.cancelled[g] = idx, -1, 0, false
			h.passage[g]++
			h.accesses1[g] = 0
		case tagTryFail, tagCtxFail:
			h.acq[g], h.gaveUp = false, true
		case tagEnter, tagREnter:
			h.enter(p, g, idx)
		case tagExit:
			h.in[g] = 0
			h.writers--
		case tagRExit:
			h.in[g] = 0
			h.readers--
		}
	}
}

// owed reports whether q is in an acquire that the lock's order claims
// (FIFO, FIFE, bounded waiting, writer priority) cover: one whose context
// was cancelled may be passed.
func (h *exploreHarness) owed(q int) bool { return h.acq[q] && !h.cancelled[q] }

func (h *exploreHarness) enter(p *sched.Proc, g, idx int) {
	if h.accesses == 0 {
		p.Fail(ExploreNotInstrumented, "%s", notInstrumented)
	}
	reader := h.reader[g]
	switch {
	case reader && h.writers > 0:
		p.Fail(ExploreMutualExclusion, "reader g%d entered the critical section while writer %s holds it",
			g, h.holders(1))
	case !reader && h.s.Mode.Readers() && h.readers > 0:
		p.Fail(ExploreMutualExclusion, "writer g%d entered the critical section while reader(s) %s hold it",
			g, h.holders(2))
	case !reader && h.writers >= h.k:
		who := "holds"
		if h.writers > 1 {
			who = "hold"
		}
		p.Fail(ExploreMutualExclusion, "g%d entered the critical section while %s %s it (at most %d allowed)",
			g, h.holders(1), who, h.k)
	}
	if h.s.FIFO {
		if h.door[g] < 0 && !h.try[g] { // a try-acquire has no doorway
			p.Fail(ExploreFIFO, "the subject claims FIFO, but g%d's Acquire returned without reporting "+
				"the end of its doorway (sched.Doorway)", g)
		}
		for q := range h.acq {
			if q == g || !h.owed(q) || h.door[q] < 0 || h.door[q] >= h.begin[g] {
				continue
			}
			if reader && h.reader[q] {
				continue // readers may pass each other
			}
			p.Fail(ExploreFIFO, "g%d entered the critical section (event %d) before g%d, although g%d "+
				"finished its doorway (event %d) before g%d began its Acquire (event %d)",
				g, idx+1, q, q, h.door[q]+1, g, h.begin[g]+1)
		}
	}
	if h.s.FIFE {
		h.enabled[g] = -1
		for q := range h.acq {
			if q != g && h.owed(q) && h.door[q] >= 0 && h.door[q] < h.begin[g] && h.enabled[q] < 0 {
				h.enabled[q], h.enabledBy[q] = 0, g
			}
		}
	}
	if h.s.WriterPriority && reader {
		for q := range h.acq {
			if q != g && h.owed(q) && !h.reader[q] && h.door[q] >= 0 && h.door[q] < h.begin[g] {
				p.Fail(ExploreWriterPriority, "reader g%d entered the critical section (event %d) before writer g%d, although g%d "+
					"finished its doorway (event %d) before g%d began its RAcquire (event %d)",
					g, idx+1, q, q, h.door[q]+1, g, h.begin[g]+1)
			}
		}
	}
	if h.s.BoundedWaiting && !(h.s.OvertakesLockOnly && h.gaveUp) {
		for q := range h.acq {
			if q == g || !h.owed(q) || h.door[q] < 0 {
				continue
			}
			h.overtook[q]++
			if h.overtook[q] > h.s.Overtakes {
				p.Fail(ExploreBoundedWaiting, "g%d entered the critical section (event %d): g%d has been overtaken %d times "+
					"since it finished its doorway (event %d); the lock claims at most %d",
					g, idx+1, q, h.overtook[q], h.door[q]+1, h.s.Overtakes)
			}
		}
	}
	h.acq[g] = false
	if reader {
		h.in[g] = 2
		h.readers++
	} else {
		h.in[g] = 1
		h.writers++
	}
	if h.readers > 1 || h.writers > 1 {
		*h.shared = true
	}
}

// holders lists the goroutines in the critical section in mode m (1 writer
// or holder, 2 reader).
func (h *exploreHarness) holders(m int8) string {
	var s []string
	for q, in := range h.in {
		if in == m {
			s = append(s, fmt.Sprintf("g%d", q))
		}
	}
	return strings.Join(s, ", ")
}
