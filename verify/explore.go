package verify

import (
	"fmt"
	"strconv"
	"strings"
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

// ExploreReport is what one Explore call did.
type ExploreReport struct {
	Subject string
	Seed    uint64
	Phases  []ExplorePhase
	// Totals over the phases.
	Executions int
	Steps      int64
	Elapsed    time.Duration
	// Exhausted: the exhaustive search ran every schedule within its
	// preemption bound (for its configuration).
	Exhausted bool
	// Shared counts the executions in which the critical section was
	// shared: two readers at once, or two holders of a k-exclusion lock.
	// A reader/writer lock whose count stays 0 never lets readers overlap.
	Shared int
	// Failure is the first failing execution, nil if none.
	Failure *ExploreFailure
}

// ExplorePhase is one strategy's share of an Explore call.
type ExplorePhase struct {
	Strategy   string // "random", "pct(d=3)", "dfs(P=2)", "replay"
	Goroutines int
	Passages   int
	Executions int
	Steps      int64
	Elapsed    time.Duration
	Exhausted  bool   // dfs: every schedule within the bound was run
	Bound      int    // dfs: the largest preemption bound whose schedules were all run (-1: none)
	Stopped    string // why it ended early: "budget", "limit", "failure"; "" if it ran to the end
	Crashes    int    // crash phase: goroutines that crashed, over its executions
}

// ExploreFailure describes a failing execution.
type ExploreFailure struct {
	Kind     sched.FailKind
	Message  string
	Strategy string // with the execution's number within its phase
	Token    string // ExploreReplay(Token) replays the execution
	Trace    string // the whole interleaving, numbered
	Events   int    // events before the failure
}

// String summarises the report in one line.
func (r *ExploreReport) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d executions, %d steps in %v", r.Subject, r.Executions, r.Steps,
		r.Elapsed.Round(time.Millisecond))
	if s := r.Elapsed.Seconds(); s > 0 {
		fmt.Fprintf(&b, " (%.0f executions/s, %.0f steps/s)", float64(r.Executions)/s, float64(r.Steps)/s)
	}
	b.WriteString(";")
	for _, p := range r.Phases {
		fmt.Fprintf(&b, " %s %dx%d: %d", p.Strategy, p.Goroutines, p.Passages, p.Executions)
		if p.Crashes > 0 {
			fmt.Fprintf(&b, " (%d crashed)", p.Crashes)
		}
		switch {
		case p.Exhausted:
			b.WriteString(" (exhausted)")
		case p.Stopped != "":
			fmt.Fprintf(&b, " (%s", p.Stopped)
			if p.Bound >= 0 {
				fmt.Fprintf(&b, "; exhausted P<=%d", p.Bound)
			}
			b.WriteString(")")
		}
		b.WriteString(";")
	}
	if r.Shared > 0 {
		fmt.Fprintf(&b, " shared in %d;", r.Shared)
	}
	fmt.Fprintf(&b, " seed %d; ", r.Seed)
	if r.Failure != nil {
		fmt.Fprintf(&b, "FAILED: %s", r.Failure.Kind)
	} else {
		b.WriteString("ok")
	}
	return b.String()
}

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

// checkOverlap fails a lock that promises to share the critical section
// (readers, k holders) and never did in any execution explored: its
// readers or holders exclude each other. (Stress checks the same with
// real goroutines.)
func (e *explorer) checkOverlap() {
	e.t.Helper()
	s, rep := e.s, e.rep
	if rep.Failure != nil || !(s.Mode.Readers() || s.k() > 1) || rep.Shared > 0 {
		return
	}
	if rep.Executions < minOverlapExecutions {
		e.t.Logf("verify.Explore %s: overlap not checked: %d executions, fewer than %d", s, rep.Executions, minOverlapExecutions)
		return
	}
	if !e.overlapWithAll() || rep.Shared > 0 {
		return
	}
	who := "readers"
	if !s.Mode.Readers() {
		who = fmt.Sprintf("holders of a %d-exclusion lock", s.k())
	}
	msg := fmt.Sprintf("%s never shared the critical section in %d executions, although each execution's harness lets a holder wait inside for another; the lock excludes what it should let share", who, rep.Executions)
	rep.Failure = &ExploreFailure{Kind: ExploreNoOverlap, Message: msg, Strategy: "every strategy"}
	e.t.Errorf("verify.Explore %s: %s: %s", s, ExploreNoOverlap, msg)
}

// overlapAll bounds the extra phase of checkOverlap.
const (
	overlapAllRuns   = 500
	overlapAllBudget = time.Second
	overlapAllMax    = 8 // goroutines
)

// overlapWithAll gives a lock that did not share with the configured
// goroutine count a last chance with every process: some let k in
// together only when all n contend (the filter lock for k-exclusion has
// n - k levels, each holding back one of those present, so 3 of its 4
// processes get in one at a time). It runs random schedules with
// min(Procs, 8) goroutines; it returns false if one of them failed.
func (e *explorer) overlapWithAll() bool {
	e.t.Helper()
	all := min(e.s.Procs, overlapAllMax)
	if all <= e.size(e.cfg.goroutines) {
		return true
	}
	saved := e.cfg
	defer func() { e.cfg = saved }()
	e.cfg.goroutines, e.cfg.passages, e.cfg.shortPassages, e.cfg.randomRuns = all, 1, 0, overlapAllRuns
	return e.random(time.Now().Add(overlapAllBudget))
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

func (e *explorer) addPhase(p ExplorePhase) *ExplorePhase {
	e.rep.Phases = append(e.rep.Phases, p)
	return &e.rep.Phases[len(e.rep.Phases)-1]
}

// account adds an execution to a phase and the totals.
func (e *explorer) account(ph *ExplorePhase, res *sched.Result, start time.Time) {
	ph.Executions++
	ph.Steps += int64(res.Steps)
	if e.plan != nil { // only the crash phase's executions crash
		for i := range res.Events {
			if res.Events[i].Kind == sched.EvCrash {
				ph.Crashes++
			}
		}
	}
	ph.Elapsed = time.Since(start)
	e.rep.Executions++
	e.rep.Steps += int64(res.Steps)
	e.kSteps = max(e.kSteps, res.Steps)
	if e.shared {
		e.rep.Shared++
	}
}

// seeded runs the executions of a seeded strategy; it returns false if one
// failed.
func (e *explorer) seeded(name string, runs, passages int, salt uint64, deadline time.Time,
	choose func(seed uint64, g int) tokenChooser) bool {
	e.t.Helper()
	g, p := e.size(e.cfg.goroutines), max(passages, 1)
	ph := e.addPhase(ExplorePhase{Strategy: name, Goroutines: g, Passages: p, Bound: -1})
	start := time.Now()
	for i := 0; i < runs; i++ {
		if !deadline.IsZero() && time.Now().After(deadline) {
			ph.Stopped = "budget"
			break
		}
		c := choose(sched.Seed(e.cfg.seed^salt, i), g)
		res := e.run(c, g, p)
		e.account(ph, res, start)
		if res.Failure != nil || res.Accesses == 0 {
			ph.Stopped = "failure"
			e.report(res, fmt.Sprintf("%s, execution %d of %d", name, i+1, runs),
				e.token(g, p, c.Token()))
			return false
		}
	}
	return true
}

func (e *explorer) random(deadline time.Time) bool {
	e.t.Helper()
	return e.seeded("random", e.cfg.randomRuns, e.cfg.short(), 0x52414e44, deadline, func(seed uint64, _ int) tokenChooser {
		return sched.NewRandom(seed)
	})
}

func (e *explorer) pct(deadline time.Time) bool {
	e.t.Helper()
	d := max(e.cfg.pctDepth, 1)
	return e.seeded(fmt.Sprintf("pct(d=%d)", d), e.cfg.pctRuns, e.cfg.passages, 0x504354, deadline, func(seed uint64, g int) tokenChooser {
		return e.newPCT(seed, g, d)
	})
}

// tokenChooser is a chooser whose execution a replay token names.
type tokenChooser interface {
	sched.Chooser
	Token() string
}

// newPCT is a PCT chooser of depth d for one execution of g goroutines,
// its step count estimated from the executions run so far.
func (e *explorer) newPCT(seed uint64, g, d int) *sched.PCT {
	return sched.NewPCT(seed, g, d, max(e.kSteps, 16))
}

func (e *explorer) dfs(deadline time.Time) bool {
	e.t.Helper()
	g, p := e.size(e.cfg.dfsG), max(e.cfg.dfsP, 1)
	ph := e.addPhase(ExplorePhase{Strategy: fmt.Sprintf("dfs(P=%d)", e.cfg.dfsBound), Goroutines: g, Passages: p,
		Bound: -1})
	start := time.Now()
	// Iterative context bounding: exhaust 0 preemptions, then 1, ... up to
	// the bound, so that a run cut short by the budget still covers every
	// schedule of a smaller bound, and failures come with few preemptions.
	for b := 0; b <= e.cfg.dfsBound; b++ {
		d := sched.NewDFS(b)
		for d.Next() {
			if ph.Executions >= e.cfg.dfsLimit {
				ph.Stopped = "limit"
				return true
			}
			if !deadline.IsZero() && time.Now().After(deadline) {
				ph.Stopped = "budget"
				return true
			}
			res := e.run(d, g, p)
			e.account(ph, res, start)
			if res.Failure != nil || res.Accesses == 0 {
				ph.Stopped = "failure"
				e.report(res, fmt.Sprintf("dfs(P=%d), schedule %d", b, ph.Executions),
					e.token(g, p, sched.ChoicesToken(res.Choices)))
				return false
			}
		}
		ph.Bound = b
	}
	ph.Exhausted = true
	e.rep.Exhausted = true
	return true
}

// Tokens: "lg1/<goroutines>x<passages>/<max steps>/<chooser token>", the
// chooser's token preceded by "crash=M,SEED/" when goroutines crash
// ("crashcs=M,SEED/" when only inside the critical section,
// "crashhold=M,SEED/" when inside it on their first passage).

func (e *explorer) token(g, p int, chooser string) string {
	return fmt.Sprintf("lg1/%dx%d/%d/%s", g, p, e.cfg.maxSteps, chooser)
}

func parseExploreToken(tok string) (g, p, maxSteps int, c sched.Chooser, err error) {
	f := strings.SplitN(tok, "/", 4)
	if len(f) != 4 || f[0] != "lg1" {
		return 0, 0, 0, nil, fmt.Errorf("not an Explore token (want lg1/GxP/steps/strategy)")
	}
	gs, ps, ok := strings.Cut(f[1], "x")
	if !ok {
		return 0, 0, 0, nil, fmt.Errorf("bad size %q", f[1])
	}
	if g, err = strconv.Atoi(gs); err != nil || g < 1 || g > sched.MaxGoroutines {
		return 0, 0, 0, nil, fmt.Errorf("bad goroutines %q", gs)
	}
	if p, err = strconv.Atoi(ps); err != nil || p < 1 {
		return 0, 0, 0, nil, fmt.Errorf("bad passages %q", ps)
	}
	if maxSteps, err = strconv.Atoi(f[2]); err != nil || maxSteps < 1 {
		return 0, 0, 0, nil, fmt.Errorf("bad step bound %q", f[2])
	}
	c, err = sched.ParseToken(f[3])
	return g, p, maxSteps, c, err
}

// splitCrash separates a token's crash plan, if any, from the rest.
func splitCrash(tok string) (rest string, m int, seed uint64, where crashWhere, err error) {
	f := strings.SplitN(tok, "/", 5)
	if len(f) < 5 || !strings.HasPrefix(f[3], "crash") {
		return tok, 0, 0, 0, nil
	}
	m, seed, where, err = parseCrashToken(f[3])
	return strings.Join([]string{f[0], f[1], f[2], f[4]}, "/"), m, seed, where, err
}

func (e *explorer) replay(tok string) {
	e.t.Helper()
	rest, m, crashSeed, where, err := splitCrash(tok)
	if err != nil {
		e.t.Fatalf("verify.Explore: replay token %q: %v", tok, err)
	}
	g, p, maxSteps, c, err := parseExploreToken(rest)
	if err != nil {
		e.t.Fatalf("verify.Explore: replay token %q: %v", tok, err)
	}
	if m > 0 {
		e.plan = newCrashPlan(m, crashSeed, where, g, p)
		defer func() { e.plan = nil }()
	}
	if e.s.Procs > 0 && g > e.s.Procs {
		e.t.Fatalf("verify.Explore: replay token %q needs %d processes; %s has %d", tok, g, e.s.Name, e.s.Procs)
	}
	e.cfg.maxSteps = maxSteps
	ph := e.addPhase(ExplorePhase{Strategy: "replay", Goroutines: g, Passages: p, Bound: -1})
	start := time.Now()
	res := e.run(c, g, p)
	e.account(ph, res, start)
	if res.Failure != nil || res.Accesses == 0 {
		e.report(res, "replay", tok)
		return
	}
	e.t.Logf("explore %s: replay of %s: no failure (%d steps)", e.s.Name, tok, res.Steps)
}

// report turns a failing execution into the report's Failure and a t.Errorf.
func (e *explorer) report(res *sched.Result, strategy, token string) {
	e.t.Helper()
	f := res.Failure
	if f == nil { // the execution completed without touching a register
		f = &sched.Failure{Kind: ExploreNotInstrumented, G: -1, Msg: notInstrumented, Events: len(res.Events)}
	}
	ef := &ExploreFailure{Kind: f.Kind, Message: f.Msg, Strategy: strategy, Token: token,
		Trace: sched.FormatTrace(res.Events[:f.Events], 0), Events: f.Events}
	e.rep.Failure = ef
	var b strings.Builder
	// The first line says what was violated, by whom, and how to replay it.
	head, rest, _ := strings.Cut(f.Msg, "\n")
	fmt.Fprintf(&b, "verify.Explore %s: %s: %s; replay: verify.ExploreReplay(%q)\n", e.s, f.Kind, head, token)
	if rest != "" {
		b.WriteString(rest + "\n")
	}
	fmt.Fprintf(&b, "strategy: %s (seed %d)\n", strategy, e.rep.Seed)
	if f.Events == 0 {
		b.WriteString("interleaving: (no events)\n")
	} else {
		fmt.Fprintf(&b, "interleaving (%d events, up to the failure):\n", f.Events)
		b.WriteString(sched.FormatTrace(res.Events[:f.Events], e.cfg.tail))
	}
	e.t.Errorf("%s", b.String())
}

const notInstrumented = "the lock made no access through instrumented registers: " +
	"the lock is not instrumented: run with -tags lockgen_check"

// Harness event tags.
const (
	tagBegin = iota + 1
	tagRBegin
	tagEnter
	tagREnter
	tagCS
	tagExit
	tagRExit
	tagTryBegin
	tagTryFail
)

// exploreHarness is the state of one execution's checks. Only the running
// managed goroutine touches it (the scheduler hands over through channels,
// which orders the accesses).
type exploreHarness struct {
	s        Subject
	k        int
	accesses int
	writers  int    // holders, for a mutex or k-exclusion
	readers  int    // readers inside
	in       []int8 // 0 out, 1 writer/holder in, 2 reader in
	acq      []bool // in Acquire (begun, not entered)
	reader   []bool // the current passage reads
	begin    []int  // event index of the current Acquire's start
	door     []int  // event index of its doorway, -1 if none yet
	try      []bool // the current passage is a TryAcquire
	overtook []int  // entries of others since the doorway of the current Acquire
	gaveUp   bool   // a TryAcquire has failed in this execution
	shared   *bool  // set when two are inside at once
	// The crash phase's: the plan (nil outside it), who crashed, each
	// goroutine's current passage (0-based) and its accesses in it.
	plan      *crashPlan
	crashed   []bool
	passage   []int
	accesses1 []int
	// enabled[g] >= 0 counts g's accesses since a process that began
	// after g's doorway entered first (FIFE: g must now be enabled); -1
	// otherwise. enabledBy[g] is that process.
	enabled, enabledBy []int
}

// run runs one execution of g goroutines × p passages on a fresh instance.
func (e *explorer) run(c sched.Chooser, g, p int) *sched.Result {
	e.t.Helper()
	inst := e.s.New()
	var rw RWInstance
	if e.s.Mode.Readers() {
		var ok bool
		if rw, ok = inst.(RWInstance); !ok {
			e.t.Fatalf("verify.Explore: subject %q is RW but its instances (%T) are not RWInstance", e.s.Name, inst)
		}
	}
	h := &exploreHarness{s: e.s, k: e.s.k(), in: make([]int8, g), acq: make([]bool, g),
		reader: make([]bool, g), begin: make([]int, g), door: make([]int, g), try: make([]bool, g), overtook: make([]int, g),
		shared: &e.shared, plan: e.plan, crashed: make([]bool, g), passage: make([]int, g), accesses1: make([]int, g),
		enabled: make([]int, g), enabledBy: make([]int, g)}
	for i := range h.passage {
		h.passage[i], h.enabled[i] = -1, -1
	}
	try, _ := inst.(TryInstance)
	e.shared = false
	bodies := make([]func(*sched.Proc), g)
	for i := range bodies {
		bodies[i] = func(pr *sched.Proc) {
			// When an Acquire begins matters only to the FIFO check; for
			// the others a scheduling point there would only repeat the one
			// at the Acquire's first access.
			begin := pr.Note
			if e.s.FIFO || e.s.WriterPriority {
				begin = pr.Point
			}
			for j := 0; j < p; j++ {
				if rw != nil && (i+j)%2 == 1 {
					begin(tagRBegin, "RAcquire begins")
					rw.RAcquire(i)
					pr.Note(tagREnter, "enters the critical section (reader)")
					pr.Yield(tagCS, "in the critical section")
					pr.Note(tagRExit, "leaves; RRelease begins")
					rw.RRelease(i)
					continue
				}
				if try != nil && rw == nil && (i+j)%2 == 1 {
					// Half the passages try: a TryAcquire that wrongly
					// succeeds breaks the same invariants.
					begin(tagTryBegin, "TryAcquire begins")
					if !try.TryAcquire(i) {
						pr.Note(tagTryFail, "TryAcquire failed")
						continue
					}
				} else {
					begin(tagBegin, "Acquire begins")
					inst.Acquire(i)
				}
				pr.Note(tagEnter, "enters the critical section")
				pr.Yield(tagCS, "in the critical section")
				pr.Note(tagExit, "leaves; Release begins")
				inst.Release(i)
			}
		}
	}
	return sched.Run(sched.Config{Chooser: c, MaxSteps: e.cfg.maxSteps, Stall: e.cfg.stall, Observe: h.observe}, bodies)
}

func (h *exploreHarness) observe(p *sched.Proc, ev *sched.Event) {
	h.check(p, ev)
	if h.plan != nil {
		h.crashTrigger(p, ev.G, ev)
	}
}

// check follows one event and checks the invariants it may break.
func (h *exploreHarness) check(p *sched.Proc, ev *sched.Event) {
	g, idx := ev.G, p.Events()-1
	switch ev.Kind {
	case sched.EvAccess:
		h.accesses++
		h.accesses1[g]++
		if h.enabled[g] >= 0 {
			if h.enabled[g]++; h.enabled[g] > h.s.FIFESteps {
				p.Fail(ExploreFIFE, "g%d has taken %d steps since g%d, which began its Acquire after g%d's doorway, entered the critical section, "+
					"and is still not in: the lock claims it enters within %d", g, h.enabled[g], h.enabledBy[g], g, h.s.FIFESteps)
			}
		}
	case sched.EvWait, sched.EvPark:
		if ev.Blocked && h.enabled[g] >= 0 && !strings.HasSuffix(ev.Label, sched.LayerWait) {
			p.Fail(ExploreFIFE, "g%d waits for another process's write (at [%s]) although g%d, which began its Acquire after g%d's doorway, "+
				"entered the critical section first: the lock claims g%d is enabled", g, ev.Label, h.enabledBy[g], g, g)
		}
	case sched.EvDoorway:
		if h.acq[g] && h.door[g] < 0 {
			h.door[g] = idx
		}
	case sched.EvPoint, sched.EvNote:
		switch ev.Tag {
		case tagBegin, tagRBegin, tagTryBegin:
			h.acq[g], h.reader[g], h.try[g] = true, ev.Tag == tagRBegin, ev.Tag == tagTryBegin
			h.begin[g], h.door[g], h.overtook[g] = idx, -1, 0
			h.passage[g]++
			h.accesses1[g] = 0
		case tagTryFail:
			h.acq[g], h.gaveUp = false, true
		case tagEnter, tagREnter:
			h.enter(p, g, idx)
		case tagExit:
			h.in[g] = 0
			h.writers--
		case tagRExit:
			h.in[g] = 0
			h.readers--
		}
	}
}

func (h *exploreHarness) enter(p *sched.Proc, g, idx int) {
	if h.accesses == 0 {
		p.Fail(ExploreNotInstrumented, "%s", notInstrumented)
	}
	reader := h.reader[g]
	switch {
	case reader && h.writers > 0:
		p.Fail(ExploreMutualExclusion, "reader g%d entered the critical section while writer %s holds it",
			g, h.holders(1))
	case !reader && h.s.Mode.Readers() && h.readers > 0:
		p.Fail(ExploreMutualExclusion, "writer g%d entered the critical section while reader(s) %s hold it",
			g, h.holders(2))
	case !reader && h.writers >= h.k:
		who := "holds"
		if h.writers > 1 {
			who = "hold"
		}
		p.Fail(ExploreMutualExclusion, "g%d entered the critical section while %s %s it (at most %d allowed)",
			g, h.holders(1), who, h.k)
	}
	if h.s.FIFO {
		if h.door[g] < 0 && !h.try[g] { // a try-acquire has no doorway
			p.Fail(ExploreFIFO, "the subject claims FIFO, but g%d's Acquire returned without reporting "+
				"the end of its doorway (sched.Doorway)", g)
		}
		for q := range h.acq {
			if q == g || !h.acq[q] || h.door[q] < 0 || h.door[q] >= h.begin[g] {
				continue
			}
			if reader && h.reader[q] {
				continue // readers may pass each other
			}
			p.Fail(ExploreFIFO, "g%d entered the critical section (event %d) before g%d, although g%d "+
				"finished its doorway (event %d) before g%d began its Acquire (event %d)",
				g, idx+1, q, q, h.door[q]+1, g, h.begin[g]+1)
		}
	}
	if h.s.FIFE {
		h.enabled[g] = -1
		for q := range h.acq {
			if q != g && h.acq[q] && h.door[q] >= 0 && h.door[q] < h.begin[g] && h.enabled[q] < 0 {
				h.enabled[q], h.enabledBy[q] = 0, g
			}
		}
	}
	if h.s.WriterPriority && reader {
		for q := range h.acq {
			if q != g && h.acq[q] && !h.reader[q] && h.door[q] >= 0 && h.door[q] < h.begin[g] {
				p.Fail(ExploreWriterPriority, "reader g%d entered the critical section (event %d) before writer g%d, although g%d "+
					"finished its doorway (event %d) before g%d began its RAcquire (event %d)",
					g, idx+1, q, q, h.door[q]+1, g, h.begin[g]+1)
			}
		}
	}
	if h.s.BoundedWaiting && !(h.s.OvertakesLockOnly && h.gaveUp) {
		for q := range h.acq {
			if q == g || !h.acq[q] || h.door[q] < 0 {
				continue
			}
			h.overtook[q]++
			if h.overtook[q] > h.s.Overtakes {
				p.Fail(ExploreBoundedWaiting, "g%d entered the critical section (event %d): g%d has been overtaken %d times "+
					"since it finished its doorway (event %d); the lock claims at most %d",
					g, idx+1, q, h.overtook[q], h.door[q]+1, h.s.Overtakes)
			}
		}
	}
	h.acq[g] = false
	if reader {
		h.in[g] = 2
		h.readers++
	} else {
		h.in[g] = 1
		h.writers++
	}
	if h.readers > 1 || h.writers > 1 {
		*h.shared = true
	}
}

// holders lists the goroutines in the critical section in mode m (1 writer
// or holder, 2 reader).
func (h *exploreHarness) holders(m int8) string {
	var s []string
	for q, in := range h.in {
		if in == m {
			s = append(s, fmt.Sprintf("g%d", q))
		}
	}
	return strings.Join(s, ", ")
}
