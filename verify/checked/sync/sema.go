package sync

import (
	"context"
	"time"
)

// Sema is a counting semaphore: Acquire takes a permit, waiting while
// there is none; Release returns one, handing it directly to the longest
// waiter if any. The zero value has no permits; NewSema makes one with n.
type Sema struct {
	m       monitor
	permits int
	waiters []*semaWaiter
}

type semaWaiter struct {
	p       parker
	granted bool // a Release handed it a permit (guarded by the monitor)
}

// NewSema returns a semaphore holding n permits.
func NewSema(n int) *Sema { return &Sema{permits: n} }

func (s *Sema) state() int64 { return int64(s.permits)<<32 | int64(len(s.waiters)) }

// Acquire takes a permit, waiting for one.
func (s *Sema) Acquire() { s.acquire(nil) }

// AcquireTimeout takes a permit, waiting at most d; it reports whether it
// got one. A waiter that gives up after a Release handed it the permit
// keeps it (reports true), so no permit is lost.
func (s *Sema) AcquireTimeout(d time.Duration) bool {
	return s.acquire(func(p *parker) bool { return p.parkTimeout(d) })
}

// AcquireContext takes a permit, waiting until ctx is done: it returns nil
// with a permit, or ctx.Err() without one. As with AcquireTimeout, a
// waiter whose context ends after a Release handed it the permit keeps
// it (returns nil).
func (s *Sema) AcquireContext(ctx context.Context) error {
	if s.acquire(func(p *parker) bool { return p.parkContext(ctx) }) {
		return nil
	}
	return ctx.Err()
}

// acquire takes a permit; wait, when not nil, parks until it gives up
// (false) or is woken.
func (s *Sema) acquire(wait func(*parker) bool) bool {
	s.m.enter(opTry)
	if s.permits > 0 {
		s.permits--
		s.m.leaveWrote(s.state())
		return true
	}
	w := &semaWaiter{}
	s.waiters = append(s.waiters, w)
	s.m.leaveWrote(s.state())
	if wait == nil {
		w.p.park()
		return true // only a Release wakes a waiter, with the permit
	}
	if wait(&w.p) {
		return true
	}
	// Gave up; unless a Release granted the permit meanwhile, leave.
	s.m.enter(opWrite)
	if w.granted {
		s.m.leave(s.state())
		w.p.park() // its wake-up is on the way: absorb it
		return true
	}
	for i, x := range s.waiters {
		if x == w {
			s.waiters = append(s.waiters[:i], s.waiters[i+1:]...)
			break
		}
	}
	s.m.leaveWrote(s.state())
	return false
}

// TryAcquire takes a permit if one is free, and reports whether it did.
func (s *Sema) TryAcquire() bool {
	s.m.enter(opTry)
	if s.permits > 0 {
		s.permits--
		s.m.leaveWrote(s.state())
		return true
	}
	s.m.leave(s.state())
	return false
}

// Release returns a permit: to the longest waiter if there is one.
func (s *Sema) Release() {
	s.m.enter(opWrite)
	if len(s.waiters) == 0 {
		s.permits++
		s.m.leaveWrote(s.state())
		return
	}
	w := s.waiters[0]
	s.waiters = s.waiters[1:]
	w.granted = true
	s.m.leaveWrote(s.state())
	w.p.unpark()
}
