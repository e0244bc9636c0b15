// Package perf measures locks the way `lockgen bench` reports them: each
// lock next to the right baselines in the same run (sync.Mutex and a fair
// channel-queue lock for mutual exclusion, sync.RWMutex and xsync's RBMutex
// for reader/writer locks, with sync.RWMutex also called through functions
// that do not inline, x/sync/semaphore for k-exclusion), at several
// goroutine counts and workloads, repeated, with throughput, acquisition
// latency, fairness (Jain's index) and allocations per passage.
//
// A Subject's Run is a loop written for the lock's own API (lockgen bench
// generates one per lock), so every lock, baselines included, is called
// directly on its concrete type: no interface or adapter sits between the
// measurement and the lock.
//
//	perf.Subject{Name: "mu", Mode: mode.Mutex,
//		New: func() any { return new(sync.Mutex) },
//		Run: func(l any, w *perf.Worker) {
//			mu := l.(*sync.Mutex)
//			for w.Next() {
//				t := w.Begin()
//				mu.Lock()
//				w.Enter(t)
//				w.Critical()
//				mu.Unlock()
//				w.Outside()
//			}
//		}}
//
// Measure runs the subjects and returns a Report; package perf/report
// renders it (terminal table, Markdown) and perf/cmd/benchplots draws its
// plots. perf holds the standard library's baselines (StdBaseline) and
// every baseline's name (BaselineNames); perf/driver, which only the
// generated benchmark imports, adds xsync's and x/sync's, so that neither
// module enters the dependencies of a command that reads a report.
package perf
