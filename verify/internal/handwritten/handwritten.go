// Package handwritten holds locks written by hand, the way a user writes
// them, against verify/checked's drop-in primitives only: one of each
// shape a lock takes (spinning on atomics, parking on a channel, a mutex
// and a condition variable, a queue of per-node parkers, a reader/writer
// lock); TTAS and ChanLock can also give up a wait (LockContext). Each has
// a Bug field that plants one classic mistake; verify's tests require
// Stress and Explore to pass the correct versions and Explore to catch
// every planted one.
package handwritten

import (
	"context"
	"time"

	"github.com/lockgen/lockgen/verify/checked"
	"github.com/lockgen/lockgen/verify/checked/atomic"
	"github.com/lockgen/lockgen/verify/checked/runtime"
	"github.com/lockgen/lockgen/verify/checked/sync"
)

// Bug names a planted mistake.
type Bug int

// The planted mistakes.
const (
	Correct Bug = iota
	// CheckBeforeAnnounce: a waiter checks the lock, then announces that
	// it will sleep, leaving a window where the release neither lets it in
	// nor wakes it (the classic lost wake-up).
	CheckBeforeAnnounce
	// SkipWake: a release skips the wake it owes.
	SkipWake
	// DropHandoff: a release hands the lock to a waiter that already gave
	// up (a timeout, or its context's cancellation), and nobody ever takes
	// it.
	DropHandoff
	// GiveUpHolding: a waiter looks at its context after an attempt
	// rather than before it, and gives up even when the attempt took the
	// lock, which nobody then holds.
	GiveUpHolding
)

// TTAS spins on one atomic word: test, then test-and-set.
type TTAS struct {
	Bug   Bug
	state atomic.Int32
}

// Lock waits until the word is 0 and sets it.
func (l *TTAS) Lock() {
	for {
		for l.state.Load() != 0 {
			runtime.Gosched()
		}
		if l.state.CompareAndSwap(0, 1) {
			return
		}
	}
}

// LockContext is Lock that gives up when ctx is done: it returns nil
// holding the lock, or ctx.Err() without it. It looks at ctx while it
// waits, before each attempt, so an attempt that takes the lock keeps it.
func (l *TTAS) LockContext(ctx context.Context) error {
	for {
		for l.state.Load() != 0 {
			runtime.Gosched()
			if err := ctx.Err(); err != nil && l.Bug != GiveUpHolding {
				return err
			}
		}
		took := l.state.CompareAndSwap(0, 1)
		if err := ctx.Err(); err != nil && l.Bug == GiveUpHolding {
			return err // it looks after its attempt: a lock it took is lost
		}
		if took {
			return nil
		}
	}
}

// Unlock clears the word.
func (l *TTAS) Unlock() { l.state.Store(0) }

// ChanLock is a FIFO lock whose waiters each block on a channel of their
// own; Unlock hands the lock over by sending on the first waiter's.
type ChanLock struct {
	Bug     Bug
	mu      sync.Mutex
	locked  bool
	waiters []*sync.Chan[struct{}]
}

// Lock takes the lock, waiting in line.
func (l *ChanLock) Lock() {
	if c := l.enqueue(); c != nil {
		c.Recv() // handed the lock
	}
}

// enqueue takes a free lock (nil) or queues a channel to wait on.
func (l *ChanLock) enqueue() *sync.Chan[struct{}] {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.locked {
		l.locked = true
		return nil
	}
	c := sync.NewChan[struct{}](1)
	l.waiters = append(l.waiters, c)
	return c
}

// LockTimeout takes the lock, waiting at most d; it reports whether it
// did. A waiter that times out just as Unlock hands it the lock takes the
// lock (the hand-over is on its way), so the lock is never lost.
func (l *ChanLock) LockTimeout(d time.Duration) bool {
	return l.lockUntil(func(c *sync.Chan[struct{}]) bool {
		_, _, got := c.RecvTimeout(d)
		return got
	})
}

// LockContext takes the lock, waiting until ctx is done: nil with the
// lock, or ctx.Err() without it. As with LockTimeout, a waiter whose
// context ends just as Unlock hands it the lock takes the lock.
func (l *ChanLock) LockContext(ctx context.Context) error {
	if l.lockUntil(func(c *sync.Chan[struct{}]) bool {
		_, _, err := c.RecvContext(ctx)
		return err == nil
	}) {
		return nil
	}
	return ctx.Err()
}

// lockUntil takes the lock, waiting in line until wait gives up (false);
// it reports whether it took the lock.
func (l *ChanLock) lockUntil(wait func(*sync.Chan[struct{}]) bool) bool {
	c := l.enqueue()
	if c == nil {
		return true
	}
	if wait(c) {
		return true
	}
	l.mu.Lock()
	for i, w := range l.waiters {
		if w == c {
			l.waiters = append(l.waiters[:i], l.waiters[i+1:]...)
			l.mu.Unlock()
			return false
		}
	}
	l.mu.Unlock()
	if l.Bug == DropHandoff {
		return false // the lock handed over is lost: locked, and nobody holds it
	}
	c.Recv()
	return true
}

// Unlock hands the lock to the first waiter, or frees it.
func (l *ChanLock) Unlock() {
	l.mu.Lock()
	if len(l.waiters) == 0 {
		l.locked = false
		l.mu.Unlock()
		return
	}
	c := l.waiters[0]
	l.waiters = l.waiters[1:]
	last := len(l.waiters) == 0
	l.mu.Unlock()
	if l.Bug == SkipWake && last {
		return // the last waiter is never told
	}
	c.Send(struct{}{})
}

// CondLock is a mutex and a condition variable guarding a flag.
type CondLock struct {
	Bug    Bug
	mu     sync.Mutex
	cond   *sync.Cond
	locked bool
}

func (l *CondLock) c() *sync.Cond {
	if l.cond == nil {
		l.cond = sync.NewCond(&l.mu)
	}
	return l.cond
}

// Lock waits, under the mutex, until the flag is clear, and sets it.
func (l *CondLock) Lock() {
	if l.Bug == CheckBeforeAnnounce {
		for {
			l.mu.Lock()
			if !l.locked {
				l.locked = true
				l.mu.Unlock()
				return
			}
			l.mu.Unlock()
			// Window: Unlock can clear the flag and signal here, before
			// this waiter waits; nothing will signal it again.
			l.mu.Lock()
			l.c().Wait()
			l.mu.Unlock()
		}
	}
	l.mu.Lock()
	for l.locked {
		l.c().Wait()
	}
	l.locked = true
	l.mu.Unlock()
}

// Unlock clears the flag and signals one waiter.
func (l *CondLock) Unlock() {
	l.mu.Lock()
	l.locked = false
	c := l.c()
	l.mu.Unlock()
	c.Signal()
}

// MCS is Mellor-Crummey and Scott's queue lock with a Parker per node:
// a waiter sleeps until its predecessor's release unparks it.
type MCS struct {
	Bug  Bug
	tail atomic.Pointer[mcsNode]
}

type mcsNode struct {
	next     atomic.Pointer[mcsNode]
	locked   atomic.Bool
	sleeping atomic.Bool // CheckBeforeAnnounce only: the release unparks only announced sleepers
	p        sync.Parker
}

// MCSHandle is one goroutine's access to an MCS lock.
type MCSHandle struct {
	l *MCS
	n mcsNode
}

// NewHandle returns a handle for one goroutine.
func (l *MCS) NewHandle() *MCSHandle { return &MCSHandle{l: l} }

// Lock enqueues the handle's node and waits for the predecessor's release.
func (h *MCSHandle) Lock() {
	n := &h.n
	n.next.Store(nil)
	n.locked.Store(true)
	pred := h.l.tail.Swap(n)
	checked.Doorway() // its place in line is fixed: first come, first served from here
	if pred == nil {
		return
	}
	pred.next.Store(n)
	for n.locked.Load() {
		if h.l.Bug == CheckBeforeAnnounce {
			n.sleeping.Store(true) // announced after the check above
		}
		n.p.Park()
	}
	n.sleeping.Store(false)
}

// Unlock lets the successor in, waiting for it to link itself if one is
// on its way.
func (h *MCSHandle) Unlock() {
	n := &h.n
	next := n.next.Load()
	if next == nil {
		if h.l.tail.CompareAndSwap(n, nil) {
			return
		}
		for next = n.next.Load(); next == nil; next = n.next.Load() {
			runtime.Gosched()
		}
	}
	next.locked.Store(false)
	if h.l.Bug == CheckBeforeAnnounce && !next.sleeping.Load() {
		return // not announced yet: assumed awake
	}
	next.p.Unpark()
}

// RW is a reader/writer lock made of a mutex and a condition variable:
// readers share, a writer is alone.
type RW struct {
	Bug     Bug
	mu      sync.Mutex
	cond    *sync.Cond
	readers int
	writer  bool
}

func (l *RW) c() *sync.Cond {
	if l.cond == nil {
		l.cond = sync.NewCond(&l.mu)
	}
	return l.cond
}

// RLock waits while a writer holds the lock.
func (l *RW) RLock() {
	l.mu.Lock()
	for l.writer {
		l.c().Wait()
	}
	l.readers++
	l.mu.Unlock()
}

// RUnlock leaves; the last reader out wakes the waiters.
func (l *RW) RUnlock() {
	l.mu.Lock()
	l.readers--
	last := l.readers == 0
	c := l.c()
	l.mu.Unlock()
	if last && l.Bug != SkipWake {
		c.Broadcast()
	}
}

// Lock waits until no reader or writer holds the lock.
func (l *RW) Lock() {
	l.mu.Lock()
	for l.writer || l.readers > 0 {
		l.c().Wait()
	}
	l.writer = true
	l.mu.Unlock()
}

// Unlock leaves and wakes every waiter.
func (l *RW) Unlock() {
	l.mu.Lock()
	l.writer = false
	c := l.c()
	l.mu.Unlock()
	c.Broadcast()
}
