package golang

// The runtime is the small, fixed part of every generated package: the
// register types through which all shared state goes, and the waiting
// primitives. It comes in two builds. The normal build is plain sync/atomic;
// the lockgen_check build routes every access and every wait through the
// controlled scheduler in verify/sched, so the code under test is the code
// users run. Both files are identical for every package, so they are kept
// here as source text rather than built statement by statement.

const runtimeNormal = `//go:build !lockgen_check

package PKG

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// The register types hold all shared state of the locks in this package.
// storeChanged is a store that reports whether the value changed, so that
// the park policies wake sleepers only on real changes (on amd64 a
// sequentially consistent store is an exchange anyway).
// Every method is one atomic step (Go's sync/atomic operations are
// sequentially consistent, the memory model the papers assume). The string
// argument is the paper's line label; this build ignores it, the
// lockgen_check build reports it to the controlled scheduler.

// intReg is a shared integer register.
type intReg struct{ v atomic.Int64 }

func (r *intReg) load(string) int64                 { return r.v.Load() }
func (r *intReg) store(_ string, v int64)            { r.v.Store(v) }
func (r *intReg) storeChanged(_ string, v int64) bool { return r.v.Swap(v) != v }
func (r *intReg) swap(_ string, v int64) int64       { return r.v.Swap(v) }
func (r *intReg) cas(_ string, old, new int64) bool  { return r.v.CompareAndSwap(old, new) }
func (r *intReg) fetchAdd(_ string, d int64) int64   { return r.v.Add(d) - d }
func (r *intReg) init(v int64)                       { r.v.Store(v) }

// boolReg is a shared boolean register.
type boolReg struct{ v atomic.Bool }

func (r *boolReg) load(string) bool                 { return r.v.Load() }
func (r *boolReg) store(_ string, v bool)            { r.v.Store(v) }
func (r *boolReg) storeChanged(_ string, v bool) bool { return r.v.Swap(v) != v }
func (r *boolReg) swap(_ string, v bool) bool        { return r.v.Swap(v) }
func (r *boolReg) cas(_ string, old, new bool) bool  { return r.v.CompareAndSwap(old, new) }
func (r *boolReg) init(v bool)                       { r.v.Store(v) }

// refReg is a shared register holding a reference to a record.
type refReg[T any] struct{ v atomic.Pointer[T] }

func (r *refReg[T]) load(string) *T                { return r.v.Load() }
func (r *refReg[T]) store(_ string, v *T)           { r.v.Store(v) }
func (r *refReg[T]) storeChanged(_ string, v *T) bool { return r.v.Swap(v) != v }
func (r *refReg[T]) swap(_ string, v *T) *T         { return r.v.Swap(v) }
func (r *refReg[T]) cas(_ string, old, new *T) bool { return r.v.CompareAndSwap(old, new) }
func (r *refReg[T]) init(v *T)                      { r.v.Store(v) }

// pause is one busy-wait iteration of the spin-then-* policies' spin phase.
func pause(string) {}

// spinYieldEvery bounds the spin policy: Go cannot pin a goroutine to a
// processor, so a waiter that never yields can hold the P its lock holder
// needs until asynchronous preemption (about 10 ms) — with more goroutines
// than Ps, every FIFO handoff would cost that much.
const spinYieldEvery = 16

// spinWait is the n-th failed check of the spin policy: a busy-wait that
// yields once every spinYieldEvery checks.
func spinWait(_ string, n int) {
	if n%spinYieldEvery == spinYieldEvery-1 {
		runtime.Gosched()
	}
}

// yield lets other goroutines run between two checks (the yield policies).
func yield(string) { runtime.Gosched() }

// doorway marks the end of an acquire's doorway (used by the lockgen_check build).
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

// parker blocks waiters until a write to what they wait on (the park
// policies). A waiter announces itself (prepare), re-checks its condition,
// and only then sleeps; a writer wakes after writing. Both sides use
// sequentially consistent atomics, so either the writer sees the waiter or
// the waiter's re-check sees the write: no wakeup is lost.
type parker struct {
	waiters atomic.Int32
	gen     atomic.Uint64
	mu      sync.Mutex
	cond    sync.Cond
}

// prepare announces a waiter and returns the generation it has seen.
func (p *parker) prepare() uint64 {
	p.waiters.Add(1)
	return p.gen.Load()
}

// cancel withdraws a waiter whose re-check succeeded.
func (p *parker) cancel() { p.waiters.Add(-1) }

// sleep blocks until a wake after generation g.
func (p *parker) sleep(_ string, g uint64) {
	p.mu.Lock()
	if p.cond.L == nil {
		p.cond.L = &p.mu
	}
	for p.gen.Load() == g {
		p.cond.Wait()
	}
	p.mu.Unlock()
	p.waiters.Add(-1)
}

// wake wakes every sleeper; it costs one atomic load when nobody waits.
func (p *parker) wake() {
	if p.waiters.Load() == 0 {
		return
	}
	p.mu.Lock()
	p.gen.Add(1)
	if p.cond.L != nil {
		p.cond.Broadcast()
	}
	p.mu.Unlock()
}
`

const runtimeCheck = `//go:build lockgen_check

package PKG

import (
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/lockgen/lockgen/verify/sched"
)

// This is the lockgen_check build of the register types: every access is a
// scheduling point of the controlled scheduler (verify/sched), reported with
// the paper's line label and the value it read or wrote, and every wait
// blocks the goroutine until another one writes. Outside a scheduled
// execution they behave as plain atomics.

type intReg struct{ v int64 }

func (r *intReg) p() unsafe.Pointer { return unsafe.Pointer(r) }

func (r *intReg) load(l string) int64 {
	sched.Access(l, sched.OpLoad, r.p())
	v := atomic.LoadInt64(&r.v)
	sched.ResultInt(v, false)
	return v
}
func (r *intReg) store(l string, v int64) {
	sched.Access(l, sched.OpStore, r.p())
	atomic.StoreInt64(&r.v, v)
	sched.ResultInt(v, true)
}
func (r *intReg) storeChanged(l string, v int64) bool {
	sched.Access(l, sched.OpStore, r.p())
	old := atomic.SwapInt64(&r.v, v)
	sched.ResultInt(v, old != v)
	return old != v
}
func (r *intReg) swap(l string, v int64) int64 {
	sched.Access(l, sched.OpSwap, r.p())
	old := atomic.SwapInt64(&r.v, v)
	sched.ResultInt(old, true)
	return old
}
func (r *intReg) cas(l string, old, new int64) bool {
	sched.Access(l, sched.OpCAS, r.p())
	ok := atomic.CompareAndSwapInt64(&r.v, old, new)
	sched.ResultBool(ok, ok)
	return ok
}
func (r *intReg) fetchAdd(l string, d int64) int64 {
	sched.Access(l, sched.OpAdd, r.p())
	old := atomic.AddInt64(&r.v, d) - d
	sched.ResultInt(old, d != 0)
	return old
}
func (r *intReg) init(v int64) { atomic.StoreInt64(&r.v, v) }

type boolReg struct{ v int64 }

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func (r *boolReg) p() unsafe.Pointer { return unsafe.Pointer(r) }

func (r *boolReg) load(l string) bool {
	sched.Access(l, sched.OpLoad, r.p())
	v := atomic.LoadInt64(&r.v) != 0
	sched.ResultBool(v, false)
	return v
}
func (r *boolReg) store(l string, v bool) {
	sched.Access(l, sched.OpStore, r.p())
	atomic.StoreInt64(&r.v, b2i(v))
	sched.ResultBool(v, true)
}
func (r *boolReg) storeChanged(l string, v bool) bool {
	sched.Access(l, sched.OpStore, r.p())
	old := atomic.SwapInt64(&r.v, b2i(v)) != 0
	sched.ResultBool(v, old != v)
	return old != v
}
func (r *boolReg) swap(l string, v bool) bool {
	sched.Access(l, sched.OpSwap, r.p())
	old := atomic.SwapInt64(&r.v, b2i(v)) != 0
	sched.ResultBool(old, true)
	return old
}
func (r *boolReg) cas(l string, old, new bool) bool {
	sched.Access(l, sched.OpCAS, r.p())
	ok := atomic.CompareAndSwapInt64(&r.v, b2i(old), b2i(new))
	sched.ResultBool(ok, ok)
	return ok
}
func (r *boolReg) init(v bool) { atomic.StoreInt64(&r.v, b2i(v)) }

type refReg[T any] struct{ v unsafe.Pointer }

func (r *refReg[T]) p() unsafe.Pointer { return unsafe.Pointer(r) }

func (r *refReg[T]) load(l string) *T {
	sched.Access(l, sched.OpLoad, r.p())
	v := atomic.LoadPointer(&r.v)
	sched.ResultRef(v, false)
	return (*T)(v)
}
func (r *refReg[T]) store(l string, v *T) {
	sched.Access(l, sched.OpStore, r.p())
	atomic.StorePointer(&r.v, unsafe.Pointer(v))
	sched.ResultRef(unsafe.Pointer(v), true)
}
func (r *refReg[T]) storeChanged(l string, v *T) bool {
	sched.Access(l, sched.OpStore, r.p())
	old := atomic.SwapPointer(&r.v, unsafe.Pointer(v))
	sched.ResultRef(unsafe.Pointer(v), old != unsafe.Pointer(v))
	return old != unsafe.Pointer(v)
}
func (r *refReg[T]) swap(l string, v *T) *T {
	sched.Access(l, sched.OpSwap, r.p())
	old := atomic.SwapPointer(&r.v, unsafe.Pointer(v))
	sched.ResultRef(old, true)
	return (*T)(old)
}
func (r *refReg[T]) cas(l string, old, new *T) bool {
	sched.Access(l, sched.OpCAS, r.p())
	ok := atomic.CompareAndSwapPointer(&r.v, unsafe.Pointer(old), unsafe.Pointer(new))
	sched.ResultBool(ok, ok)
	return ok
}
func (r *refReg[T]) init(v *T) { atomic.StorePointer(&r.v, unsafe.Pointer(v)) }

func pause(l string)                  { sched.Wait(l) }
func spinWait(l string, _ int)        { sched.Wait(l) }
func yield(l string)                  { sched.Wait(l) }
func doorway(l string)                { sched.Doorway(l) }
func delay(l string, _ time.Duration) { sched.Delay(l) }

// parker: under the scheduler a sleeping waiter is simply a waiting one.
type parker struct{}

func (*parker) prepare() uint64         { return 0 }
func (*parker) cancel()                 {}
func (*parker) sleep(l string, _ uint64) { sched.Wait(l) }
func (*parker) wake()                   {}
`
