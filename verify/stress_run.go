package verify

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

type stressRun struct {
	s   Subject
	cfg stressConfig
	k   int64

	inst Instance
	try  TryInstance     // nil when the lock has no TryAcquire
	ctx  ContextInstance // nil when the lock has no AcquireContext
	rw   RWInstance      // nil unless s.Mode.Readers()

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
	r.ctx, r.rep.Contextual = r.inst.(ContextInstance)
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

func (r *stressRun) finishReport() {
	rep := &r.rep
	var excl int64
	for _, w := range r.workers {
		rep.Passages += w.done.Load()
		rep.Reads += w.reads.Load()
		rep.TryAttempts += w.tries.Load()
		rep.TrySuccesses += w.tryOK.Load()
		rep.CtxAttempts += w.ctxs.Load()
		rep.CtxGaveUp += w.gaveUp.Load()
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
