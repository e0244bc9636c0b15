//go:build lockgen_check

package sync

import "sync"

// The lockgen_check build of sync's types: each operation is one
// scheduling point; a goroutine that must wait parks on a Parker of its
// own, queued on the primitive, and is woken by the operation that lets
// it go (then it tries again, as sync's types do).

// Locker is sync.Locker itself, so that a lock written against this
// package is a sync.Locker in both builds (verify.Locker takes one).
type Locker = sync.Locker

// Mutex is sync.Mutex, checked.
type Mutex struct {
	m       monitor
	locked  bool
	waiters []*parker
}

func (mu *Mutex) state() int64 { return b2i(mu.locked) | int64(len(mu.waiters))<<1 }

// Lock locks mu, waiting while it is locked.
func (mu *Mutex) Lock() {
	for !mu.tryLock(true) {
	}
}

// TryLock locks mu if it is free, and reports whether it did.
func (mu *Mutex) TryLock() bool { return mu.tryLock(false) }

// tryLock takes the lock or, when wait is set, queues and parks the caller
// until an Unlock wakes it (it returns false then, to try again).
func (mu *Mutex) tryLock(wait bool) bool {
	mu.m.enter(opTry)
	if !mu.locked {
		mu.locked = true
		mu.m.leaveWrote(mu.state())
		return true
	}
	if !wait {
		mu.m.leave(mu.state())
		return false
	}
	p := &parker{}
	mu.waiters = append(mu.waiters, p)
	mu.m.leaveWrote(mu.state())
	p.park()
	return false
}

// Unlock unlocks mu and wakes its longest waiter. Unlocking an unlocked
// Mutex panics (sync.Mutex throws).
func (mu *Mutex) Unlock() {
	mu.m.enter(opWrite)
	if !mu.locked {
		mu.m.leave(mu.state())
		panic("sync: unlock of unlocked mutex")
	}
	mu.locked = false
	var next *parker
	if len(mu.waiters) > 0 {
		next, mu.waiters = mu.waiters[0], mu.waiters[1:]
	}
	mu.m.leaveWrote(mu.state())
	if next != nil {
		next.unpark()
	}
}

// RWMutex is sync.RWMutex, checked, built as sync.RWMutex is: writers
// take a Mutex among themselves (w); the writer holding it announces
// itself (pending), which turns new readers away, and waits until the
// readers inside have left; its Unlock lets in every reader that waited
// meanwhile, then releases w to the next writer. So readers that waited
// for a writer enter before the next writer, even one that was already
// waiting, and only the writer holding w keeps readers out. (A model that
// kept readers out while any writer waited, and woke only them on Unlock,
// deadlocked correct code: a writer inside, a reader and a writer waiting;
// the reader, refused again, slept, and nothing woke the writer.)
type RWMutex struct {
	m       monitor
	w       Mutex     // held by the pending writer
	pending bool      // a writer holds w: new readers wait
	writer  bool      // the pending writer is inside: no reader was left
	readers int       // readers inside
	rq      []*parker // readers waiting for the pending writer's Unlock
	wp      *parker   // the pending writer, waiting for the readers to leave
}

func (rw *RWMutex) state() int64 {
	return b2i(rw.pending) | b2i(rw.writer)<<1 | int64(rw.readers)<<2 | int64(len(rw.rq))<<32
}

// Lock locks rw for writing: it takes w, keeps new readers out, and waits
// for the readers inside to leave.
func (rw *RWMutex) Lock() {
	rw.w.Lock()
	rw.m.enter(opWrite)
	rw.pending = true
	if rw.readers == 0 {
		rw.writer = true
		rw.m.leaveWrote(rw.state())
		return
	}
	p := &parker{}
	rw.wp = p
	rw.m.leaveWrote(rw.state())
	p.park() // the last reader out made this writer the holder
}

// TryLock locks rw for writing if no writer holds w and no reader is
// inside, as sync.RWMutex's does.
func (rw *RWMutex) TryLock() bool {
	if !rw.w.TryLock() {
		return false
	}
	rw.m.enter(opTry)
	if rw.readers != 0 {
		rw.m.leave(rw.state())
		rw.w.Unlock()
		return false
	}
	rw.pending, rw.writer = true, true
	rw.m.leaveWrote(rw.state())
	return true
}

// Unlock unlocks a write lock: every reader that waited holds rw as it
// wakes (sync.RWMutex counts them in before waking them); then the next
// writer may take w.
func (rw *RWMutex) Unlock() {
	rw.m.enter(opWrite)
	if !rw.writer {
		rw.m.leave(rw.state())
		panic("sync: Unlock of unlocked RWMutex")
	}
	rw.pending, rw.writer = false, false
	wake := rw.rq
	rw.rq = nil
	rw.readers += len(wake)
	rw.m.leaveWrote(rw.state())
	for _, p := range wake {
		p.unpark()
	}
	rw.w.Unlock()
}

// RLock locks rw for reading, waiting while a writer is pending or inside.
func (rw *RWMutex) RLock() {
	rw.m.enter(opTry)
	if !rw.pending {
		rw.readers++
		rw.m.leaveWrote(rw.state())
		return
	}
	p := &parker{}
	rw.rq = append(rw.rq, p)
	rw.m.leaveWrote(rw.state())
	p.park() // the writer's Unlock counted this reader in
}

// TryRLock locks rw for reading if no writer is pending or inside.
func (rw *RWMutex) TryRLock() bool {
	rw.m.enter(opTry)
	if rw.pending {
		rw.m.leave(rw.state())
		return false
	}
	rw.readers++
	rw.m.leaveWrote(rw.state())
	return true
}

// RUnlock undoes one RLock; the last reader out lets the pending writer in.
func (rw *RWMutex) RUnlock() {
	rw.m.enter(opWrite)
	if rw.readers == 0 {
		rw.m.leave(rw.state())
		panic("sync: RUnlock of unlocked RWMutex")
	}
	rw.readers--
	var next *parker
	if rw.readers == 0 && rw.wp != nil {
		next, rw.wp = rw.wp, nil
		rw.writer = true
	}
	rw.m.leaveWrote(rw.state())
	if next != nil {
		next.unpark()
	}
}

// RLocker returns a Locker whose Lock and Unlock are rw's RLock and RUnlock.
func (rw *RWMutex) RLocker() Locker { return rlocker{rw} }

type rlocker struct{ rw *RWMutex }

func (r rlocker) Lock()   { r.rw.RLock() }
func (r rlocker) Unlock() { r.rw.RUnlock() }

// Cond is sync.Cond, checked.
type Cond struct {
	L       Locker
	m       monitor
	waiters []*parker
}

// NewCond returns a new Cond with Locker l.
func NewCond(l Locker) *Cond { return &Cond{L: l} }

// Wait unlocks c.L, waits for a Signal or Broadcast, and locks c.L again.
// The waiter is queued before c.L is unlocked, so a wake between the two
// is not lost.
func (c *Cond) Wait() {
	c.m.enter(opWrite)
	p := &parker{}
	c.waiters = append(c.waiters, p)
	c.m.leaveWrote(int64(len(c.waiters)))
	c.L.Unlock()
	p.park()
	c.L.Lock()
}

// Signal wakes the longest waiter, if any.
func (c *Cond) Signal() {
	c.m.enter(opWrite)
	var next *parker
	if len(c.waiters) > 0 {
		next, c.waiters = c.waiters[0], c.waiters[1:]
	}
	c.m.leaveWrote(int64(len(c.waiters)))
	if next != nil {
		next.unpark()
	}
}

// Broadcast wakes every waiter.
func (c *Cond) Broadcast() {
	c.m.enter(opWrite)
	all := c.waiters
	c.waiters = nil
	c.m.leaveWrote(0)
	for _, p := range all {
		p.unpark()
	}
}

// WaitGroup is sync.WaitGroup, checked.
type WaitGroup struct {
	m       monitor
	n       int
	waiters []*parker
}

// Add adds delta to the counter; at zero, every Wait returns.
func (wg *WaitGroup) Add(delta int) {
	wg.m.enter(opWrite)
	wg.n += delta
	if wg.n < 0 {
		wg.m.leave(int64(wg.n))
		panic("sync: negative WaitGroup counter")
	}
	var all []*parker
	if wg.n == 0 {
		all, wg.waiters = wg.waiters, nil
	}
	wg.m.leaveWrote(int64(wg.n))
	for _, p := range all {
		p.unpark()
	}
}

// Done decrements the counter.
func (wg *WaitGroup) Done() { wg.Add(-1) }

// Wait waits until the counter is zero.
func (wg *WaitGroup) Wait() {
	wg.m.enter(opRead)
	if wg.n == 0 {
		wg.m.leave(0)
		return
	}
	p := &parker{}
	wg.waiters = append(wg.waiters, p)
	wg.m.leaveWrote(int64(wg.n))
	p.park()
}

// Once is sync.Once, checked.
type Once struct {
	m       monitor
	done    bool
	running bool
	waiters []*parker
}

// Do calls f if and only if Do is being called for the first time; other
// callers wait until f has returned.
func (o *Once) Do(f func()) {
	for {
		o.m.enter(opTry)
		switch {
		case o.done:
			o.m.leave(1)
			return
		case !o.running:
			o.running = true
			o.m.leaveWrote(2)
			defer o.finish()
			f()
			return
		}
		p := &parker{}
		o.waiters = append(o.waiters, p)
		o.m.leaveWrote(2)
		p.park()
	}
}

func (o *Once) finish() {
	o.m.enter(opWrite)
	o.done, o.running = true, false
	all := o.waiters
	o.waiters = nil
	o.m.leaveWrote(1)
	for _, p := range all {
		p.unpark()
	}
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
