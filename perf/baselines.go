package perf

import (
	"context"
	"fmt"
	"sync"

	"github.com/lockgen/lockgen/mode"
	"github.com/puzpuzpuz/xsync/v4"
	"golang.org/x/sync/semaphore"
)

// Baselines returns the standard locks a lock of mode m is judged against
// (k for k-exclusion), each a Subject marked Baseline.
func Baselines(m mode.Mode, k int) []Subject {
	switch {
	case m.Readers():
		return []Subject{baseRWMutex(), baseRBMutex(), baseRWMutexCalled()}
	case m.TakesK():
		return []Subject{baseSemaphore(k)}
	}
	return []Subject{baseMutex(), baseFair()}
}

func baseMutex() Subject {
	return Subject{Name: "sync.Mutex", Mode: mode.Mutex, Baseline: true,
		New: func() any { return new(sync.Mutex) },
		Run: runMutex}
}

func baseFair() Subject {
	return Subject{Name: "fair chan queue", Mode: mode.Mutex, Baseline: true, FIFO: true,
		New: func() any { return new(FairLock) },
		Run: runFair}
}

func baseRWMutex() Subject {
	return Subject{Name: "sync.RWMutex", Mode: mode.RW, Baseline: true,
		New: func() any { return new(sync.RWMutex) },
		Run: runRWMutex}
}

func baseRBMutex() Subject {
	return Subject{Name: "xsync.RBMutex", Mode: mode.RW, Baseline: true,
		New: func() any { return xsync.NewRBMutex() },
		Run: runRBMutex}
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

func baseSemaphore(k int) Subject {
	return Subject{Name: fmt.Sprintf("semaphore.Weighted(%d)", k), Mode: mode.KExclusion, K: k, Baseline: true,
		New: func() any { return semaphore.NewWeighted(int64(k)) },
		Run: runSemaphore}
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

func runRBMutex(l any, w *Worker) {
	mu := l.(*xsync.RBMutex)
	for w.Next() {
		t := w.Begin()
		if w.Read() {
			tok := mu.RLock()
			w.Enter(t)
			w.Shared()
			mu.RUnlock(tok)
		} else {
			mu.Lock()
			w.Enter(t)
			w.Critical()
			mu.Unlock()
		}
		w.Outside()
	}
}

func runSemaphore(l any, w *Worker) {
	s := l.(*semaphore.Weighted)
	ctx := context.Background()
	for w.Next() {
		t := w.Begin()
		if err := s.Acquire(ctx, 1); err != nil {
			panic(err)
		}
		w.Enter(t)
		w.Shared()
		s.Release(1)
		w.Outside()
	}
}
