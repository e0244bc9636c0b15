package sched

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// MaxGoroutines bounds the goroutines of one execution (they are kept in
// 64-bit sets).
const MaxGoroutines = 64

// Config parameterises one execution.
type Config struct {
	// Chooser picks the goroutine to run at each scheduling point.
	Chooser Chooser
	// MaxSteps bounds the scheduling decisions of the execution; reaching it
	// fails the execution with FailNoProgress (livelock or starvation).
	// 0 means DefaultMaxSteps.
	MaxSteps int
	// Observe, if set, is called by the running goroutine after every event
	// is recorded; it may call Proc.Fail. The event is valid only during the
	// call.
	Observe func(p *Proc, e *Event)
	// Stall is how long a goroutine may run without reaching a scheduling
	// point (an uninstrumented busy wait) before the execution is given up
	// as FailStall. 0 means DefaultStall.
	Stall time.Duration
	// Shared, if set, tells which harness events (Point, Yield, Pause,
	// Note) and Doorways touch state that Observe shares between
	// goroutines, such as a count of those inside; nil means all of them.
	// DFS.Reduce orders the shared ones against each other and lets the
	// others move.
	Shared func(e *Event) bool
}

// Defaults of Config.
const (
	DefaultMaxSteps = 10000
	DefaultStall    = 5 * time.Second
)

// FailKind classifies a failed execution.
type FailKind string

// The failures the scheduler itself detects. Harnesses add their own
// (mutual exclusion, FIFO) through Proc.Fail.
const (
	FailDeadlock   FailKind = "deadlock"
	FailNoProgress FailKind = "no progress"
	FailPanic      FailKind = "panic"
	FailGoexit     FailKind = "goroutine exit"
	FailStall      FailKind = "stall"
	FailReplay     FailKind = "replay diverged"
)

// Failure describes why an execution failed.
type Failure struct {
	Kind FailKind
	G    int    // the goroutine that failed or detected it; -1 if none
	Msg  string // what happened
	// Events is how many events of the trace precede the failure.
	Events int
}

func (f *Failure) Error() string { return string(f.Kind) + ": " + f.Msg }

// Result is the outcome of one execution.
type Result struct {
	Events   []Event  // the trace, in execution order
	Choices  []int    // the goroutine chosen at each decision
	Steps    int      // scheduling decisions
	Accesses int      // register accesses
	Failure  *Failure // nil if the execution completed
	// Pruned: the chooser stopped the execution before its end (Prune),
	// every way on from there being covered by executions it runs
	// elsewhere. Not a failure; the execution checked what it reached.
	Pruned bool
}

// Proc is a managed goroutine's handle, passed to its body. Its methods must
// be called only by that goroutine.
type Proc struct{ p *proc }

// ID returns the goroutine's index (0-based, the order of the bodies).
func (h *Proc) ID() int { return h.p.id }

// Point is a scheduling point followed by a harness event (tag and label are
// the harness's own). Like every harness event it starts a new operation:
// the registers read so far no longer count for Wait.
func (h *Proc) Point(tag int, label string) {
	h.harness(EvPoint, ptNormal, tag, label)
}

// Yield is like Point, but a voluntary one: switching away from it costs no
// preemption, and the fairness rule treats it as a yield (a spin).
func (h *Proc) Yield(tag int, label string) {
	h.harness(EvYield, ptYield, tag, label)
}

// Pause is like Yield, a point where switching away costs no preemption,
// but not a spin: the fairness rule ignores it. For a goroutine that will
// go on by itself, as one inside a critical section.
func (h *Proc) Pause(tag int, label string) {
	h.harness(EvYield, ptFree, tag, label)
}

// Note records a harness event without a scheduling point.
func (h *Proc) Note(tag int, label string) {
	h.harness(EvNote, ptNone, tag, label)
}

func (h *Proc) harness(k EventKind, pt pointKind, tag int, label string) {
	p := h.p
	ex := p.ex
	if ex.stopped.Load() {
		return
	}
	p.reads = p.reads[:0]
	if pt != ptNone {
		p.next = nil
		ex.point(p, pt)
		if ex.stopped.Load() {
			return
		}
	}
	ev := ex.record(Event{G: p.id, Kind: k, Tag: tag, Label: label})
	p.noteHarness(ev)
	ex.observe(p, ev)
}

// Events returns how many events have been recorded so far; the next event
// gets this index (0-based) in Result.Events.
func (h *Proc) Events() int { return len(h.p.ex.events) }

// Fail ends the execution with a failure and stops the calling goroutine
// (runtime.Goexit). Call it from the body or from Config.Observe.
func (h *Proc) Fail(kind FailKind, format string, args ...any) {
	ex := h.p.ex
	if ex.stopped.Load() && !ex.aborted.Load() {
		return // running free after a stall: nothing is checked any more
	}
	ex.abort(h.p, &Failure{Kind: kind, G: h.p.id, Msg: fmt.Sprintf(format, args...)})
	runtime.Goexit()
}

type procState uint8

const (
	stReady   procState = iota // parked at a scheduling point, runnable
	stRunning                  // holds the token
	stBlocked                  // in Wait until a write, or in Park until an Unpark
	stDone                     // body returned
	stCrashed                  // stopped for good (Crash); the execution ends without it
)

// Crash stops the calling goroutine for good, as a process that crashes
// does: wherever it is (inside the critical section, in a doorway, while
// waiting), it takes no further step, and the execution ends when the
// others have ended; a deadlock is declared only among the others. what
// says where it stopped, for the trace. Call it from the body or from
// Config.Observe; it does not return.
func (h *Proc) Crash(what string) {
	p := h.p
	ex := p.ex
	if ex.stopped.Load() {
		runtime.Goexit() // the execution is over
	}
	ex.record(Event{G: p.id, Kind: EvCrash, Label: what})
	p.fp.flags |= fCrash
	p.state = stCrashed
	p.pt = ptFree // switching away from a crash costs no preemption
	if ex.setup {
		ex.setupCh <- struct{}{} // crashed before its first scheduling point
	} else if next := ex.decide(p); next != nil {
		next.wake <- struct{}{}
	}
	<-p.wake // the execution is over: ended, or aborted
	runtime.Goexit()
}

type pointKind uint8

const (
	ptNone   pointKind = iota
	ptNormal           // switching away is a preemption
	ptYield            // a spin: a voluntary switch point (a Wait that did not block, Delay, Yield)
	ptFree             // switching away is free, and it is no spin (a blocked Wait or Park, Pause)
	ptEnd              // the goroutine finished
)

// reg is what the scheduler knows of a register within an execution.
type reg struct {
	id   int            // 1-based, by first access
	ver  uint64         // bumped by every write
	addr unsafe.Pointer // the register's word
}

type readEntry struct {
	r   *reg
	ver uint64 // version seen
}

type pending struct {
	label  string
	op     Op
	reg    unsafe.Pointer
	before uint64 // the register's word when the access was scheduled
}

type proc struct {
	ex    *execution
	id    int
	bit   uint64
	body  func(*Proc)
	h     Proc
	wake  chan struct{}
	gid   atomic.Uint64 // set when ids are needed (see stale)
	state procState
	pt    pointKind
	open  bool // between Access and Result
	acc   pending
	// reads are the registers read since the last Wait or operation start;
	// waitOn the ones a blocked Wait waits on.
	reads, waitOn []readEntry
	waitLabel     string
	// parkedOn is the Parker the goroutine waits in (Park, ParkTimeout);
	// woken is set by the Unpark that let it go.
	parkedOn *Parker
	woken    bool
	// ctx is the context the scheduler may cancel (CancelContext); atWait
	// is set while the goroutine stands at a wait where that may happen;
	// cancelEv is the index of a cancellation it has not observed yet
	// (-1: none). See cancel.go.
	ctx      *cancelContext
	atWait   bool
	cancelEv int
	// Fairness (see decide): goroutines continuously enabled, and those
	// scheduled, since this one's last yield; and the goroutines this one
	// must let run first.
	winEnabled, winSched, lower uint64
	// exit is 0 while the goroutine runs, 1 once it ended, 2 if it was
	// abandoned (stale) before ending.
	exit atomic.Int32
	// next is the register or Parker the goroutine's next step accesses
	// (nil if none); fp is the footprint of its step under way, or of the
	// one it just ended (footprint.go).
	next unsafe.Pointer
	fp   footprint
}

type execution struct {
	cfg    Config
	procs  []*proc
	all    uint64
	choice Choice

	running *proc
	setup   bool
	setupCh chan struct{}
	done    chan struct{}
	exited  sync.WaitGroup
	useGID  bool

	// stopped: no longer controlled (aborted, or running free after a
	// stall); every entry point passes through.
	stopped, aborted atomic.Bool
	progress         atomic.Int64
	runningID        atomic.Int32

	mu      sync.Mutex // guards failure and trace (a stall is declared from outside)
	failure *Failure
	// trace is the events up to a failure that abort declared, kept for
	// an execution that ends with goroutines abandoned (a crashed one
	// that never exits): events may then no longer be read.
	trace []Event

	steps    int
	accesses int
	events   []Event
	choices  []int
	regs     map[unsafe.Pointer]*reg
	refs     map[unsafe.Pointer]int64
	parkers  int  // Parkers used so far (their numbers p1, p2, ...)
	pruned   bool // the chooser cut the execution short (Prune)
}

var (
	runMu sync.Mutex
	// sizeHint is the length of the previous execution's trace, to size the
	// next one's (guarded by runMu).
	sizeHint int
)

// Run runs one execution: a managed goroutine per body, scheduled one at a
// time by cfg.Chooser, until all bodies return or the execution fails.
// Executions never overlap (Run serialises its callers). The goroutines
// start one by one, each running alone to its first scheduling point; the
// first decision is taken once all are there.
func Run(cfg Config, bodies []func(*Proc)) *Result {
	if len(bodies) == 0 || len(bodies) > MaxGoroutines {
		panic(fmt.Sprintf("sched: %d goroutines (want 1..%d)", len(bodies), MaxGoroutines))
	}
	if cfg.Chooser == nil {
		panic("sched: Config.Chooser is nil")
	}
	if cfg.MaxSteps <= 0 {
		cfg.MaxSteps = DefaultMaxSteps
	}
	if cfg.Stall <= 0 {
		cfg.Stall = DefaultStall
	}
	runMu.Lock()
	defer runMu.Unlock()

	ex := &execution{
		cfg:     cfg,
		setupCh: make(chan struct{}),
		done:    make(chan struct{}),
		useGID:  stale.Load() > 0,
		regs:    map[unsafe.Pointer]*reg{},
		refs:    map[unsafe.Pointer]int64{},
		events:  make([]Event, 0, sizeHint+sizeHint/4),
		choices: make([]int, 0, sizeHint),
	}
	for i, b := range bodies {
		p := &proc{ex: ex, id: i, bit: 1 << i, body: b, wake: make(chan struct{}, 1), cancelEv: -1}
		p.h.p = p
		ex.procs = append(ex.procs, p)
		ex.all |= p.bit
	}
	for _, p := range ex.procs {
		p.winEnabled = ex.all
	}

	// Setup: start the goroutines one by one, each running alone to its
	// first scheduling point, so that the order of starting is no choice.
	ex.setup = true
	cur.Store(ex)
	started := 0
	for _, p := range ex.procs {
		ex.running = p
		ex.exited.Add(1)
		started++
		go managedMain(p)
		select {
		case <-ex.setupCh:
		case <-ex.done:
		}
		if ex.aborted.Load() {
			break
		}
	}
	ex.setup = false
	ex.running = nil

	if !ex.aborted.Load() {
		if next := ex.decide(nil); next != nil {
			next.wake <- struct{}{}
		}
	}
	abandoned := ex.await()
	cur.Store(nil)

	res := &Result{Failure: ex.fail(), Pruned: ex.pruned}
	if abandoned == 0 {
		// Every goroutine ended: its writes happened before exited.Wait.
		res.Events, res.Choices = ex.events, ex.choices
		res.Steps, res.Accesses = ex.steps, ex.accesses
		sizeHint = min(len(ex.events), 1<<16)
	} else {
		res.Steps = int(ex.progress.Load())
		ex.mu.Lock()
		res.Events = ex.trace
		ex.mu.Unlock()
	}
	if res.Failure != nil && res.Failure.Events > len(res.Events) {
		res.Failure.Events = len(res.Events)
	}
	return res
}

// await waits for the execution to end, watching for stalls, then for its
// goroutines to exit. It returns how many goroutines had to be abandoned.
func (ex *execution) await() int {
	stall := ex.cfg.Stall
	tick := time.NewTicker(stall / 8)
	defer tick.Stop()
	last, since := ex.progress.Load(), time.Now()
wait:
	for {
		select {
		case <-ex.done:
			break wait
		case now := <-tick.C:
			if p := ex.progress.Load(); p != last {
				last, since = p, now
				continue
			}
			if now.Sub(since) < stall {
				continue
			}
			// A goroutine runs without reaching a scheduling point: let
			// every goroutine run free so a correct but uninstrumented lock
			// can still finish, and report the stall.
			g := int(ex.runningID.Load())
			ex.setFailure(&Failure{Kind: FailStall, G: g, Events: int(^uint(0) >> 1), Msg: fmt.Sprintf(
				"goroutine g%d ran for %v without reaching a scheduling point (after step %d): "+
					"a busy wait or blocking call the scheduler cannot see (is every shared access an instrumented register?)",
				g, stall, last)})
			ex.stopped.Store(true)
			for _, p := range ex.procs {
				select {
				case p.wake <- struct{}{}:
				default:
				}
			}
			break wait
		}
	}
	exited := make(chan struct{})
	go func() { ex.exited.Wait(); close(exited) }()
	select {
	case <-exited:
		return 0
	case <-time.After(stall):
	}
	n := 0
	for _, p := range ex.procs {
		if p.exit.CompareAndSwap(0, 2) {
			stale.Add(1)
			n++
		}
	}
	return n
}

func (ex *execution) setFailure(f *Failure) {
	ex.mu.Lock()
	if ex.failure == nil {
		ex.failure = f
	}
	ex.mu.Unlock()
}

func (ex *execution) fail() *Failure {
	ex.mu.Lock()
	defer ex.mu.Unlock()
	return ex.failure
}

// managedMain is where every managed goroutine starts; its frame is how
// managed goroutines are recognised (see onManagedStack).
//
//go:noinline
func managedMain(p *proc) {
	ex := p.ex
	if ex.useGID {
		p.gid.Store(goid())
	}
	normal := false
	defer func() {
		r := recover()
		if !normal && !ex.stopped.Load() {
			if r != nil {
				ex.abort(p, &Failure{Kind: FailPanic, G: p.id,
					Msg: fmt.Sprintf("goroutine g%d panicked: %v\n%s", p.id, r, debug.Stack())})
			} else {
				ex.abort(p, &Failure{Kind: FailGoexit, G: p.id,
					Msg: fmt.Sprintf("goroutine g%d stopped early (runtime.Goexit, e.g. t.FailNow)", p.id)})
			}
		}
		if !p.exit.CompareAndSwap(0, 1) {
			stale.Add(-1)
		}
		ex.exited.Done()
	}()
	p.body(&p.h)
	normal = true
	if !ex.stopped.Load() {
		ex.finish(p)
	}
}

// point is a scheduling point of p, the running goroutine.
func (ex *execution) point(p *proc, kind pointKind) {
	p.pt = kind
	if p.state == stRunning {
		p.state = stReady
	}
	defer p.resumed()
	if ex.setup {
		ex.setupCh <- struct{}{}
		p.park()
		return
	}
	next := ex.decide(p)
	if next == p {
		return
	}
	if next == nil { // the execution failed (p has not finished)
		runtime.Goexit()
	}
	next.wake <- struct{}{}
	p.park()
}

// resumed is p running again after a scheduling point: no longer at a
// wait, and told of a cancellation made while it was.
func (p *proc) resumed() {
	p.atWait = false
	if !p.ex.stopped.Load() {
		p.cancelled()
	}
}

// park blocks p until it is chosen.
func (p *proc) park() {
	<-p.wake
	if p.ex.aborted.Load() {
		runtime.Goexit()
	}
	// Otherwise chosen, or released to run free after a stall.
}

// finish ends p's body and hands the token on.
func (ex *execution) finish(p *proc) {
	p.next = nil
	p.state = stDone
	p.pt = ptEnd
	ex.record(Event{G: p.id, Kind: EvEnd})
	if ex.setup {
		ex.setupCh <- struct{}{}
		return
	}
	if next := ex.decide(p); next != nil {
		next.wake <- struct{}{}
	}
}

// decide makes one scheduling decision at a point of self (nil for the first
// one). It returns the goroutine to run, already marked running, or nil if
// the execution is over (completed or failed).
//
// Fairness: a goroutine that spins (a Wait that did not block, Yield,
// Delay) would otherwise let a strategy schedule it forever while the
// holder of the lock never runs. The rule is CHESS's fair scheduler
// (Musuvathi and Qadeer, "Fair stateless model checking", PLDI 2008): when
// t yields, t gets a lower priority than every goroutine that stayed
// enabled since t's previous yield without being scheduled; a goroutine
// with a lower priority than some enabled goroutine is not schedulable;
// the edge goes when the higher one is scheduled. Only unfair schedules are
// pruned, and spinning can no longer run forever. A goroutine that blocks
// (a Wait or Park that must be ended by another) or pauses (Pause) does
// not spin: it is not demoted, so the rule prunes none of the schedules
// after it, and the partial-order reduction may move other goroutines'
// steps across it (a spin orders them, see fYield).
func (ex *execution) decide(self *proc) *proc {
	ex.steps++
	ex.progress.Store(int64(ex.steps))
	if ex.steps > ex.cfg.MaxSteps {
		ex.abort(self, &Failure{Kind: FailNoProgress, G: idOf(self), Msg: fmt.Sprintf(
			"after %d steps the goroutines are still running without finishing (livelock or starvation)",
			ex.cfg.MaxSteps)})
		return nil
	}
	var enabled uint64
	for _, q := range ex.procs {
		if q.state == stReady {
			enabled |= q.bit
		}
	}
	for _, q := range ex.procs {
		q.winEnabled &= enabled
	}
	if self != nil && self.pt == ptYield {
		self.lower |= self.winEnabled &^ self.winSched &^ self.bit
		self.winEnabled, self.winSched = enabled, 0
		self.fp.flags |= fYield
	}
	var cancels uint64 // goroutines whose context the scheduler may cancel now
	for _, q := range ex.procs {
		if q.cancellable() {
			cancels |= q.bit
		}
	}
	if enabled == 0 && cancels == 0 {
		if r, ok := ex.cfg.Chooser.(*Recorder); ok && self != nil {
			r.record(self)
		}
		for _, q := range ex.procs {
			if q.state != stDone && q.state != stCrashed {
				ex.abort(self, &Failure{Kind: FailDeadlock, G: -1, Msg: ex.deadlockMsg()})
				return nil
			}
		}
		// Over: let the crashed goroutines exit, uncontrolled (their
		// deferred calls may touch registers; nothing is checked now).
		ex.stopped.Store(true)
		for _, q := range ex.procs {
			if q.state == stCrashed {
				q.wake <- struct{}{}
			}
		}
		close(ex.done)
		return nil
	}
	schedulable := uint64(0)
	for _, q := range ex.procs {
		if q.bit&enabled != 0 && q.lower&enabled == 0 {
			schedulable |= q.bit
		}
	}
	if schedulable == 0 && enabled != 0 {
		schedulable = enabled // cannot happen with the rule above; be safe
	}
	c := &ex.choice
	c.ex = ex
	c.Step = ex.steps
	c.N = len(ex.procs)
	c.Cands = c.Cands[:0]
	c.Cur = -1
	c.Preemptible = false
	if self != nil {
		c.Cur = self.id
		if self.bit&schedulable != 0 {
			c.Cands = append(c.Cands, self.id)
			c.Preemptible = self.pt == ptNormal
		}
	}
	for _, q := range ex.procs {
		if q.bit&schedulable != 0 && q != self {
			c.Cands = append(c.Cands, q.id)
		}
	}
	for _, q := range ex.procs {
		if q.bit&cancels != 0 {
			c.Cands = append(c.Cands, cancelChoice(q.id))
		}
	}
	i := ex.cfg.Chooser.Choose(c)
	if i == Prune {
		ex.stop(self, nil)
		return nil
	}
	if i < 0 || i >= len(c.Cands) {
		ex.abort(self, &Failure{Kind: FailReplay, G: -1, Msg: fmt.Sprintf(
			"at step %d the recorded schedule names a goroutine that cannot run (runnable: %s); "+
				"the token does not belong to this lock, configuration or build", ex.steps, gs(c.Cands))})
		return nil
	}
	ex.choices = append(ex.choices, c.Cands[i])
	g, cancel := cancelOf(c.Cands[i])
	if !cancel {
		g = c.Cands[i]
	}
	next := ex.procs[g]
	next.fp.reset()
	if cancel {
		ex.cancelWait(next)
	}
	for _, q := range ex.procs {
		q.winSched |= next.bit
		q.lower &^= next.bit
	}
	next.state = stRunning
	ex.running = next
	ex.runningID.Store(int32(next.id))
	return next
}

func idOf(p *proc) int {
	if p == nil {
		return -1
	}
	return p.id
}

func gs(ids []int) string {
	var s []string
	for _, id := range ids {
		s = append(s, fmt.Sprintf("g%d", id))
	}
	return strings.Join(s, ", ")
}

func (ex *execution) deadlockMsg() string {
	var b strings.Builder
	b.WriteString("every unfinished goroutine waits for a write or a wake-up that no goroutine will make:")
	for _, q := range ex.procs {
		if q.state == stDone {
			fmt.Fprintf(&b, "\n  g%d has finished", q.id)
		}
		if q.state == stCrashed {
			fmt.Fprintf(&b, "\n  g%d has crashed", q.id)
		}
		if q.state != stBlocked {
			continue
		}
		if q.parkedOn != nil {
			b.WriteString("\n  " + q.parkedMsg())
			continue
		}
		var rs []string
		for _, e := range q.waitOn {
			rs = append(rs, fmt.Sprintf("r%d", e.r.id))
		}
		sort.Strings(rs)
		fmt.Fprintf(&b, "\n  g%d waits at [%s] on %s", q.id, q.waitLabel, strings.Join(rs, ", "))
	}
	return b.String()
}

// abort ends the execution with failure f: every parked goroutine is woken
// to exit (runtime.Goexit in park), and Run returns. The caller, if a managed
// goroutine, must stop too.
func (ex *execution) abort(self *proc, f *Failure) { ex.stop(self, f) }

// stop ends the execution as abort does, with failure f, or with none
// when the chooser pruned it (Prune).
func (ex *execution) stop(self *proc, f *Failure) {
	if ex.aborted.Swap(true) {
		return
	}
	n := len(ex.events)
	if f != nil {
		f.Events = n
		ex.setFailure(f)
	} else {
		ex.pruned = true
	}
	ex.mu.Lock()
	ex.trace = ex.events[:n:n] // an append reallocates: nothing writes into it
	ex.mu.Unlock()
	ex.stopped.Store(true)
	for _, q := range ex.procs {
		if q != self && (q.state == stReady || q.state == stBlocked || q.state == stCrashed) {
			select {
			case q.wake <- struct{}{}:
			default:
			}
		}
	}
	close(ex.done)
}

func (ex *execution) record(e Event) *Event {
	ex.events = append(ex.events, e)
	return &ex.events[len(ex.events)-1]
}

func (ex *execution) observe(p *proc, e *Event) {
	if ex.cfg.Observe != nil {
		ex.cfg.Observe(&p.h, e)
	}
}

func (ex *execution) register(ptr unsafe.Pointer) *reg {
	r := ex.regs[ptr]
	if r == nil {
		r = &reg{id: len(ex.regs) + 1, addr: ptr}
		ex.regs[ptr] = r
	}
	return r
}

func (ex *execution) refName(ptr unsafe.Pointer) int64 {
	if ptr == nil {
		return 0
	}
	n, ok := ex.refs[ptr]
	if !ok {
		n = int64(len(ex.refs) + 1)
		ex.refs[ptr] = n
	}
	return n
}

// The entry points, on the running goroutine.

func (p *proc) access(label string, op Op, ptr unsafe.Pointer) {
	p.open = true
	p.acc = pending{label: label, op: op, reg: ptr}
	p.next = ptr
	p.ex.point(p, ptNormal)
	p.acc.before = rawLoad(ptr)
}

// rawLoad reads a register's word. The instrumented registers keep their
// value in their first 8 bytes, and nothing else runs between Access and the
// Result, so comparing the word before and after tells whether a write
// changed the register.
func rawLoad(ptr unsafe.Pointer) uint64 { return atomic.LoadUint64((*uint64)(ptr)) }

func (p *proc) result(v Value, wrote bool) {
	if !p.open {
		return
	}
	p.open = false
	ex := p.ex
	r := ex.register(p.acc.reg)
	seen := r.ver
	// A write that leaves the word as it was (a spinning test-and-set
	// swapping true for true) changes nothing a waiter could observe.
	changed := wrote && rawLoad(p.acc.reg) != p.acc.before
	if changed {
		r.ver++
		for _, q := range ex.procs {
			if q.state == stBlocked && q.waitsOn(r) {
				q.state = stReady
			}
		}
	}
	p.noteAccess(p.acc.reg, changed, true)
	if v.Kind == ValRef {
		v.N = ex.refName(v.ref)
		v.ref = nil
	}
	if p.acc.op.reads() {
		p.noteRead(r, seen)
	}
	ex.accesses++
	ex.observe(p, ex.record(Event{G: p.id, Kind: EvAccess, Label: p.acc.label, Op: p.acc.op,
		Reg: r.id, Val: v, Wrote: wrote}))
}

// noteRead adds r, seen at version ver, to the registers read. The earliest
// version read counts: if the register changed between two reads, what the
// goroutine computed may be stale, so its Wait must not block.
func (p *proc) noteRead(r *reg, ver uint64) {
	for i := range p.reads {
		if p.reads[i].r == r {
			return
		}
	}
	p.reads = append(p.reads, readEntry{r, ver})
}

func (p *proc) waitsOn(r *reg) bool {
	for _, e := range p.waitOn {
		if e.r == r {
			return true
		}
	}
	return false
}

func (p *proc) wait(label string) {
	ex := p.ex
	p.atWait, p.waitLabel = true, label // its context may be cancelled here (cancel.go)
	blocked := len(p.reads) > 0         // nothing read: no basis to block on
	for _, e := range p.reads {
		if e.r.ver != e.ver {
			blocked = false
			break
		}
	}
	ev := Event{G: p.id, Kind: EvWait, Label: label, Blocked: blocked}
	p.noteWait()
	if blocked {
		p.waitOn, p.reads = p.reads, p.waitOn[:0]
		p.waitLabel = label
		p.state = stBlocked
		for _, e := range p.waitOn {
			ev.WaitOn = append(ev.WaitOn, e.r.id)
		}
		sort.Ints(ev.WaitOn)
	} else {
		p.reads = p.reads[:0]
	}
	ex.observe(p, ex.record(ev))
	p.next = nil
	if !blocked {
		ex.point(p, ptYield) // a spin
		return
	}
	ex.point(p, ptFree) // runnable again only after another's write
	p.noteResume()
}

func (p *proc) doorway(label string) {
	ev := p.ex.record(Event{G: p.id, Kind: EvDoorway, Label: label})
	p.noteHarness(ev)
	p.ex.observe(p, ev)
}

func (p *proc) delay(label string) {
	p.ex.observe(p, p.ex.record(Event{G: p.id, Kind: EvDelay, Label: label}))
	p.next = nil
	p.ex.point(p, ptYield)
}
