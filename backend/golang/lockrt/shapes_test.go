package lockrt

import "sync/atomic"

// The smallest shapes a generated lock's Lock and Unlock could take, so
// that the Go compiler's inliner can be asked which of them fit its budget
// (80 on go1.26; see TestInlineShapes). They measure a limit, the way
// perf.Limits measures what a wake-up or a cache-line transfer costs: they
// are not locks anyone should use. They are test code, so the Go backend
// does not copy them into generated packages.
//
// Registers are this package's own intReg, bitReg and refReg, the ones
// generated code calls: a plain word behind methods that take the paper's
// line label. The slow paths are calls that do not inline, as a generated
// lock's continuations are.

// shapeNode is a queue lock's record.
type shapeNode struct{ next refReg[shapeNode] }

// shapeTAS is a test-and-set lock with the waiting layer's word beside its
// own: l, the lock word, and sleepers, the count a release must look at.
type shapeTAS struct {
	l, sleepers intReg
	held        bool // the misuse flag: one plain write each way
}

//go:noinline
func (t *shapeTAS) slow() {}

//go:noinline
func (t *shapeTAS) slowWith(int64) {}

// Lock is the shape of an unguarded test-and-set acquire, without the
// local variable the generic emission declares: one swap, one call when
// it fails, the flag.
func (t *shapeTAS) Lock() {
	if t.l.swap("1", 1) != 0 {
		t.slow()
	}
	t.held = true
}

// Unlock is the shape of an unguarded test-and-set release: the misuse
// check, the write of FREE, then a load of the sleepers' word and a call
// when someone sleeps.
func (t *shapeTAS) Unlock() {
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
func (t *shapeTAS) UnlockUnchecked() {
	t.l.store("2", 0)
	if t.sleepers.load("2") != 0 {
		t.slow()
	}
}

// UnlockFolded is the release of a lock whose word holds both the lock bit
// and the sleepers' flag, as sync.Mutex's does: one swap, and one call
// unless the old word was exactly "locked, nobody asleep". The call tells
// an unlocked lock (misuse) from sleepers to wake.
func (t *shapeTAS) UnlockFolded() {
	if old := t.l.swap("2", 0); old != 1 {
		t.slowWith(old)
	}
}

// UnlockFoldedFlagged is UnlockFolded that also keeps the misuse flag.
func (t *shapeTAS) UnlockFoldedFlagged() {
	if !t.held {
		panic("not locked")
	}
	t.held = false
	if old := t.l.swap("2", 0); old != 1 {
		t.slowWith(old)
	}
}

// shapeGuard is a test-and-set lock as the Go backend emits one whose
// register is folded into its queue's word (bitReg): each method is the
// exchange, one comparison of the old word, and one call when it is not
// the uncontended one. Its register is at the lock's own address, as the
// generated lock's is.
type shapeGuard struct{ l bitReg }

//go:noinline
func (t *shapeGuard) slow() {}

//go:noinline
func (t *shapeGuard) slowWith(int64) {}

func (t *shapeGuard) Lock() {
	if t.l.set("1")&qValue != 0 {
		t.slow()
	}
}

func (t *shapeGuard) Unlock() {
	if w := t.l.clear("2"); w != 1 {
		t.slowWith(w)
	}
}

// clearNested is bitReg.clear written through the queue word's own
// method, one call deeper.
func (t *shapeGuard) clearNested(l string) int64 { return t.l.q.state.and(l, ^qValue) }

// UnlockNested is Unlock with clearNested.
func (t *shapeGuard) UnlockNested() {
	if w := t.clearNested("2"); w != 1 {
		t.slowWith(w)
	}
}

// shapePadded is shapeGuard with the register after a cache line of
// padding, as the generated locks' first register used to be.
type shapePadded struct {
	_ [64]byte
	l bitReg
}

//go:noinline
func (t *shapePadded) slowWith(int64) {}

func (t *shapePadded) Unlock() {
	if w := t.l.clear("2"); w != 1 {
		t.slowWith(w)
	}
}

// shapeQueue is a queue lock on pointers, reduced to its tail.
type shapeQueue struct {
	tail refReg[shapeNode]
	me   shapeNode
}

//go:noinline
func (q *shapeQueue) slow(*shapeNode) {}

// Lock is the least a queue lock on pointers does to enter: one swap of
// the tail, and one call when it had a predecessor. MCS's and CLH's
// acquires add to it.
func (q *shapeQueue) Lock() {
	if pred := q.tail.swap("1", &q.me); pred != nil {
		q.slow(pred)
	}
}

// shapeCall is a method that only calls one that does not inline.
type shapeCall struct{}

//go:noinline
func (c *shapeCall) slow() {}

// Lock is a call and nothing else: what any slow path costs the caller.
func (c *shapeCall) Lock() { c.slow() }

// shapeTicket is a ticket lock: NEXT, the next ticket to hand out, and
// NOW, the ticket being served.
type shapeTicket struct {
	next, now intReg
	held      bool // the misuse flag
}

//go:noinline
func (t *shapeTicket) slowWith(int64) {}

//go:noinline
func (t *shapeTicket) slow() {}

// Lock is the least a ticket lock's acquire does: take a ticket (one
// fetch&add), compare it with NOW (one load), call the wait with the
// ticket when they differ, and set the misuse flag.
func (t *shapeTicket) Lock() {
	if my := t.next.fetchAdd("T1", 1); t.now.load("T2") != my {
		t.slowWith(my)
	}
	t.held = true
}

// LockUnflagged is Lock without the misuse flag.
func (t *shapeTicket) LockUnflagged() {
	if my := t.next.fetchAdd("T1", 1); t.now.load("T2") != my {
		t.slowWith(my)
	}
}

// LockNoTicket is LockUnflagged with a wait that is not given the ticket,
// which a real lock's wait needs: the two steps and a bare call.
func (t *shapeTicket) LockNoTicket() {
	if my := t.next.fetchAdd("T1", 1); t.now.load("T2") != my {
		t.slow()
	}
}

// shapeTicketDirect is shapeTicket with its words read and written through
// sync/atomic's functions directly, as generated code cannot (the
// lockgen_check build routes every step through the register's methods):
// what the register methods cost a ticket lock's acquire.
type shapeTicketDirect struct {
	next, now int64
	held      bool
}

//go:noinline
func (t *shapeTicketDirect) slowWith(int64) {}

// Lock is shapeTicket.Lock on the bare words.
func (t *shapeTicketDirect) Lock() {
	if my := atomic.AddInt64(&t.next, 1) - 1; atomic.LoadInt64(&t.now) != my {
		t.slowWith(my)
	}
	t.held = true
}

// LockUnflagged is Lock without the misuse flag.
func (t *shapeTicketDirect) LockUnflagged() {
	if my := atomic.AddInt64(&t.next, 1) - 1; atomic.LoadInt64(&t.now) != my {
		t.slowWith(my)
	}
}
