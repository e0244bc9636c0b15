package sched

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Giving up a wait. A lock's LockContext waits until the lock comes or its
// context is cancelled; under the controlled scheduler the cancellation is
// a scheduling choice like any other: while a goroutine whose context the
// scheduler holds waits (blocked or retrying in Wait, or parked with
// ParkContext), the candidates of every decision include "cancel its
// context", which cancels it and runs the goroutine at once. The choice is
// recorded as -(g+1) among the goroutines' numbers, so tokens replay it;
// Random picks it like a goroutine, PCT gives each goroutine's canceller
// a priority of its own, and DFS tries it at every point. Everyone waiting
// is a deadlock only when nobody can give up.

// CancelContext returns a context the scheduler may cancel while this
// goroutine waits, until stop is called (after which it stays as it is).
// Hand it to the lock's LockContext; it is cancelled with
// context.Canceled.
func (h *Proc) CancelContext(parent context.Context) (ctx context.Context, stop func()) {
	c := &cancelContext{Context: parent, done: make(chan struct{})}
	p := h.p
	p.ctx, c.armed = c, true
	return c, func() {
		c.armed = false
		if p.ctx == c {
			p.ctx = nil
		}
	}
}

// cancelContext is a context that only the scheduler cancels. Only the
// running managed goroutine touches its armed flag (the scheduler's
// hand-over orders the accesses); err is guarded for readers outside.
type cancelContext struct {
	context.Context
	armed bool
	done  chan struct{}
	mu    sync.Mutex
	err   error
}

func (c *cancelContext) Done() <-chan struct{} { return c.done }

func (c *cancelContext) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

func (c *cancelContext) Deadline() (time.Time, bool) { return time.Time{}, false }

func (c *cancelContext) cancelled() bool { return c.Err() != nil }

func (c *cancelContext) cancel() {
	c.mu.Lock()
	if c.err == nil {
		c.err = context.Canceled
		close(c.done)
	}
	c.mu.Unlock()
}

func (c *cancelContext) String() string { return "sched.CancelContext" }

// schedContext returns ctx as the scheduler's, if it is, armed, for p.
func (p *proc) schedContext(ctx context.Context) *cancelContext {
	c, ok := ctx.(*cancelContext)
	if !ok || !c.armed || p.ctx != c {
		return nil
	}
	return c
}

// cancellable reports whether the scheduler may cancel q's context now:
// it is armed and not yet cancelled, and q is at a wait (Wait, or a
// ParkContext on it).
func (q *proc) cancellable() bool {
	return q.ctx != nil && q.ctx.armed && !q.ctx.cancelled() && q.atWait &&
		(q.state == stBlocked || q.state == stReady)
}

// cancelChoice is how a decision names the cancellation of g's context.
func cancelChoice(g int) int { return -(g + 1) }

// cancelOf returns the goroutine a choice cancels, and whether it is one.
func cancelOf(choice int) (int, bool) { return -choice - 1, choice < 0 }

// cancelWait cancels q's context and makes q runnable: a Wait-blocked
// goroutine retries, a parked one returns from ParkContext without the
// token. The event is q's, observed when q runs (cancelled).
func (ex *execution) cancelWait(q *proc) {
	q.ctx.cancel()
	// Its wait is over: the fairness rule (decide) owes the others nothing
	// for it, or every give-up would let them act before its next step.
	q.lower = 0
	if q.state == stBlocked {
		if pk := q.parkedOn; pk != nil && pk.waiter == q {
			pk.waiter = nil
		}
		q.state = stReady
	}
	q.cancelEv = len(ex.events)
	ex.record(Event{G: q.id, Kind: EvCancel, Label: q.waitLabel})
}

// cancelled observes the cancellation recorded for p while it waited, now
// that p runs (Config.Observe runs on the goroutine it concerns).
func (p *proc) cancelled() {
	if i := p.cancelEv; i >= 0 {
		p.cancelEv = -1
		p.ex.observe(p, &p.ex.events[i])
	}
}

func cancelMsg(e *Event) string {
	return fmt.Sprintf("its context is cancelled while it waits at [%s]", e.Label)
}
