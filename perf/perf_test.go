package perf

import (
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lockgen/lockgen/mode"
	"github.com/lockgen/lockgen/verify"
)

func TestJain(t *testing.T) {
	if j := jain([]float64{5, 5, 5, 5}); math.Abs(j-1) > 1e-9 {
		t.Errorf("equal counts: %v, want 1", j)
	}
	if j := jain([]float64{8, 0, 0, 0}); math.Abs(j-0.25) > 1e-9 {
		t.Errorf("one goroutine made every passage: %v, want 1/4", j)
	}
}

func TestFairLockIsALock(t *testing.T) {
	verify.Stress(t, verify.Locker("FairLock", func() sync.Locker { return new(FairLock) }))
}

// stdBaselines are the baselines of mode m that perf holds itself
// (perf/driver adds xsync's and x/sync's).
func stdBaselines(m mode.Mode) []Subject {
	var out []Subject
	for _, name := range BaselineNames(m, 2) {
		if s, ok := StdBaseline(name); ok {
			out = append(out, s)
		}
	}
	return out
}

func TestMeasure(t *testing.T) {
	subjects := append(stdBaselines(mode.Mutex), stdBaselines(mode.RW)...)
	var steps int
	rep := Measure(Config{Goroutines: []int{1, 4}, Duration: 20 * time.Millisecond, Count: 2,
		Progress: func(done, total int, what string) { steps++ }}, subjects)
	if want := 4 * 2 * 2; len(rep.Results) != want { // subjects × workloads × goroutine counts
		t.Fatalf("%d results, want %d", len(rep.Results), want)
	}
	if steps == 0 || rep.Limits.WakeUp <= 0 || rep.Limits.CacheLine <= 0 || rep.Limits.AtomicIntNs <= 0 || rep.Limits.AtomicPointerNs <= 0 {
		t.Fatalf("progress %d, limits %+v", steps, rep.Limits)
	}
	if len(rep.Limits.BareSteps) != len(bareShapes()) {
		t.Fatalf("bare steps %+v, want the shapes %+v", rep.Limits.BareSteps, bareShapes())
	}
	for _, b := range bareShapes() {
		ns := rep.Limits.BareStepsNs(b.Steps, b.Pointer, b.Called)
		if len(ns) != 2 || ns[0] <= 0 || ns[1] <= 0 {
			t.Errorf("%d bare steps, %d on pointers, called %v: runs %v, want 2 positive", b.Steps, b.Pointer, b.Called, ns)
		}
	}
	for _, r := range rep.Results {
		if len(r.Runs) != 2 {
			t.Errorf("%s g=%d %s: %d runs, want 2", r.Subject, r.Goroutines, r.Workload, len(r.Runs))
		}
		for _, run := range r.Runs {
			if run.Passages == 0 || run.NsPerPassage <= 0 || run.Jain <= 0 || run.Jain > 1.0000001 {
				t.Errorf("%s g=%d %s: run %+v", r.Subject, r.Goroutines, r.Workload, run)
			}
		}
		if r.Latency.Samples == 0 || r.Latency.P50 > r.Latency.P99 || r.Latency.P99 > r.Latency.Max || len(r.Latency.Quantiles) != 101 {
			t.Errorf("%s g=%d %s: latency %+v", r.Subject, r.Goroutines, r.Workload, r.Latency)
		}
		if r.Subject == "sync.Mutex" && r.Goroutines == 1 {
			if hi := r.Allocs(); hi > 0.01 {
				t.Errorf("sync.Mutex allocates %v per passage", hi)
			}
		}
	}
}

// TestWorkloadsTakeTime: the work workload's spin makes passages longer,
// by at least half of what it asks for (the calibration, made once, may
// meet a faster processor later: a fastest run of 1 µs took 661 ns in a
// make test whose calibration ran while other packages' tests loaded
// both cores), and not by ten times more. Each bound is on the fastest of many
// samples: other tests running beside this one only make samples slower,
// and the medians of whole passages swung by more than the 1 µs asked.
func TestWorkloadsTakeTime(t *testing.T) {
	// The spin itself, timed directly.
	w := &Worker{rng: 1}
	n := iterations(time.Microsecond)
	fastest := time.Hour
	for range 500 {
		t0 := time.Now()
		w.spin(n)
		fastest = min(fastest, time.Since(t0))
	}
	if fastest < 500*time.Nanosecond || fastest > 10*time.Microsecond {
		t.Fatalf("1 µs of work took %v at the fastest of 500", fastest)
	}
	// And Measure puts it between passages. The bound is half of the
	// work, not most of it: the fastest empty run is a noisy floor (under
	// -race beside other packages' tests, all three of an earlier version
	// once ran 300 ns slow), and a spin left out would add nothing at all.
	s := stdBaselines(mode.Mutex)[:1]
	rep := Measure(Config{Goroutines: []int{1}, Duration: 30 * time.Millisecond, Count: 5,
		Workloads: []Workload{{Name: "empty"}, {Name: "1us", Outside: time.Microsecond}}}, s)
	_, empty, _ := rep.Results[0].Median(func(r Run) float64 { return r.NsPerPassage })
	_, work, _ := rep.Results[1].Median(func(r Run) float64 { return r.NsPerPassage })
	if work < empty+500 || work > empty+10_000 {
		t.Fatalf("fastest runs: empty %.0f ns, with 1 µs outside %.0f ns per passage", empty, work)
	}
}

// A lock that allocates on every passage is reported as allocating, and
// a garbage collection in one run does not hide it; allocations only in
// a run with a collection do not count while another run had none.
func TestAllocsIgnoreRunsWithACollection(t *testing.T) {
	r := Result{Runs: []Run{{Allocs: 0.02, GCs: 1}, {Allocs: 0}, {Allocs: 0.001}, {Allocs: 0.001}}}
	if got := r.Allocs(); got != 0.001 {
		t.Errorf("Allocs %v, want 0.001 (the run with a collection left out)", got)
	}
	r = Result{Runs: []Run{{Allocs: 0.5, GCs: 1}, {Allocs: 0.7, GCs: 2}, {Allocs: 0.9, GCs: 1}}}
	if got := r.Allocs(); got != 0.7 {
		t.Errorf("Allocs %v, want 0.7 (every run had a collection)", got)
	}
	r = Result{Runs: []Run{{Allocs: 0}, {Allocs: 0.031}, {Allocs: 0}, {Allocs: 0}, {Allocs: 0}}}
	if got := r.Allocs(); got != 0 {
		t.Errorf("Allocs %v, want 0 (one run's one-off allocations are not the lock's)", got)
	}

	var sink []*int
	allocating := Subject{Name: "allocating", Mode: mode.Mutex,
		New: func() any { return new(sync.Mutex) },
		Run: func(l any, w *Worker) {
			m := l.(*sync.Mutex)
			for w.Next() {
				m.Lock()
				sink = append(sink[:0], new(int))
				m.Unlock()
			}
		}}
	rep := Measure(Config{Goroutines: []int{1}, Duration: 20 * time.Millisecond, Count: 3}, []Subject{allocating})
	for _, r := range rep.Results {
		if got := r.Allocs(); got < 0.9 {
			t.Errorf("%s: %v allocations per passage, want about 1", r.Workload, got)
		}
	}
}

// TestBareStepsSwapEachRegister: a passage of n bare steps, p on
// pointers, swaps p pointer and n-p integer registers once each, the
// first half of its steps before the critical section.
func TestBareStepsSwapEachRegister(t *testing.T) {
	for _, shape := range bareShapes() {
		s := bareStepsSubject(shape)
		b := s.New().(*bareStepsPassage)
		w := &Worker{phase: new(atomic.Int32), joined: new(atomic.Int32), shared: new(int), ready: new(sync.WaitGroup), start: make(chan struct{})}
		w.ready.Add(1)
		close(w.start)
		// Passage 0 runs in the joining phase; stop before passage 1.
		w.phase.Store(joining)
		done := make(chan struct{})
		go func() {
			defer close(done)
			s.Run(b, w)
		}()
		for w.joined.Load() == 0 {
			runtime.Gosched()
		}
		w.phase.Store(stopped)
		<-done
		count := func(ints *[3]atomic.Int64, ptrs *[3]atomic.Pointer[bareNode]) (n, p int) {
			for i := range ints {
				n += int(ints[i].Load())
				if ptrs[i].Load() != nil {
					p++
				}
			}
			return n, p
		}
		ai, ap := count(&b.acqInts, &b.acqPtrs)
		ri, rp := count(&b.relInts, &b.relPtrs)
		if ai+ap != shape.Steps-shape.Steps/2 || ai+ri != shape.Steps-shape.Pointer || ap+rp != shape.Pointer {
			t.Errorf("%+v: acquire swapped %d integers and %d pointers, release %d and %d", shape, ai, ap, ri, rp)
		}
	}
}

// TestStarvedWorkerCountsNothing: a worker that waits through the whole
// measured window, as an unfair lock's starved goroutine does, counts no
// passage and no latency in it, however many it made before the window
// opened; one that saw the window counts only the passages it began in it.
func TestStarvedWorkerCountsNothing(t *testing.T) {
	phase := new(atomic.Int32)
	mk := func() *Worker {
		return &Worker{phase: phase, joined: new(atomic.Int32), started: true, timing: true, lat: new(histogram)}
	}
	passage := func(w *Worker) bool {
		if !w.Next() {
			return false
		}
		w.Enter(w.Begin())
		return true
	}
	starved, running := mk(), mk()
	for range 100 { // both make passages while the run joins
		passage(starved)
		passage(running)
	}
	phase.Store(measuring) // the starved one is stuck in its acquire from here on
	for range 10 {
		passage(running)
	}
	phase.Store(stopped)
	if passage(starved) || passage(running) {
		t.Fatal("Next went on after the run stopped")
	}
	if p, l := starved.passages(), starved.latencies(); p != 0 || l != nil {
		t.Errorf("starved worker: %d passages, latencies %v in the window, want none", p, l)
	}
	if p, l := running.passages(), running.latencies(); p != 10 || l.n != 10 {
		t.Errorf("running worker: %d passages, %d latencies in the window, want 10", p, l.n)
	}
}

// TestOpenWaitCounts: an acquire still waiting when a timing run stops
// counts with its wait so far, once: when it returns after the stop, its
// wait is not recorded again; one that returned counts no open wait.
func TestOpenWaitCounts(t *testing.T) {
	phase := new(atomic.Int32)
	phase.Store(measuring)
	w := &Worker{phase: phase, joined: new(atomic.Int32), started: true, timing: true, seen: measuring, lat: new(histogram)}
	w.Enter(w.Begin())
	if d := w.openWait(int64(time.Since(epoch))); d != 0 {
		t.Fatalf("open wait %d ns after the acquire returned, want none", d)
	}
	start := w.Begin() // stuck in this acquire
	time.Sleep(2 * time.Millisecond)
	phase.Store(stopped)
	if d := w.openWait(int64(time.Since(epoch))); d < int64(2*time.Millisecond) {
		t.Fatalf("open wait %v, want at least the 2ms it has waited", time.Duration(d))
	}
	w.Enter(start) // returns after the stop
	if n := w.latencies().n; n != 1 {
		t.Fatalf("%d latencies, want 1: the wait that ended after the stop counted as open only", n)
	}
	if d := w.openWait(int64(time.Since(epoch))); d != 0 {
		t.Fatalf("open wait %d ns after the acquire returned, want none", d)
	}
}

// TestRoundsRunCellGroupsInTurn: a round runs every subject's cell of one
// workload and goroutine count before the next group, so that a ratio's
// two runs are close in time, and the bare-step passages right after the
// one-goroutine cells of the first workload, which they pair with.
func TestRoundsRunCellGroupsInTurn(t *testing.T) {
	subjects := stdBaselines(mode.Mutex)
	var runs []string
	Measure(Config{Goroutines: []int{1, 2}, Duration: time.Millisecond, Count: 1,
		Progress: func(_, _ int, what string) {
			if strings.HasSuffix(what, ": run 1 of 1") {
				runs = append(runs, strings.TrimSuffix(what, ": run 1 of 1"))
			}
		}}, subjects)
	var want []string
	for _, w := range DefaultWorkloads() {
		for _, g := range []int{1, 2} {
			for _, s := range subjects {
				want = append(want, s.Name+", "+goroutines(g)+", "+w.Name)
			}
			if g == 1 && w.Name == DefaultWorkloads()[0].Name {
				for _, shape := range bareShapes() {
					want = append(want, bareStepsSubject(shape).Name)
				}
			}
		}
	}
	if !slices.Equal(runs, want) {
		t.Errorf("runs in the order\n%s\nwant\n%s", strings.Join(runs, "\n"), strings.Join(want, "\n"))
	}
}

// TestLatencyRunsRepeat: each cell gets LatencyCount latency runs (Count,
// at most 3, by default), its Max is the median of their longest waits,
// and each round of them is preceded by a measure of the machine's stall.
func TestLatencyRunsRepeat(t *testing.T) {
	rep := Measure(Config{Goroutines: []int{2}, Duration: 2 * time.Millisecond, Count: 4,
		Workloads: []Workload{{Name: "empty"}}}, stdBaselines(mode.Mutex))
	if n := len(rep.Limits.Stalls); n != 3 {
		t.Errorf("%d stall measures, want 3", n)
	}
	for _, r := range rep.Results {
		l := r.Latency
		if len(l.Maxes) != 3 || l.Samples == 0 {
			t.Fatalf("%s: %d latency runs, %d samples; want 3 runs", r.Subject, len(l.Maxes), l.Samples)
		}
		s := slices.Sorted(slices.Values(l.Maxes))
		if l.Max != s[1] || l.Quantiles[100] != s[2] || l.P50 > l.P99 || l.P99 > s[2] {
			t.Errorf("%s: max %v, p50 %v, p99 %v, quantile 100 %v from runs' maxima %v", r.Subject, l.Max, l.P50, l.P99, l.Quantiles[100], l.Maxes)
		}
	}
}
