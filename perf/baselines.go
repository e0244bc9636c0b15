package perf

import (
	"fmt"
	"sync"

	"github.com/lockgen/lockgen/mode"
)

// The baselines' names.
const (
	MutexBaseline   = "sync.Mutex"
	FairBaseline    = "fair chan queue"
	RWMutexBaseline = "sync.RWMutex"
	RBMutexBaseline = "xsync.RBMutex"
)

// SemaphoreBaseline names x/sync's semaphore.Weighted of k places.
func SemaphoreBaseline(k int) string { return fmt.Sprintf("semaphore.Weighted(%d)", k) }

// BaselineNames names the standard locks a lock of mode m is judged
// against (k for k-exclusion), in order: a lock's ratios are to the first.
// The driver (perf/driver) measures them all; those that need only the
// standard library are StdBaseline's, xsync's and x/sync's are the
// driver's own, so that a command that only reads a report (lockgen
// bench's side) does not import them.
func BaselineNames(m mode.Mode, k int) []string {
	switch {
	case m.Readers():
		return []string{RWMutexBaseline, RBMutexBaseline, RWMutexCalled}
	case m.TakesK():
		return []string{SemaphoreBaseline(k)}
	}
	return []string{MutexBaseline, FairBaseline}
}

// StdBaseline is the baseline called name if it needs only the standard
// library, marked Baseline.
func StdBaseline(name string) (Subject, bool) {
	switch name {
	case MutexBaseline:
		return baseMutex(), true
	case FairBaseline:
		return baseFair(), true
	case RWMutexBaseline:
		return baseRWMutex(), true
	case RWMutexCalled:
		return baseRWMutexCalled(), true
	}
	return Subject{}, false
}

func baseMutex() Subject {
	return Subject{Name: MutexBaseline, Mode: mode.Mutex, Baseline: true,
		New: func() any { return new(sync.Mutex) },
		Run: runMutex}
}

func baseFair() Subject {
	return Subject{Name: FairBaseline, Mode: mode.Mutex, Baseline: true, FIFO: true,
		New: func() any { return new(FairLock) },
		Run: runFair}
}

func baseRWMutex() Subject {
	return Subject{Name: RWMutexBaseline, Mode: mode.RW, Baseline: true,
		New: func() any { return new(sync.RWMutex) },
		Run: runRWMutex}
}

// RWMutexCalled names sync.RWMutex called through functions that do not
// inline: sync.RWMutex's RLock and RUnlock inline into the caller's loop,
// a generated reader/writer lock's do not (their wakes and the calls to
// their slow paths put them over the inliner's budget), so the two calls
// of a read passage are a cost only the generated lock pays. This
// baseline pays them too, and measures their share in the same run.
const RWMutexCalled = "sync.RWMutex, called"

func baseRWMutexCalled() Subject {
	return Subject{Name: RWMutexCalled, Mode: mode.RW, Baseline: true,
		New: func() any { return new(sync.RWMutex) },
		Run: runRWMutexCalled}
}

// The baselines' loops are functions of their own, not closures in the
// constructors: the compiler inlines a constructor into Baselines and its
// closure's copy there gets no inlining, so each passage made seven calls
// (the lock's two and the Worker's five) where a generated lock's loop,
// compiled in the bench driver, makes two. In one binary the same
// sync.Mutex loop took 9.0ns per passage as such a copy and 4.6ns
// compiled on its own. Each is written out for its lock's concrete type,
// as the bench driver writes a generated lock's: one generic loop over
// pointer types would call the lock through a dictionary, not inline it.

func runMutex(l any, w *Worker) {
	mu := l.(*sync.Mutex)
	for w.Next() {
		t := w.Begin()
		mu.Lock()
		w.Enter(t)
		w.Critical()
		mu.Unlock()
		w.Outside()
	}
}

func runFair(l any, w *Worker) {
	mu := l.(*FairLock)
	for w.Next() {
		t := w.Begin()
		mu.Lock()
		w.Enter(t)
		w.Critical()
		mu.Unlock()
		w.Outside()
	}
}

func runRWMutex(l any, w *Worker) {
	mu := l.(*sync.RWMutex)
	for w.Next() {
		t := w.Begin()
		if w.Read() {
			mu.RLock()
			w.Enter(t)
			w.Shared()
			mu.RUnlock()
		} else {
			mu.Lock()
			w.Enter(t)
			w.Critical()
			mu.Unlock()
		}
		w.Outside()
	}
}

func runRWMutexCalled(l any, w *Worker) {
	mu := l.(*sync.RWMutex)
	for w.Next() {
		t := w.Begin()
		if w.Read() {
			rlockCalled(mu)
			w.Enter(t)
			w.Shared()
			runlockCalled(mu)
		} else {
			lockCalled(mu)
			w.Enter(t)
			w.Critical()
			unlockCalled(mu)
		}
		w.Outside()
	}
}

//go:noinline
func rlockCalled(mu *sync.RWMutex) { mu.RLock() }

//go:noinline
func runlockCalled(mu *sync.RWMutex) { mu.RUnlock() }

//go:noinline
func lockCalled(mu *sync.RWMutex) { mu.Lock() }

//go:noinline
func unlockCalled(mu *sync.RWMutex) { mu.Unlock() }
