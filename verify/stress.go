package verify

import (
	"math"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/lockgen/lockgen/mode"
)

// Stress defaults. One call with these takes well under a second under the
// race detector for a fast lock on a 2-core machine (see stress_test.go).
const (
	// DefaultStressDuration is how long a Stress run makes passages when
	// neither StressPassages nor StressDuration says otherwise: the run is
	// sized by time, so a slow lock and a fast one get the same share of
	// the budget and a 2-process lock as long a run as a 64-goroutine one.
	// The environment variable LOCKGEN_STRESS (a Go duration, "5s") sets
	// it for long runs.
	DefaultStressDuration = 250 * time.Millisecond
	// DefaultStressPassages was the fixed size of a run before runs were
	// sized by time; StressPassages(DefaultStressPassages) asks for it.
	DefaultStressPassages = 2000
	// DefaultStressTimeout is a Stress run's time budget: when it runs out
	// while passages still complete, the goroutines stop after their
	// current passage and the run ends early (a note says so), so a slow
	// but live lock is not mistaken for a hung one.
	DefaultStressTimeout = 10 * time.Second
	// DefaultStressStall is how long the watchdog waits for any passage
	// to complete before it declares a hang.
	DefaultStressStall = 5 * time.Second

	maxDefaultGoroutines = 64 // cap on the 4×GOMAXPROCS default
	maxFailuresKept      = 16 // failures kept in a report
	overlapAttempts      = 4  // passages per goroutine in the overlap phase
	overlapWait          = 2 * time.Millisecond
	overlapYields        = 64
	stressTryEvery       = 4                     // 1 in N exclusive passages starts with TryAcquire
	stressCtxEvery       = 3                     // 1 in N exclusive passages starts with AcquireContext, whose context may be cancelled
	stressCtxWait        = 20 * time.Microsecond // the longest an AcquireContext waits before its context is cancelled
	tryProcs             = 4                     // processes whose TryAcquire the precheck tries on a free lock
	stressWriteEvery     = 4                     // 1 in N passages of a reader/writer lock writes
)

// StressOption configures Stress.
type StressOption func(*stressConfig)

type stressConfig struct {
	goroutines int
	passages   int
	duration   time.Duration // sized by time when passages is 0
	timeout    time.Duration
	stall      time.Duration
	seed       uint64
	seedSet    bool
	report     *StressReport
	// quietCounter makes the lost-update counter a pair of separate atomic
	// load and store instead of a plain variable: lost updates still show,
	// but the race detector stays silent. Negative controls use it, so that
	// a lock known to be broken does not fail the test binary through the
	// race detector.
	quietCounter bool
	// crashes: goroutines that crash inside the critical section.
	crashes    int
	crashesSet bool
}

// StressCrashes makes m goroutines crash inside the critical section: each
// enters at a random early passage and never releases, as a goroutine
// that blocks for good while holding the lock; every other goroutine must
// still finish. A subject's CrashTolerance sets m by default (crashes
// elsewhere need the controlled scheduler: ExploreCrashes).
func StressCrashes(m int) StressOption {
	return func(c *stressConfig) { c.crashes, c.crashesSet = m, true }
}

// StressGoroutines sets the number of goroutines (default 4×GOMAXPROCS, at
// most 64). It is capped by the subject's Procs when that is set.
func StressGoroutines(n int) StressOption { return func(c *stressConfig) { c.goroutines = n } }

// StressPassages makes each goroutine make exactly n passages (the default
// sizes the run by time: StressDuration).
func StressPassages(n int) StressOption { return func(c *stressConfig) { c.passages = n } }

// StressDuration sizes the run by time: the goroutines make passages for
// d, then each finishes the one it is in (default DefaultStressDuration,
// or LOCKGEN_STRESS).
func StressDuration(d time.Duration) StressOption { return func(c *stressConfig) { c.duration = d } }

// stressDuration is the default run length: LOCKGEN_STRESS if set.
func stressDuration() time.Duration {
	if v := os.Getenv("LOCKGEN_STRESS"); v != "" {
		if d, err := time.ParseDuration(v); err == nil && d > 0 {
			return d
		}
	}
	return DefaultStressDuration
}

// StressTimeout sets the run's time budget (default DefaultStressTimeout).
// When it runs out, the goroutines stop after their current passage; they
// must then all return within the stall time, or the run fails as a hang.
func StressTimeout(d time.Duration) StressOption { return func(c *stressConfig) { c.timeout = d } }

// StressStall sets how long the watchdog tolerates no passage completing
// anywhere before it declares a hang (default DefaultStressStall, never
// more than the timeout).
func StressStall(d time.Duration) StressOption { return func(c *stressConfig) { c.stall = d } }

// StressSeed fixes the seed of the goroutines' random choices (when to try,
// read or write, how much work to do). The interleaving itself is the Go
// scheduler's and cannot be replayed; the controlled scheduler (Explore)
// is the layer that replays.
func StressSeed(seed uint64) StressOption {
	return func(c *stressConfig) { c.seed, c.seedSet = seed, true }
}

// StressReportTo makes Stress fill *r with what it saw, failed or not.
func StressReportTo(r *StressReport) StressOption { return func(c *stressConfig) { c.report = r } }

// stressQuietCounter: see stressConfig.quietCounter.
func stressQuietCounter() StressOption { return func(c *stressConfig) { c.quietCounter = true } }

// Stress checks s under real concurrency; run it under `go test -race`.
//
// Goroutines (each a process with its own id) start together and make
// passages: acquire (sometimes TryAcquire first, for reader/writer locks
// mostly reads), a critical section that yields and does a little random
// work, release. Stress checks that
//   - the critical section never holds more than the lock allows: one, k
//     for WithK, a writer alone for reader/writer locks;
//   - for mutual exclusion, a plain (non-atomic) counter read at entry and
//     written back at exit ends at exactly the number of exclusive passages
//     (the race detector checks the same accesses);
//   - what the lock promises to share is shared: two readers of a
//     reader/writer lock, two holders of a k-exclusion lock, at once at
//     least once;
//   - on a fresh instance, TryAcquire succeeds, and on a full one it fails
//     (when the instance implements TryInstance);
//   - every goroutine finishes all its passages; a watchdog turns a hang
//     into a failure listing the goroutines that had not finished and all
//     goroutine stacks.
//
// Failures are reported through t.Errorf, once per run, naming the
// violated invariant, the goroutine and passage, the occupancy seen and the
// configuration; Stress then returns (it calls t.Fatalf only for a subject
// it cannot run). GOMAXPROCS is raised to 2 for the run if it is lower.
func Stress(t testing.TB, s Subject, opts ...StressOption) {
	t.Helper()
	if s.New == nil {
		t.Fatalf("verify.Stress: subject %q has no New function", s.Name)
	}
	cfg := stressConfig{timeout: DefaultStressTimeout, stall: DefaultStressStall}
	for _, o := range opts {
		o(&cfg)
	}
	if old := runtime.GOMAXPROCS(0); old < 2 {
		runtime.GOMAXPROCS(2)
		defer runtime.GOMAXPROCS(old)
	}
	procs := runtime.GOMAXPROCS(0)
	if cfg.goroutines <= 0 {
		cfg.goroutines = min(4*procs, maxDefaultGoroutines)
	}
	if s.Procs > 0 && cfg.goroutines > s.Procs {
		cfg.goroutines = s.Procs
	}
	cfg.goroutines = min(cfg.goroutines, maxPerProcess)
	byTime := cfg.passages <= 0
	if byTime {
		if cfg.duration <= 0 {
			cfg.duration = stressDuration()
		}
		cfg.passages = math.MaxInt
	}
	if cfg.timeout <= 0 {
		cfg.timeout = DefaultStressTimeout
	}
	if cfg.stall <= 0 || cfg.stall > cfg.timeout {
		cfg.stall = cfg.timeout
	}
	if !cfg.crashesSet {
		cfg.crashes = s.CrashTolerance
	}
	cfg.crashes = min(cfg.crashes, cfg.goroutines-1)
	if !cfg.seedSet {
		cfg.seed = uint64(time.Now().UnixNano())
	}

	r := &stressRun{s: s, cfg: cfg, k: int64(s.k()), byTime: byTime}
	r.rep = StressReport{
		Subject: s.String(), K: s.k(), Mode: s.Mode.Or(mode.Mutex),
		Goroutines: cfg.goroutines, PassagesPerGoroutine: cfg.passages,
		GOMAXPROCS: procs, Seed: cfg.seed, Race: raceEnabled(),
	}
	if byTime {
		r.rep.PassagesPerGoroutine, r.rep.Sized = 0, cfg.duration
	}
	begin := time.Now()
	r.run()
	r.rep.Duration = time.Since(begin)
	r.finishReport()
	if cfg.report != nil {
		*cfg.report = r.rep
	}
	if r.rep.Failed() {
		t.Errorf("%s", r.failureMessage()) // notes included
		return
	}
	for _, n := range r.notes {
		t.Logf("verify.Stress: %s: %s", s.Name, n)
	}
	t.Logf("stress %s", &r.rep)
}
