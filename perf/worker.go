package perf

import (
	"sync"
	"sync/atomic"
	"time"
)

// Worker is one goroutine of a run. A Subject's Run loops on Next and
// calls Begin, Enter, Critical and Outside around the lock's own calls.
type Worker struct {
	// ID is the goroutine's index in the run, 0..goroutines-1: the process
	// id of a lock with ids.
	ID int

	phase   *atomic.Int32   // the run's: joining, measuring or stopped
	seen    int32           // the phase this worker last saw
	steady  int32           // 1 + the phase in which Next has nothing to do but count (0: none yet)
	joined  *atomic.Int32   // workers that finished a passage
	started bool            // has passed the start barrier
	ready   *sync.WaitGroup // the barrier: everyone's setup is done...
	start   chan struct{}   // ...and the run starts
	n       int64           // passages made
	mark    int64           // n when the measured window began
	rng     uint64
	readCut uint64 // Read is true below it
	cs, out int    // spin iterations inside and outside the critical section
	shared  *int   // touched only inside the critical section
	timing  bool   // this run records every acquisition's latency
	lat     *histogram
	// acquiring is, in a timing run, when the acquire in flight began
	// (Begin's clock; 0: none), for the wait of a goroutine still waiting
	// when the run stops (openWait).
	acquiring atomic.Int64
}

// epoch is the clock the latency runs read.
var epoch = time.Now()

// The phases of a run. Passages and latencies count only while measuring:
// the window opens once every worker has finished a passage, so that
// goroutines the scheduler has not run yet (a woken waiter takes the
// processor's next slot ahead of them) are not counted as starved by the
// lock.
const (
	joining int32 = iota
	measuring
	stopped
)

// Next reports whether the worker should make another passage. The first
// call waits for every worker of the run: what a Run does before its loop
// (making a handle, say) is not measured.
func (w *Worker) Next() bool {
	// The common case, small enough to inline into a lock's loop.
	if w.phase.Load()+1 == w.steady {
		w.n++
		return true
	}
	return w.nextSlow()
}

// nextSlow is Next at the start barrier, at the first passage's end and
// when the phase changes.
func (w *Worker) nextSlow() bool {
	if !w.started {
		w.started = true
		w.ready.Done()
		<-w.start
	}
	if w.n == 1 {
		w.joined.Add(1)
	}
	if p := w.phase.Load(); p != w.seen {
		if p == stopped {
			return false
		}
		w.seen, w.mark = p, w.n
		if w.lat != nil {
			w.lat.reset()
		}
	}
	w.n++
	if w.n >= 2 { // past the barrier and the first passage
		w.steady = w.seen + 1
	}
	return true
}

// passages is how many passages the worker made in the measured window:
// none if it never saw the window open. A worker waits through a whole
// window when an unfair lock starves it; n - mark alone would then credit
// it with the passages it made while the others were joining, and a
// starving lock would gain throughput (sync.Mutex's 187 ns per passage
// at 64 goroutines on the work workload, under the 275 ns that two
// processors need for 550 ns of work each).
func (w *Worker) passages() int64 {
	if w.seen != measuring {
		return 0
	}
	return w.n - w.mark
}

// latencies are the worker's acquisition times in the measured window
// (nil if it never saw the window open).
func (w *Worker) latencies() *histogram {
	if w.seen != measuring {
		return nil
	}
	return w.lat
}

// Begin is called just before the acquire; pass its result to Enter.
func (w *Worker) Begin() int64 {
	if !w.timing {
		return 0
	}
	t := int64(time.Since(epoch))
	w.acquiring.Store(max(t, 1))
	return t
}

// Enter is called once the acquire returned.
func (w *Worker) Enter(t int64) {
	if w.timing {
		// An acquire that returns after the run stopped was counted as an
		// open wait when it stopped.
		if w.phase.Load() != stopped {
			w.lat.add(int64(time.Since(epoch)) - t)
		}
		w.acquiring.Store(0)
	}
}

// openWait is the wait so far, at clock now, of an acquire that had not
// returned by then (0: none in flight). A goroutine an unfair lock starves
// through a whole run never returns from its acquire inside the window;
// its wait counts this way, as at least what it was when the run stopped,
// or the lock's maximum wait would leave out exactly its longest waits.
func (w *Worker) openWait(now int64) int64 {
	if t := w.acquiring.Load(); t != 0 {
		return max(now-t, 0)
	}
	return 0
}

// Critical is the critical section's work: a plain counter that only a
// correct lock keeps exact, then the workload's spin.
func (w *Worker) Critical() {
	*w.shared++
	w.spin(w.cs)
}

// Shared is the work of a critical section that others may share (a
// reader's, a k-exclusion holder's): the workload's spin, touching no
// shared data.
func (w *Worker) Shared() { w.spin(w.cs) }

// Outside is the work between passages.
func (w *Worker) Outside() { w.spin(w.out) }

// Read reports whether this passage of a reader/writer lock reads (with
// the configured probability).
func (w *Worker) Read() bool { return w.next() < w.readCut }

func (w *Worker) next() uint64 {
	x := w.rng
	x ^= x << 13
	x ^= x >> 7
	x ^= x << 17
	w.rng = x
	return x
}

// spin does n steps of private work.
func (w *Worker) spin(n int) {
	for i := 0; i < n; i++ {
		w.next()
	}
}
