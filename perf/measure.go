package perf

import (
	"cmp"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lockgen/lockgen/mode"
)

// Workload is what each passage does besides taking the lock.
type Workload struct {
	Name    string
	CS      time.Duration // work inside the critical section
	Outside time.Duration // work between passages
}

// DefaultWorkloads: an empty critical section, and a short one with
// non-critical work between passages.
func DefaultWorkloads() []Workload {
	return []Workload{
		{Name: "empty"},
		{Name: "work", CS: 50 * time.Nanosecond, Outside: 500 * time.Nanosecond},
	}
}

// DefaultGoroutines: uncontended, GOMAXPROCS, 4×GOMAXPROCS, and 64.
func DefaultGoroutines() []int {
	p := runtime.GOMAXPROCS(0)
	gs := []int{1, p, 4 * p, 64}
	slices.Sort(gs)
	return slices.Compact(gs)
}

// Config sets up a measurement.
type Config struct {
	Goroutines   []int
	Workloads    []Workload
	ReadFraction float64       // reader/writer locks: the share of passages that read
	Duration     time.Duration // of each run
	Count        int           // repetitions of every throughput run
	LatencyCount int           // timed runs per cell (default: Count, at most 3)
	// PGO builds the measured binary with profile-guided optimization,
	// from a CPU profile of a shorter first pass (RunDriver): calls that
	// are hot in the profile get a larger inlining budget, so a generated
	// lock's methods inline into the loop as sync.Mutex's always do.
	PGO bool `json:",omitempty"`
	// Progress, if set, is told what runs next.
	Progress func(done, total int, what string) `json:"-"`
}

func (c *Config) defaults() {
	if len(c.Goroutines) == 0 {
		c.Goroutines = DefaultGoroutines()
	}
	if len(c.Workloads) == 0 {
		c.Workloads = DefaultWorkloads()
	}
	if c.ReadFraction == 0 {
		c.ReadFraction = 0.9
	}
	if c.Duration <= 0 {
		c.Duration = 100 * time.Millisecond
	}
	if c.Count <= 0 {
		c.Count = 5
	}
	if c.LatencyCount <= 0 {
		c.LatencyCount = min(c.Count, 3)
	}
}

// Run is one throughput run's figures.
type Run struct {
	NsPerPassage float64 // wall time over all goroutines' passages
	Jain         float64 // fairness of the per-goroutine passage counts (1: equal)
	Allocs       float64 // heap allocations per passage
	Passages     int64
	// GCs is the garbage collections during the run: after one, the runtime
	// refills the caches it emptied (parked goroutines' records, sync.Pool),
	// allocations that are not the lock's (see Result.Allocs).
	GCs uint32
}

// Latency is the distribution of acquisition times over a cell's latency
// runs, in which every acquire is timed.
type Latency struct {
	P50, P99 time.Duration // over every latency run's acquires
	// Max is the median of the runs' longest waits, and Maxes those waits
	// run by run: one run's longest wait is a single sample of a rare
	// event (a processor taken away from the holder for milliseconds; see
	// Limits.Stalls), and a comparison of two needs their spread.
	Max     time.Duration
	Maxes   []time.Duration
	Samples int
	// Quantiles are 101 evenly spaced quantiles (0%..100%), for plots.
	Quantiles []time.Duration
}

// MaxRange is the least and the greatest of the runs' longest waits.
func (l Latency) MaxRange() (lo, hi time.Duration) {
	if len(l.Maxes) == 0 {
		return l.Max, l.Max
	}
	return slices.Min(l.Maxes), slices.Max(l.Maxes)
}

// Result is one subject at one goroutine count and workload.
type Result struct {
	Subject    string
	Algorithm  string
	Wait       string
	Nodes      string `json:",omitempty"`
	Mode       mode.Mode
	K          int
	Baseline   bool
	FIFO       bool
	Workload   string
	Goroutines int
	Runs       []Run
	Latency    Latency
}

// Allocs is the lock's heap allocations per passage in a steady state:
// the median over the runs without a garbage collection (after one, the
// runtime refills the caches it emptied), or over all runs if each had
// one. A lock's own allocations recur in every run; the runtime's one-off
// ones (records for parked goroutines, the first time that many park at
// once) land in one run, where a lock with few passages per run would be
// charged with them.
func (r *Result) Allocs() float64 {
	var clean, all []float64
	for _, run := range r.Runs {
		all = append(all, run.Allocs)
		if run.GCs == 0 {
			clean = append(clean, run.Allocs)
		}
	}
	if len(clean) == 0 {
		clean = all
	}
	if len(clean) == 0 {
		return 0
	}
	return median(clean)
}

// Median returns the median of f over the runs, and its minimum and maximum.
func (r *Result) Median(f func(Run) float64) (med, lo, hi float64) {
	xs := make([]float64, len(r.Runs))
	for i, run := range r.Runs {
		xs[i] = f(run)
	}
	return median(xs), slices.Min(xs), slices.Max(xs)
}

// Report is a whole measurement.
type Report struct {
	Started    time.Time
	Elapsed    time.Duration
	GoVersion  string
	GOOS       string
	GOARCH     string
	GOMAXPROCS int
	NumCPU     int
	Config     ReportConfig
	Limits     Limits
	Results    []Result
	// Inlining is the compiler's verdict on the generated locks' methods
	// the benchmark calls (set by RunDriver, which builds the benchmark).
	Inlining []Inlining `json:",omitempty"`
}

// ReportConfig is the configuration as the report records it.
type ReportConfig struct {
	Goroutines   []int
	Workloads    []Workload
	ReadFraction float64
	Duration     time.Duration
	Count        int
	LatencyCount int
	PGO          bool `json:",omitempty"`
}

// Measure runs every subject at every goroutine count and workload: Count
// throughput runs each (interleaved, so that drift in the machine's speed
// falls on every subject alike), then LatencyCount latency runs, likewise
// interleaved. It also measures the machine's limits (Limits), and before
// each round of latency runs how long the machine stalls a goroutine that
// waits for nothing (Limits.Stalls).
func Measure(cfg Config, subjects []Subject) *Report {
	cfg.defaults()
	rep := &Report{Started: time.Now(), GoVersion: runtime.Version(), GOOS: runtime.GOOS, GOARCH: runtime.GOARCH,
		GOMAXPROCS: runtime.GOMAXPROCS(0), NumCPU: runtime.NumCPU(),
		Config: ReportConfig{Goroutines: cfg.Goroutines, Workloads: cfg.Workloads, ReadFraction: cfg.ReadFraction,
			Duration: cfg.Duration, Count: cfg.Count, LatencyCount: cfg.LatencyCount, PGO: cfg.PGO}}
	calibrate()
	type cell struct {
		s     *Subject
		w     Workload
		g     int
		r     *Result
		group int // its workload's and goroutine count's place in a round
	}
	var cells []cell
	for i := range subjects {
		s := &subjects[i]
		for wi, w := range cfg.Workloads {
			for gi, g := range cfg.Goroutines {
				if s.Procs > 0 && g > s.Procs {
					continue
				}
				rep.Results = append(rep.Results, Result{Subject: s.Name, Algorithm: s.Algorithm, Wait: s.Wait, Nodes: s.Nodes, Mode: s.Mode, K: s.K,
					Baseline: s.Baseline, FIFO: s.FIFO, Workload: w.Name, Goroutines: g})
				cells = append(cells, cell{s: s, w: w, g: g, group: wi*len(cfg.Goroutines) + gi})
			}
		}
	}
	for i := range cells {
		cells[i].r = &rep.Results[i]
	}
	// A round runs the cells workload by workload and goroutine count by
	// goroutine count, every subject's cell of the one before the next, so
	// that the runs a ratio pairs (a lock's and its baseline's of the same
	// round) are seconds apart at most, not a whole round (half a minute
	// over the catalogue): a slow spell of the machine between them would
	// weigh on one side of the ratio only.
	slices.SortStableFunc(cells, func(a, b cell) int { return cmp.Compare(a.group, b.group) })
	// The bare-steps passages run at one goroutine on the first workload,
	// interleaved with the locks' runs so that their figures pair up.
	var shapes []BareSteps
	var bare []Subject
	if slices.Contains(cfg.Goroutines, 1) {
		shapes = bareShapes()
		for _, shape := range shapes {
			bare = append(bare, bareStepsSubject(shape))
		}
	}
	bareGroup := slices.Index(cfg.Goroutines, 1) // the first workload's group at one goroutine
	total := len(cells)*(cfg.Count+cfg.LatencyCount) + len(bare)*cfg.Count + cfg.LatencyCount + 1
	done := 0
	progress := func(what string) {
		if cfg.Progress != nil {
			cfg.Progress(done, total, what)
		}
		done++
	}
	progress("the machine's limits")
	rep.Limits = MeasureLimits(cfg.Duration)
	rep.Limits.BareSteps = shapes
	// A warm-up run per cell, not recorded: the runtime's first parks of
	// a run allocate (it keeps parked goroutines' records in caches a
	// collection empties), which is not the lock's allocation.
	warm := cfg
	warm.Duration = max(cfg.Duration/4, time.Millisecond)
	for _, c := range cells {
		runOnce(c.s, c.w, c.g, warm, false)
	}
	for i := range bare {
		runOnce(&bare[i], cfg.Workloads[0], 1, warm, false)
	}
	for k := 0; k < cfg.Count; k++ {
		for ci, c := range cells {
			progress(fmt.Sprintf("%s, %s, %s: run %d of %d", c.s.Name, goroutines(c.g), c.w.Name, k+1, cfg.Count))
			run, _ := runOnce(c.s, c.w, c.g, cfg, false)
			c.r.Runs = append(c.r.Runs, run)
			if c.group != bareGroup || ci+1 < len(cells) && cells[ci+1].group == bareGroup {
				continue
			}
			// The bare-steps passages, right after the locks' runs they
			// pair with: the first workload's at one goroutine.
			for i := range bare {
				progress(fmt.Sprintf("%s: run %d of %d", bare[i].Name, k+1, cfg.Count))
				run, _ := runOnce(&bare[i], cfg.Workloads[0], 1, cfg, false)
				b := &rep.Limits.BareSteps[i]
				b.Ns = append(b.Ns, run.NsPerPassage)
			}
		}
	}
	hists := make([]histogram, len(cells))
	maxes := make([][]time.Duration, len(cells))
	for k := 0; k < cfg.LatencyCount; k++ {
		progress(fmt.Sprintf("the machine's stalls, before latency round %d of %d", k+1, cfg.LatencyCount))
		rep.Limits.Stalls = append(rep.Limits.Stalls, stall(cfg.Duration))
		for ci, c := range cells {
			progress(fmt.Sprintf("%s, %s, %s: latency run %d of %d", c.s.Name, goroutines(c.g), c.w.Name, k+1, cfg.LatencyCount))
			_, lat := runOnce(c.s, c.w, c.g, cfg, true)
			hists[ci].merge(lat)
			maxes[ci] = append(maxes[ci], time.Duration(lat.max))
		}
	}
	for ci, c := range cells {
		c.r.Latency = latencyOf(&hists[ci], maxes[ci])
	}
	if cfg.Progress != nil {
		cfg.Progress(total, total, "done")
	}
	rep.Elapsed = time.Since(rep.Started)
	return rep
}

// runOnce runs g goroutines on a fresh lock: it waits until each has
// finished a passage (at most cfg.Duration), then measures for
// cfg.Duration.
func runOnce(s *Subject, wl Workload, g int, cfg Config, timing bool) (Run, *histogram) {
	l := s.New()
	var phase, joined atomic.Int32
	shared := 0
	workers := make([]*Worker, g)
	cut := uint64(cfg.ReadFraction * math.MaxUint64)
	if cfg.ReadFraction >= 1 {
		cut = math.MaxUint64
	}
	for i := range workers {
		workers[i] = &Worker{ID: i, phase: &phase, joined: &joined, rng: uint64(i)*0x9E3779B97F4A7C15 + 1, readCut: cut,
			cs: iterations(wl.CS), out: iterations(wl.Outside), shared: &shared, timing: timing}
		if timing {
			workers[i].lat = new(histogram)
		}
	}
	var ready, finished sync.WaitGroup
	start := make(chan struct{})
	ready.Add(g)
	finished.Add(g)
	for _, w := range workers {
		w.ready, w.start = &ready, start
		go func() {
			defer finished.Done()
			s.Run(l, w)
			if !w.started { // a Run that never called Next
				w.ready.Done()
			}
		}()
	}
	ready.Wait()
	close(start)
	for end := time.Now().Add(cfg.Duration); joined.Load() < int32(g) && time.Now().Before(end); {
		time.Sleep(50 * time.Microsecond)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	t0 := time.Now()
	phase.Store(measuring)
	time.Sleep(cfg.Duration)
	phase.Store(stopped)
	elapsed := time.Since(t0)
	var lat *histogram
	if timing {
		lat = new(histogram)
		now := int64(time.Since(epoch))
		for _, w := range workers {
			if d := w.openWait(now); d > 0 {
				lat.add(d)
			}
		}
	}
	finished.Wait()
	runtime.ReadMemStats(&after)

	var run Run
	counts := make([]float64, g)
	for i, w := range workers {
		run.Passages += w.passages()
		counts[i] = float64(w.passages())
		if h := w.latencies(); h != nil {
			lat.merge(h)
		}
	}
	if run.Passages > 0 {
		run.NsPerPassage = float64(elapsed.Nanoseconds()) / float64(run.Passages)
		run.Allocs = float64(after.Mallocs-before.Mallocs) / float64(run.Passages)
	}
	run.GCs = after.NumGC - before.NumGC
	run.Jain = jain(counts)
	return run, lat
}

// latencyOf summarises a cell's latency runs: their acquires in h, and
// each run's longest wait.
func latencyOf(h *histogram, maxes []time.Duration) Latency {
	if h.n == 0 {
		return Latency{}
	}
	out := Latency{P50: h.quantile(0.5), P99: h.quantile(0.99), Max: time.Duration(median(durations(maxes))),
		Maxes: maxes, Samples: int(h.n)}
	for i := 0; i <= 100; i++ {
		out.Quantiles = append(out.Quantiles, h.quantile(float64(i)/100))
	}
	return out
}

func durations(ds []time.Duration) []float64 {
	xs := make([]float64, len(ds))
	for i, d := range ds {
		xs[i] = float64(d)
	}
	return xs
}

// jain is Jain's fairness index of xs: (Σx)² / (n·Σx²), 1 when all are
// equal, 1/n when one goroutine made every passage.
func jain(xs []float64) float64 {
	var sum, sq float64
	for _, x := range xs {
		sum += x
		sq += x * x
	}
	if sq == 0 {
		return 0
	}
	return sum * sum / (float64(len(xs)) * sq)
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// stepNanos is how long one Worker spin step takes on this machine.
var (
	stepOnce  sync.Once
	stepNanos float64
)

// calibrate times the spin step: the fastest of many runs short enough
// (tens of microseconds) that some run whole between two preemptions even
// on a loaded machine; a run that was descheduled or shared its processor
// is only slower, and an overestimate would make every workload's work
// too short.
func calibrate() {
	stepOnce.Do(func() {
		w := &Worker{rng: 1}
		const n, runs = 20_000, 400
		stepNanos = math.Inf(1)
		for range runs {
			t0 := time.Now()
			w.spin(n)
			stepNanos = min(stepNanos, float64(time.Since(t0).Nanoseconds())/n)
		}
		if stepNanos <= 0 {
			stepNanos = 1
		}
	})
}

// iterations is how many spin steps take about d.
func iterations(d time.Duration) int {
	if d <= 0 {
		return 0
	}
	calibrate()
	return max(1, int(float64(d.Nanoseconds())/stepNanos))
}

// goroutines says "1 goroutine" or "n goroutines".
func goroutines(n int) string {
	if n == 1 {
		return "1 goroutine"
	}
	return fmt.Sprintf("%d goroutines", n)
}
