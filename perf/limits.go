package perf

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Limits are what the machine charges for the steps a lock cannot avoid,
// measured in the same run as the locks, to judge a target against what
// is physically possible here.
type Limits struct {
	// WakeUp is one goroutine wake-up: half a round trip of two goroutines
	// handing a token back and forth through unbuffered channels.
	WakeUp time.Duration
	// CacheLine is one transfer of a cache line between processors: half a
	// round trip of two goroutines alternately writing one atomic word.
	CacheLine time.Duration
	// AtomicIntNs is one uncontended atomic read-modify-write of an integer
	// (a swap), in nanoseconds; AtomicPointerNs the same on a pointer, which
	// Go compiles to a call carrying the garbage collector's write barrier
	// rather than one instruction. sync.Mutex's uncontended passage is two
	// integer ones.
	AtomicIntNs, AtomicPointerNs float64
	// ReadBeforeRMWNs is what an atomic read of a word costs just before an
	// atomic read-modify-write of the same word, as in a
	// test-and-test-and-set: a read then a swap, less a swap alone.
	ReadBeforeRMWNs float64
	// Stalls are, one per round of latency runs, the longest time a
	// goroutine that waits for nothing went without running: GOMAXPROCS
	// goroutines read the clock in a loop for a run's length, one per
	// processor, and the longest gap between two reads is kept. Whatever
	// takes a processor away (the operating system, the hypervisor, the
	// runtime) can take it from a lock's holder as well, and every waiter
	// then waits that long: a floor under any lock's maximum wait here,
	// and more so under a FIFO lock's, which a stalled waiter near the
	// head of its queue holds up too.
	Stalls []time.Duration
	// BareSteps are passages of 2 to 6 atomic steps, up to 3 of them on
	// pointers, and nothing else, timed like the locks (the floor of an
	// uncontended passage; see BareSteps). Measured only when a run has
	// one goroutine.
	BareSteps []BareSteps
}

// MeasureLimits measures Limits, spending about d on each.
func MeasureLimits(d time.Duration) Limits {
	l := Limits{WakeUp: wakeUp(d), CacheLine: cacheLine(d), AtomicIntNs: atomicInt(d), AtomicPointerNs: atomicPointer(d)}
	l.ReadBeforeRMWNs = max(0, readThenSwap(d)-l.AtomicIntNs)
	return l
}

// timed runs f(n) for growing n until it takes d, and returns the time per
// unit of n.
func timed(d time.Duration, f func(n int)) time.Duration {
	return time.Duration(timedNs(d, f))
}

// timedNs is timed in nanoseconds, keeping the fraction.
func timedNs(d time.Duration, f func(n int)) float64 {
	for n := 1000; ; n *= 2 {
		t0 := time.Now()
		f(n)
		if el := time.Since(t0); el >= d || n >= 1<<30 {
			return float64(el.Nanoseconds()) / float64(n)
		}
	}
}

func wakeUp(d time.Duration) time.Duration {
	return timed(d, func(n int) {
		a, b := make(chan struct{}), make(chan struct{})
		go func() {
			for range a {
				b <- struct{}{}
			}
		}()
		for i := 0; i < n; i++ {
			a <- struct{}{}
			<-b
		}
		close(a)
	}) / 2
}

func cacheLine(d time.Duration) time.Duration {
	return timed(d, func(n int) {
		var x atomic.Int64
		done := make(chan struct{})
		go func() {
			for i := int64(1); i < 2*int64(n); i += 2 {
				for x.Load() != i {
				}
				x.Store(i + 1)
			}
			close(done)
		}()
		for i := int64(0); i < 2*int64(n); i += 2 {
			for x.Load() != i {
			}
			x.Store(i + 1)
		}
		<-done
	}) / 2
}

var limitSinkInt atomic.Int64

func atomicInt(d time.Duration) float64 {
	return timedNs(d, func(n int) {
		for i := 0; i < n; i++ {
			limitSinkInt.Swap(int64(i))
		}
	})
}

func readThenSwap(d time.Duration) float64 {
	return timedNs(d, func(n int) {
		for i := 0; i < n; i++ {
			if limitSinkInt.Load() >= 0 {
				limitSinkInt.Swap(int64(i))
			}
		}
	})
}

type limitNode struct{ x int }

var (
	limitSinkPtr atomic.Pointer[limitNode]
	limitNodes   = [2]*limitNode{new(limitNode), new(limitNode)}
)

func atomicPointer(d time.Duration) float64 {
	return timedNs(d, func(n int) {
		for i := 0; i < n; i++ {
			limitSinkPtr.Swap(limitNodes[i&1])
		}
	})
}

// stall is the longest time one of GOMAXPROCS clock-reading goroutines
// went without running, over d.
func stall(d time.Duration) time.Duration {
	gaps := make([]time.Duration, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i := range gaps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var gap time.Duration // local: the two goroutines share gaps' cache line
			start := time.Now()
			for last := start; last.Sub(start) < d; {
				now := time.Now()
				gap = max(gap, now.Sub(last))
				last = now
			}
			gaps[i] = gap
		}()
	}
	wg.Wait()
	return slices.Max(gaps)
}
