package verify

import (
	"context"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"
)

// worker states, shown when the watchdog fires.
const (
	stStarting int32 = iota
	stBarrier
	stAcquire
	stTryAcquire
	stCtxAcquire
	stRAcquire
	stInCS
	stInRCS
	stRelease
	stRRelease
	stOutside
	stDone
	stCrashed
)

var stateNames = [...]string{
	stStarting:   "starting",
	stBarrier:    "waiting at the start barrier",
	stAcquire:    "in Acquire",
	stTryAcquire: "in TryAcquire",
	stCtxAcquire: "in AcquireContext",
	stRAcquire:   "in RAcquire",
	stInCS:       "in the critical section (exclusive)",
	stInRCS:      "in the critical section (reading)",
	stRelease:    "in Release",
	stRRelease:   "in RRelease",
	stOutside:    "between passages",
	stDone:       "done",
	stCrashed:    "crashed inside the critical section (by design: StressCrashes)",
}

type stressWorker struct {
	idx     int
	crashed bool // crashed holding the lock (StressCrashes); written before it returns
	rng     *rand.Rand
	gid     atomic.Int64 // runtime goroutine id, to find it among the stacks
	state   atomic.Int32
	done    atomic.Int64 // completed passages
	excl    atomic.Int64 // completed exclusive passages that bumped the counter
	reads   atomic.Int64
	tries   atomic.Int64
	tryOK   atomic.Int64
	ctxs    atomic.Int64
	gaveUp  atomic.Int64
	sink    uint64 // local busy work; keeps the compiler honest
}

func (r *stressRun) worker(w *stressWorker, start <-chan struct{}, ready, wg *sync.WaitGroup) {
	defer wg.Done()
	defer func() {
		if v := recover(); v != nil {
			r.fail(StressPanic, w.idx, int(w.done.Load()), "panic %s: %v\n%s",
				stateNames[w.state.Load()], v, debug.Stack())
		}
		w.state.Store(stDone)
	}()
	w.gid.Store(goid())
	w.state.Store(stBarrier)
	ready.Done()
	<-start
	crashAt := -1
	if w.idx < r.cfg.crashes {
		crashAt = w.rng.IntN(maxCrashPassage)
	}
	n := r.cfg.passages
	if r.overlapTarget >= 2 {
		for a := 0; a < overlapAttempts && int(w.done.Load()) < n; a++ {
			if r.overlapSeen.Load() || r.stop.Load() || r.outOfTime.Load() {
				break
			}
			if int(w.done.Load()) == crashAt {
				r.crash(w)
				return
			}
			r.passage(w, true)
		}
	}
	for int(w.done.Load()) < n && !r.stop.Load() && !r.outOfTime.Load() && !r.enough.Load() {
		if int(w.done.Load()) == crashAt {
			r.crash(w)
			return
		}
		r.passage(w, false)
	}
}

// maxCrashPassage bounds the passage at which a crashing goroutine crashes.
const maxCrashPassage = 4

// crash enters the critical section and never leaves: a goroutine that
// stops for good there (StressCrashes). It counts as a holder to the end.
func (r *stressRun) crash(w *stressWorker) {
	p := w.idx
	w.state.Store(stAcquire)
	r.inst.Acquire(p)
	o := r.occ.Add(1)
	if o > r.k {
		r.fail(StressOccupancy, p, int(w.done.Load()), "%d holders in the critical section, the lock allows %d", o, r.k)
	}
	raise(&r.maxOcc, o)
	r.crashed.Add(1)
	w.crashed = true
	w.state.Store(stCrashed)
}

// passage makes one passage; in the overlap phase the holder waits (a
// bounded time) for others to join it in the critical section.
func (r *stressRun) passage(w *stressWorker, overlap bool) {
	p, i := w.idx, int(w.done.Load())
	w.state.Store(stOutside)
	w.work(63)
	if w.rng.IntN(8) == 0 {
		runtime.Gosched()
	}
	if r.rw != nil && (overlap || w.rng.IntN(stressWriteEvery) != 0) {
		w.state.Store(stRAcquire)
		r.rw.RAcquire(p)
		w.state.Store(stInRCS)
		nr := r.readers.Add(1)
		nw := r.writers.Load()
		o := r.occ.Add(1)
		raise(&r.maxReaders, nr)
		raise(&r.maxOcc, o)
		if nw != 0 {
			r.fail(StressWriterShared, p, i, "a reader entered while %d writer(s) held the lock (%d readers in)", nw, nr)
		}
		w.sink += uint64(r.readCounter())
		if overlap {
			r.awaitOverlap(&r.readers)
		}
		w.csWork()
		r.occ.Add(-1)
		r.readers.Add(-1)
		w.state.Store(stRRelease)
		r.rw.RRelease(p)
		w.reads.Add(1)
	} else {
		entered := false
		if r.try != nil && w.rng.IntN(stressTryEvery) == 0 {
			w.state.Store(stTryAcquire)
			w.tries.Add(1)
			if r.try.TryAcquire(p) {
				w.tryOK.Add(1)
				entered = true
			}
		}
		if !entered && r.ctx != nil && w.rng.IntN(stressCtxEvery) == 0 {
			w.state.Store(stCtxAcquire)
			w.ctxs.Add(1)
			entered = r.acquireContext(w, p, i)
		}
		if !entered {
			w.state.Store(stAcquire)
			r.inst.Acquire(p)
		}
		w.state.Store(stInCS)
		var o int64
		if r.rw != nil {
			nw := r.writers.Add(1)
			nr := r.readers.Load()
			o = r.occ.Add(1)
			if nw > r.k {
				r.fail(StressOccupancy, p, i, "%d writers in the critical section, the lock allows %d", nw, r.k)
			}
			if nr != 0 {
				r.fail(StressWriterShared, p, i, "a writer entered while %d reader(s) were in", nr)
			}
		} else {
			o = r.occ.Add(1)
			if o > r.k {
				r.fail(StressOccupancy, p, i, "%d holders in the critical section, the lock allows %d", o, r.k)
			}
		}
		raise(&r.maxOcc, o)
		var v int64
		if r.k == 1 {
			v = r.readCounter()
		}
		if overlap {
			r.awaitOverlap(&r.occ)
		}
		w.csWork()
		if r.k == 1 {
			r.writeCounter(v + 1)
			w.excl.Add(1)
		}
		r.occ.Add(-1)
		if r.rw != nil {
			r.writers.Add(-1)
		}
		w.state.Store(stRelease)
		r.inst.Release(p)
	}
	w.done.Add(1)
	r.progress.Add(1)
}

// acquireContext makes process p's AcquireContext with a context cancelled
// after a random wait (sometimes already cancelled); it reports whether p
// entered. Giving up must return the context's error, and only once the
// context is done.
func (r *stressRun) acquireContext(w *stressWorker, p, passage int) bool {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if d := time.Duration(w.rng.Int64N(int64(stressCtxWait))); d < stressCtxWait/8 {
		cancel()
	} else {
		t := time.AfterFunc(d, cancel)
		defer t.Stop()
	}
	err := r.ctx.AcquireContext(ctx, p)
	switch {
	case err == nil:
		return true
	case ctx.Err() == nil:
		r.fail(StressContext, p, passage, "AcquireContext returned %v before its context was done", err)
	case err != ctx.Err():
		r.fail(StressContext, p, passage, "AcquireContext returned %v, not its context's error (%v)", err, ctx.Err())
	}
	w.gaveUp.Add(1)
	return false
}

// awaitOverlap holds the critical section until *count reaches the overlap
// target, someone else saw it reached, or both overlapWait and
// overlapYields yields have passed (the yields keep a thread descheduled
// by a busy machine from timing out before the other goroutines had a
// turn). The bound keeps a correct lock that blocks new readers behind a
// waiting writer from deadlocking here.
func (r *stressRun) awaitOverlap(count *atomic.Int64) {
	deadline := time.Now().Add(overlapWait)
	for y := 0; !r.overlapSeen.Load() && !r.stop.Load(); y++ {
		if count.Load() >= r.overlapTarget {
			r.overlapSeen.Store(true)
			return
		}
		if y >= overlapYields && time.Now().After(deadline) {
			return
		}
		runtime.Gosched()
	}
}

func (r *stressRun) readCounter() int64 {
	if r.cfg.quietCounter {
		return r.quiet.Load()
	}
	return r.plain
}

func (r *stressRun) writeCounter(v int64) {
	if r.cfg.quietCounter {
		r.quiet.Store(v)
		return
	}
	r.plain = v
}

// work spins a random number of steps up to mask, touching only locals.
func (w *stressWorker) work(mask uint64) {
	n := w.rng.Uint64() & mask
	for i := uint64(0); i < n; i++ {
		w.sink = w.sink*6364136223846793005 + i
	}
}

// csWork is the body of the critical section: always a yield, some tiny
// random work, sometimes a second yield.
func (w *stressWorker) csWork() {
	runtime.Gosched()
	w.work(15)
	if w.rng.IntN(4) == 0 {
		runtime.Gosched()
	}
}

func raise(m *atomic.Int64, v int64) {
	for {
		old := m.Load()
		if v <= old || m.CompareAndSwap(old, v) {
			return
		}
	}
}
