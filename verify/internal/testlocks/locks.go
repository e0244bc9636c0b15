// Package testlocks holds hand-written locks for the tests of the verify
// layers: correct ones that must pass, and known-wrong ones (negative
// controls) that each layer must catch. Their shared state lives in
// verify/sched's instrumented registers, the ones a generated package's
// lockgen_check build wraps (backend/golang/lockrt/check.go), without the
// build tag: under an execution of verify/sched every access is a
// scheduling point, and outside one they are plain atomics.
package testlocks

import "github.com/lockgen/lockgen/verify/sched"

// MaxProcs bounds the process ids of the per-process locks here.
const MaxProcs = 8

// Peterson is Peterson's two-process lock (1981): raise your flag, give the
// other the turn, wait while the other's flag is up and it is its turn.
// Swapped (a negative control) gives the turn before raising the flag,
// which lets both in.
type Peterson struct {
	flag    [2]sched.BoolReg
	turn    sched.IntReg
	Swapped bool
}

// Lock acquires for process i (0 or 1). The doorway is the two writes, so
// the lock is first-come-first-served.
func (l *Peterson) Lock(i int) {
	j := 1 - i
	if l.Swapped {
		l.turn.Store("P2", int64(j))
		l.flag[i].Store("P1", true)
	} else {
		l.flag[i].Store("P1", true)
		l.turn.Store("P2", int64(j))
	}
	sched.Doorway("P2")
	for l.flag[j].Load("P3") && l.turn.Load("P3") == int64(j) {
		sched.Wait("P3")
	}
}

// Unlock releases for process i.
func (l *Peterson) Unlock(i int) { l.flag[i].Store("P4", false) }

// Ticket is the ticket lock: take a number, wait until it is served.
// Forget (a negative control) never serves the next number on release.
type Ticket struct {
	next, serving sched.IntReg
	Forget        bool
}

// Lock acquires; the doorway is taking the ticket.
func (l *Ticket) Lock(int) {
	t := l.next.FetchAdd("T1", 1)
	sched.Doorway("T1")
	for l.serving.Load("T2") != t {
		sched.Wait("T2")
	}
}

// Unlock releases.
func (l *Ticket) Unlock(int) {
	s := l.serving.Load("T3")
	if l.Forget {
		return
	}
	l.serving.Store("T4", s+1)
}

type mcsNode struct {
	locked sched.BoolReg
	next   sched.RefReg[mcsNode]
}

// MCS is the Mellor-Crummey–Scott queue lock (1991) with one node per
// process.
type MCS struct {
	tail  sched.RefReg[mcsNode]
	nodes [MaxProcs]mcsNode
}

// Lock acquires for process i; the doorway is the swap on the tail.
func (l *MCS) Lock(i int) {
	n := &l.nodes[i]
	n.next.Store("M1", nil)
	n.locked.Store("M2", true)
	pred := l.tail.Swap("M3", n)
	sched.Doorway("M3")
	if pred == nil {
		return
	}
	pred.next.Store("M4", n)
	for n.locked.Load("M5") {
		sched.Wait("M5")
	}
}

// Unlock releases for process i.
func (l *MCS) Unlock(i int) {
	n := &l.nodes[i]
	succ := n.next.Load("M6")
	if succ == nil {
		if l.tail.CAS("M7", n, nil) {
			return
		}
		for succ = n.next.Load("M8"); succ == nil; succ = n.next.Load("M8") {
			sched.Wait("M8")
		}
	}
	succ.locked.Store("M9", false)
}

// TestThenSet is a broken lock (negative control): it waits for the lock
// word to be false and then sets it with a separate store, so two
// processes can both see false before either stores.
type TestThenSet struct{ held sched.BoolReg }

// Lock acquires.
func (l *TestThenSet) Lock(int) {
	for l.held.Load("S1") {
		sched.Wait("S1")
	}
	l.held.Store("S2", true)
}

// Unlock releases.
func (l *TestThenSet) Unlock(int) { l.held.Store("S3", false) }

// TAS is the test-and-set lock: correct, but not FIFO. Its doorway is
// empty (reported before the first access), so claiming FIFO for it is a
// negative control.
type TAS struct{ held sched.BoolReg }

// Lock acquires.
func (l *TAS) Lock(int) {
	sched.Doorway("A0")
	for l.held.Swap("A1", true) {
		sched.Wait("A1")
	}
}

// Unlock releases.
func (l *TAS) Unlock(int) { l.held.Store("A2", false) }

// Fischer is Fischer's timed lock: wait for x = 0, write your id, wait Δ,
// and enter if x still holds your id. It is correct only if every write
// lands within Δ; the controlled scheduler gives no such guarantee, so it
// is a negative control for Delay.
type Fischer struct{ x sched.IntReg }

// Lock acquires for process i.
func (l *Fischer) Lock(i int) {
	id := int64(i + 1)
	for {
		for l.x.Load("F1") != 0 {
			sched.Wait("F1")
		}
		l.x.Store("F2", id)
		sched.Delay("F3")
		if l.x.Load("F4") == id {
			return
		}
	}
}

// Unlock releases.
func (l *Fischer) Unlock(int) { l.x.Store("F5", 0) }

// Semaphore admits up to K holders (k-exclusion with a counter).
type Semaphore struct {
	count sched.IntReg
	K     int64
}

// Lock acquires.
func (l *Semaphore) Lock(int) {
	for {
		c := l.count.Load("K1")
		if c < l.K && l.count.CAS("K2", c, c+1) {
			return
		}
		sched.Wait("K2")
	}
}

// Unlock releases.
func (l *Semaphore) Unlock(int) { l.count.FetchAdd("K3", -1) }

// RW is a reader/writer spin lock on one word: -1 while a writer holds it,
// else the number of readers. NoWriterCheck (a negative control) lets a
// reader in without looking for a writer.
type RW struct {
	state         sched.IntReg
	NoWriterCheck bool
	// ExclusiveReaders (a negative control) makes readers take the lock
	// as writers do: correct exclusion, but readers never share.
	ExclusiveReaders bool
}

// Lock acquires for writing. Its doorway is empty: a writer that waits
// has no claim on arriving readers, so claiming writer priority for it is a
// negative control.
func (l *RW) Lock() {
	sched.Doorway("W0")
	for !l.state.CAS("W1", 0, -1) {
		sched.Wait("W1")
	}
}

// Unlock releases a write hold.
func (l *RW) Unlock() { l.state.Store("W2", 0) }

// RLock acquires for reading.
func (l *RW) RLock() {
	if l.ExclusiveReaders {
		l.Lock()
		return
	}
	if l.NoWriterCheck {
		l.state.FetchAdd("R1", 1)
		return
	}
	for {
		s := l.state.Load("R1")
		if s >= 0 && l.state.CAS("R2", s, s+1) {
			return
		}
		sched.Wait("R2")
	}
}

// RUnlock releases a read hold.
func (l *RW) RUnlock() {
	if l.ExclusiveReaders {
		l.Unlock()
		return
	}
	l.state.FetchAdd("R3", -1)
}

// RacyTry is a correct test-and-set lock whose TryLock is a separate load
// and store: only try-acquires can break it, a negative control for
// exploring TryAcquire.
type RacyTry struct{ TAS }

// TryLock tests, then sets: another process can set in between.
func (l *RacyTry) TryLock(int) bool {
	if l.held.Load("T1") {
		return false
	}
	l.held.Store("T2", true)
	return true
}

// GuardedK admits up to K holders, counting them under a test-and-set
// guard that it keeps while it waits for room: a correct k-exclusion lock,
// but a process that crashes holding the guard stops every other one (a
// negative control for crash tolerance; Semaphore, whose every step is a
// single CAS, is the tolerant one).
type GuardedK struct {
	guard sched.BoolReg
	count sched.IntReg
	K     int64
}

// Lock acquires.
func (l *GuardedK) Lock(int) {
	for l.guard.Swap("G1", true) {
		sched.Wait("G1")
	}
	for l.count.Load("G2") >= l.K {
		sched.Wait("G2")
	}
	l.count.FetchAdd("G3", 1)
	l.guard.Store("G4", false)
}

// Unlock releases.
func (l *GuardedK) Unlock(int) { l.count.FetchAdd("G5", -1) }

// LastSlotRace admits up to K holders, but takes the last slot with a test
// and then a separate write: two processes that both find K − 1 holders
// both enter. A negative control for the crash phase's hold executions,
// which keep K − 1 crashed holders inside from their first passage so that
// every later arrival races for the last slot.
type LastSlotRace struct {
	count sched.IntReg
	K     int64
}

// Lock acquires.
func (l *LastSlotRace) Lock(int) {
	for {
		switch c := l.count.Load("L1"); {
		case c < l.K-1:
			if l.count.CAS("L2", c, c+1) {
				return
			}
		case c == l.K-1:
			l.count.Store("L3", l.K) // the bug: not a CAS
			return
		}
		sched.Wait("L4")
	}
}

// Unlock releases.
func (l *LastSlotRace) Unlock(int) { l.count.FetchAdd("L5", -1) }
