package verify

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
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
	stressTryEvery       = 4 // 1 in N exclusive passages starts with TryAcquire
	tryProcs             = 4 // processes whose TryAcquire the precheck tries on a free lock
	stressWriteEvery     = 4 // 1 in N passages of a reader/writer lock writes
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

// StressKind names the invariant a failure violated.
type StressKind string

const (
	// StressOccupancy: more holders in the critical section than the lock
	// allows (two for a mutex, k+1 for k-exclusion, two writers for a
	// reader/writer lock).
	StressOccupancy StressKind = "occupancy"
	// StressWriterShared: a writer and a reader were in at the same time.
	StressWriterShared StressKind = "writer-shared"
	// StressLostUpdate: the plain counter incremented inside the critical
	// section did not end at the number of exclusive passages.
	StressLostUpdate StressKind = "lost-update"
	// StressNoOverlap: a lock that promises sharing (readers, or k > 1
	// holders) never let two in at once.
	StressNoOverlap StressKind = "no-overlap"
	// StressHang: the watchdog fired; some goroutine did not finish.
	StressHang StressKind = "hang"
	// StressTryFresh: TryAcquire failed on a fresh instance, or on one
	// holding fewer than k holders, with no other process active.
	StressTryFresh StressKind = "try-fresh"
	// StressTryHeld: TryAcquire succeeded although the lock was full.
	StressTryHeld StressKind = "try-held"
	// StressPanic: the lock panicked.
	StressPanic StressKind = "panic"
)

// StressFailure is one violation seen by Stress.
type StressFailure struct {
	Kind StressKind
	// Goroutine is the worker index, which is also its process id; -1
	// when the failure is not one goroutine's.
	Goroutine int
	// Passage is the worker's passage number (from 0); -1 when none.
	Passage int
	Msg     string
}

func (f StressFailure) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: ", f.Kind)
	if f.Goroutine >= 0 {
		fmt.Fprintf(&b, "goroutine %d (process %d)", f.Goroutine, f.Goroutine)
		if f.Passage >= 0 {
			fmt.Fprintf(&b, ", passage %d", f.Passage)
		}
		b.WriteString(": ")
	}
	b.WriteString(f.Msg)
	return b.String()
}

// StressReport is what one Stress run saw.
type StressReport struct {
	Subject              string
	K                    int
	Mode                 mode.Mode
	Goroutines           int
	PassagesPerGoroutine int           // 0 when the run was sized by time
	Sized                time.Duration // the run's length when sized by time
	GOMAXPROCS           int
	Seed                 uint64
	// Race is set when the binary runs under the race detector, which
	// then also checks the critical section's plain counter.
	Race bool

	// Passages is the number of completed passages, Reads of them read
	// passages (reader/writer locks only).
	Passages int64
	Reads    int64
	// TryAttempts and TrySuccesses count TryAcquire calls in the run and
	// how many succeeded; Tryable is false when the lock has none.
	Tryable      bool
	TryAttempts  int64
	TrySuccesses int64
	// MaxOccupancy is the most holders (readers and writers) seen in the
	// critical section at once; MaxReaders the most readers.
	MaxOccupancy int
	MaxReaders   int
	// Crashed is how many goroutines crashed inside the critical section
	// (StressCrashes), holding the lock to the end.
	Crashed  int
	Duration time.Duration
	// OutOfTime is set when the time budget ran out while passages still
	// completed: the goroutines stopped early, each after a whole passage.
	OutOfTime bool

	// Failures lists the violations (at most 16 kept; Dropped counts the
	// rest). Stacks holds all goroutine stacks when the watchdog fired.
	Failures []StressFailure
	Dropped  int
	Stacks   string
}

// Failed reports whether the run found a violation.
func (r *StressReport) Failed() bool { return len(r.Failures) > 0 }

// Has reports whether the run found a violation of kind k.
func (r *StressReport) Has(k StressKind) bool {
	for _, f := range r.Failures {
		if f.Kind == k {
			return true
		}
	}
	return false
}

// Config describes the run's configuration in one line.
func (r *StressReport) Config() string {
	inv := r.Mode.Invariant(r.K)
	if r.Mode.Readers() {
		inv += fmt.Sprintf(", 1 in %d passages writes", stressWriteEvery)
	}
	try := "no TryAcquire"
	if r.Tryable {
		try = fmt.Sprintf("TryAcquire on 1 in %d passages", stressTryEvery)
	}
	race := "race detector off"
	if r.Race {
		race = "race detector on"
	}
	size := fmt.Sprintf("%d goroutines × %d passages", r.Goroutines, r.PassagesPerGoroutine)
	if r.PassagesPerGoroutine == 0 {
		size = fmt.Sprintf("%d goroutines for %v", r.Goroutines, r.Sized)
	}
	return fmt.Sprintf("%s; %s; %s; GOMAXPROCS %d; %s; %s; seed %d",
		r.Subject, inv, size, r.GOMAXPROCS, try, race, r.Seed)
}

// String summarises what the run saw in one line.
func (r *StressReport) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d passages", r.Subject, r.Passages)
	if r.Mode.Readers() {
		fmt.Fprintf(&b, " (%d reads)", r.Reads)
	}
	fmt.Fprintf(&b, " by %d goroutines on %d Ps in %v; max occupancy %d",
		r.Goroutines, r.GOMAXPROCS, r.Duration.Round(time.Millisecond), r.MaxOccupancy)
	if r.Mode.Readers() {
		fmt.Fprintf(&b, ", max readers %d", r.MaxReaders)
	}
	if r.Tryable {
		fmt.Fprintf(&b, "; TryAcquire %d/%d succeeded", r.TrySuccesses, r.TryAttempts)
	}
	if r.Crashed > 0 {
		fmt.Fprintf(&b, "; %d crashed holding the lock", r.Crashed)
	}
	if r.OutOfTime {
		b.WriteString("; stopped early at the time budget")
	}
	if n := len(r.Failures) + r.Dropped; n > 0 {
		fmt.Fprintf(&b, "; %d failure(s)", n)
	} else {
		b.WriteString("; ok")
	}
	return b.String()
}

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

// worker states, shown when the watchdog fires.
const (
	stStarting int32 = iota
	stBarrier
	stAcquire
	stTryAcquire
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
	sink    uint64 // local busy work; keeps the compiler honest
}

type stressRun struct {
	s   Subject
	cfg stressConfig
	k   int64

	inst Instance
	try  TryInstance // nil when the lock has no TryAcquire
	rw   RWInstance  // nil unless s.Mode.Readers()

	occ, readers, writers atomic.Int64
	crashed               atomic.Int64 // goroutines that crashed holding the lock
	maxOcc, maxReaders    atomic.Int64
	progress              atomic.Int64
	stop                  atomic.Bool // a failure or the watchdog ended the run
	outOfTime             atomic.Bool // the time budget ran out: no new passages
	byTime                bool        // the run is sized by time (cfg.duration)
	enough                atomic.Bool // byTime: the run's duration is over

	// overlapTarget is how many holders the overlap phase waits for (0:
	// no overlap phase); overlapSeen is set once it was reached.
	overlapTarget int64
	overlapSeen   atomic.Bool

	plain int64        // the lost-update counter (non-atomic on purpose)
	quiet atomic.Int64 // its race-silent twin, see stressQuietCounter

	workers  []*stressWorker
	finished bool // all workers returned (so plain may be read)

	tryable atomic.Bool // set by precheck

	mu     sync.Mutex
	frozen bool // set when the watchdog gave up: stuck goroutines record nothing more
	rep    StressReport
	notes  []string
}

// freeze stops goroutines that the watchdog left behind from touching the
// report, which the caller's goroutine reads from now on.
func (r *stressRun) freeze() {
	r.stop.Store(true)
	r.mu.Lock()
	r.frozen = true
	r.mu.Unlock()
}

func (r *stressRun) fail(kind StressKind, g, passage int, format string, args ...any) {
	r.stop.Store(true)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.frozen {
		return
	}
	if len(r.rep.Failures) >= maxFailuresKept {
		r.rep.Dropped++
		return
	}
	r.rep.Failures = append(r.rep.Failures, StressFailure{
		Kind: kind, Goroutine: g, Passage: passage, Msg: fmt.Sprintf(format, args...),
	})
}

func (r *stressRun) failed() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.rep.Failures) > 0
}

func (r *stressRun) note(format string, args ...any) {
	r.notes = append(r.notes, fmt.Sprintf(format, args...))
}

func (r *stressRun) run() {
	ok := r.precheck()
	r.rep.Tryable = r.tryable.Load()
	if !ok {
		return
	}
	r.inst = r.s.New()
	if r.rep.Tryable {
		r.try, _ = r.inst.(TryInstance)
	}
	if r.s.Mode.Readers() {
		rw, ok := r.inst.(RWInstance)
		if !ok {
			r.fail(StressPanic, -1, -1, "subject is marked RW but its instance %T is not an RWInstance", r.inst)
			return
		}
		r.rw = rw
	}
	g := r.cfg.goroutines
	switch {
	case g < 2:
		r.note("overlap not checked: only %d goroutine", g)
	case r.s.Mode.Readers():
		r.overlapTarget = 2
	case r.k > 1:
		r.overlapTarget = min(r.k, int64(g))
	}

	r.workers = make([]*stressWorker, g)
	var ready, wg sync.WaitGroup
	start := make(chan struct{})
	ready.Add(g)
	wg.Add(g)
	for i := range r.workers {
		w := &stressWorker{idx: i, rng: rand.New(rand.NewPCG(r.cfg.seed, uint64(i)))}
		r.workers[i] = w
		go r.worker(w, start, &ready, &wg)
	}
	ready.Wait()
	close(start)
	if r.byTime {
		t := time.AfterFunc(r.cfg.duration, func() { r.enough.Store(true) })
		defer t.Stop()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	why, outcome := r.watch(done, r.cfg.timeout)
	if outcome == watchTimedOut {
		// Out of time but still live: drain. Every goroutine finishes the
		// passage it is in (a starved one gets in once the others stop
		// competing), within the stall time.
		r.outOfTime.Store(true)
		r.rep.OutOfTime = true
		passages := r.progress.Load()
		why, outcome = r.watch(done, r.cfg.stall)
		if outcome == watchDone {
			r.note("time budget of %v ran out after %d passages; every goroutine then finished its current passage and stopped",
				r.cfg.timeout, passages)
		}
	}
	if outcome != watchDone {
		r.hang(why)
		return
	}
	r.finished = true
}

// precheck checks TryAcquire on a fresh instance (succeeds) and on a full
// one (fails), under the watchdog. It reports whether to go on.
func (r *stressRun) precheck() bool {
	done := make(chan struct{})
	var step atomic.Value
	step.Store("making a fresh instance")
	go func() {
		defer close(done)
		defer func() {
			if v := recover(); v != nil {
				r.fail(StressPanic, -1, -1, "panic while %s: %v\n%s", step.Load(), v, debug.Stack())
			}
		}()
		inst := r.s.New()
		try, _ := inst.(TryInstance)
		if try == nil {
			return
		}
		r.tryable.Store(true)
		// tryFree: a TryAcquire(p) on a free lock (in the state described)
		// must succeed; it is then released.
		tryFree := func(p int, state string) bool {
			step.Store(fmt.Sprintf("calling TryAcquire(%d) on %s", p, state))
			if !try.TryAcquire(p) {
				r.fail(StressTryFresh, p, -1, "TryAcquire(%d) returned false on %s", p, state)
				return false
			}
			step.Store(fmt.Sprintf("calling Release(%d) after a successful TryAcquire(%d)", p, p))
			try.Release(p)
			return true
		}
		if !tryFree(0, "a fresh, uncontended instance") {
			return
		}
		// Fill the lock: process 0 with Acquire, the others (k > 1) with
		// TryAcquire, which must succeed while the lock is not full; then
		// one more TryAcquire, which must fail.
		k := int(r.k)
		n := k + 1 // processes used
		if r.s.Procs > 0 && r.s.Procs < n {
			n = r.s.Procs
		}
		step.Store("calling Acquire(0) on a fresh instance")
		try.Acquire(0)
		held := 1
		defer func() {
			for p := held - 1; p >= 0; p-- {
				step.Store(fmt.Sprintf("calling Release(%d)", p))
				try.Release(p)
			}
			if r.failed() {
				return
			}
			// Free again after use: a TryAcquire that works only on a
			// never-used lock (stale state) is as wrong as one that never
			// works.
			if !tryFree(0, "an uncontended lock every process had released") {
				return
			}
			// Every process, not only the last holder: a try whose early
			// test depends on who held the lock last (a turn register)
			// must still succeed on a free lock.
			m := tryProcs
			if r.s.Procs > 0 {
				m = min(m, r.s.Procs)
			}
			for p := 1; p < m; p++ {
				step.Store(fmt.Sprintf("calling Acquire(%d), Release(%d)", p-1, p-1))
				try.Acquire(p - 1)
				try.Release(p - 1)
				if !tryFree(p, fmt.Sprintf("an uncontended lock that process %d had just released", p-1)) {
					return
				}
			}
		}()
		for ; held < k && held < n; held++ {
			step.Store(fmt.Sprintf("calling TryAcquire(%d) with %d holder(s) in a lock that allows %d", held, held, k))
			if !try.TryAcquire(held) {
				r.fail(StressTryFresh, held, -1,
					"TryAcquire(%d) returned false with only %d holder(s) in a lock that allows %d and no other process active",
					held, held, k)
				return
			}
		}
		if held < n {
			step.Store(fmt.Sprintf("calling TryAcquire(%d) on a full lock", k))
			if try.TryAcquire(k) {
				r.fail(StressTryHeld, k, -1,
					"TryAcquire(%d) succeeded while %d process(es) held a lock that allows %d", k, k, k)
				held++ // release it too
			}
		}
	}()
	if why, outcome := r.watch(done, r.cfg.stall); outcome != watchDone {
		r.fail(StressHang, -1, -1, "fresh-instance check stuck %s: %s", step.Load(), why)
		r.freeze()
		r.rep.Stacks = allStacks()
		return false
	}
	// A failed check ends the run here: the lock is already known wrong.
	if r.failed() {
		r.note("the concurrent run was skipped: the fresh-instance check failed")
		return false
	}
	return true
}

// watchOutcome is how a watch ended.
type watchOutcome int

const (
	watchDone     watchOutcome = iota // done was closed
	watchStalled                      // no passage completed for the stall time
	watchTimedOut                     // the limit passed while passages still completed
)

// watch waits for done. It returns, with the reason when not done, how the
// wait ended: done, no passage completing for the stall time, or limit
// exceeded.
func (r *stressRun) watch(done <-chan struct{}, limit time.Duration) (string, watchOutcome) {
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	tick := time.NewTicker(max(r.cfg.stall/8, time.Millisecond))
	defer tick.Stop()
	last, lastChange := r.progress.Load(), time.Now()
	for {
		select {
		case <-done:
			return "", watchDone
		case <-deadline.C:
			return fmt.Sprintf("not done after %v", limit), watchTimedOut
		case now := <-tick.C:
			if p := r.progress.Load(); p != last {
				last, lastChange = p, now
			} else if now.Sub(lastChange) >= r.cfg.stall {
				return fmt.Sprintf("no passage completed for %v", r.cfg.stall), watchStalled
			}
		}
	}
}

// hang reports the goroutines that had not finished, with all stacks.
func (r *stressRun) hang(why string) {
	already := r.failed()
	var b strings.Builder
	stuck := 0
	for _, w := range r.workers {
		st := w.state.Load()
		if st == stDone {
			continue
		}
		stuck++
		fmt.Fprintf(&b, "\n    goroutine %d (process %d, runtime goroutine %d): %d passages, %s",
			w.idx, w.idx, w.gid.Load(), w.done.Load(), stateNames[st])
	}
	if already {
		// An earlier violation stopped the run; goroutines stuck behind
		// it are a consequence, not the finding.
		r.freeze()
		r.note("after the failure, %d goroutine(s) did not finish (%s):%s", stuck, why, b.String())
		return
	}
	if c := r.crashed.Load(); c > 0 {
		fmt.Fprintf(&b, "\n    (%d more crashed holding the lock, as StressCrashes asked)", c)
	}
	r.fail(StressHang, -1, -1, "watchdog: %s; %d of %d goroutines had not finished:%s",
		why, stuck, len(r.workers), b.String())
	r.freeze()
	r.rep.Stacks = allStacks()
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

func (r *stressRun) finishReport() {
	rep := &r.rep
	var excl int64
	for _, w := range r.workers {
		rep.Passages += w.done.Load()
		rep.Reads += w.reads.Load()
		rep.TryAttempts += w.tries.Load()
		rep.TrySuccesses += w.tryOK.Load()
		excl += w.excl.Load()
	}
	rep.MaxOccupancy = int(r.maxOcc.Load())
	rep.Crashed = int(r.crashed.Load())
	rep.MaxReaders = int(r.maxReaders.Load())
	if !r.finished {
		return
	}
	if r.k == 1 {
		// All workers returned: wg.Wait ordered their writes before this.
		if got := r.readCounter(); got != excl {
			r.fail(StressLostUpdate, -1, -1,
				"the counter incremented inside the critical section ended at %d after %d exclusive passages (%d update(s) lost)",
				got, excl, excl-got)
		}
	}
	if r.overlapTarget >= 2 && !r.stop.Load() {
		if r.s.Mode.Readers() && rep.MaxReaders < 2 {
			r.fail(StressNoOverlap, -1, -1,
				"readers never overlapped: at most %d reader in the critical section over %d read passages, although the first %d read passages of each goroutine waited for a second reader",
				rep.MaxReaders, rep.Reads, overlapAttempts)
		}
		if !r.s.Mode.Readers() && rep.MaxOccupancy < 2 {
			r.fail(StressNoOverlap, -1, -1,
				"holders never overlapped: at most %d in the critical section of a %d-exclusion lock over %d passages",
				rep.MaxOccupancy, r.k, rep.Passages)
		}
		if !r.s.Mode.Readers() && int64(rep.MaxOccupancy) < r.overlapTarget {
			r.note("at most %d holders were seen at once; the lock allows %d", rep.MaxOccupancy, r.k)
		}
	}
	if !r.stop.Load() && !r.outOfTime.Load() && !r.byTime {
		for _, w := range r.workers {
			if d := w.done.Load(); int(d) != r.cfg.passages && !w.crashed {
				r.fail(StressHang, w.idx, int(d), "goroutine returned after %d of %d passages", d, r.cfg.passages)
			}
		}
	}
}

func (r *stressRun) failureMessage() string {
	rep := &r.rep
	var b strings.Builder
	// The first line says what was violated, by whom, and how to run it
	// again.
	first := rep.Failures[0]
	head, _, _ := strings.Cut(first.String(), "\n")
	fmt.Fprintf(&b, "verify.Stress: %s: %s", r.s.Name, head)
	if n := len(rep.Failures) + rep.Dropped; n > 1 {
		fmt.Fprintf(&b, " (and %d more)", n-1)
	}
	fmt.Fprintf(&b, "; re-run with verify.StressSeed(%d) (same choices; the interleaving is the Go scheduler's: verify.Explore replays)", rep.Seed)
	for _, f := range rep.Failures {
		b.WriteString("\n  ")
		b.WriteString(strings.ReplaceAll(f.String(), "\n", "\n    "))
	}
	if rep.Dropped > 0 {
		fmt.Fprintf(&b, "\n  (and %d more)", rep.Dropped)
	}
	fmt.Fprintf(&b, "\n  configuration: %s", rep.Config())
	fmt.Fprintf(&b, "\n  seen: %s", rep.String())
	for _, n := range r.notes {
		fmt.Fprintf(&b, "\n  note: %s", n)
	}
	if rep.Stacks != "" {
		b.WriteString("\n  all goroutine stacks:\n")
		b.WriteString(rep.Stacks)
	}
	return b.String()
}

// allStacks returns the stacks of all goroutines.
func allStacks() string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) || len(buf) >= 64<<20 {
			return string(buf[:n])
		}
		buf = make([]byte, 2*len(buf))
	}
}

// raceEnabled reports whether the binary was built with -race.
var raceEnabled = sync.OnceValue(func() bool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range bi.Settings {
		if s.Key == "-race" {
			return s.Value == "true"
		}
	}
	return false
})

// goid returns the runtime's id of the calling goroutine, parsed from the
// first line of its stack ("goroutine 42 [running]:").
func goid() int64 {
	var buf [64]byte
	s := buf[:runtime.Stack(buf[:], false)]
	s = s[len("goroutine "):]
	var id int64
	for _, c := range s {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + int64(c-'0')
	}
	return id
}
