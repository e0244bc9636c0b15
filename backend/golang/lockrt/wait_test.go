//go:build !lockgen_check

package lockrt

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// queued waits until q has n sleepers.
func queued(t *testing.T, q *waitq, n int64) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for q.state.load("")&qSleepers/qSleeper+q.state.load("")&qExclusives/qExclusive != n {
		if time.Now().After(deadline) {
			t.Fatalf("waited 5s for %d sleepers; state %#x", n, q.state.load(""))
		}
		time.Sleep(100 * time.Microsecond)
	}
}

// sleeper parks w on q with the given key and reports on done when it
// wakes. It re-checks nothing: the tests drive the waker directly.
func sleeper(q *waitq, w *waiter, key int64, keyed, excl bool, done chan<- int64) {
	var sp intReg
	w.begin("", q, &sp, waitPark, 0, key, 0, flags(keyed, false, excl))
	w.prepare("")
	w.park("")
	w.end("")
	done <- key
}

func flags(keyed, unique, excl bool) uint8 {
	var f uint8
	if keyed {
		f |= waitKeyed
	}
	if unique {
		f |= waitUniqueKey
	}
	if excl {
		f |= waitExclusive
	}
	return f
}

// TestKeyedWakeWakesOnlyItsKey: a write of v wakes the waiter keyed v and
// no other (the ticket lock's release wakes the one ticket it serves).
func TestKeyedWakeWakesOnlyItsKey(t *testing.T) {
	var q waitq
	done := make(chan int64, 10)
	ws := make([]waiter, 10)
	for i := range ws {
		go sleeper(&q, &ws[i], int64(i), true, false, done)
	}
	queued(t, &q, 10)
	q.wake("", 5)
	if got := <-done; got != 5 {
		t.Fatalf("woke key %d, want 5", got)
	}
	queued(t, &q, 9)
	select {
	case k := <-done:
		t.Fatalf("key %d woke without a write of its value", k)
	case <-time.After(20 * time.Millisecond):
	}
	q.wake("", 42) // nobody waits for 42
	queued(t, &q, 9)
	for i := int64(0); i < 10; i++ {
		if i != 5 {
			q.wake("", i)
		}
	}
	for i := 0; i < 9; i++ {
		<-done
	}
	if s := q.state.load(""); s != 0 {
		t.Fatalf("state %#x after every waiter left, want 0", s)
	}
}

// TestUniqueKeyWakeStopsEarly: with only unique-keyed waiters queued, a
// wake stops at its first match (a second waiter wrongly claiming the same
// unique key is left asleep: the contract is the generator's); with a
// waiter of another kind queued, it scans every sleeper.
func TestUniqueKeyWakeStopsEarly(t *testing.T) {
	var q waitq
	done := make(chan int64, 3)
	ws := make([]waiter, 3)
	var sp intReg
	for i := 0; i < 2; i++ {
		go func(w *waiter) {
			w.begin("", &q, &sp, waitPark, 0, 5, 0, waitKeyed|waitUniqueKey)
			w.prepare("")
			w.park("")
			w.end("")
			done <- 5
		}(&ws[i])
		queued(t, &q, int64(i+1))
	}
	q.wake("", 5)
	<-done
	queued(t, &q, 1) // the second claimant of key 5 sleeps on
	go sleeper(&q, &ws[2], 0, false, false, done)
	queued(t, &q, 2)
	q.wake("", 5) // an unkeyed waiter is queued: the scan goes on past the match
	<-done
	<-done
	queued(t, &q, 0)
}

// TestModKeyedWake: a waiter keyed by the value mod M wakes on a write
// whose value mod M is its key, and on no other (a reader waiting for
// the writers' field of a word).
func TestModKeyedWake(t *testing.T) {
	var q waitq
	var w waiter
	var sp intReg
	done := make(chan struct{})
	go func() {
		w.begin("", &q, &sp, waitPark, 0, 3, 1<<16, waitKeyed)
		w.prepare("")
		w.park("")
		w.end("")
		close(done)
	}()
	queued(t, &q, 1)
	q.wake("", 2+5<<16) // the writers' field is 2: not yet
	queued(t, &q, 1)
	q.wake("", 3+7<<16)
	<-done
}

// TestUnkeyedWakeWakesAll: waiters that are not keyed all wake on any
// write (a reader/writer lock's readers).
func TestUnkeyedWakeWakesAll(t *testing.T) {
	var q waitq
	done := make(chan int64, 4)
	ws := make([]waiter, 4)
	for i := range ws {
		go sleeper(&q, &ws[i], int64(i), false, false, done)
	}
	queued(t, &q, 4)
	q.wake("", 0)
	for i := 0; i < 4; i++ {
		<-done
	}
	queued(t, &q, 0)
}

// TestExclusiveWakeWakesOne: a write wakes one exclusive waiter, and none
// while one is awake.
func TestExclusiveWakeWakesOne(t *testing.T) {
	var q waitq
	done := make(chan int64, 3)
	ws := make([]waiter, 3)
	for i := range ws {
		go sleeper(&q, &ws[i], 0, false, true, done)
	}
	queued(t, &q, 3)
	// An exclusive waiter that is awake (here: one that has begun but not
	// yet queued) makes a write wake nobody.
	var awake waiter
	var sp intReg
	awake.begin("", &q, &sp, waitPark, 0, 0, 0, waitExclusive)
	q.wake("", 0)
	queued(t, &q, 3)
	awake.end("")
	q.wake("", 0)
	<-done
	queued(t, &q, 2)
	// The woken waiter counts as awake until it ends its wait (sleeper
	// does at once), so later writes wake one each.
	q.wake("", 0)
	<-done
	q.wake("", 0)
	<-done
	if s := q.state.load(""); s != 0 {
		t.Fatalf("state %#x after every waiter left, want 0", s)
	}
}

// TestMixedQueueWakesOthersPastAnAwakeExclusive: on a queue holding
// exclusive waiters and others (a reader/writer lock's writers and
// readers), an awake exclusive waiter stands in for the exclusive sleepers
// only: a sleeping reader is still owed its wake. mustWake says so where
// wake's one comparison, made for queues of one kind, would not.
func TestMixedQueueWakesOthersPastAnAwakeExclusive(t *testing.T) {
	var q waitq
	done := make(chan int64, 2)
	ws := make([]waiter, 2)
	go sleeper(&q, &ws[0], 0, false, true, done)  // a writer
	go sleeper(&q, &ws[1], 1, false, false, done) // a reader
	queued(t, &q, 2)
	var awake waiter
	var sp intReg
	awake.begin("", &q, &sp, waitPark, 0, 0, 0, waitExclusive)
	if !q.mustWake("") {
		t.Fatalf("mustWake false with a reader asleep (state %#x)", q.state.load(""))
	}
	q.wakeSlow("", 0)
	if k := <-done; k != 1 {
		t.Fatalf("woke the sleeper keyed %d, want the reader (1)", k)
	}
	queued(t, &q, 1)
	if q.mustWake("") {
		t.Fatalf("mustWake true with only an exclusive asleep and one awake (state %#x)", q.state.load(""))
	}
	awake.end("")
	if !q.mustWake("") {
		t.Fatalf("mustWake false with an exclusive asleep and none awake (state %#x)", q.state.load(""))
	}
	q.wakeSlow("", 0)
	if k := <-done; k != 0 {
		t.Fatalf("woke the sleeper keyed %d, want the writer (0)", k)
	}
}

// TestWakeIgnoresTheLockBit: a waiter holding the list's lock bit to queue
// itself is not counted yet, and a write owes it nothing (it checks its
// condition once counted): wake returns without waiting for the lock bit,
// and mustWake says no.
func TestWakeIgnoresTheLockBit(t *testing.T) {
	var q waitq
	q.lock("")
	if q.mustWake("") {
		t.Fatalf("mustWake true with nobody counted (state %#x)", q.state.load(""))
	}
	returned := make(chan struct{})
	go func() {
		q.wake("", 0) // wakeSlow would spin on the lock bit held here
		close(returned)
	}()
	select {
	case <-returned:
	case <-time.After(5 * time.Second):
		t.Fatal("wake waited for the lock bit of a list nobody is counted on")
	}
	q.state.fetchAdd("", qSleeper)
	if !q.mustWake("") {
		t.Fatalf("mustWake false with a sleeper counted (state %#x)", q.state.load(""))
	}
}

// TestCancelAbsorbsTheToken: a waiter whose check succeeds after a writer
// took it off the list absorbs the writer's token, so its next wait
// sleeps instead of returning at once.
func TestCancelAbsorbsTheToken(t *testing.T) {
	var q waitq
	var w waiter
	var sp intReg
	w.begin("", &q, &sp, waitPark, 0, 0, 0, 0)
	w.prepare("")
	q.wake("", 0) // takes w off the list and deposits its token
	w.cancel("")  // must absorb it
	w.end("")
	w.begin("", &q, &sp, waitPark, 0, 0, 0, 0)
	w.prepare("")
	parked := make(chan struct{})
	go func() { w.park(""); close(parked) }()
	select {
	case <-parked:
		t.Fatal("park returned without a wake: a stale token")
	case <-time.After(20 * time.Millisecond):
	}
	q.wake("", 0)
	<-parked
}

// flagLock is a lock built the way generated code uses this package: a
// test-and-set register whose waiters are exclusive (they compete for the
// freed lock) under the adaptive policy.
type flagLock struct {
	l       intReg
	q       waitq
	spinner intReg
}

func (f *flagLock) lock() {
	if f.l.swap("1", 1) == 0 {
		return
	}
	w := getWaiter()
	w.begin("1", &f.q, &f.spinner, waitAdaptive, 0, 0, 0, waitKeyed|waitExclusive)
	for {
		if !w.spin("1") {
			w.prepare("1")
			if f.l.swap("1", 1) == 0 {
				w.cancel("1")
				break
			}
			w.park("1")
			continue
		}
		if f.l.swap("1", 1) == 0 {
			break
		}
	}
	w.end("1")
	putWaiter(w)
}

func (f *flagLock) unlock() {
	f.l.store("2", 0)
	f.q.wake("2", 0)
}

// ticketLock has keyed waiters: each waits for its own ticket.
type ticketLock struct {
	next, now intReg
	q         waitq
	spinner   intReg
}

func (k *ticketLock) lock() {
	my := k.next.fetchAdd("T1", 1)
	if k.now.load("T2") == my {
		return
	}
	w := getWaiter()
	w.begin("T2", &k.q, &k.spinner, waitAdaptive, 0, my, 0, waitKeyed|waitUniqueKey)
	for {
		if !w.spin("T2") {
			w.prepare("T2")
			if k.now.load("T2") == my {
				w.cancel("T2")
				break
			}
			w.park("T2")
		}
		if k.now.load("T2") == my {
			break
		}
	}
	w.end("T2")
	putWaiter(w)
}

func (k *ticketLock) unlock() {
	v := k.now.load("T3") + 1
	k.now.store("T3", v)
	k.q.wake("T3", v)
}

// hammer runs g goroutines × n passages through lock/unlock and checks
// that the critical section was exclusive and every passage finished.
func hammer(t *testing.T, g, n int, lock, unlock func()) {
	t.Helper()
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs 2 Ps")
	}
	var inside atomic.Int32
	counter := 0
	var wg sync.WaitGroup
	done := make(chan struct{})
	for i := 0; i < g; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < n; j++ {
				lock()
				if inside.Add(1) != 1 {
					t.Error("two holders at once")
				}
				counter++
				if j%8 == 0 {
					runtime.Gosched()
				}
				inside.Add(-1)
				unlock()
			}
		}()
	}
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("hang: a wake-up was lost")
	}
	if counter != g*n {
		t.Fatalf("counter %d, want %d", counter, g*n)
	}
}

func TestFlagLockUnderContention(t *testing.T) {
	var f flagLock
	hammer(t, 16, 5000, f.lock, f.unlock)
	if s := f.q.state.load(""); s != 0 {
		t.Fatalf("queue state %#x after the run, want 0", s)
	}
	if s := f.spinner.load(""); s != 0 {
		t.Fatalf("%d spinners after the run, want 0", s)
	}
}

func TestTicketLockUnderContention(t *testing.T) {
	var k ticketLock
	hammer(t, 16, 5000, k.lock, k.unlock)
	if s := k.q.state.load(""); s != 0 {
		t.Fatalf("queue state %#x after the run, want 0", s)
	}
}

// TestSpinnersCapped: at most GOMAXPROCS-1 waiters of a lock spin.
func TestSpinnersCapped(t *testing.T) {
	var sp intReg
	ws := make([]waiter, 8)
	started := 0
	for i := range ws {
		ws[i].begin("", nil, &sp, waitAdaptive, 0, 0, 0, 0)
		if ws[i].startSpinning("") {
			started++
		}
	}
	if want := int(maxSpinners()); started != max(want, 0) {
		t.Fatalf("%d waiters spin, want %d (GOMAXPROCS %d)", started, want, runtime.GOMAXPROCS(0))
	}
	for i := range ws {
		ws[i].stopSpinning("")
	}
	if sp.load("") != 0 {
		t.Fatalf("spinner count %d after all stopped", sp.load(""))
	}
}

// TestSoloSlot: a solo queue's sleeper takes its slot and any wake of the
// queue wakes it; a second waiter finding the slot taken does not sleep
// (its park returns after a yield).
func TestSoloSlot(t *testing.T) {
	var q soloq
	var sp intReg
	var a, b waiter
	woke := make(chan struct{})
	go func() {
		a.beginSolo("", &q, &sp, waitPark, 0)
		a.prepare("")
		a.park("")
		a.end("")
		close(woke)
	}()
	deadline := time.Now().Add(5 * time.Second)
	for q.w.load("") != &a {
		if time.Now().After(deadline) {
			t.Fatal("the sleeper never took the slot")
		}
		time.Sleep(100 * time.Microsecond)
	}
	b.beginSolo("", &q, &sp, waitPark, 0)
	b.prepare("")
	if !b.polls || q.w.load("") != &a {
		t.Fatalf("second waiter: polls %v, slot %p (want the first, %p)", b.polls, q.w.load(""), &a)
	}
	b.park("") // returns: it polls
	b.cancel("")
	b.end("")
	select {
	case <-woke:
		t.Fatal("the sleeper woke without a write")
	case <-time.After(20 * time.Millisecond):
	}
	q.wake("", 0)
	<-woke
	if q.w.load("") != nil {
		t.Fatal("the slot still holds a woken waiter")
	}
}

// TestSoloCancelAbsorbsTheWake: a sleeper whose check succeeded after a
// writer took it out of the slot absorbs the writer's token, so that its
// next wait does not wake on a stale one; a cancel nobody raced with
// empties the slot.
func TestSoloCancelAbsorbsTheWake(t *testing.T) {
	var q soloq
	var sp intReg
	var w waiter
	w.beginSolo("", &q, &sp, waitPark, 0)
	w.prepare("")
	q.wake("", 0) // the writer takes it: its token is on its way
	w.cancel("")  // the check succeeded: absorb the token
	w.end("")
	w.beginSolo("", &q, &sp, waitPark, 0)
	w.prepare("")
	woke := make(chan struct{})
	go func() { w.park(""); close(woke) }()
	select {
	case <-woke:
		t.Fatal("the next wait woke on a stale token")
	case <-time.After(20 * time.Millisecond):
	}
	q.wake("", 0)
	<-woke
	w.end("")
	w.beginSolo("", &q, &sp, waitPark, 0)
	w.prepare("")
	w.cancel("")
	if q.w.load("") != nil {
		t.Fatal("a cancelled sleeper is still in the slot")
	}
}

// TestTicketSlots: the waiter for ticket t sleeps on slot t mod
// ticketSlots; a write of another ticket's value leaves it asleep, a
// write of t wakes it, and so may a write of t + ticketSlots (the same
// slot: a needless wake, after which it checks again).
func TestTicketSlots(t *testing.T) {
	var q ticketq
	var sp intReg
	sleep := func(w *waiter, ticket int64) chan struct{} {
		woke := make(chan struct{})
		go func() {
			w.beginSolo("", q.slot(ticket), &sp, waitPark, 0)
			w.prepare("")
			w.park("")
			w.end("")
			close(woke)
		}()
		deadline := time.Now().Add(5 * time.Second)
		for q.slot(ticket).w.load("") != w {
			if time.Now().After(deadline) {
				t.Fatalf("the waiter for ticket %d never took its slot", ticket)
			}
			time.Sleep(100 * time.Microsecond)
		}
		return woke
	}
	var a, b waiter
	wokeA := sleep(&a, 5)
	wokeB := sleep(&b, 6)
	q.slot(4).wake("", 4)
	q.slot(7).wake("", 7)
	select {
	case <-wokeA:
		t.Fatal("ticket 5 woke on writes of 4 and 7")
	case <-wokeB:
		t.Fatal("ticket 6 woke on writes of 4 and 7")
	case <-time.After(20 * time.Millisecond):
	}
	q.slot(5).wake("", 5)
	<-wokeA
	q.slot(6+ticketSlots).wake("", 6+ticketSlots)
	<-wokeB
	for i := range q.slots {
		if q.slots[i].w.load("") != nil {
			t.Fatalf("slot %d still holds a waiter", i)
		}
	}
}
