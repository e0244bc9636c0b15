package testlocks

// MaxProcs bounds the process ids of the per-process locks here.
const MaxProcs = 8

// Peterson is Peterson's two-process lock (1981): raise your flag, give the
// other the turn, wait while the other's flag is up and it is its turn.
// Swapped (a negative control) gives the turn before raising the flag,
// which lets both in.
type Peterson struct {
	flag    [2]boolReg
	turn    intReg
	Swapped bool
}

// Lock acquires for process i (0 or 1). The doorway is the two writes, so
// the lock is first-come-first-served.
func (l *Peterson) Lock(i int) {
	j := 1 - i
	if l.Swapped {
		l.turn.store("P2", int64(j))
		l.flag[i].store("P1", true)
	} else {
		l.flag[i].store("P1", true)
		l.turn.store("P2", int64(j))
	}
	doorway("P2")
	for l.flag[j].load("P3") && l.turn.load("P3") == int64(j) {
		pause("P3")
	}
}

// Unlock releases for process i.
func (l *Peterson) Unlock(i int) { l.flag[i].store("P4", false) }

// Ticket is the ticket lock: take a number, wait until it is served.
// Forget (a negative control) never serves the next number on release.
type Ticket struct {
	next, serving intReg
	Forget        bool
}

// Lock acquires; the doorway is taking the ticket.
func (l *Ticket) Lock(int) {
	t := l.next.fetchAdd("T1", 1)
	doorway("T1")
	for l.serving.load("T2") != t {
		pause("T2")
	}
}

// Unlock releases.
func (l *Ticket) Unlock(int) {
	s := l.serving.load("T3")
	if l.Forget {
		return
	}
	l.serving.store("T4", s+1)
}

type mcsNode struct {
	locked boolReg
	next   refReg[mcsNode]
}

// MCS is the Mellor-Crummey–Scott queue lock (1991) with one node per
// process.
type MCS struct {
	tail  refReg[mcsNode]
	nodes [MaxProcs]mcsNode
}

// Lock acquires for process i; the doorway is the swap on the tail.
func (l *MCS) Lock(i int) {
	n := &l.nodes[i]
	n.next.store("M1", nil)
	n.locked.store("M2", true)
	pred := l.tail.swap("M3", n)
	doorway("M3")
	if pred == nil {
		return
	}
	pred.next.store("M4", n)
	for n.locked.load("M5") {
		pause("M5")
	}
}

// Unlock releases for process i.
func (l *MCS) Unlock(i int) {
	n := &l.nodes[i]
	succ := n.next.load("M6")
	if succ == nil {
		if l.tail.cas("M7", n, nil) {
			return
		}
		for succ = n.next.load("M8"); succ == nil; succ = n.next.load("M8") {
			pause("M8")
		}
	}
	succ.locked.store("M9", false)
}

// TestThenSet is a broken lock (negative control): it waits for the lock
// word to be false and then sets it with a separate store, so two
// processes can both see false before either stores.
type TestThenSet struct{ held boolReg }

// Lock acquires.
func (l *TestThenSet) Lock(int) {
	for l.held.load("S1") {
		pause("S1")
	}
	l.held.store("S2", true)
}

// Unlock releases.
func (l *TestThenSet) Unlock(int) { l.held.store("S3", false) }

// TAS is the test-and-set lock: correct, but not FIFO. Its doorway is
// empty (reported before the first access), so claiming FIFO for it is a
// negative control.
type TAS struct{ held boolReg }

// Lock acquires.
func (l *TAS) Lock(int) {
	doorway("A0")
	for l.held.swap("A1", true) {
		pause("A1")
	}
}

// Unlock releases.
func (l *TAS) Unlock(int) { l.held.store("A2", false) }

// Fischer is Fischer's timed lock: wait for x = 0, write your id, wait Δ,
// and enter if x still holds your id. It is correct only if every write
// lands within Δ; the controlled scheduler gives no such guarantee, so it
// is a negative control for Delay.
type Fischer struct{ x intReg }

// Lock acquires for process i.
func (l *Fischer) Lock(i int) {
	id := int64(i + 1)
	for {
		for l.x.load("F1") != 0 {
			pause("F1")
		}
		l.x.store("F2", id)
		delay("F3")
		if l.x.load("F4") == id {
			return
		}
	}
}

// Unlock releases.
func (l *Fischer) Unlock(int) { l.x.store("F5", 0) }

// Semaphore admits up to K holders (k-exclusion with a counter).
type Semaphore struct {
	count intReg
	K     int64
}

// Lock acquires.
func (l *Semaphore) Lock(int) {
	for {
		c := l.count.load("K1")
		if c < l.K && l.count.cas("K2", c, c+1) {
			return
		}
		pause("K2")
	}
}

// Unlock releases.
func (l *Semaphore) Unlock(int) { l.count.fetchAdd("K3", -1) }

// RW is a reader/writer spin lock on one word: -1 while a writer holds it,
// else the number of readers. NoWriterCheck (a negative control) lets a
// reader in without looking for a writer.
type RW struct {
	state         intReg
	NoWriterCheck bool
	// ExclusiveReaders (a negative control) makes readers take the lock
	// as writers do: correct exclusion, but readers never share.
	ExclusiveReaders bool
}

// Lock acquires for writing. Its doorway is empty: a writer that waits
// has no claim on arriving readers, so claiming writer priority for it is a
// negative control.
func (l *RW) Lock() {
	doorway("W0")
	for !l.state.cas("W1", 0, -1) {
		pause("W1")
	}
}

// Unlock releases a write hold.
func (l *RW) Unlock() { l.state.store("W2", 0) }

// RLock acquires for reading.
func (l *RW) RLock() {
	if l.ExclusiveReaders {
		l.Lock()
		return
	}
	if l.NoWriterCheck {
		l.state.fetchAdd("R1", 1)
		return
	}
	for {
		s := l.state.load("R1")
		if s >= 0 && l.state.cas("R2", s, s+1) {
			return
		}
		pause("R2")
	}
}

// RUnlock releases a read hold.
func (l *RW) RUnlock() {
	if l.ExclusiveReaders {
		l.Unlock()
		return
	}
	l.state.fetchAdd("R3", -1)
}

// RacyTry is a correct test-and-set lock whose TryLock is a separate load
// and store: only try-acquires can break it, a negative control for
// exploring TryAcquire.
type RacyTry struct{ TAS }

// TryLock tests, then sets: another process can set in between.
func (l *RacyTry) TryLock(int) bool {
	if l.held.load("T1") {
		return false
	}
	l.held.store("T2", true)
	return true
}

// GuardedK admits up to K holders, counting them under a test-and-set
// guard that it keeps while it waits for room: a correct k-exclusion lock,
// but a process that crashes holding the guard stops every other one (a
// negative control for crash tolerance; Semaphore, whose every step is a
// single CAS, is the tolerant one).
type GuardedK struct {
	guard boolReg
	count intReg
	K     int64
}

// Lock acquires.
func (l *GuardedK) Lock(int) {
	for l.guard.swap("G1", true) {
		pause("G1")
	}
	for l.count.load("G2") >= l.K {
		pause("G2")
	}
	l.count.fetchAdd("G3", 1)
	l.guard.store("G4", false)
}

// Unlock releases.
func (l *GuardedK) Unlock(int) { l.count.fetchAdd("G5", -1) }

// LastSlotRace admits up to K holders, but takes the last slot with a test
// and then a separate write: two processes that both find K − 1 holders
// both enter. A negative control for the crash phase's hold executions,
// which keep K − 1 crashed holders inside from their first passage so that
// every later arrival races for the last slot.
type LastSlotRace struct {
	count intReg
	K     int64
}

// Lock acquires.
func (l *LastSlotRace) Lock(int) {
	for {
		switch c := l.count.load("L1"); {
		case c < l.K-1:
			if l.count.cas("L2", c, c+1) {
				return
			}
		case c == l.K-1:
			l.count.store("L3", l.K) // the bug: not a CAS
			return
		}
		pause("L4")
	}
}

// Unlock releases.
func (l *LastSlotRace) Unlock(int) { l.count.fetchAdd("L5", -1) }
