package sched

import (
	"context"
	"fmt"
	"sync"
	"time"
	"unsafe"
)

// Parker is a one-token wake-up for one goroutine at a time: a binary
// semaphore that starts empty. The zero value is ready. It is the primitive
// lockgen's waiting layer (and the checked blocking primitives built on it)
// sleeps on, so that the controlled scheduler sees every sleep and every
// wake-up: a goroutine blocked in Park is not runnable until an Unpark of
// the same Parker, and a lost wake-up becomes a detected deadlock.
//
// Within a controlled execution only the running managed goroutine touches
// a Parker's model (the scheduler's hand-over orders the accesses); outside
// one, Park and Unpark block and wake for real.
type Parker struct {
	// The model, valid for the execution ex.
	ex     *execution
	token  bool
	waiter *proc // blocked (or, with a timeout, waiting) in Park
	id     int   // p1, p2, ... by first use in the execution

	// The real thing, outside executions.
	mu sync.Mutex
	ch chan struct{}
}

// Managed reports whether the caller is a managed goroutine of a controlled
// execution in progress.
func Managed() bool { return managed() != nil }

// Park takes the token if present (returning at once), otherwise blocks
// until Unpark deposits it. In a controlled execution it is a scheduling
// point; blocked, the goroutine is not runnable until an Unpark.
func (pk *Parker) Park(label string) {
	if p := managed(); p != nil {
		p.parkOn(pk, label, parkFor)
		return
	}
	<-pk.real()
}

// ParkContext is Park that gives up when ctx is done; it reports whether
// it got the token. In a controlled execution a context made by
// Proc.CancelContext is cancelled by the scheduler, as a choice, while the
// goroutine waits here (cancel.go); any other context is waited on as if
// it were never cancelled, since the scheduler cannot tell when it would
// be. Outside one, it waits for whichever comes first.
func (pk *Parker) ParkContext(label string, ctx context.Context) bool {
	if p := managed(); p != nil {
		if c := p.schedContext(ctx); c != nil {
			if c.cancelled() {
				return false
			}
			return p.parkOn(pk, label, parkCtx)
		}
		p.parkOn(pk, label, parkFor)
		return true
	}
	select {
	case <-pk.real():
		return true
	case <-ctx.Done():
		return false
	}
}

// ParkTimeout is Park that may give up; it reports whether it got the
// token. In a controlled execution the waiting goroutine stays runnable,
// and being scheduled while still waiting means the timeout fired, so the
// strategies explore both outcomes; outside one, d is a real timeout.
func (pk *Parker) ParkTimeout(label string, d time.Duration) bool {
	if p := managed(); p != nil {
		return p.parkOn(pk, label, parkTimed)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-pk.real():
		return true
	case <-t.C:
		return false
	}
}

// Unpark deposits the token (at most one: Unpark on a full Parker changes
// nothing) and makes a goroutine waiting in Park runnable. In a controlled
// execution it is a scheduling point.
func (pk *Parker) Unpark(label string) {
	if p := managed(); p != nil {
		p.unpark(pk, label)
		return
	}
	select {
	case pk.real() <- struct{}{}:
	default:
	}
}

func (pk *Parker) real() chan struct{} {
	pk.mu.Lock()
	defer pk.mu.Unlock()
	if pk.ch == nil {
		pk.ch = make(chan struct{}, 1)
	}
	return pk.ch
}

// model returns the Parker's model for ex, starting a fresh one (empty, no
// waiter) in a new execution.
func (pk *Parker) model(ex *execution) *Parker {
	if pk.ex != ex {
		pk.ex, pk.token, pk.waiter = ex, false, nil
		ex.parkers++
		pk.id = ex.parkers
	}
	return pk
}

// How a park may end: only by an Unpark (Park), or also by its timeout
// (ParkTimeout: the goroutine stays runnable) or its context's
// cancellation (ParkContext: blocked, and cancellable).
type parkMode uint8

const (
	parkFor parkMode = iota
	parkTimed
	parkCtx
)

// parkOn is Park, ParkTimeout or ParkContext on the running managed
// goroutine.
func (p *proc) parkOn(pk *Parker, label string, mode parkMode) bool {
	timed := mode == parkTimed
	ex := p.ex
	p.reads = p.reads[:0]
	p.next = unsafe.Pointer(pk)
	ex.point(p, ptNormal)
	if ex.stopped.Load() {
		return true
	}
	pk = pk.model(ex)
	p.noteAccess(unsafe.Pointer(pk), true, true)
	if pk.token {
		pk.token = false
		ex.observe(p, ex.record(Event{G: p.id, Kind: EvPark, Label: label, Reg: pk.id}))
		return true
	}
	if pk.waiter != nil {
		p.h.Fail(FailPanic, "goroutine g%d parks on p%d, where g%d is already parked: a Parker serves one goroutine at a time",
			p.id, pk.id, pk.waiter.id)
	}
	pk.waiter = p
	p.parkedOn, p.waitLabel, p.woken = pk, label, false
	p.waitOn = p.waitOn[:0] // only an Unpark lets it go, not a write
	if !timed {
		p.state = stBlocked
	}
	ex.observe(p, ex.record(Event{G: p.id, Kind: EvPark, Label: label, Reg: pk.id, Blocked: true}))
	// Blocked, the goroutine yields. Waiting with a timeout, it stays
	// runnable and going on is a choice like any other (the timeout fires),
	// so it is not a yield that would let the fairness rule always run the
	// others first.
	kind := ptFree
	if timed {
		kind = ptNormal
	}
	p.atWait = mode == parkCtx
	ex.point(p, kind)
	if ex.stopped.Load() {
		return true
	}
	p.noteAccess(unsafe.Pointer(pk), true, true)
	p.parkedOn = nil
	if p.woken {
		return true
	}
	// Scheduled while still waiting: the timeout fired, or the context
	// was cancelled.
	pk.waiter = nil
	ex.observe(p, ex.record(Event{G: p.id, Kind: EvPark, Label: label, Reg: pk.id, TimedOut: true}))
	// The timeout stands for time in which every other runnable goroutine
	// could run: the goroutine goes on from a yield, so the fairness rule
	// runs those first. Otherwise a loop that retries with a timeout could
	// time out for ever while the goroutine it waits for never runs, a
	// livelock no fair scheduler makes (a retry on a Sema or a Chan was
	// reported as no progress). A cancelled context is not time passing:
	// the scheduler chose it among the others' steps (cancel.go), and the
	// give-up runs at once, or a waker would always win the race.
	if timed {
		ex.point(p, ptYield)
		if ex.stopped.Load() {
			return true
		}
	}
	return false
}

// unpark is Unpark on the running managed goroutine.
func (p *proc) unpark(pk *Parker, label string) {
	ex := p.ex
	p.reads = p.reads[:0]
	p.next = unsafe.Pointer(pk)
	ex.point(p, ptNormal)
	if ex.stopped.Load() {
		return
	}
	pk = pk.model(ex)
	p.noteAccess(unsafe.Pointer(pk), true, true)
	ev := Event{G: p.id, Kind: EvUnpark, Label: label, Reg: pk.id, Woke: -1}
	if q := pk.waiter; q != nil {
		pk.waiter = nil
		q.woken = true
		if q.state == stBlocked {
			q.state = stReady
		}
		ev.Woke = q.id
	} else {
		pk.token = true
	}
	ex.observe(p, ex.record(ev))
}

// parkedMsg describes a goroutine blocked in Park, for deadlock reports.
func (p *proc) parkedMsg() string {
	return fmt.Sprintf("g%d is parked at [%s] on p%d, and nobody will unpark it", p.id, p.waitLabel, p.parkedOn.id)
}
