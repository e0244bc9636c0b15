package lockrt

import (
	"context"
	"strconv"
	"sync"
)

// The waiting layer: how a process that must wait (an await that does not
// hold, a busy-wait loop that must go round again) spends the time, and how
// a write wakes exactly the waiters it may enable.
//
// Waits are grouped into queues by what they read (decided by the Go
// backend): the fields of one record (a queue node), one array element
// (Anderson's slot), one register (a ticket lock's NOW), or, for waits that
// read several unrelated registers, the whole lock. A write to a register
// read through a queue wakes that queue, and only when the value written can
// satisfy one of its waits (decided statically where the backend can, at
// run time by key otherwise):
//
//   - a keyed waiter waits for one value (await NOW = my): a write wakes it
//     only if it wrote that value, so a ticket lock's release wakes the one
//     ticket it serves;
//   - an exclusive waiter competes, once woken, to consume what the write
//     made available (its next step is a swap, CAS or fetch&add on what it
//     awaited: test-and-set, replace-add): a write wakes one of them, and
//     none while one is awake (spinning, or woken and not yet run), since
//     that one will see the write. The others are woken by the release of
//     whoever consumes it. sync.Mutex wakes the same way;
//   - every other waiter is woken by any write that may satisfy it.
//
// The handshake that loses no wake-up is the classic one, on sequentially
// consistent atomics: a waiter queues itself (prepare), then checks its
// condition again, and only then sleeps (park); a writer writes, then looks
// at the queue. Either the writer sees the waiter queued, or the waiter's
// check sees the write. A waiter whose check succeeds after it queued itself
// withdraws (cancel); if a writer took it off the queue meanwhile, the token
// that writer deposits is absorbed there, so no wait ever sees a stale one.
//
// Policies (the spec's wait key) decide what a waiter does between checks:
// spin, yield, park, spin-then-yield, spin-then-park, and adaptive, which
// spins only while spinning can pay (a bounded time, and only while fewer
// waiters spin than there are other processors) and parks otherwise.

// Waiting policies.
const (
	waitSpin          uint8 = iota // busy-wait, yielding every spinYieldEvery checks
	waitYield                      // runtime.Gosched between checks
	waitPark                       // sleep until a write may satisfy the wait
	waitSpinThenYield              // spin a fixed number of checks, then yield
	waitSpinThenPark               // spin a fixed number of checks, then sleep
	waitAdaptive                   // spin while it pays, then sleep
)

// spinYieldEvery bounds the spin policy: Go cannot pin a goroutine to a
// processor, so a waiter that never yields can hold the processor its lock
// holder needs until asynchronous preemption (about 10 ms).
const spinYieldEvery = 16

// A comment "control NAME: CODE" marks a line that the waiting layer's
// negative controls (backend/golang TestWaitingLayerControls) replace
// with CODE to plant a known bug: skip-wake, a write that wakes nobody;
// keep-the-wake, a woken exclusive waiter that leaves still counted
// awake, so that later writes wake none of the others.

// waitq's state word: the value of a register folded into it (bitReg; 0
// in a queue of its own), a lock bit guarding the list, the number of
// queued waiters that are not exclusive, of queued exclusive ones, and of
// exclusive waiters that are awake (at most 2^20 - 1 of each).
const (
	qValue      int64 = 1
	qLocked     int64 = 1 << 1
	qSleeper    int64 = 1 << 2  // not exclusive
	qExclusive  int64 = 1 << 22 // exclusive
	qAwake      int64 = 1 << 42
	qSleepers   int64 = qExclusive - qSleeper
	qExclusives int64 = qAwake - qExclusive
	qAwakeMask  int64 = ^(qAwake - 1)
)

// waitq is the queue of the waiters sleeping until a write to the
// registers it covers. The zero value is an empty queue.
type waitq struct {
	state      intReg // value | qLocked | sleepers*qSleeper | exclusives*qExclusive | awake*qAwake
	head, tail *waiter
	// shared counts the queued waiters whose key is not their own alone
	// (guarded by the lock bit): while it is 0, a keyed wake stops at its
	// first match instead of scanning every sleeper.
	shared int32
}

// When a write must look at the list: when someone sleeps whom it may
// enable. Exclusive sleepers need no wake while an exclusive waiter is
// awake: that one will see the write. A waiter holding the lock bit to
// queue itself needs none either: it checks its condition after it is
// counted, so after any write whose writer found it uncounted.
//
// On a queue whose waiters are all exclusive, or none is (every queue but
// a reader/writer lock's), the awake count is 0 whenever a non-exclusive
// waiter is counted, so the test is one comparison: someone counted, and
// none awake (wake). A queue with both kinds (a reader/writer lock's
// writers and readers) needs both tests (mustWake): readers asleep while a
// writer is awake must still be woken.

// wake is called after a write of val to a register this queue covers (for
// reference and boolean registers, val is 0 or 1, or 0 when no waiter is
// keyed), on a queue whose waiters are all exclusive or none is. It costs
// one load of a word beside the register when nobody sleeps, and when
// only exclusive waiters sleep with one awake.
func (q *waitq) wake(l string, val int64) {
	// Someone counted (s >= qSleeper) and no exclusive waiter awake
	// (s < qAwake), the value and the lock bit aside.
	if uint64(q.state.load(l)-qSleeper) < uint64(qAwake-qSleeper) {
		q.wakeSlow(l, val) // control skip-wake:
	}
}

// wakeWord is wake on the state word s that the write of val returned (a
// bitReg's set or clear): the write and the look at the queue are one
// atomic step, and a waiter counted after it checks its condition after
// the write.
func (q *waitq) wakeWord(l string, s, val int64) {
	if uint64(s-qSleeper) < uint64(qAwake-qSleeper) {
		q.wakeSlow(l, val) // control skip-wake:
	}
}

// mustWake is the test of wake for a queue with waiters of both kinds: the
// generated code calls wakeSlow when it holds (the two tests and the call
// would not inline as one method).
func (q *waitq) mustWake(l string) bool {
	return mixedWakeNeeded(q.state.load(l)) // control skip-wake: return false
}

// mixedWakeNeeded is mustWake's test: a non-exclusive waiter counted, or
// an exclusive one with none awake.
func mixedWakeNeeded(s int64) bool {
	return s&qSleepers != 0 || s&qExclusives != 0 && s&qAwakeMask == 0
}

// wakeSlow takes off the list every waiter the write may satisfy (at most
// one exclusive one, and none while an exclusive one is awake) and unparks
// them after releasing the list. wake or mustWake has seen reason to.
func (q *waitq) wakeSlow(l string, val int64) {
	s := q.lock(l)
	exclDone := s&qAwakeMask != 0
	others := s&qSleepers != 0
	var woken *waiter
	var n, nx, awake int64
	var prev *waiter
	for w := q.head; w != nil; {
		next := w.next
		if w.enabledBy(val) && !(w.excl && exclDone) {
			last := w.unique && q.shared == 0
			if prev == nil {
				q.head = next
			} else {
				prev.next = next
			}
			if q.tail == w {
				q.tail = prev
			}
			w.queued = false
			if w.excl {
				exclDone = true
				w.awake = true
				awake++
				nx++
			} else {
				n++
			}
			if !w.unique {
				q.shared--
			}
			w.wnext, woken = woken, w
			if last || exclDone && !others {
				break // nobody else can wait for this value, or be woken now
			}
		} else {
			prev = w
		}
		w = next
	}
	q.state.fetchAdd(l, awake*qAwake-n*qSleeper-nx*qExclusive-qLocked)
	for w := woken; w != nil; {
		next := w.wnext // w may start another wait as soon as it is unparked
		w.wakeUp(l)
		w = next
	}
}

// wakeUp unparks a waiter a writer took off its queue.
func (w *waiter) wakeUp(l string) {
	if w.spinners != nil {
		// Woken, it is runnable: it counts against the spinners until it
		// sleeps again or ends its wait, so that the waker, likely to wait
		// next on the processor the woken one is queued on, parks rather
		// than spin in its way.
		w.spinning = true
		w.spinners.fetchAdd(l, 1)
	}
	w.p.unpark(l)
}

// lock takes the list's lock bit and returns the state word it set.
func (q *waitq) lock(l string) int64 {
	for n := 0; ; n++ {
		s := q.state.load(l)
		if s&qLocked == 0 && q.state.cas(l, s, s|qLocked) {
			return s | qLocked
		}
		backoff(l, n)
	}
}

// unlink removes w from the list (the caller holds the lock).
func (q *waitq) unlink(w *waiter) {
	var prev *waiter
	for x := q.head; x != nil; prev, x = x, x.next {
		if x != w {
			continue
		}
		if !w.unique {
			q.shared--
		}
		if prev == nil {
			q.head = x.next
		} else {
			prev.next = x.next
		}
		if q.tail == x {
			q.tail = prev
		}
		return
	}
}

// soloq is the queue of a location that one process at a time waits on
// (a queue node's own flag, an array lock's slot; the Go backend picks it
// only for those). Its sleeper takes the slot with one CAS and a writer
// takes it back with one, where a waitq costs its lock bit and a count
// each way. A write wakes the sleeper whatever it wrote: the writes that
// cannot end the wait are filtered where the generator can tell, and a
// needless wake only makes the waiter check again. A second waiter that
// finds the slot taken does not sleep: it yields between its checks.
type soloq struct {
	w refReg[waiter]
}

// wake is called after a write to a register this queue covers; it costs
// one load of a word beside the register when nobody sleeps.
func (q *soloq) wake(l string, _ int64) {
	if q.w.load(l) != nil {
		q.wakeSlow(l) // control skip-wake:
	}
}

func (q *soloq) wakeSlow(l string) {
	if w := q.w.load(l); w != nil && q.w.cas(l, w, nil) {
		w.wakeUp(l)
	}
}

// bitReg is a shared integer register that only ever holds 0 or 1 (a
// test-and-set lock's word), folded into bit 0 of the state word of the
// queue its waiters sleep on (the Go backend picks it for those, and
// never for a register its code compares-and-swaps or adds to). A
// write is one atomic step that keeps the queue's bits (set, clear), and
// the old word it returns says whether anyone was queued when it wrote:
// so a release is one step and one comparison when nobody waits, with
// the wake test on that word (wakeWord), and small enough to inline.
type bitReg struct{ q waitq }

func (r *bitReg) load(l string) int64 { return r.q.state.load(l) & qValue }

func (r *bitReg) swap(l string, v int64) int64 {
	if v != 0 {
		return r.set(l) & qValue
	}
	return r.clear(l) & qValue
}

func (r *bitReg) store(l string, v int64) { r.swap(l, v) }

// ticketq is the queue of a register each of whose waiters waits for a
// value no other waiter waits for, a ticket (await NOW = my). The waiter
// for ticket t sleeps on slot t mod ticketSlots, a solo queue, and a write
// of v wakes slot v's sleeper (slot): a release hands over to its one
// successor with a load and a CAS of that slot. A waitq's writer takes the
// list's lock word, which every waiter queuing itself takes too, so a
// release could wait for a waiter whose thread the system had stopped
// while it held that word. A needless wake (a slot's sleeper holding
// another ticket of the same slot) only makes it check again; with more
// than ticketSlots waiters, a second one on a slot polls.
type ticketq struct {
	slots [ticketSlots]soloq
}

const ticketSlots = 64

// slot is the solo queue the waiter for ticket key sleeps on, and the one
// a write of key wakes (the generated code calls slot(v).wake: one load of
// the slot when nobody sleeps there, small enough to inline).
func (q *ticketq) slot(key int64) *soloq { return &q.slots[uint64(key)%ticketSlots] }

// waiter is one process's side of a wait. Processes with state of their
// own (ids, handles, caller nodes) keep theirs there; the others take one
// from a pool for the slow path.
type waiter struct {
	p        parker
	q        *waitq
	sq       *soloq  // instead of q, for a wait on a solo queue
	spinners *intReg // the lock's spinning waiters (adaptive policy)
	next     *waiter // in q's list, guarded by its lock
	wnext    *waiter // in a waker's list of waiters to unpark
	key      int64
	mod      int64 // keyed by the value mod mod (0: by the value itself)
	keyed    bool  // only a write of key can satisfy the wait
	unique   bool  // keyed, and no other waiter waits for the same key (a ticket)
	excl     bool  // woken, it competes to consume what the write made available
	kind     uint8
	spinMax  int32
	spins    int32
	queued   bool // in q's list (guarded by q's lock)
	polls    bool // found sq's slot taken: yields instead of sleeping
	awake    bool // counted among q's awake exclusive waiters
	spinning bool // counted in *spinners
}

// Kinds of wait (begin's flags).
const (
	waitKeyed     uint8 = 1 << iota // only a write of the key can end it
	waitUniqueKey                   // keyed, and nobody else waits for the same key
	waitExclusive                   // woken, it competes to consume what the write made available
)

// begin starts a wait after a failed first check: through q (nil for the
// spin and yield policies), with the lock's spinner count, the policy and
// its spin count, and the wait's key (compared with the value written mod
// mod, when mod is not 0) and kind (waitKeyed...).
func (w *waiter) begin(l string, q *waitq, spinners *intReg, kind uint8, spins int32, key, mod int64, flags uint8) {
	w.q, w.sq, w.spinners, w.kind, w.spinMax = q, nil, spinners, kind, min(spins, spinLimit)
	w.mod = mod
	w.key, w.keyed, w.unique, w.excl = key, flags&waitKeyed != 0, flags&waitUniqueKey != 0, flags&waitExclusive != 0
	w.spins, w.spinning = 0, false
	if q == nil {
		return
	}
	if w.excl {
		// Awake from the start: a release while this waiter runs leaves
		// the sleepers alone, since this waiter checks again before it
		// sleeps.
		q.state.fetchAdd(l, qAwake)
		w.awake = true
	}
}

// beginSolo starts a wait on a solo queue after a failed first check.
func (w *waiter) beginSolo(l string, q *soloq, spinners *intReg, kind uint8, spins int32) {
	w.begin(l, nil, spinners, kind, spins, 0, 0, 0)
	w.sq = q
}

// spin is called after a failed check. It reports whether the waiter
// should check again after a pause or a yield (true), or sleep (false:
// prepare, check, park).
func (w *waiter) spin(l string) bool {
	switch w.kind {
	case waitSpin:
		if w.spins++; w.spins%spinYieldEvery == 0 {
			yield(l)
		} else {
			pause(l)
		}
		return true
	case waitYield:
		yield(l)
		return true
	case waitSpinThenYield:
		if w.spins < w.spinMax {
			w.spins++
			pause(l)
		} else {
			yield(l)
		}
		return true
	case waitSpinThenPark:
		if w.spins < w.spinMax {
			w.spins++
			pause(l)
			return true
		}
		return false
	case waitAdaptive:
		if w.spins >= min(spinBudget, spinLimit) || !w.startSpinning(l) {
			return false
		}
		w.spins++
		pause(l)
		return true
	}
	return false // waitPark
}

// startSpinning counts the waiter among the lock's spinners unless enough
// already spin (or were woken and have not run yet). A waiter woken by a
// write is counted already and may go on spinning.
func (w *waiter) startSpinning(l string) bool {
	if w.spinning {
		return true
	}
	for n := 0; ; n++ {
		c := w.spinners.load(l)
		if c >= maxSpinners() {
			return false
		}
		if w.spinners.cas(l, c, c+1) {
			w.spinning = true
			return true
		}
		backoff(l, n)
	}
}

func (w *waiter) stopSpinning(l string) {
	if w.spinning {
		w.spinning = false
		w.spinners.fetchAdd(l, -1)
	}
}

// enabledBy reports whether a write of val may end the wait.
func (w *waiter) enabledBy(val int64) bool {
	switch {
	case !w.keyed:
		return true
	case w.mod != 0:
		return val%w.mod == w.key
	}
	return val == w.key
}

// unit is the waiter's count in its queue's state word.
func (w *waiter) unit() int64 {
	if w.excl {
		return qExclusive
	}
	return qSleeper
}

// prepare queues the waiter before its last check: a write after this is
// seen by the check or wakes the waiter.
func (w *waiter) prepare(l string) {
	w.stopSpinning(l)
	w.p.arm()
	if w.sq != nil {
		w.polls = !w.sq.w.cas(l, nil, w)
		return
	}
	q := w.q
	q.lock(l)
	w.next = nil
	if q.tail == nil {
		q.head = w
	} else {
		q.tail.next = w
	}
	q.tail = w
	w.queued = true
	if !w.unique {
		q.shared++
	}
	d := w.unit() - qLocked
	if w.awake {
		w.awake = false
		d -= qAwake
	}
	q.state.fetchAdd(l, d)
}

// cancel withdraws a queued waiter whose last check succeeded. If a writer
// took it off the list meanwhile, the token that writer owes is absorbed.
func (w *waiter) cancel(l string) {
	if w.sq != nil {
		if w.polls || w.sq.w.cas(l, w, nil) {
			w.p.disarm()
			return
		}
		w.p.park(l) // a writer took it: absorb the token it sends
		return
	}
	q := w.q
	q.lock(l)
	if w.queued {
		q.unlink(w)
		w.queued = false
		q.state.fetchAdd(l, -w.unit()-qLocked)
		w.p.disarm()
		return
	}
	q.state.fetchAdd(l, -qLocked)
	w.p.park(l)
}

// park sleeps until a writer takes the waiter off the list.
func (w *waiter) park(l string) {
	if w.polls {
		w.p.disarm()
		yield(l) // a solo queue's slot was taken: check again after a yield
		return
	}
	w.p.park(l)
	if w.kind == waitAdaptive {
		w.spins = 0 // woken: a short spin may pay again
	}
}

// Giving up (LockContext). A wait the paper lets a process abandon
// watches its context too: a spinning waiter looks at ctx.Done() after
// each failed check (cancelled: one non-blocking receive), a sleeping one
// parks on its wake-up or the cancellation, whichever comes first
// (parkContext). Either way the waiter then withdraws (cancel, which
// absorbs a wake-up a writer sent meanwhile) and ends its wait
// (abandon), and the generated code runs the paper's abort code. Lock
// never gets here: only LockContext's waits are lowered this way.

// cancelled reports whether done (a context's Done channel) is closed.
func cancelled(done <-chan struct{}) bool {
	select {
	case <-done:
		return true
	default:
		return false
	}
}

// parkContext is park that also ends when ctx is done; it reports whether
// the waiter may have been woken (true) or gave up while still queued
// (false: the caller withdraws it with cancel).
func (w *waiter) parkContext(l string, ctx context.Context) bool {
	if w.polls {
		w.p.disarm()
		yield(l)
		return !cancelled(ctx.Done())
	}
	if !w.p.parkContext(l, ctx) {
		return false
	}
	if w.kind == waitAdaptive {
		w.spins = 0
	}
	return true
}

// abandon ends a wait its waiter gives up, once it is off the queue. An
// exclusive waiter may have been the one a write woke (or counted awake,
// so that the write woke nobody): the wake it would have passed on by
// consuming what the write made available goes to the others now.
func (w *waiter) abandon(l string) {
	excl := w.excl && w.q != nil
	w.end(l)
	if excl && mixedWakeNeeded(w.q.state.load(l)) {
		w.q.wakeSlow(l, w.key)
	}
}

// end finishes a wait whose condition held.
func (w *waiter) end(l string) {
	w.stopSpinning(l)
	if w.awake {
		w.awake = false
		w.q.state.fetchAdd(l, -qAwake) // control keep-the-wake:
	}
}

// badProcess reports a process id out of range; kept out of line so that
// the id check of a lock's methods stays small enough to inline.
//
//go:noinline
func badProcess(lock string, id, procs int) {
	panic("lockgen: " + lock + ": process id " + strconv.Itoa(id) + " out of range [0," + strconv.Itoa(procs) + ")")
}

// readyWaiters makes the wake-ups of a lock's per-process waiters in
// advance (New and NewHandle call it), so that no wait of a constructed
// lock allocates; a zero-value lock makes each on its first sleep.
func readyWaiters(ws []waiter) {
	for i := range ws {
		ws[i].p.arm()
	}
}

// waiters holds the waiters of processes without state of their own
// (Lock()/Unlock() locks): only the slow path takes one.
var waiters = sync.Pool{New: func() any { return new(waiter) }}

func getWaiter() *waiter {
	if !poolWaiters {
		return new(waiter)
	}
	return waiters.Get().(*waiter)
}

func putWaiter(w *waiter) {
	if poolWaiters {
		waiters.Put(w)
	}
}

// b2i is a boolean as the 0 or 1 of a wait key.
func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// noCopy marks a type that must not be copied after first use (a lock, a
// handle, a caller's queue node): go vet's copylocks check reports a copy
// of any struct holding one, since it has Lock and Unlock, as it reports a
// copied sync.Mutex. It takes no space.
type noCopy struct{}

func (*noCopy) Lock()   {}
func (*noCopy) Unlock() {}
