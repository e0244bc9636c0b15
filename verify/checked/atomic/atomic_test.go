package atomic_test

import (
	"testing"

	"github.com/lockgen/lockgen/verify/checked/atomic"
)

type node struct{ v int }

// The sync/atomic method sets, in both builds.
func TestMethodSets(t *testing.T) {
	var i64 atomic.Int64
	if i64.Add(5) != 5 || i64.Swap(7) != 5 || !i64.CompareAndSwap(7, 8) || i64.Load() != 8 || i64.Or(1) != 8 || i64.And(1) != 9 || i64.Load() != 1 {
		t.Error("Int64")
	}
	var i32 atomic.Int32
	if i32.Add(-3) != -3 || i32.Load() != -3 {
		t.Error("Int32")
	}
	var u32 atomic.Uint32
	u32.Store(^uint32(0))
	if u32.Add(1) != 0 {
		t.Error("Uint32 wraps")
	}
	var u64 atomic.Uint64
	if u64.Add(2) != 2 {
		t.Error("Uint64")
	}
	var up atomic.Uintptr
	if up.Add(3) != 3 {
		t.Error("Uintptr")
	}
	var b atomic.Bool
	if b.Swap(true) || !b.Load() || !b.CompareAndSwap(true, false) {
		t.Error("Bool")
	}
	var p atomic.Pointer[node]
	n := &node{1}
	if p.Swap(n) != nil || p.Load() != n || !p.CompareAndSwap(n, nil) || p.Load() != nil {
		t.Error("Pointer")
	}
}
