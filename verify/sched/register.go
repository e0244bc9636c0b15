package sched

import (
	"sync/atomic"
	"unsafe"
)

// The instrumented registers: the one implementation of the papers'
// registers under the controlled scheduler. A generated package's
// lockgen_check build wraps them (backend/golang/lockrt/check.go), and
// verify's and sched's own tests build their hand-written locks on them
// (verify/internal/testlocks). Every method but Init is one atomic step and
// one scheduling point, announced with the paper's line label (Access) and
// completed with the value it read or wrote (the Result functions).
// verify/checked's atomic types lower onto them too, labelled with their
// caller's file:line. Outside
// an execution they are plain sync/atomic operations. Each register keeps
// its value in the 8-byte word at its start, as Access requires.

// IntReg is a shared integer register.
type IntReg struct{ v int64 }

func (r *IntReg) p() unsafe.Pointer { return unsafe.Pointer(r) }

// Load reads the register.
func (r *IntReg) Load(l string) int64 {
	Access(l, OpLoad, r.p())
	v := atomic.LoadInt64(&r.v)
	ResultInt(v, false)
	return v
}

// Store writes v.
func (r *IntReg) Store(l string, v int64) {
	Access(l, OpStore, r.p())
	atomic.StoreInt64(&r.v, v)
	ResultInt(v, true)
}

// Swap writes v and returns the old value.
func (r *IntReg) Swap(l string, v int64) int64 {
	Access(l, OpSwap, r.p())
	old := atomic.SwapInt64(&r.v, v)
	ResultInt(old, true)
	return old
}

// CAS writes new if the register holds old, and reports whether it did.
func (r *IntReg) CAS(l string, old, new int64) bool {
	Access(l, OpCAS, r.p())
	ok := atomic.CompareAndSwapInt64(&r.v, old, new)
	ResultBool(ok, ok)
	return ok
}

// FetchAdd adds d and returns the old value.
func (r *IntReg) FetchAdd(l string, d int64) int64 {
	Access(l, OpAdd, r.p())
	old := atomic.AddInt64(&r.v, d) - d
	ResultInt(old, d != 0)
	return old
}

// Or sets the bits of m and returns the old value.
func (r *IntReg) Or(l string, m int64) int64 {
	Access(l, OpBits, r.p())
	old := atomic.OrInt64(&r.v, m)
	ResultInt(old, old|m != old)
	return old
}

// And keeps only the bits of m and returns the old value.
func (r *IntReg) And(l string, m int64) int64 {
	Access(l, OpBits, r.p())
	old := atomic.AndInt64(&r.v, m)
	ResultInt(old, old&m != old)
	return old
}

// Update applies f to the value as one step (a CAS loop that nothing else
// interleaves with) and returns the old value; op names the step. It
// reports a write even when f returns the old value: verify/checked's
// read-modify-writes of the narrower sync/atomic types lower onto it.
func (r *IntReg) Update(l string, op Op, f func(int64) int64) int64 {
	Access(l, op, r.p())
	for {
		old := atomic.LoadInt64(&r.v)
		if atomic.CompareAndSwapInt64(&r.v, old, f(old)) {
			ResultInt(old, true)
			return old
		}
	}
}

// Init sets the initial value, before any process runs: no step, but
// the reduction must know the register was written (Initialize).
func (r *IntReg) Init(v int64) { Initialize(r.p()); atomic.StoreInt64(&r.v, v) }

// BoolReg is a shared boolean register, a word holding 0 or 1.
type BoolReg struct{ v int64 }

func (r *BoolReg) p() unsafe.Pointer { return unsafe.Pointer(r) }

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// Load reads the register.
func (r *BoolReg) Load(l string) bool {
	Access(l, OpLoad, r.p())
	v := atomic.LoadInt64(&r.v) != 0
	ResultBool(v, false)
	return v
}

// Store writes v.
func (r *BoolReg) Store(l string, v bool) {
	Access(l, OpStore, r.p())
	atomic.StoreInt64(&r.v, b2i(v))
	ResultBool(v, true)
}

// Swap writes v and returns the old value.
func (r *BoolReg) Swap(l string, v bool) bool {
	Access(l, OpSwap, r.p())
	old := atomic.SwapInt64(&r.v, b2i(v)) != 0
	ResultBool(old, true)
	return old
}

// CAS writes new if the register holds old, and reports whether it did.
func (r *BoolReg) CAS(l string, old, new bool) bool {
	Access(l, OpCAS, r.p())
	ok := atomic.CompareAndSwapInt64(&r.v, b2i(old), b2i(new))
	ResultBool(ok, ok)
	return ok
}

// Init sets the initial value, before any process runs: no step.
func (r *BoolReg) Init(v bool) { Initialize(r.p()); atomic.StoreInt64(&r.v, b2i(v)) }

// RefReg is a shared register holding a reference to a record; traces
// show references as n1, n2, ... by first appearance.
type RefReg[T any] struct{ v unsafe.Pointer }

func (r *RefReg[T]) p() unsafe.Pointer { return unsafe.Pointer(r) }

// Load reads the register.
func (r *RefReg[T]) Load(l string) *T {
	Access(l, OpLoad, r.p())
	v := atomic.LoadPointer(&r.v)
	ResultRef(v, false)
	return (*T)(v)
}

// Store writes v.
func (r *RefReg[T]) Store(l string, v *T) {
	Access(l, OpStore, r.p())
	atomic.StorePointer(&r.v, unsafe.Pointer(v))
	ResultRef(unsafe.Pointer(v), true)
}

// Swap writes v and returns the old reference.
func (r *RefReg[T]) Swap(l string, v *T) *T {
	Access(l, OpSwap, r.p())
	old := atomic.SwapPointer(&r.v, unsafe.Pointer(v))
	ResultRef(old, true)
	return (*T)(old)
}

// CAS writes new if the register holds old, and reports whether it did.
func (r *RefReg[T]) CAS(l string, old, new *T) bool {
	Access(l, OpCAS, r.p())
	ok := atomic.CompareAndSwapPointer(&r.v, unsafe.Pointer(old), unsafe.Pointer(new))
	ResultBool(ok, ok)
	return ok
}

// Init sets the initial value, before any process runs: no step.
func (r *RefReg[T]) Init(v *T) { Initialize(r.p()); atomic.StorePointer(&r.v, unsafe.Pointer(v)) }
