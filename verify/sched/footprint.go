package sched

import "unsafe"

// A step is what one goroutine does from being chosen at a scheduling
// point to its next one: at most one access to a register or a Parker (an
// access is always the first thing after a point), then local work, the
// harness's events, a Doorway, the evaluation of a Wait. Its footprint is
// what the partial-order reduction (DFS.Reduce) knows of it: what it read
// and wrote, and the effects that order it against other steps whatever
// they touch.
type footprint struct {
	// obj is the register word or Parker the step accessed, nil if none;
	// wrote: the access changed it (a write that leaves a register's word
	// as it was, a failed CAS, is a read).
	obj   unsafe.Pointer
	wrote bool
	// reads are the registers whose versions a Wait compared: whether it
	// blocks depends on every write to them since they were read.
	reads []unsafe.Pointer
	flags stepFlags
}

// stepFlags are a step's effects beyond its register and Parker.
type stepFlags uint8

const (
	// fHarness: a harness event (Point, Yield, Note) or a Doorway, which
	// the harness's checks read and write: all of them are ordered.
	fHarness stepFlags = 1 << iota
	// fObserved: an access, wait, park or unpark the harness observed
	// (Config.Observe); with DFS.ObserveSteps it reads the harness's
	// state, so it is ordered against every harness event.
	fObserved
	// fYield: the step ended at a yield point (Wait, Yield, Delay, a
	// blocking Park). Ordered against every step of another goroutine:
	// the fairness rule (see decide) demotes a yielding goroutine below
	// those enabled and not scheduled since its previous yield, so moving
	// another's step across a yield could forbid a schedule the original
	// allowed.
	fYield
	// fWait: the step evaluated a Wait, reading its read set's versions.
	fWait
	// fResume: the step resumed a goroutine a Wait had blocked: a write
	// to a register it waited on made it runnable, so it reads them.
	fResume
	// fCrash: the goroutine crashed; ordered against everything.
	fCrash
	// fHidden: the step wrote a register outside a scheduling point
	// (Init), which no later execution can name: ordered against
	// everything.
	fHidden
)

// harnessObj stands for the harness's state among a step's objects.
var harnessObj = unsafe.Pointer(new(byte))

func (f *footprint) reset() {
	f.obj, f.wrote, f.reads, f.flags = nil, false, f.reads[:0], 0
}

// shape is a step's footprint without its objects: what the DFS keeps of
// a step it ran, to rebuild its footprint in a later execution from the
// goroutine's state there (see sleeperFootprint). The objects are this
// execution's addresses, meaningless in another; the goroutine's pending
// access and read set name the same registers in every execution that
// reaches the same point.
type shape struct {
	wrote bool
	flags stepFlags
}

func (f *footprint) shape() shape { return shape{wrote: f.wrote, flags: f.flags} }

// dependent reports whether two steps of different goroutines may not be
// swapped: swapping them could change what either does, the state they
// leave, or whether the harness's checks see the same order of events.
func dependent(a, b *footprint, observeSteps bool) bool {
	if (a.flags|b.flags)&(fCrash|fHidden|fYield) != 0 {
		return true
	}
	ah, bh := a.flags&fHarness != 0, b.flags&fHarness != 0
	if ah && bh {
		return true
	}
	if observeSteps && (ah && b.flags&fObserved != 0 || bh && a.flags&fObserved != 0) {
		return true
	}
	return conflict(a, b) || conflict(b, a)
}

// conflict reports whether a writes an object b accesses.
func conflict(a, b *footprint) bool {
	if !a.wrote {
		return false
	}
	if b.obj == a.obj {
		return true
	}
	for _, r := range b.reads {
		if r == a.obj {
			return true
		}
	}
	return false
}

// Footprint recording, on the running goroutine.

func (p *proc) noteAccess(obj unsafe.Pointer, wrote, observed bool) {
	p.fp.obj, p.fp.wrote = obj, wrote
	if observed {
		p.fp.flags |= fObserved
	}
}

func (p *proc) noteHarness(e *Event) {
	if shared := p.ex.cfg.Shared; shared == nil || shared(e) {
		p.fp.flags |= fHarness
	}
}

func (p *proc) noteWait() {
	p.fp.flags |= fWait | fObserved
	for _, e := range p.reads {
		p.fp.reads = append(p.fp.reads, e.r.addr)
	}
}

func (p *proc) noteResume() {
	p.fp.flags |= fResume
	for _, e := range p.waitOn {
		p.fp.reads = append(p.fp.reads, e.r.addr)
	}
}

// sleeperFootprint rebuilds, in this execution, the footprint of the step
// q would take next, whose shape a DFS recorded when it ran that step in
// an earlier execution from the same point: q's pending object is the
// one its step accesses, and a Wait in it compares at most q's read set
// and that object.
func (q *proc) sleeperFootprint(s shape, f *footprint) {
	f.reset()
	f.obj, f.wrote, f.flags = q.next, s.wrote, s.flags
	if s.flags&fWait != 0 {
		for _, e := range q.reads {
			f.reads = append(f.reads, e.r.addr)
		}
		if q.next != nil {
			f.reads = append(f.reads, q.next)
		}
	}
	if s.flags&fResume != 0 {
		for _, e := range q.waitOn {
			f.reads = append(f.reads, e.r.addr)
		}
	}
}
