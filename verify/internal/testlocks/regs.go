// Package testlocks holds hand-written locks for the tests of the verify
// layers: correct ones that must pass, and known-wrong ones (negative
// controls) that each layer must catch. Their shared state lives in the same
// instrumented registers that a generated package's lockgen_check build
// carries (backend/golang/runtime.go, runtimeCheck), without the build tag:
// under an execution of verify/sched every access is a scheduling point, and
// outside one they are plain atomics.
package testlocks

import (
	"sync/atomic"
	"unsafe"

	"github.com/lockgen/lockgen/verify/sched"
)

// The register types below follow runtimeCheck call for call.

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

func (r *boolReg) swap(l string, v bool) bool {
	sched.Access(l, sched.OpSwap, r.p())
	old := atomic.SwapInt64(&r.v, b2i(v)) != 0
	sched.ResultBool(old, true)
	return old
}

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

func pause(l string)   { sched.Wait(l) }
func doorway(l string) { sched.Doorway(l) }
func delay(l string)   { sched.Delay(l) }

// Int is an instrumented integer register, exported for the scheduler's own
// tests.
type Int struct{ r intReg }

// Load reads the register.
func (c *Int) Load(label string) int64 { return c.r.load(label) }

// Store writes the register.
func (c *Int) Store(label string, v int64) { c.r.store(label, v) }

// Add adds d and returns the old value.
func (c *Int) Add(label string, d int64) int64 { return c.r.fetchAdd(label, d) }
