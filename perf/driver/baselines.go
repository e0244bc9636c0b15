package driver

import (
	"context"

	"github.com/puzpuzpuz/xsync/v4"
	"golang.org/x/sync/semaphore"

	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/perf"
)

// Baselines returns the standard locks a lock of mode m is judged against
// (k for k-exclusion), each a Subject marked Baseline, in the order of
// perf.BaselineNames.
func Baselines(m mode.Mode, k int) []perf.Subject {
	var out []perf.Subject
	for _, name := range perf.BaselineNames(m, k) {
		s, ok := perf.StdBaseline(name)
		switch {
		case ok:
		case name == perf.RBMutexBaseline:
			s = perf.Subject{Name: name, Mode: mode.RW, Baseline: true,
				New: func() any { return xsync.NewRBMutex() },
				Run: runRBMutex}
		case name == perf.SemaphoreBaseline(k):
			s = perf.Subject{Name: name, Mode: mode.KExclusion, K: k, Baseline: true,
				New: func() any { return semaphore.NewWeighted(int64(k)) },
				Run: runSemaphore}
		default:
			panic("perf/driver: no baseline " + name)
		}
		out = append(out, s)
	}
	return out
}

// Each loop is a function of its own, written for its lock's concrete
// type, as perf's standard baselines' are (perf/baselines.go says why).

func runRBMutex(l any, w *perf.Worker) {
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

func runSemaphore(l any, w *perf.Worker) {
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
