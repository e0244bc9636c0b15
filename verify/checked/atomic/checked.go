//go:build lockgen_check

package atomic

import (
	"github.com/lockgen/lockgen/verify/checked/internal/label"
	"github.com/lockgen/lockgen/verify/sched"
)

// Under lockgen_check each type is one of verify/sched's instrumented
// registers (the same ones a generated lock's lockgen_check build uses),
// so it keeps its value in the 8-byte word at its start, and every method
// is one scheduling point, labelled with its caller's file:line.

// at labels a scheduling point with the user's call site. Finding it
// walks the stack, so it is found only in a controlled execution: outside
// one the registers are plain atomics and ignore their label.
func at() string {
	if !sched.Managed() {
		return ""
	}
	return label.Caller()
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// word holds a value of up to 64 bits; the typed wrappers convert. A
// boolean is a word too, so a trace shows it as 0 or 1.
type word struct{ r sched.IntReg }

func (w *word) load() int64             { return w.r.Load(at()) }
func (w *word) store(v int64)           { w.r.Store(at(), v) }
func (w *word) swap(v int64) int64      { return w.r.Swap(at(), v) }
func (w *word) cas(old, new int64) bool { return w.r.CAS(at(), old, new) }

// update applies f to the value atomically (one step for the scheduler)
// and returns the old value.
func (w *word) update(op sched.Op, f func(int64) int64) int64 { return w.r.Update(at(), op, f) }

// Int64 is sync/atomic.Int64, checked.
type Int64 struct{ w word }

func (x *Int64) Load() int64        { return x.w.load() }
func (x *Int64) Store(v int64)      { x.w.store(v) }
func (x *Int64) Swap(v int64) int64 { return x.w.swap(v) }
func (x *Int64) CompareAndSwap(old, new int64) bool {
	return x.w.cas(old, new)
}
func (x *Int64) Add(d int64) int64 {
	return x.w.update(sched.OpAdd, func(v int64) int64 { return v + d }) + d
}
func (x *Int64) And(m int64) int64 {
	return x.w.update(sched.OpSwap, func(v int64) int64 { return v & m })
}
func (x *Int64) Or(m int64) int64 {
	return x.w.update(sched.OpSwap, func(v int64) int64 { return v | m })
}

// Int32 is sync/atomic.Int32, checked.
type Int32 struct{ w word }

func (x *Int32) Load() int32        { return int32(x.w.load()) }
func (x *Int32) Store(v int32)      { x.w.store(int64(v)) }
func (x *Int32) Swap(v int32) int32 { return int32(x.w.swap(int64(v))) }
func (x *Int32) CompareAndSwap(old, new int32) bool {
	return x.w.cas(int64(old), int64(new))
}
func (x *Int32) Add(d int32) int32 {
	return int32(x.w.update(sched.OpAdd, func(v int64) int64 { return int64(int32(v) + d) })) + d
}
func (x *Int32) And(m int32) int32 {
	return int32(x.w.update(sched.OpSwap, func(v int64) int64 { return int64(int32(v) & m) }))
}
func (x *Int32) Or(m int32) int32 {
	return int32(x.w.update(sched.OpSwap, func(v int64) int64 { return int64(int32(v) | m) }))
}

// Uint64 is sync/atomic.Uint64, checked.
type Uint64 struct{ w word }

func (x *Uint64) Load() uint64         { return uint64(x.w.load()) }
func (x *Uint64) Store(v uint64)       { x.w.store(int64(v)) }
func (x *Uint64) Swap(v uint64) uint64 { return uint64(x.w.swap(int64(v))) }
func (x *Uint64) CompareAndSwap(old, new uint64) bool {
	return x.w.cas(int64(old), int64(new))
}
func (x *Uint64) Add(d uint64) uint64 {
	return uint64(x.w.update(sched.OpAdd, func(v int64) int64 { return int64(uint64(v) + d) })) + d
}
func (x *Uint64) And(m uint64) uint64 {
	return uint64(x.w.update(sched.OpSwap, func(v int64) int64 { return int64(uint64(v) & m) }))
}
func (x *Uint64) Or(m uint64) uint64 {
	return uint64(x.w.update(sched.OpSwap, func(v int64) int64 { return int64(uint64(v) | m) }))
}

// Uint32 is sync/atomic.Uint32, checked.
type Uint32 struct{ w word }

func (x *Uint32) Load() uint32         { return uint32(x.w.load()) }
func (x *Uint32) Store(v uint32)       { x.w.store(int64(v)) }
func (x *Uint32) Swap(v uint32) uint32 { return uint32(x.w.swap(int64(v))) }
func (x *Uint32) CompareAndSwap(old, new uint32) bool {
	return x.w.cas(int64(old), int64(new))
}
func (x *Uint32) Add(d uint32) uint32 {
	return uint32(x.w.update(sched.OpAdd, func(v int64) int64 { return int64(uint32(v) + d) })) + d
}
func (x *Uint32) And(m uint32) uint32 {
	return uint32(x.w.update(sched.OpSwap, func(v int64) int64 { return int64(uint32(v) & m) }))
}
func (x *Uint32) Or(m uint32) uint32 {
	return uint32(x.w.update(sched.OpSwap, func(v int64) int64 { return int64(uint32(v) | m) }))
}

// Uintptr is sync/atomic.Uintptr, checked.
type Uintptr struct{ w word }

func (x *Uintptr) Load() uintptr          { return uintptr(x.w.load()) }
func (x *Uintptr) Store(v uintptr)        { x.w.store(int64(v)) }
func (x *Uintptr) Swap(v uintptr) uintptr { return uintptr(x.w.swap(int64(v))) }
func (x *Uintptr) CompareAndSwap(old, new uintptr) bool {
	return x.w.cas(int64(old), int64(new))
}
func (x *Uintptr) Add(d uintptr) uintptr {
	return uintptr(x.w.update(sched.OpAdd, func(v int64) int64 { return int64(uintptr(v) + d) })) + d
}

// Bool is sync/atomic.Bool, checked.
type Bool struct{ w word }

func (x *Bool) Load() bool       { return x.w.load() != 0 }
func (x *Bool) Store(v bool)     { x.w.store(b2i(v)) }
func (x *Bool) Swap(v bool) bool { return x.w.swap(b2i(v)) != 0 }
func (x *Bool) CompareAndSwap(old, new bool) bool {
	return x.w.cas(b2i(old), b2i(new))
}

// Pointer is sync/atomic.Pointer, checked. References show in traces as
// n1, n2, ... by first appearance.
type Pointer[T any] struct{ r sched.RefReg[T] }

func (x *Pointer[T]) Load() *T                        { return x.r.Load(at()) }
func (x *Pointer[T]) Store(v *T)                      { x.r.Store(at(), v) }
func (x *Pointer[T]) Swap(v *T) *T                    { return x.r.Swap(at(), v) }
func (x *Pointer[T]) CompareAndSwap(old, new *T) bool { return x.r.CAS(at(), old, new) }
