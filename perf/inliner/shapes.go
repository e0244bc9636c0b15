// Package inliner holds the smallest shapes a generated lock's Lock and
// Unlock could take, so that the Go compiler's inliner can be asked which
// of them fit its budget (80 on go1.26; see TestShapes). It measures a
// limit, the way perf.Limits measures what a wake-up or a cache-line
// transfer costs: the shapes are not locks anyone should use.
//
// Registers are written as the generated code writes them: an atomic word
// behind a method that takes the paper's line label (lockgen_runtime.go's
// intReg), which the checked build hands to the controlled scheduler. The
// slow paths are calls that do not inline, as a generated lock's
// continuations are.
package inliner

import "sync/atomic"

// intReg is the generated runtime's integer register.
type intReg struct{ v atomic.Int64 }

func (r *intReg) load(string) int64            { return r.v.Load() }
func (r *intReg) store(_ string, v int64)      { r.v.Store(v) }
func (r *intReg) swap(_ string, v int64) int64 { return r.v.Swap(v) }

// node is a queue lock's record.
type node struct {
	next   atomic.Pointer[node]
	locked atomic.Bool
}

// TAS is a test-and-set lock with the waiting layer's word beside its own:
// l, the lock word, and sleepers, the count a release must look at.
type TAS struct {
	l, sleepers intReg
	word        int64 // a lock word for sync/atomic's functions
	held        bool  // the misuse flag: one plain write each way
}

//go:noinline
func (t *TAS) slow() {}

//go:noinline
func (t *TAS) slowWith(int64) {}

// Lock is the generated TAS's acquire, without the local variable the
// generic emission declares: one swap, one call when it fails, the flag.
func (t *TAS) Lock() {
	if t.l.swap("1", 1) != 0 {
		t.slow()
	}
	t.held = true
}

// Unlock is the generated TAS's release: the misuse check, the write of
// FREE, then a load of the sleepers' word and a call when someone sleeps.
func (t *TAS) Unlock() {
	if !t.held {
		panic("not locked")
	}
	t.held = false
	t.l.store("2", 0)
	if t.sleepers.load("2") != 0 {
		t.slow()
	}
}

// UnlockUnchecked is Unlock without its misuse check: the write and the
// separate test for sleepers alone.
func (t *TAS) UnlockUnchecked() {
	t.l.store("2", 0)
	if t.sleepers.load("2") != 0 {
		t.slow()
	}
}

// UnlockFolded is the release of a lock whose word holds both the lock bit
// and the sleepers' flag, as sync.Mutex's does: one swap, and one call
// unless the old word was exactly "locked, nobody asleep". The call tells
// an unlocked lock (misuse) from sleepers to wake.
func (t *TAS) UnlockFolded() {
	if old := t.l.swap("2", 0); old != 1 {
		t.slowWith(old)
	}
}

// UnlockFoldedDirect is UnlockFolded on a plain word through sync/atomic's
// SwapInt64 instead of an atomic.Int64 behind a labelled method, as the
// checked build's registers already are.
func (t *TAS) UnlockFoldedDirect() {
	if old := atomic.SwapInt64(&t.word, 0); old != 1 {
		t.slowWith(old)
	}
}

// UnlockFoldedFlagged is UnlockFolded that also keeps the misuse flag.
func (t *TAS) UnlockFoldedFlagged() {
	if !t.held {
		panic("not locked")
	}
	t.held = false
	if old := t.l.swap("2", 0); old != 1 {
		t.slowWith(old)
	}
}

// Queue is a queue lock on pointers, reduced to its tail.
type Queue struct {
	tail atomic.Pointer[node]
	me   node
}

//go:noinline
func (q *Queue) slow(*node) {}

// Lock is the least a queue lock on pointers does to enter: one swap of
// the tail, and one call when it had a predecessor. MCS's and CLH's
// acquires add to it.
func (q *Queue) Lock() {
	if pred := q.tail.Swap(&q.me); pred != nil {
		q.slow(pred)
	}
}

// Call is a method that only calls one that does not inline.
type Call struct{}

//go:noinline
func (c *Call) slow() {}

// Lock is a call and nothing else: what any slow path costs the caller.
func (c *Call) Lock() { c.slow() }
