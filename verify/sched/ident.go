package sched

import (
	"runtime"
	"sync/atomic"
)

// Telling managed goroutines apart.
//
// The entry points are called by every goroutine that touches an
// instrumented register: the managed ones of the current execution, but also
// ordinary goroutines (a stress test's, or one leaked by an earlier failure).
// Go has no goroutine-local storage, so the caller is recognised by its
// stack: every managed goroutine starts in managedMain, so a caller whose
// outermost frames include managedMain is managed, and since managed
// goroutines run one at a time it is the one holding the token.
//
// runtime.Callers costs about 0.4 µs at the depth of a lock's register
// method, against about 2 µs plus 0.3 µs per frame for parsing the goroutine
// id out of runtime.Stack (measured on the 2-core build machine). The id is
// still used when goroutines of an earlier execution may be alive (see
// stale): they also start in managedMain, and only their ids tell them apart.

var (
	// cur is the execution in progress, nil between executions.
	cur atomic.Pointer[execution]
	// stale counts managed goroutines that outlived their execution (only
	// after a stall, see Run); while it is non-zero, identity needs ids.
	stale atomic.Int64
	// managedRet is the return address of managedMain's call into the body,
	// learnt the first time it is seen.
	managedRet atomic.Uintptr
)

const managedMainName = "github.com/lockgen/lockgen/verify/sched.managedMain"

// managed returns the calling goroutine's proc if it is a managed goroutine
// of the execution in progress and that execution is still controlled.
func managed() *proc {
	ex := cur.Load()
	if ex == nil || ex.stopped.Load() {
		return nil
	}
	if ex.useGID {
		g := goid()
		for _, p := range ex.procs {
			if p.gid.Load() == g {
				return p
			}
		}
		return nil
	}
	if !onManagedStack() {
		return nil
	}
	return ex.running
}

// onManagedStack reports whether the caller's goroutine started in
// managedMain.
func onManagedStack() bool {
	var buf [64]uintptr
	pcs := buf[:runtime.Callers(3, buf[:])]
	if len(pcs) == len(buf) {
		big := make([]uintptr, 1<<14)
		pcs = big[:runtime.Callers(3, big)]
	}
	// The outermost frames are runtime.goexit, then managedMain (possibly
	// behind a compiler-made wrapper of the go statement).
	lo := max(0, len(pcs)-4)
	want := managedRet.Load()
	for i := len(pcs) - 1; i >= lo; i-- {
		if pcs[i] == want {
			return true
		}
	}
	for i := len(pcs) - 1; i >= lo; i-- {
		if f := runtime.FuncForPC(pcs[i] - 1); f != nil && f.Name() == managedMainName {
			managedRet.Store(pcs[i])
			return true
		}
	}
	return false
}

// goid returns the calling goroutine's id, parsed from runtime.Stack's
// header "goroutine 123 [running]:".
func goid() uint64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	const prefix = "goroutine "
	if len(b) < len(prefix) {
		return 0
	}
	var id uint64
	for _, c := range b[len(prefix):] {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + uint64(c-'0')
	}
	return id
}
