package perf

import "sync"

// FairLock is the fair lock a Go programmer would write: a FIFO queue of
// per-waiter channels with direct handoff. Unlock passes the lock to the
// longest waiter, which wakes already holding it. It is the baseline
// against which FIFO locks are judged: they trade throughput for order,
// and should not pay more for it than this.
type FairLock struct {
	mu     sync.Mutex
	locked bool
	queue  []chan struct{}
	head   int
}

var waiterChans = sync.Pool{New: func() any { return make(chan struct{}, 1) }}

// Lock acquires the lock, waiting in FIFO order.
func (l *FairLock) Lock() {
	l.mu.Lock()
	if !l.locked {
		l.locked = true
		l.mu.Unlock()
		return
	}
	ch := waiterChans.Get().(chan struct{})
	l.queue = append(l.queue, ch)
	l.mu.Unlock()
	<-ch // handed the lock
	waiterChans.Put(ch)
}

// Unlock hands the lock to the longest waiter, or frees it.
func (l *FairLock) Unlock() {
	l.mu.Lock()
	if !l.locked {
		l.mu.Unlock()
		panic("perf: FairLock.Unlock of an unlocked lock")
	}
	if l.head == len(l.queue) {
		l.locked = false
		l.queue, l.head = l.queue[:0], 0
		l.mu.Unlock()
		return
	}
	ch := l.queue[l.head]
	l.queue[l.head] = nil
	l.head++
	l.mu.Unlock()
	ch <- struct{}{}
}
