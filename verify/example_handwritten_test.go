package verify_test

import (
	"fmt"

	"github.com/lockgen/lockgen/verify"
	"github.com/lockgen/lockgen/verify/checked/sync"
)

// condLock is a hand-written parking lock of the most common shape: a
// flag under a mutex, waiters asleep on a condition variable. It is
// written against verify/checked/sync, so the same code runs on the
// standard library in a normal build and under the controlled scheduler
// with -tags lockgen_check (see ExampleRunExplore_handWritten).
type condLock struct {
	mu     sync.Mutex
	free   *sync.Cond
	held   bool
	signal bool // false plants a bug: Unlock forgets to wake a waiter
}

func newCondLock(signal bool) *condLock {
	l := &condLock{signal: signal}
	l.free = sync.NewCond(&l.mu)
	return l
}

func (l *condLock) Lock() {
	l.mu.Lock()
	for l.held {
		l.free.Wait()
	}
	l.held = true
	l.mu.Unlock()
}

func (l *condLock) Unlock() {
	l.mu.Lock()
	l.held = false
	l.mu.Unlock()
	if l.signal {
		l.free.Signal()
	}
}

// A hand-written lock through the public API, in a normal build: Stress
// runs real goroutines on it (under -race in make test) and returns its
// report instead of failing the test.
func ExampleRunStress_handWritten() {
	rep := verify.RunStress(verify.Locker("condLock", func() sync.Locker { return newCondLock(true) }))
	fmt.Println("failed:", rep.Failed())
	fmt.Println("max occupancy:", rep.MaxOccupancy)
	fmt.Println("passages made:", rep.Passages > 0)
	// Output:
	// failed: false
	// max occupancy: 1
	// passages made: true
}
