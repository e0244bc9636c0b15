//go:build !lockgen_check

package atomic

import "sync/atomic"

// The standard types: checking costs nothing in a normal build.
type (
	Int32          = atomic.Int32
	Int64          = atomic.Int64
	Uint32         = atomic.Uint32
	Uint64         = atomic.Uint64
	Uintptr        = atomic.Uintptr
	Bool           = atomic.Bool
	Pointer[T any] = atomic.Pointer[T]
)
