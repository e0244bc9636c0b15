//go:build lockgen_check

package lockrt

import (
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/lockgen/lockgen/verify/sched"
)

// This is the lockgen_check build of the registers and of the waiting
// primitives: every register access is a scheduling point of the
// controlled scheduler (verify/sched), reported with the paper's line
// label and the value it read or wrote; a spinning waiter blocks until a
// register it read changes; a parked waiter blocks until the unpark it
// needs, so a wake-up the waiting layer loses is a deadlock the scheduler
// detects. Outside a scheduled execution they behave as plain atomics and
// a real parker.

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

func (r *intReg) or(l string, m int64) int64 {
	sched.Access(l, sched.OpBits, r.p())
	old := atomic.OrInt64(&r.v, m)
	sched.ResultInt(old, old|m != old)
	return old
}

func (r *intReg) and(l string, m int64) int64 {
	sched.Access(l, sched.OpBits, r.p())
	old := atomic.AndInt64(&r.v, m)
	sched.ResultInt(old, old&m != old)
	return old
}

func (r *bitReg) set(l string) int64   { return r.q.state.or(l, qValue) }
func (r *bitReg) clear(l string) int64 { return r.q.state.and(l, ^qValue) }

type boolReg struct{ v int64 }

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

func doorway(l string)                { sched.Doorway(l) }
func delay(l string, _ time.Duration) { sched.Delay(l) }

// Spinning, yielding and waiting for a lock bit are all "wait until a
// register I read changes" under the scheduler.
func yield(l string)          { sched.Wait(l) }
func pause(l string)          { sched.Wait(l) }
func backoff(l string, _ int) { sched.Wait(l + sched.LayerWait) }
func maxSpinners() int64      { return 1 }

// One spin before a waiter parks: the scheduler explores the spin-to-park
// hand-over without multiplying executions by spin counts.
const (
	spinLimit  = 1
	spinBudget = 1
)

// parker is a waiter's wake-up, modelled by the scheduler: a parked
// goroutine is not runnable until an unpark.
type parker struct{ p sched.Parker }

func (p *parker) arm()            {}
func (p *parker) disarm()         {}
func (p *parker) park(l string)   { p.p.Park(l) }
func (p *parker) unpark(l string) { p.p.Unpark(l) }
