// Package lockcontext holds the benchmarks of lockgen's LockContext
// against what Go programmers use to give up waiting on a lock:
// semaphore.Weighted(1).Acquire(ctx) and a one-slot channel with a
// select on ctx.Done(), beside sync.Mutex, which cannot give up, in the
// same run (issue 48). It has no code of its own: the benchmarks are its
// tests. Run them with
//
//	go test -run '^$' -bench . -count 10 ./perf/lockcontext/ | benchstat -
package lockcontext
