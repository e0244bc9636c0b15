package sync

import (
	"context"
	"time"
)

// Chan is a channel of T for locks that wait on channels: NewChan(n)
// makes one with a buffer of n (0: every send waits for its receive), with
// Send, Recv, TrySend, TryRecv, RecvTimeout and Close as on a Go channel.
// Under lockgen_check each is a scheduling point and a goroutine waiting
// in one is not runnable until the operation that completes it.
type Chan[T any] struct {
	m      monitor
	size   int
	buf    []T
	recvq  []*chanWaiter[T]
	sendq  []*chanWaiter[T]
	closed bool
}

type chanWaiter[T any] struct {
	p    parker
	v    T
	ok   bool // receiver: got a value (not the close)
	done bool // the operation completed (guarded by the monitor)
}

// NewChan returns a channel with a buffer of n values.
func NewChan[T any](n int) *Chan[T] { return &Chan[T]{size: n} }

func (c *Chan[T]) state() int64 {
	s := int64(len(c.buf))<<32 | int64(len(c.recvq))<<16 | int64(len(c.sendq))
	if c.closed {
		s |= 1 << 62
	}
	return s
}

// Send sends v, waiting for room or a receiver. It panics on a closed
// channel, as a Go channel does.
func (c *Chan[T]) Send(v T) {
	if !c.send(v, true) {
		panic("unreachable: a blocking send always completes")
	}
}

// TrySend sends v if that needs no wait, and reports whether it did.
func (c *Chan[T]) TrySend(v T) bool { return c.send(v, false) }

func (c *Chan[T]) send(v T, wait bool) bool {
	c.m.enter(opTry)
	if c.closed {
		c.m.leave(c.state())
		panic("send on closed channel")
	}
	if len(c.recvq) > 0 {
		r := c.recvq[0]
		c.recvq = c.recvq[1:]
		r.v, r.ok, r.done = v, true, true
		c.m.leaveWrote(c.state())
		r.p.unpark()
		return true
	}
	if len(c.buf) < c.size {
		c.buf = append(c.buf, v)
		c.m.leaveWrote(c.state())
		return true
	}
	if !wait {
		c.m.leave(c.state())
		return false
	}
	w := &chanWaiter[T]{v: v}
	c.sendq = append(c.sendq, w)
	c.m.leaveWrote(c.state())
	w.p.park()
	if !w.ok {
		panic("send on closed channel")
	}
	return true
}

// Recv receives a value, waiting for one; ok is false once the channel is
// closed and drained.
func (c *Chan[T]) Recv() (v T, ok bool) {
	v, ok, _ = c.recv(true, nil)
	return v, ok
}

// TryRecv receives a value if that needs no wait; got reports whether it
// did (ok as for Recv).
func (c *Chan[T]) TryRecv() (v T, ok, got bool) { return c.recv(false, nil) }

// RecvTimeout receives a value, waiting at most d; got reports whether the
// receive happened (ok as for Recv).
func (c *Chan[T]) RecvTimeout(d time.Duration) (v T, ok, got bool) {
	d = max(d, 1)
	return c.recv(true, func(p *parker) bool { return p.parkTimeout(d) })
}

// RecvContext receives a value, waiting until ctx is done: err is nil when
// the receive happened (ok as for Recv), ctx.Err() when it did not, as a
// select on the channel and ctx.Done() would; a value already there is
// taken even when ctx is done (a select may pick either).
func (c *Chan[T]) RecvContext(ctx context.Context) (v T, ok bool, err error) {
	v, ok, got := c.recv(true, func(p *parker) bool { return p.parkContext(ctx) })
	if !got {
		return v, false, ctx.Err()
	}
	return v, ok, nil
}

// recv waits for ever (wait and no give), not at all (!wait), or until
// give parks no longer (false).
func (c *Chan[T]) recv(wait bool, give func(*parker) bool) (v T, ok, got bool) {
	c.m.enter(opTry)
	if len(c.buf) > 0 {
		v = c.buf[0]
		c.buf = c.buf[1:]
		if len(c.sendq) > 0 { // a waiting sender's value takes the freed place
			s := c.sendq[0]
			c.sendq = c.sendq[1:]
			c.buf = append(c.buf, s.v)
			s.ok, s.done = true, true
			c.m.leaveWrote(c.state())
			s.p.unpark()
			return v, true, true
		}
		c.m.leaveWrote(c.state())
		return v, true, true
	}
	if len(c.sendq) > 0 { // unbuffered: take the value from the sender
		s := c.sendq[0]
		c.sendq = c.sendq[1:]
		s.ok, s.done = true, true
		c.m.leaveWrote(c.state())
		s.p.unpark()
		return s.v, true, true
	}
	if c.closed {
		c.m.leave(c.state())
		return v, false, true
	}
	if !wait {
		c.m.leave(c.state())
		return v, false, false
	}
	w := &chanWaiter[T]{}
	c.recvq = append(c.recvq, w)
	c.m.leaveWrote(c.state())
	if give == nil {
		w.p.park()
		return w.v, w.ok, true
	}
	if give(&w.p) {
		return w.v, w.ok, true
	}
	c.m.enter(opWrite)
	if w.done { // a sender handed it a value meanwhile: take it
		c.m.leave(c.state())
		w.p.park()
		return w.v, w.ok, true
	}
	for i, x := range c.recvq {
		if x == w {
			c.recvq = append(c.recvq[:i], c.recvq[i+1:]...)
			break
		}
	}
	c.m.leaveWrote(c.state())
	return v, false, false
}

// Close closes the channel: waiting receivers get the zero value and
// false, waiting senders panic. Closing twice panics.
func (c *Chan[T]) Close() {
	c.m.enter(opWrite)
	if c.closed {
		c.m.leave(c.state())
		panic("close of closed channel")
	}
	c.closed = true
	rs, ss := c.recvq, c.sendq
	c.recvq, c.sendq = nil, nil
	for _, r := range rs {
		r.done = true
	}
	for _, s := range ss {
		s.done = true
	}
	c.m.leaveWrote(c.state())
	for _, r := range rs {
		r.p.unpark()
	}
	for _, s := range ss {
		s.p.unpark()
	}
}

// Len is the number of values buffered.
func (c *Chan[T]) Len() int {
	c.m.enter(opRead)
	n := len(c.buf)
	c.m.leave(c.state())
	return n
}
