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
		return []Subject{baseRWMutex(), baseRBMutex()}
	case m.TakesK():
		return []Subject{baseSemaphore(k)}
	}
	return []Subject{baseMutex(), baseFair()}
}

func baseMutex() Subject {
	return Subject{Name: "sync.Mutex", Mode: mode.Mutex, Baseline: true,
		New: func() any { return new(sync.Mutex) },
		Run: func(l any, w *Worker) {
			mu := l.(*sync.Mutex)
			for w.Next() {
				t := w.Begin()
				mu.Lock()
				w.Enter(t)
				w.Critical()
				mu.Unlock()
				w.Outside()
			}
		}}
}

func baseFair() Subject {
	return Subject{Name: "fair chan queue", Mode: mode.Mutex, Baseline: true, FIFO: true,
		New: func() any { return new(FairLock) },
		Run: func(l any, w *Worker) {
			mu := l.(*FairLock)
			for w.Next() {
				t := w.Begin()
				mu.Lock()
				w.Enter(t)
				w.Critical()
				mu.Unlock()
				w.Outside()
			}
		}}
}

func baseRWMutex() Subject {
	return Subject{Name: "sync.RWMutex", Mode: mode.RW, Baseline: true,
		New: func() any { return new(sync.RWMutex) },
		Run: func(l any, w *Worker) {
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
		}}
}

func baseRBMutex() Subject {
	return Subject{Name: "xsync.RBMutex", Mode: mode.RW, Baseline: true,
		New: func() any { return xsync.NewRBMutex() },
		Run: func(l any, w *Worker) {
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
		}}
}

func baseSemaphore(k int) Subject {
	return Subject{Name: fmt.Sprintf("semaphore.Weighted(%d)", k), Mode: mode.KExclusion, K: k, Baseline: true,
		New: func() any { return semaphore.NewWeighted(int64(k)) },
		Run: func(l any, w *Worker) {
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
		}}
}
