package verify

import (
	"testing"
	"time"

	"github.com/lockgen/lockgen/verify/sched"
)

// Explore defaults. With them one call on a small lock (Peterson, a ticket
// lock, MCS) stays under about 2 s on a 2-core machine, with or without the
// race detector: the runs are capped by DefaultExploreBudget.
const (
	DefaultExploreGoroutines = 3     // random and PCT (capped by Subject.Procs; k-exclusion: see kSize)
	DefaultExplorePassages   = 3     // per goroutine, random, PCT and crash (k-exclusion: see kSize)
	DefaultExploreRandomRuns = 2000  // random executions
	DefaultExplorePCTRuns    = 2000  // PCT executions
	DefaultExplorePCTDepth   = 4     // PCT bug depth d
	DefaultExploreDFSBound   = 2     // preemptions
	DefaultExploreDFSSize    = 2     // goroutines and passages of the DFS configuration
	DefaultExploreDFSLimit   = 50000 // schedules
	DefaultExploreMaxSteps   = sched.DefaultMaxSteps
	DefaultExploreBudget     = 2 * time.Second
	DefaultExploreTraceTail  = 60 // events shown before a violation
)

// The failures the Explore harness detects (the scheduler adds deadlock,
// no progress, panic, stall).
const (
	ExploreMutualExclusion sched.FailKind = "mutual exclusion"
	ExploreFIFO            sched.FailKind = "FIFO"
	ExploreBoundedWaiting  sched.FailKind = "bounded waiting"
	ExploreWriterPriority  sched.FailKind = "writer priority"
	ExploreFIFE            sched.FailKind = "FIFE"
	ExploreNotInstrumented sched.FailKind = "not instrumented"
	// ExploreAbort: an AcquireContext gave up although its context was not
	// cancelled, or returned something other than ctx.Err().
	ExploreAbort sched.FailKind = "abort"
	// ExploreNoOverlap: a reader/writer or k-exclusion lock never let two
	// holders share the critical section in any execution explored.
	ExploreNoOverlap sched.FailKind = "no overlap"
)

// minOverlapExecutions is how many executions Explore needs before it
// concludes that a lock which should share never does.
const minOverlapExecutions = 50

// ExploreOption configures Explore.
type ExploreOption func(*exploreConfig)

type exploreConfig struct {
	goroutines, passages int
	shortPassages        int // the random and crash phases' passages, k-exclusion's (0: passages)
	randomRuns           int
	pctRuns, pctDepth    int
	dfsBound             int
	dfsG, dfsP           int
	dfsLimit             int
	dfsFull              bool // no partial-order reduction
	seed                 uint64
	seedSet              bool
	maxSteps             int
	budget               time.Duration
	stall                time.Duration
	replay               string
	tail                 int
	report               *ExploreReport
	crashes, crashRuns   int
	crashesSet           bool
}

// ExploreGoroutines sets the goroutines of the random and PCT executions
// (default 3, k + 2 for k-exclusion); each is a process with its own id.
// Capped by Subject.Procs.
func ExploreGoroutines(n int) ExploreOption { return func(c *exploreConfig) { c.goroutines = n } }

// ExplorePassages sets the passages (acquire, critical section, release) of
// each goroutine in the random, PCT and crash executions (default 3). The
// random and crash executions of a k-exclusion lock run at most
// kShortPassages of them whatever n is (see kSize).
func ExplorePassages(n int) ExploreOption {
	return func(c *exploreConfig) { c.passages = n }
}

// ExploreRandom sets the number of random executions (default 2000; 0
// turns the strategy off).
func ExploreRandom(runs int) ExploreOption { return func(c *exploreConfig) { c.randomRuns = runs } }

// ExplorePCT sets the number of PCT executions and the bug depth d they
// target (defaults 2000 and 3; runs 0 turns the strategy off).
func ExplorePCT(runs, depth int) ExploreOption {
	return func(c *exploreConfig) { c.pctRuns, c.pctDepth = runs, depth }
}

// ExploreDFS sets the preemption bound of the exhaustive search (default
// 2; negative turns it off).
func ExploreDFS(preemptions int) ExploreOption {
	return func(c *exploreConfig) { c.dfsBound = preemptions }
}

// ExploreDFSSize sets the configuration of the exhaustive search: its
// goroutines and their passages (default 2 and 2; k + 1 and 1 for a
// k-exclusion lock, see kDFSSize). Keep it tiny: the number of schedules
// grows quickly with both.
func ExploreDFSSize(goroutines, passages int) ExploreOption {
	return func(c *exploreConfig) { c.dfsG, c.dfsP = goroutines, passages }
}

// ExploreDFSReduce turns the exhaustive search's partial-order reduction
// on (the default) or off (sched.DFS.Reduce): with it the search skips
// schedules that only reorder independent steps of one it runs, and
// reaches every other schedule within the bound or one equivalent to it.
func ExploreDFSReduce(on bool) ExploreOption {
	return func(c *exploreConfig) { c.dfsFull = !on }
}

// ExploreDFSLimit caps the schedules the exhaustive search runs (default
// 50000); the report says whether the space was exhausted.
func ExploreDFSLimit(schedules int) ExploreOption {
	return func(c *exploreConfig) { c.dfsLimit = schedules }
}

// ExploreSeed fixes the seed of the random and PCT executions (default:
// from the clock; the report and every failure show it).
func ExploreSeed(seed uint64) ExploreOption {
	return func(c *exploreConfig) { c.seed, c.seedSet = seed, true }
}

// ExploreMaxSteps bounds the scheduling steps of one execution (default
// 10000, more for a lock of many processes: defaultMaxSteps); reaching it
// is a "no progress" failure (livelock, starvation).
func ExploreMaxSteps(n int) ExploreOption { return func(c *exploreConfig) { c.maxSteps = n } }

// ExploreBudget bounds the wall time of the whole call (default 2 s),
// shared by the strategies (random 1/4, PCT 1/4, DFS 1/2, what one leaves
// goes to the next). 0 or negative removes the bound.
func ExploreBudget(d time.Duration) ExploreOption { return func(c *exploreConfig) { c.budget = d } }

// ExploreStall sets how long a goroutine may run without reaching a
// scheduling point before the execution fails as a stall (default 5 s).
func ExploreStall(d time.Duration) ExploreOption { return func(c *exploreConfig) { c.stall = d } }

// ExploreReplay runs only the execution a failure's token describes, with
// the same interleaving, and reports it the same way.
func ExploreReplay(token string) ExploreOption { return func(c *exploreConfig) { c.replay = token } }

// ExploreTraceTail sets how many events before a violation a failure shows
// (default 60; 0 shows all). The report always holds the whole trace.
func ExploreTraceTail(n int) ExploreOption { return func(c *exploreConfig) { c.tail = n } }

// ExploreReportTo makes Explore fill r with what it did.
func ExploreReportTo(r *ExploreReport) ExploreOption { return func(c *exploreConfig) { c.report = r } }

// defaultMaxSteps is the step bound for a lock of procs processes. A
// passage of the filter or bakery lock reads every process's registers,
// level by level: its steps grow with procs² even when only a few
// goroutines run, so beyond 8 processes the bound grows the same way.
func defaultMaxSteps(procs int) int {
	if procs <= 8 {
		return DefaultExploreMaxSteps
	}
	return DefaultExploreMaxSteps * (procs * procs) / 64
}

// Explore checks s under the controlled scheduler (verify/sched). The lock
// must be built with its instrumented registers: for a generated package,
// run the test with -tags lockgen_check, e.g.
//
//	//go:build lockgen_check
//
//	func TestExplore(t *testing.T) {
//		verify.Explore(t, verify.IDLocker("Peterson", 2, func() verify.IDLock { return new(Peterson) }).WithFIFO())
//	}
//
// Each execution makes a fresh instance (s.New) and runs managed goroutines,
// one at a time; goroutine i is process i and makes its passages: Acquire,
// the critical section (a scheduling point inside), Release. For a
// reader/writer subject, passage j of goroutine i reads when i+j is odd and
// writes otherwise. Every register access and every failed await is a
// scheduling point; the strategies decide who runs:
//   - random: a uniform choice at every point (seeded);
//   - PCT: probabilistic concurrency testing with bug depth d;
//   - DFS: every schedule with at most P preemptions, for a tiny
//     configuration (by default 2 goroutines × 2 passages; k + 1
//     goroutines × 1 passage for k-exclusion), bound 0 first, then 1, ...
//     (iterative context bounding), so that a search cut short by the
//     budget still covers every schedule of a smaller bound.
//
// A switch at a failed await, at the yield inside the critical section or
// at a Delay costs no preemption. When a goroutine begins an Acquire is a
// scheduling point only for a FIFO or writer-priority subject (elsewhere
// it would repeat the Acquire's first access).
//
// At every step it checks mutual exclusion (at most s.K holders; for a
// reader/writer lock a writer is alone and readers may share), deadlock (an
// await blocks its goroutine until another one writes what it read, so
// everyone waiting is detected), a bound on the steps of an execution
// (livelock, starvation), panics, if s.FIFO that a process which
// finished its doorway before another began its Acquire enters first, if
// s.BoundedWaiting that no process is overtaken more than s.Overtakes
// times between its doorway and its entry, and if s.WriterPriority that no
// reader that began after a writer's doorway enters before that writer.
//
// For a subject whose instances have AcquireContext (a lock with
// LockContext), every passage of a goroutine but its last calls it with a
// context the scheduler may cancel while the goroutine waits (a choice of
// its own, in the replay token); an error must be ctx.Err() after a
// cancellation, a process that gives up leaves the FIFO order and the
// bounds counted from its doorway, and the last passages, which may not
// give up, turn a lock lost to a give-up into a deadlock.
//
// The first failing execution is reported through t.Errorf with the
// strategy, a replay token (ExploreReplay) and the interleaving as numbered
// events "goroutine [label] op register value" (registers r1, r2, ... and
// references n1, n2, ... numbered by first appearance), trimmed to its tail;
// Explore then returns. An execution that completes a passage without any
// instrumented access fails as "not instrumented". Explore calls t.Fatalf
// only for a subject or token it cannot run. Running out of budget is not a
// failure: the report (ExploreReportTo, and the t.Logf summary) says how far
// each strategy got.
func Explore(t testing.TB, s Subject, opts ...ExploreOption) {
	t.Helper()
	cfg := exploreConfig{
		goroutines: DefaultExploreGoroutines, passages: DefaultExplorePassages,
		randomRuns: DefaultExploreRandomRuns,
		pctRuns:    DefaultExplorePCTRuns, pctDepth: DefaultExplorePCTDepth,
		dfsBound: DefaultExploreDFSBound, dfsG: DefaultExploreDFSSize, dfsP: DefaultExploreDFSSize,
		dfsLimit: DefaultExploreDFSLimit, maxSteps: defaultMaxSteps(s.Procs),
		budget: DefaultExploreBudget, tail: DefaultExploreTraceTail,
		crashRuns: DefaultExploreCrashRuns,
	}
	kexcl := s.k() > 1 && !s.Mode.Readers()
	if kexcl {
		cfg.goroutines, cfg.passages = kSize(s.k())
		cfg.dfsG, cfg.dfsP = kDFSSize(s.k())
	}
	for _, o := range opts {
		o(&cfg)
	}
	if kexcl {
		cfg.shortPassages = min(cfg.passages, kShortPassages)
	}
	if s.New == nil {
		t.Fatalf("verify.Explore: subject %q has no New function", s.Name)
	}
	if !cfg.seedSet {
		cfg.seed = uint64(time.Now().UnixNano())
	}
	rep := &ExploreReport{Subject: s.String(), Seed: cfg.seed}
	if cfg.report != nil {
		*cfg.report = ExploreReport{}
		defer func() { *cfg.report = *rep }()
	}
	e := &explorer{t: t, s: s, cfg: cfg, rep: rep}
	start := time.Now()
	defer func() { rep.Elapsed = time.Since(start) }()

	if cfg.replay != "" {
		e.replay(cfg.replay)
		return
	}
	if compareMode() {
		e.dfsCompare()
		return
	}
	deadline := time.Time{}
	if cfg.budget > 0 {
		deadline = start.Add(cfg.budget)
	}
	type phase struct {
		weight int
		run    func(deadline time.Time) bool
	}
	var phases []phase
	if cfg.randomRuns > 0 {
		phases = append(phases, phase{1, e.random})
	}
	if cfg.pctRuns > 0 {
		phases = append(phases, phase{1, e.pct})
	}
	if cfg.dfsBound >= 0 && cfg.dfsLimit > 0 {
		phases = append(phases, phase{2, e.dfs})
	}
	if e.crashes() > 0 && cfg.crashRuns > 0 {
		phases = append(phases, phase{1, e.crash})
	}
	for i, ph := range phases {
		end := deadline
		if !deadline.IsZero() {
			rest := 0
			for _, q := range phases[i:] {
				rest += q.weight
			}
			end = time.Now().Add(time.Until(deadline) * time.Duration(ph.weight) / time.Duration(rest))
		}
		if !ph.run(end) {
			break
		}
	}
	rep.Elapsed = time.Since(start)
	e.checkOverlap()
	t.Logf("explore %s", rep)
}

// explorer runs the phases of one Explore call.
type explorer struct {
	t      testing.TB
	s      Subject
	cfg    exploreConfig
	rep    *ExploreReport
	kSteps int        // the most steps an execution took so far (PCT's k)
	shared bool       // the last execution shared the critical section
	plan   *crashPlan // the crashes of the next execution, nil for none
}

// kSize is the default size of the random, PCT and crash executions of a
// k-exclusion lock: k + 2 goroutines (a violation needs k + 1 inside at
// once, and the mutex's counterexamples need one process more than those
// inside, for instance to overtake a waiter; with 3 goroutines, Zehavi's
// algorithm at k = 2 hid wrong mutants that the mutex variant's 3
// goroutines catch at k = 1). PCT runs the usual 3 passages, which FIFE's
// violations need (with 2, Zehavi without line 12 passed 15 s of
// exploration, backend/golang TestFIFECheckBites). The random and crash
// executions run 2: the crash phase then found three wrong Zehavi mutants
// of line 7 within 200 executions each, which it missed in every run with
// 3 (lab/mutation's Zehavi notes), and ExplorePassages, which asks for
// more passages to search deeper, leaves them at 2 (kShortPassages).
func kSize(k int) (goroutines, passages int) {
	return k + 2, DefaultExplorePassages
}

// kDFSSize is the default configuration of a k-exclusion lock's
// exhaustive search: k + 1 goroutines of one passage each, the smallest in
// which k + 1 can be inside at once. With 2 goroutines the search could
// only find deadlocks: it killed none of Zehavi's k = 2 mutants in the
// mutation run of 2026-11-26, while 3 × 1 finds the one that skips
// process 0 at line 7 with one preemption (schedule 12,955; the
// mutation run's explore-deep, docs/mutation.md).
func kDFSSize(k int) (goroutines, passages int) {
	return k + 1, 1
}

// kShortPassages caps the passages of a k-exclusion lock's random and crash
// executions (kSize).
const kShortPassages = 2

// short is the passages of the random and crash executions.
func (c *exploreConfig) short() int {
	if c.shortPassages > 0 {
		return c.shortPassages
	}
	return c.passages
}

// size caps a goroutine count by the subject's processes.
func (e *explorer) size(g int) int {
	g = max(g, 1)
	if e.s.Procs > 0 {
		g = min(g, e.s.Procs)
	}
	return min(g, sched.MaxGoroutines)
}
