//go:build !lockgen_check

package lockrt

import (
	"context"
	"runtime"
	"sync/atomic"
	"time"
	"unsafe"
)

// The register types hold all shared state of the locks in this package.
// Every method is one atomic step (Go's sync/atomic operations are
// sequentially consistent, the memory model the papers assume). The string
// argument is the paper's line label: this build ignores it, the
// lockgen_check build reports it to the controlled scheduler.

// The registers are plain words read and written through sync/atomic's
// functions, not atomic.Int64 and its kin behind these methods: the
// wrapper's method costs the inliner's budget a few more units per step,
// and a fast path has none to spare (TestInlineShapes).

// intReg is a shared integer register. The empty array aligns v to 8
// bytes on 32-bit platforms, as 64-bit atomic operations need there.
type intReg struct {
	_ [0]atomic.Int64
	v int64
}

func (r *intReg) load(string) int64            { return atomic.LoadInt64(&r.v) }
func (r *intReg) store(_ string, v int64)      { atomic.StoreInt64(&r.v, v) }
func (r *intReg) swap(_ string, v int64) int64 { return atomic.SwapInt64(&r.v, v) }
func (r *intReg) cas(_ string, old, new int64) bool {
	return atomic.CompareAndSwapInt64(&r.v, old, new)
}
func (r *intReg) fetchAdd(_ string, d int64) int64 { return atomic.AddInt64(&r.v, d) - d }
func (r *intReg) init(v int64)                     { atomic.StoreInt64(&r.v, v) }
func (r *intReg) or(_ string, m int64) int64       { return atomic.OrInt64(&r.v, m) }
func (r *intReg) and(_ string, m int64) int64      { return atomic.AndInt64(&r.v, m) }

// set and clear are a bitReg's writes of 1 and 0, each one atomic step
// that keeps the queue's bits, returning the whole old word: its value
// (qValue) and whether anyone was queued, so that a fast path tells an
// uncontended passage with one comparison. They call the atomics
// themselves, not the queue word's methods: the nested call would cost
// the fast path's budget 5 more (TestInlineShapes).
func (r *bitReg) set(string) int64   { return atomic.OrInt64(&r.q.state.v, qValue) }
func (r *bitReg) clear(string) int64 { return atomic.AndInt64(&r.q.state.v, ^qValue) }

// boolReg is a shared boolean register (0 or 1).
type boolReg struct{ v uint32 }

func (r *boolReg) load(string) bool       { return atomic.LoadUint32(&r.v) != 0 }
func (r *boolReg) store(_ string, v bool) { atomic.StoreUint32(&r.v, b2u(v)) }
func (r *boolReg) swap(_ string, v bool) bool {
	return atomic.SwapUint32(&r.v, b2u(v)) != 0
}
func (r *boolReg) cas(_ string, old, new bool) bool {
	return atomic.CompareAndSwapUint32(&r.v, b2u(old), b2u(new))
}
func (r *boolReg) init(v bool) { atomic.StoreUint32(&r.v, b2u(v)) }

func b2u(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// refReg is a shared register holding a reference to a record.
type refReg[T any] struct{ v unsafe.Pointer }

func (r *refReg[T]) load(string) *T       { return (*T)(atomic.LoadPointer(&r.v)) }
func (r *refReg[T]) store(_ string, v *T) { atomic.StorePointer(&r.v, unsafe.Pointer(v)) }
func (r *refReg[T]) swap(_ string, v *T) *T {
	return (*T)(atomic.SwapPointer(&r.v, unsafe.Pointer(v)))
}
func (r *refReg[T]) cas(_ string, old, new *T) bool {
	return atomic.CompareAndSwapPointer(&r.v, unsafe.Pointer(old), unsafe.Pointer(new))
}
func (r *refReg[T]) init(v *T) { atomic.StorePointer(&r.v, unsafe.Pointer(v)) }

// doorway marks the end of an acquire's doorway (for the lockgen_check
// build's FIFO checks).
// poolWaiters: a real wait takes its waiter from a sync.Pool, so that a
// passage allocates nothing.
const poolWaiters = true

func doorway(string) {}

// delay stops the caller for at least d (timing-based algorithms,
// backoff). time.Sleep rounds short delays up to tens of microseconds, far
// coarser than a backoff wants, so short ones yield until the time is up.
func delay(_ string, d time.Duration) {
	if d >= 50*time.Microsecond {
		time.Sleep(d)
		return
	}
	for start := time.Now(); time.Since(start) < d; {
		runtime.Gosched()
	}
}

// yield lets other goroutines run between two checks of a waiting
// process.
func yield(string) { runtime.Gosched() }

// pause is one short busy-wait between two checks of a spinning waiter:
// long enough that the checks do not saturate the cache line the holder
// needs, short against a goroutine wake-up. Go offers no PAUSE
// instruction; the loop stands in for one.
func pause(string) {
	for i := 0; i < pauseIters; i++ {
		pauseSink.Add(0)
	}
}

// pauseIters sets pause's length: about 17 ns on the 2-core EPYC of the
// project's CI (BenchmarkPause), where a wake-up costs about 150 ns
// (BenchmarkParkerHandoff/chan: 300 ns for two).
const pauseIters = 8

// pauseSink keeps pause's loop from being compiled away; its line is
// only ever read by the spinning goroutine itself.
var pauseSink atomic.Int32

// backoff is the n-th wait for the lock bit of a wait queue, which is
// held for a few instructions: pause first, then yield in case its holder
// was preempted.
func backoff(l string, n int) {
	if n < 4 {
		pause(l)
		return
	}
	yield(l)
}

// spinLimit caps every spin count; the lockgen_check build lowers it so
// that the controlled scheduler explores parking rather than spinning.
const spinLimit = 1 << 30

// spinBudget is how many pauses a waiter of the adaptive policy spends
// before it parks: spinning costs the waiter's processor and pays only
// while it is shorter than the handoff a wake-up would cost, so the budget
// is one wake-up's worth of pauses (8 × 17 ns against 150 ns; see
// pauseIters). It was 64 until lockgen bench showed the waits that
// outlast a spin paying for all of it. Over 12 locks at 2, 8 and 64
// goroutines on both workloads, 5 runs a cell, 8 moved 14 of 72 medians
// beyond the earlier runs' spread and none the other way: at 64
// goroutines, the reader-preference lock's passage (90% reads) went from
// 20.9 to 13.8 ns and Lamport's fast lock's from 68.6 to 41.3 ns.
const spinBudget = 8

// maxSpinners is how many waiters of one lock may spin at once under the
// adaptive policy: spinning is pointless once spinners and the holder
// outnumber the processors, so with GOMAXPROCS = P at most P-1 spin and
// the others park at once.
func maxSpinners() int64 { return int64(procs.Load()) - 1 }

// procs caches GOMAXPROCS: reading it takes the scheduler's lock. A
// waiter refreshes it every refreshEvery of its parks.
var procs atomic.Int32

const refreshEvery = 64

func init() { procs.Store(int32(runtime.GOMAXPROCS(0))) }

// parker is one waiter's own wake-up. Every wait that may sleep arms it
// once (before the waiter is queued, where a waker can find it), and then
// exactly one of: a waker's unpark, the waiter's own disarm (it left the
// queue unwoken). park waits for the unpark. The wake-up is a token in a
// channel of one: a send to a parked receiver hands over directly and puts
// the receiver next in line on the sender's processor, which is the
// cheapest wake-up the Go runtime offers (the semaphore under
// sync.WaitGroup costs about 36 ns more per wake: BenchmarkParkerHandoff).
type parker struct {
	ch    chan struct{} // made on the first arm; a parker is reused
	parks uint32
}

func (p *parker) arm() {
	if p.ch == nil {
		p.ch = make(chan struct{}, 1)
	}
}
func (p *parker) disarm()       {}
func (p *parker) unpark(string) { p.ch <- struct{}{} }

// parkContext is park that gives up when ctx is done first; it reports
// whether it took the token.
func (p *parker) parkContext(_ string, ctx context.Context) bool {
	select {
	case <-p.ch:
	case <-ctx.Done():
		return false
	}
	if p.parks++; p.parks%refreshEvery == 0 {
		procs.Store(int32(runtime.GOMAXPROCS(0)))
	}
	return true
}

func (p *parker) park(string) {
	<-p.ch
	if p.parks++; p.parks%refreshEvery == 0 {
		procs.Store(int32(runtime.GOMAXPROCS(0)))
	}
}
