package verify

import (
	"fmt"
	"runtime/debug"
	"sync/atomic"
)

// precheck checks TryAcquire on a fresh instance (succeeds) and on a full
// one (fails), under the watchdog. It reports whether to go on.
func (r *stressRun) precheck() bool {
	done := make(chan struct{})
	var step atomic.Value
	step.Store("making a fresh instance")
	go func() {
		defer close(done)
		defer func() {
			if v := recover(); v != nil {
				r.fail(StressPanic, -1, -1, "panic while %s: %v\n%s", step.Load(), v, debug.Stack())
			}
		}()
		inst := r.s.New()
		try, _ := inst.(TryInstance)
		if try == nil {
			return
		}
		r.tryable.Store(true)
		// tryFree: a TryAcquire(p) on a free lock (in the state described)
		// must succeed; it is then released.
		tryFree := func(p int, state string) bool {
			step.Store(fmt.Sprintf("calling TryAcquire(%d) on %s", p, state))
			if !try.TryAcquire(p) {
				r.fail(StressTryFresh, p, -1, "TryAcquire(%d) returned false on %s", p, state)
				return false
			}
			step.Store(fmt.Sprintf("calling Release(%d) after a successful TryAcquire(%d)", p, p))
			try.Release(p)
			return true
		}
		if !tryFree(0, "a fresh, uncontended instance") {
			return
		}
		// Fill the lock: process 0 with Acquire, the others (k > 1) with
		// TryAcquire, which must succeed while the lock is not full; then
		// one more TryAcquire, which must fail.
		k := int(r.k)
		n := k + 1 // processes used
		if r.s.Procs > 0 && r.s.Procs < n {
			n = r.s.Procs
		}
		step.Store("calling Acquire(0) on a fresh instance")
		try.Acquire(0)
		held := 1
		defer func() {
			for p := held - 1; p >= 0; p-- {
				step.Store(fmt.Sprintf("calling Release(%d)", p))
				try.Release(p)
			}
			if r.failed() {
				return
			}
			// Free again after use: a TryAcquire that works only on a
			// never-used lock (stale state) is as wrong as one that never
			// works.
			if !tryFree(0, "an uncontended lock every process had released") {
				return
			}
			// Every process, not only the last holder: a try whose early
			// test depends on who held the lock last (a turn register)
			// must still succeed on a free lock.
			m := tryProcs
			if r.s.Procs > 0 {
				m = min(m, r.s.Procs)
			}
			for p := 1; p < m; p++ {
				step.Store(fmt.Sprintf("calling Acquire(%d), Release(%d)", p-1, p-1))
				try.Acquire(p - 1)
				try.Release(p - 1)
				if !tryFree(p, fmt.Sprintf("an uncontended lock that process %d had just released", p-1)) {
					return
				}
			}
		}()
		for ; held < k && held < n; held++ {
			step.Store(fmt.Sprintf("calling TryAcquire(%d) with %d holder(s) in a lock that allows %d", held, held, k))
			if !try.TryAcquire(held) {
				r.fail(StressTryFresh, held, -1,
					"TryAcquire(%d) returned false with only %d holder(s) in a lock that allows %d and no other process active",
					held, held, k)
				return
			}
		}
		if held < n {
			step.Store(fmt.Sprintf("calling TryAcquire(%d) on a full lock", k))
			if try.TryAcquire(k) {
				r.fail(StressTryHeld, k, -1,
					"TryAcquire(%d) succeeded while %d process(es) held a lock that allows %d", k, k, k)
				held++ // release it too
			}
		}
	}()
	if why, outcome := r.watch(done, r.cfg.stall); outcome != watchDone {
		r.fail(StressHang, -1, -1, "fresh-instance check stuck %s: %s", step.Load(), why)
		r.freeze()
		r.rep.Stacks = allStacks()
		return false
	}
	// A failed check ends the run here: the lock is already known wrong.
	if r.failed() {
		r.note("the concurrent run was skipped: the fresh-instance check failed")
		return false
	}
	return true
}
