package verify

import (
	"context"
	"fmt"
	"sync"

	"github.com/lockgen/lockgen/mode"
)

// Subject describes a lock to check: how to make a fresh instance and what
// the lock promises. Build one with Locker, IDLocker, PerProcess or RWLocker
// and refine it with the With methods.
type Subject struct {
	Name string
	// Procs is the number of distinct processes the lock supports (ids
	// 0..Procs-1); 0 means any number.
	Procs int
	// Mode is what the lock offers, and so what the checks assert
	// (mode.Mode.Invariant): the zero Mode is a mutex, WithK makes it
	// k-exclusion, RWLocker a reader/writer lock (instances implement
	// RWInstance).
	Mode mode.Mode
	// K is how many holders may be in the critical section at once (1 for
	// a mutex). For a reader/writer lock it bounds writers only.
	K int
	// FIFO is set when the lock claims that a process which finished its
	// doorway enters before any process that started its doorway later.
	// The controlled scheduler checks it; stress cannot observe doorways.
	FIFO bool
	// BoundedWaiting is set when the lock claims that a process which
	// finished its doorway is overtaken by at most Overtakes entries of
	// other processes before it enters (Explore checks it). With
	// OvertakesLockOnly the claim covers Lock only: once a TryAcquire has
	// given up in an execution, Explore stops counting there.
	BoundedWaiting    bool
	Overtakes         int
	OvertakesLockOnly bool
	// WriterPriority is set when a reader/writer lock claims that a reader
	// whose RAcquire began after a writer finished its doorway enters
	// after that writer (Explore checks it).
	WriterPriority bool
	// CrashTolerance is how many processes may crash (stop for good) while
	// every other one still keeps entering, as a k-exclusion lock may
	// claim for k−1: Explore then adds a crash phase (ExploreCrashes).
	// The crashes are inside the critical section (a goroutine that never
	// releases: the only crash Go lets a lock see, since a goroutine cannot
	// be stopped inside a call), or anywhere with CrashAnywhere (the
	// papers' model: in a doorway, while waiting, inside the lock's own
	// steps).
	CrashTolerance int
	CrashAnywhere  bool
	// FIFE (first-in-first-enabled, for k-exclusion) is set when the lock
	// claims that a process p which finished its doorway before q began
	// its own, once q has entered first, enters within FIFESteps of its own
	// steps, without waiting for another process's write (Explore checks
	// it).
	FIFE      bool
	FIFESteps int
	// New makes a fresh, unlocked instance.
	New func() Instance
}

// Instance is one lock as verify drives it: process p (0 <= p < Procs, or
// any p >= 0 when Procs is 0) acquires and releases. A process never calls
// Acquire twice without a Release in between.
type Instance interface {
	Acquire(p int)
	Release(p int)
}

// TryInstance is an instance with a non-blocking acquire.
type TryInstance interface {
	Instance
	TryAcquire(p int) bool
}

// ContextInstance is an instance whose acquire can give up (a lock with
// LockContext): AcquireContext returns nil with the lock held, or
// ctx.Err() with the lock not held and nothing left behind.
type ContextInstance interface {
	Instance
	AcquireContext(ctx context.Context, p int) error
}

// RWInstance is a reader/writer instance: Acquire/Release are the writer's.
type RWInstance interface {
	Instance
	RAcquire(p int)
	RRelease(p int)
}

// IDLock is a lock whose processes pass their id (0 <= id < procs).
type IDLock interface {
	Lock(id int)
	Unlock(id int)
}

// RWLock is the shape of sync.RWMutex.
type RWLock interface {
	sync.Locker
	RLock()
	RUnlock()
}

// WithK returns s allowing k holders at once (k-exclusion).
func (s Subject) WithK(k int) Subject {
	s.K = k
	if !s.Mode.Readers() {
		s.Mode = mode.KExclusion
	}
	return s
}

// WithProcs returns s limited to n processes.
func (s Subject) WithProcs(n int) Subject { s.Procs = n; return s }

// WithFIFO returns s claiming FIFO order (checked by Explore).
func (s Subject) WithFIFO() Subject { s.FIFO = true; return s }

// WithFIFE claims first-in-first-enabled within steps of the overtaken
// process's own steps.
func (s Subject) WithFIFE(steps int) Subject { s.FIFE, s.FIFESteps = true, steps; return s }

// WithCrashTolerance claims that the lock keeps every live process entering
// while up to m processes crash inside the critical section, or anywhere.
func (s Subject) WithCrashTolerance(m int, anywhere bool) Subject {
	s.CrashTolerance, s.CrashAnywhere = m, anywhere
	return s
}

// WithWriterPriority returns s claiming writer priority (reader/writer
// locks: readers arriving after a writer's doorway enter after it).
func (s Subject) WithWriterPriority() Subject { s.WriterPriority = true; return s }

// WithBoundedWaiting returns s claiming bounded waiting: at most overtakes
// entries of others between a process's doorway and its entry; lockOnly
// limits the claim to executions in which no TryAcquire gives up.
func (s Subject) WithBoundedWaiting(overtakes int, lockOnly bool) Subject {
	s.BoundedWaiting, s.Overtakes, s.OvertakesLockOnly = true, overtakes, lockOnly
	return s
}

// String describes the subject.
func (s Subject) String() string {
	d := s.Name
	if s.Mode.Readers() {
		d += " (reader/writer)"
	} else if s.K > 1 {
		d += fmt.Sprintf(" (%d-exclusion)", s.K)
	}
	if s.Procs > 0 {
		d += fmt.Sprintf(", %d processes", s.Procs)
	}
	return d
}

// k returns the holder bound, at least 1.
func (s Subject) k() int {
	if s.K < 1 {
		return 1
	}
	return s.K
}

// Locker checks a sync.Locker. If the lock has a TryLock() bool method,
// instances support TryAcquire; with LockContext(ctx) error, they support
// AcquireContext (Stress cancels some at random, Explore lets the
// scheduler cancel them while they wait).
func Locker(name string, newLock func() sync.Locker) Subject {
	return Subject{Name: name, K: 1, New: func() Instance {
		l := newLock()
		var inst Instance = lockerInstance{l}
		if t, ok := l.(interface{ TryLock() bool }); ok {
			inst = tryLockerInstance{l, t}
		}
		if c, ok := l.(interface {
			LockContext(context.Context) error
		}); ok {
			return withContext(inst, func(ctx context.Context, _ int) error { return c.LockContext(ctx) })
		}
		return inst
	}}
}

// withContext is inst with AcquireContext, keeping its TryAcquire if any.
func withContext(inst Instance, f func(ctx context.Context, p int) error) Instance {
	if t, ok := inst.(TryInstance); ok {
		return ctxTryInstance{t, f}
	}
	return ctxInstance{inst, f}
}

type ctxInstance struct {
	Instance
	f func(ctx context.Context, p int) error
}

func (i ctxInstance) AcquireContext(ctx context.Context, p int) error { return i.f(ctx, p) }

type ctxTryInstance struct {
	TryInstance
	f func(ctx context.Context, p int) error
}

func (i ctxTryInstance) AcquireContext(ctx context.Context, p int) error { return i.f(ctx, p) }

type lockerInstance struct{ l sync.Locker }

func (i lockerInstance) Acquire(int) { i.l.Lock() }
func (i lockerInstance) Release(int) { i.l.Unlock() }

type tryLockerInstance struct {
	l sync.Locker
	t interface{ TryLock() bool }
}

func (i tryLockerInstance) Acquire(int)         { i.l.Lock() }
func (i tryLockerInstance) Release(int)         { i.l.Unlock() }
func (i tryLockerInstance) TryAcquire(int) bool { return i.t.TryLock() }

// IDLocker checks a lock whose processes identify themselves. If the lock
// has a TryLock(id int) bool method, instances support TryAcquire; with
// LockContext(ctx, id) error, AcquireContext.
func IDLocker(name string, procs int, newLock func() IDLock) Subject {
	return Subject{Name: name, Procs: procs, K: 1, New: func() Instance {
		l := newLock()
		var inst Instance = idInstance{l}
		if t, ok := l.(interface{ TryLock(int) bool }); ok {
			inst = tryIDInstance{l, t}
		}
		if c, ok := l.(interface {
			LockContext(context.Context, int) error
		}); ok {
			return withContext(inst, c.LockContext)
		}
		return inst
	}}
}

type idInstance struct{ l IDLock }

func (i idInstance) Acquire(p int) { i.l.Lock(p) }
func (i idInstance) Release(p int) { i.l.Unlock(p) }

type tryIDInstance struct {
	l IDLock
	t interface{ TryLock(int) bool }
}

func (i tryIDInstance) Acquire(p int)         { i.l.Lock(p) }
func (i tryIDInstance) Release(p int)         { i.l.Unlock(p) }
func (i tryIDInstance) TryAcquire(p int) bool { return i.t.TryLock(p) }

// PerProcess checks a lock used through per-process objects: handles,
// caller-owned queue nodes. newLock makes a fresh lock and returns the
// function giving process p its Locker; verify calls it once per process and
// instance. A Locker with TryLock() bool supports TryAcquire, one with
// LockContext(ctx) error AcquireContext.
func PerProcess(name string, newLock func() func(p int) sync.Locker) Subject {
	return Subject{Name: name, K: 1, New: func() Instance {
		i := &perProcInstance{of: newLock()}
		// Process 0's Locker tells whether the lock has TryLock and
		// LockContext.
		var inst Instance = i
		if _, ok := i.get(0).(interface{ TryLock() bool }); ok {
			inst = tryPerProcInstance{i}
		}
		if _, ok := i.get(0).(interface {
			LockContext(context.Context) error
		}); ok {
			return withContext(inst, func(ctx context.Context, p int) error {
				return i.get(p).(interface {
					LockContext(context.Context) error
				}).LockContext(ctx)
			})
		}
		return inst
	}}
}

// maxPerProcess bounds the process ids of a PerProcess subject.
const maxPerProcess = 4096

// perProcInstance gives each process its own Locker, made on first use.
// Slot p is only ever touched by process p, so no synchronisation is added
// around the lock under test (a mutex here would hide missing
// happens-before edges from the race detector).
type perProcInstance struct {
	of func(p int) sync.Locker
	ls [maxPerProcess]sync.Locker
}

func (i *perProcInstance) get(p int) sync.Locker {
	if p < 0 || p >= maxPerProcess {
		panic(fmt.Sprintf("verify: process %d out of range [0,%d)", p, maxPerProcess))
	}
	if i.ls[p] == nil {
		i.ls[p] = i.of(p)
	}
	return i.ls[p]
}

func (i *perProcInstance) Acquire(p int) { i.get(p).Lock() }
func (i *perProcInstance) Release(p int) { i.get(p).Unlock() }

// tryPerProcInstance is a perProcInstance whose Lockers have TryLock.
type tryPerProcInstance struct{ *perProcInstance }

func (i tryPerProcInstance) TryAcquire(p int) bool {
	return i.get(p).(interface{ TryLock() bool }).TryLock()
}

// RWLocker checks a reader/writer lock with the shape of sync.RWMutex.
func RWLocker(name string, newLock func() RWLock) Subject {
	return Subject{Name: name, K: 1, Mode: mode.RW, New: func() Instance {
		return rwInstance{newLock()}
	}}
}

type rwInstance struct{ l RWLock }

func (i rwInstance) Acquire(int)  { i.l.Lock() }
func (i rwInstance) Release(int)  { i.l.Unlock() }
func (i rwInstance) RAcquire(int) { i.l.RLock() }
func (i rwInstance) RRelease(int) { i.l.RUnlock() }
