// Package verify checks locks: the ones lockgen generates, and any other
// lock with one of the shapes below. It is what the tests of a generated
// package import and what `lockgen verify` drives.
//
// # Describing a lock
//
// A [Subject] says how to make a fresh instance of the lock and what the
// lock promises. Build one for the lock's shape, then refine it:
//
//	verify.Locker("mu", func() sync.Locker { return new(mylock.Mutex) })       // Lock()/Unlock() [TryLock()]
//	verify.IDLocker("bakery", 4, func() verify.IDLock { return mylock.New(4) }) // Lock(id)/Unlock(id) [TryLock(id)], ids 0..3
//	verify.PerProcess("mcs", func() func(p int) sync.Locker {                   // per-process handles or queue nodes
//		l := mylock.NewMCS()
//		return func(int) sync.Locker { return l.NewHandle() }
//	})
//	verify.RWLocker("rw", func() verify.RWLock { return new(mylock.RW) })       // Lock/Unlock, RLock/RUnlock
//	verify.Locker("sem", newSemaphoreLocker).WithK(3)                          // k-exclusion: at most 3 holders
//
// WithProcs limits the number of processes; WithFIFO claims first-come,
// first-served order, WithBoundedWaiting a bound on how often a waiting
// process is overtaken, and WithWriterPriority that readers defer to a
// waiting writer (all checked by the controlled scheduler).
// WithCrashTolerance(m, anywhere) claims that the others keep entering
// while m processes crash (stop for good) inside the critical section or,
// with anywhere, at any step: Stress crashes m goroutines inside the
// critical section, Explore adds a crash phase (ExploreCrashes). A
// TryLock method is picked up when present and checked too, and so is a
// LockContext(ctx) error method (LockContext(ctx, id) for an IDLocker):
// see "Giving up a wait" below.
//
// # Giving up a wait
//
// A lock with LockContext must return nil holding the lock, or ctx.Err()
// without it and with nothing left behind. Stress calls it on one
// exclusive passage in three, with a context cancelled after a random
// wait of up to 20 µs (sometimes before the call), requires an error to
// be ctx.Err() and only once the context is done, and lets a process
// that gave up acquire again at once: a lock lost to a give-up hangs the
// run. Explore calls it on every passage but each goroutine's last, with
// a context the scheduler holds (sched.Proc.CancelContext): while the
// goroutine waits (at a register wait, or parked with ParkContext), the
// scheduler may cancel it as one more scheduling choice, which the replay
// token records. A process that gives up loses its place in the FIFO
// order; the last passages may not give up, so a lost handoff, or a
// process that cannot get back in, shows as a deadlock. verify/checked's
// Parker.ParkContext, Sema.AcquireContext and Chan.RecvContext are the
// context-aware waits a hand-written lock needs.
//
// # Checking it
//
// The checks come in layers; each catches what the previous cannot.
//
// Layer 1, stress ([Stress], always built): real goroutines on at least
// two Ps, more goroutines than Ps, each making many passages that yield
// inside the critical section. It checks occupancy
// (never more holders than the lock allows, a writer always alone),
// exactness of a plain counter touched only inside the critical section
// (which the race detector also watches, so run it under -race), that
// readers and k-exclusion holders really share, that TryLock succeeds when
// it should and fails when it should, and that every goroutine finishes; a
// watchdog turns a hang into a report with every goroutine's stack. Stress
// sees what the Go scheduler happens to produce: it finds many bugs
// quickly, proves nothing, and cannot replay a failure.
//
//	func TestMutex(t *testing.T) {
//		verify.Stress(t, verify.Locker("mylock.Mutex", func() sync.Locker { return new(mylock.Mutex) }))
//	}
//
// Layer 2, the controlled scheduler (Explore, built with the build tag
// lockgen_check): generated locks keep their shared state in register
// types that, under that tag, yield to a scheduler running one goroutine at
// a time. It explores interleavings (PCT and bounded exhaustive search),
// detects deadlock as "everyone waiting", checks FIFO claims, and prints a
// failing interleaving by the algorithm's line labels with a seed that
// replays it. Run it with
//
//	go test -tags lockgen_check ./...
//
// Layer 3, SPIN, and layer 4, mutation, live outside this package's Go
// API: `lockgen verify` model-checks the Promela lowering of the same
// algorithm definition (mutual exclusion or its k/RW variant, deadlock and
// starvation freedom for n = 2..4), and runs every mutant of a catalogue
// algorithm through layers 1 to 3 to measure how much they catch.
//
// # Checking a hand-written lock with Explore
//
// Explore sees a lock's steps only through instrumented primitives. A
// hand-written lock gets them by importing verify/checked/atomic,
// verify/checked/sync and verify/checked/runtime in place of sync/atomic,
// sync and runtime (for Gosched in spin loops): in a normal build those
// are the standard types, under -tags lockgen_check every access, lock,
// wait and wake is a scheduling point named by the caller's file:line, and
// a goroutine blocked in a checked Mutex, Cond, Sema, Chan or Parker is not
// runnable until the wake it needs, so a lost wake-up is a deadlock:
//
//	type TTAS struct{ state atomic.Int32 } // verify/checked/atomic
//
//	func (l *TTAS) Lock() {
//		for {
//			for l.state.Load() != 0 {
//				runtime.Gosched() // verify/checked/runtime
//			}
//			if l.state.CompareAndSwap(0, 1) {
//				return
//			}
//		}
//	}
//
//	func (l *TTAS) Unlock() { l.state.Store(0) }
//
//	// With //go:build lockgen_check:
//	func TestTTASExplore(t *testing.T) {
//		verify.Explore(t, verify.Locker("TTAS", func() sync.Locker { return new(TTAS) }))
//	}
//
// A FIFO lock calls checked.Doorway() where its place in line is fixed.
// verify/internal/handwritten holds five such locks with planted mistakes
// that this package's tests require Explore to catch, among them two with
// LockContext and the classic abort mistakes (a lock handed to a waiter
// whose context was cancelled meanwhile and lost; a waiter that looks at
// its context after an attempt that took the lock, and gives it up).
//
// # Negative controls
//
// A checker that passes everything is worthless, so this package's own
// tests feed Stress known-wrong locks — no lock, a test-then-set lock, a
// k-exclusion lock that admits k+1, a reader/writer lock whose readers
// never share or whose writer ignores readers, an Unlock that sometimes
// forgets, TryLocks that always fail or always succeed — and require each
// to be caught for the right reason.
package verify
