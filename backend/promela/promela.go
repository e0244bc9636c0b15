// Package promela is lockgen's Promela backend: it lowers an ir.Algorithm
// (the same definition the Go backend lowers) to a model for the SPIN model
// checker, with the instrumentation for the properties to check.
//
// The lowering keeps the IR's atomicity: every shared access (each Load,
// Write, Swap, CAS, FetchAdd) is one Promela transition, and nothing else
// touches shared memory in that transition. An expression that reads
// several locations is flattened into one read step per location, into
// temporaries, in Go's evaluation order and with && / || short-circuit.
// Temporaries are reset within their step, loop variables when their loop
// ends, and step locals on entering the critical section, so that stale
// values do not multiply states. Otherwise each IR statement is a step of
// its own; with Options.Fold, local work (invisible to other processes)
// joins the neighbouring step and every local is reset as soon as it is
// dead (live.go).
//
// Each line of the model that belongs to an IR statement ends with a marker
// comment "/*@ Op|label|statement */"; the SPIN driver (lab/spin) reads
// them to turn a counterexample trail into the paper's line labels.
package promela

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/lockgen/lockgen/ir"
	"github.com/lockgen/lockgen/mode"
)

// Check is a set of properties to instrument.
type Check uint

const (
	// MutualExclusion asserts the mode's invariant at every CS entry:
	// occupancy <= 1 (mutex), <= k (k-exclusion), writers alone (rw).
	MutualExclusion Check = 1 << iota
	// FIFO asserts that a process whose doorway (up to Algorithm.DoorwayEnd)
	// completed before another process began its acquire enters first
	// (FIFO / FCFS).
	FIFO
	// StrongFIFO asserts the same for a process whose doorway completed
	// before the other's doorway completed (Dvir–Taubenfeld's strong FIFO).
	StrongFIFO
	// Starvation adds the LTL claim "starvation": for every process i,
	// [] (trying[i] -> <> incs[i]). Check it with weak fairness.
	Starvation
	// DeadlockFreedom adds the LTL claim "deadlock_freedom": if some process
	// is trying, eventually some process is in the CS.
	DeadlockFreedom
	// BoundedWaiting asserts that, from the end of its doorway
	// (Algorithm.DoorwayEnd, the first time round) until it enters, a
	// process sees at most Options.Overtakes entries of other processes
	// (bounded bypass, the "n-1 turns" of Eisenberg & McGuire).
	BoundedWaiting
	// WriterPriority (rw mode) asserts that a reader whose RAcquire began
	// after a writer finished its doorway (Algorithm.DoorwayEnd) enters
	// after that writer: arriving readers defer to waiting writers.
	WriterPriority
	// FIFE (first in, first enabled; Zehavi) asserts that a process
	// overtaken by one whose acquire began after its doorway ended is then
	// enabled: from the overtaker's entry on, it checks its waits (a
	// busy-wait loop's iterations, a failed await) at most
	// Options.FIFEChecks more times before it enters.
	FIFE
	// Quiescence asserts, as a safety property, that the processes never
	// all end up idle (in the remainder section, free to stay; done; or
	// crashed) or stuck: at a wait's head with the same locals as at the
	// previous pass and no shared write in between, so that nobody ever
	// writes or leaves a wait again. With bounded passages and loops that
	// write nothing (QuiescenceBlocker), such a state is reachable exactly
	// when some process can wait for ever: starvation and deadlock freedom,
	// checked without weak fairness. See quiescence.go.
	Quiescence
)

// Options choose what the model contains.
type Options struct {
	// Mode is what the processes do with the lock ("" means mutex): its
	// invariant is what MutualExclusion asserts (mode.Holders, with k =
	// ir.Params.K), and with readers the processes split into writers
	// (Acquire) and readers (RAcquire).
	Mode mode.Mode
	// Readers and Writers split the n processes in RW mode: writers have ids
	// 0..Writers-1, readers the rest. Their sum must be ir.Params.N.
	Readers, Writers int
	// Passages bounds the passages (acquire, CS, release) of each process;
	// 0 lets every process loop for ever.
	Passages int
	// Checks are the properties to instrument.
	Checks Check
	// Wrap, when > 0, keeps every counter (see Analyze) modulo Wrap. It is an
	// abstraction, valid when the values compared for equality never differ
	// by Wrap or more (ticket lock: at most n tickets out, Wrap > n).
	// Refused when a counter is used in a way arithmetic modulo Wrap would
	// change.
	Wrap int
	// IntBits is the width of integer variables: 32 (default, Promela int),
	// 16 (short) or 8 (byte: unsigned 0..255).
	IntBits int
	// Fold merges local computation into the neighbouring step: a run of
	// local statements (assignments, and ifs and for-loops made only of
	// them) joins the step before it, or, when none is open, the shared
	// access after it. Every transition still holds at most one shared
	// access or ghost update, so the model has the same behaviours, minus
	// states in which a process has only done local work; dead locals are
	// reset where they may be non-zero (live.go). Large searches need
	// several times fewer states (anonymous, n = 2: 5x), the catalogue at
	// n = 2 22% fewer in all, though a few small models need up to 12%
	// more: SPIN's partial-order reduction runs a local step alone without
	// interleaving, which a step that also reads or writes a register is
	// not. Off, every IR statement is its own step, as the trail then
	// shows.
	Fold bool
	// Bound, when > 0, lets processes loop for ever over counters but
	// asserts that every counter stays within [-Bound, Bound]: if the
	// search passes, the model was exact (the counters never needed more);
	// if the assertion on BoundName trips, the model is out of its bound
	// and says nothing (the driver then bounds passages instead).
	Bound int
	// TryAcquire lets each passage use the try-acquire instead of the
	// acquire (chosen nondeterministically); a failed try goes back to the
	// remainder section.
	TryAcquire bool
	// NoHalt forbids a process to stop for ever in its remainder section
	// (by default it may: a valid end state).
	NoHalt bool
	// Overtakes is the bound of the BoundedWaiting check.
	Overtakes int
	// FIFEChecks is the bound of the FIFE check (1..254).
	FIFEChecks int
	// Crashes, when > 0, lets up to this many processes crash: stop for
	// ever at any point of any operation, inside the critical section
	// included (Zehavi's failure model). A ghost process picks each victim
	// at any moment; the victim stops before its next step. The liveness
	// claims then speak of the processes that have not crashed.
	Crashes int
	// Victims, when set, are the only processes the crasher may pick. The
	// runs over every set of Crashes processes together cover the model
	// without it: a run whose crashes hit the processes T is a run of
	// each such set that contains T. Each run is smaller, which is what
	// lets a search too large for memory finish in parts.
	Victims []int
	// Abort lets a waiting process give up: at the head of every wait that
	// has abort code (ir.Await.Abort), before any check of an await or any
	// iteration of a busy loop, in any passage and any number of times, it
	// may run the abort code instead, which ends its passage (Fail: back
	// to the remainder section, from where it may try again) or enters
	// (Succeed). With the liveness claims each passage first chooses
	// whether its process may give up (the ghost g_abt): the claims speak
	// of the passages that may not, which must still enter; the others
	// give up eventually, since weak fairness takes a move that stays
	// enabled. FIFO then orders the processes that have not given up: one
	// that gives up leaves the doorway order at once. See abort.go.
	Abort bool
	// AbortFinitely, with Abort and a liveness claim, makes the claim
	// conditional on every process giving up finitely often: it holds in
	// the runs where, from some point on, no passage may give up. The
	// abortable-mutex literature's progress conditions assume as much;
	// without it the claim must hold while processes give up and retry
	// for ever (a retrying process can keep Lamport's fast mutex from
	// ever seeing every flag down at R7.2).
	AbortFinitely bool
	// Watch, when set, restricts the BoundedWaiting check to these
	// processes: the others' overtake counters stay 0 instead of
	// multiplying the state space by up to (Overtakes+1) each. The check
	// holds for all processes when it holds for each process on its own.
	Watch []int
}

// Lowered is a model with what the lowering decided.
type Lowered struct {
	Text     string
	N        int
	Analysis *Analysis
	// Notes are the abstractions and deviations this model makes, for the
	// verification report.
	Notes []string
}

// Model lowers a to a Promela model for parameters p.
func Model(a *ir.Algorithm, p ir.Params, opts Options) (string, error) {
	l, err := Lower(a, p, opts)
	if err != nil {
		return "", err
	}
	return l.Text, nil
}

// Names of the instrumentation in the model, for the driver and the tests.
const (
	ClaimStarvation      = "starvation"
	ClaimDeadlockFreedom = "deadlock_freedom"
	// ClaimCrashTolerance is the liveness claim (starvation or deadlock
	// freedom, as Checks selects) of a model with Options.Crashes.
	ClaimCrashTolerance = "crash_tolerance"
	// ClaimStabilization is a network model's self-stabilization claim
	// (NetOptions.Stabilize).
	ClaimStabilization = "stabilization"
	Nil                = "NIL"
	// BoundName is the constant the counter-bound assertions compare with.
	BoundName = "lg_bound"
)

// Lower lowers a to a Promela model and reports what it did.
func Lower(a *ir.Algorithm, p ir.Params, opts Options) (*Lowered, error) {
	if err := ir.Check(a); err != nil {
		return nil, err
	}
	l, err := newLower(a, p, opts)
	if err != nil {
		return nil, fmt.Errorf("promela: %s: %w", a.Name, err)
	}
	if err := l.model(); err != nil {
		return nil, fmt.Errorf("promela: %s: %w", a.Name, err)
	}
	if len(l.errs) > 0 {
		return nil, fmt.Errorf("promela: %s: unsupported: %s", a.Name, strings.Join(l.errs, "; "))
	}
	return &Lowered{Text: l.out.String(), N: l.n, Analysis: l.an, Notes: l.notes}, nil
}

// role is one kind of process: its proctype and operations.
type role struct {
	name    string // proctype name
	first   int    // first id
	count   int
	writer  bool // rw: enters as a writer
	acquire ir.Code
	release ir.Code
	try     ir.Code
	acqName string
	relName string
	tryName string
}

type tempVar struct{ name, typ string }

type lower struct {
	a     *ir.Algorithm
	walk  walker // the statements a process may run (abort code with Options.Abort)
	p     ir.Params
	o     Options
	an    *Analysis
	n, k  int
	intT  string
	roles []role
	notes []string

	global   map[string]string // shared register -> Promela name
	field    map[string]string // "Rec.field" -> Promela array
	local    map[string]string // local or loop variable -> Promela name
	recN     map[string]int    // record type -> records
	procBase map[string]int    // per-process records -> first record number
	used     map[string]bool   // Promela names taken

	out bytes.Buffer
	ind int

	// Per proctype.
	op         string
	mark       string // marker of the IR statement being lowered
	label      string // Promela label for the next emitted line
	labels     map[string]int
	temps      map[string]string // declared temporaries -> type
	live       []tempVar         // temporaries holding a value in this statement
	loopVars   map[string]bool
	gotoCS     bool
	gotoEnd    bool
	curAcquire string    // the blocking acquire of the current role (doorway ghosts)
	role       *role     // the role being lowered
	open       *openStep // Options.Fold: the step still taking local work
	liveCS     live      // Options.Fold: locals live on entering the CS
	cont       live      // Options.Fold: locals live after the code being lowered
	tail       []string  // Options.Fold: work ending every way out of the next if or while
	nz         live      // Options.Fold: the tracked locals that may be non-zero here (live.go)

	errs []string // unsupported constructs met while lowering
}

// errf records a construct the lowering cannot model faithfully: the
// model is then refused, never written wrong.
func (l *lower) errf(format string, args ...any) {
	where := l.op
	if i := strings.Index(l.mark, "|"); i >= 0 {
		if j := strings.Index(l.mark[i+1:], "|"); j > 0 {
			where += " line " + l.mark[i+1:i+1+j]
		}
	}
	l.errs = append(l.errs, where+": "+fmt.Sprintf(format, args...))
}

// reserved are Promela keywords and names the model uses itself.
var reserved = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`active assert atomic bit bool break byte chan d_step D_proctype do
		else empty enabled eval false fi full goto hidden if in init inline int len local mtype nempty never
		nfull np_ od of pc_value pid print printf printm priority proctype provided run select short
		show skip timeout trace notrace true typedef unless unsigned xr xs c_code c_decl c_expr c_state
		c_track for ltl always eventually until weakuntil stronguntil implies equivalent release
		NIL Proc Writer Reader init`) {
		reserved[w] = true
	}
}

func newLower(a *ir.Algorithm, p ir.Params, o Options) (*lower, error) {
	walk := walker(ir.WalkStmts)
	if o.Abort {
		walk = ir.WalkAll
	}
	l := &lower{a: a, p: p, o: o, walk: walk, an: analyze(a, walk), n: p.N, k: p.K,
		global: map[string]string{}, field: map[string]string{}, local: map[string]string{},
		recN: map[string]int{}, procBase: map[string]int{}, used: map[string]bool{}}
	l.o.Mode = l.o.Mode.Or(mode.Mutex)
	if !l.o.Mode.Valid() {
		return nil, fmt.Errorf("unknown mode %q", o.Mode)
	}
	if l.k == 0 {
		l.k = 1
	}
	switch o.IntBits {
	case 0, 32:
		l.intT = "int"
	case 16:
		l.intT = "short"
	case 8:
		l.intT = "byte"
	default:
		return nil, fmt.Errorf("IntBits %d: want 8, 16 or 32", o.IntBits)
	}
	if l.o.Mode.Readers() && l.n == 0 {
		l.n = o.Readers + o.Writers
	}
	if l.n < 1 {
		return nil, fmt.Errorf("need at least one process (Params.N = %d)", l.n)
	}
	if l.n > 16 {
		return nil, fmt.Errorf("%d processes: a model checker will not finish; use at most 16", l.n)
	}
	if o.Passages < 0 || o.Passages > 255 {
		return nil, fmt.Errorf("Passages %d: want 0 (for ever) to 255", o.Passages)
	}
	l.k = l.o.Mode.Holders(l.k)
	if l.k < 1 || l.k > l.n {
		return nil, fmt.Errorf("%s with k = %d and n = %d", l.o.Mode, l.k, l.n)
	}
	if !l.o.Mode.Readers() {
		l.roles = []role{{name: "Proc", count: l.n, writer: true, acquire: a.Acquire, release: a.Release, try: a.TryAcquire,
			acqName: "Acquire", relName: "Release", tryName: "TryAcquire"}}
	} else {
		if a.RAcquire == nil || a.RRelease == nil {
			return nil, fmt.Errorf("%s mode needs the reader operations RAcquire and RRelease", l.o.Mode)
		}
		if o.Readers+o.Writers != l.n || o.Readers < 0 || o.Writers < 0 {
			return nil, fmt.Errorf("%s mode: %d readers + %d writers, but n = %d", l.o.Mode, o.Readers, o.Writers, l.n)
		}
		if o.Writers > 0 {
			l.roles = append(l.roles, role{name: "Writer", count: o.Writers, writer: true, acquire: a.Acquire, release: a.Release,
				try: a.TryAcquire, acqName: "Acquire", relName: "Release", tryName: "TryAcquire"})
		}
		if o.Readers > 0 {
			l.roles = append(l.roles, role{name: "Reader", first: o.Writers, count: o.Readers, acquire: a.RAcquire, release: a.RRelease,
				try: a.TryRAcquire, acqName: "RAcquire", relName: "RRelease", tryName: "TryRAcquire"})
		}
	}
	if o.Checks&(FIFO|StrongFIFO|BoundedWaiting|FIFE) != 0 && !l.o.Mode.Ordered() {
		return nil, fmt.Errorf("FIFO, FIFE and bounded-waiting instrumentation do not apply to %s mode (doorways are the writers' only)", l.o.Mode)
	}
	if o.TryAcquire {
		for _, r := range l.roles {
			if r.try == nil {
				return nil, fmt.Errorf("TryAcquire requested but the algorithm has no %s", r.tryName)
			}
		}
	} else {
		for i := range l.roles {
			l.roles[i].try = nil
		}
	}
	if o.Checks&(FIFO|StrongFIFO|BoundedWaiting|WriterPriority|FIFE) != 0 {
		if a.DoorwayEnd == "" {
			return nil, fmt.Errorf("FIFO, FIFE, bounded-waiting and writer-priority instrumentation need Algorithm.DoorwayEnd")
		}
		if l.n > 8 {
			return nil, fmt.Errorf("FIFO, FIFE, bounded-waiting and writer-priority instrumentation support at most 8 processes")
		}
	}
	if o.Checks&FIFE != 0 && (o.FIFEChecks < 1 || o.FIFEChecks > 254) {
		return nil, fmt.Errorf("FIFE: FIFEChecks = %d, want 1..254", o.FIFEChecks)
	}
	if o.Crashes < 0 || (o.Crashes > 0 && o.Crashes >= l.n) {
		return nil, fmt.Errorf("crashes: %d of %d processes, want fewer than n", o.Crashes, l.n)
	}
	if o.Checks&WriterPriority != 0 && !l.o.Mode.Readers() {
		return nil, fmt.Errorf("writer-priority instrumentation needs readers (%s mode)", mode.RW)
	}
	if o.Checks&BoundedWaiting != 0 && (o.Overtakes < 0 || o.Overtakes > 254) {
		return nil, fmt.Errorf("bounded waiting: Overtakes = %d, want 0..254", o.Overtakes)
	}
	switch {
	case o.Victims != nil && o.Crashes == 0:
		return nil, fmt.Errorf("crash victims %v without crashes", o.Victims)
	case o.Victims != nil && len(o.Victims) < o.Crashes:
		// Fewer victims than crashes would leave the crasher a pick with
		// no live process: blocked inside its atomic step, an invalid end.
		return nil, fmt.Errorf("crash victims %v: want at least Crashes = %d of them", o.Victims, o.Crashes)
	}
	for i, v := range o.Victims {
		if v < 0 || v >= l.n || slices.Contains(o.Victims[:i], v) {
			return nil, fmt.Errorf("crash victims %v: want distinct processes in 0..%d", o.Victims, l.n-1)
		}
	}
	for _, w := range o.Watch {
		if w < 0 || w >= l.n {
			return nil, fmt.Errorf("bounded waiting: watched process %d, want 0..%d", w, l.n-1)
		}
	}
	if err := l.checkAbort(); err != nil {
		return nil, err
	}
	if o.Checks&Starvation != 0 && o.Checks&DeadlockFreedom != 0 {
		return nil, fmt.Errorf("one LTL claim per model: choose Starvation or DeadlockFreedom")
	}
	if o.Checks&Quiescence != 0 {
		switch why := QuiescenceBlocker(a); {
		case o.Passages == 0:
			return nil, fmt.Errorf("quiescence needs bounded passages: a process can starve while others keep entering, which no single state shows")
		case o.Checks&(Starvation|DeadlockFreedom) != 0:
			return nil, fmt.Errorf("quiescence is the safety form of the liveness claims: choose it or an LTL claim")
		case l.n > 8:
			return nil, fmt.Errorf("quiescence instrumentation supports at most 8 processes")
		case why != "":
			return nil, fmt.Errorf("quiescence does not apply: %s", why)
		}
	}
	if len(l.an.Counters) > 0 {
		switch {
		case o.Wrap > 0 && !l.an.WrapSafe:
			return nil, fmt.Errorf("cannot keep counters %s modulo %d: %s", strings.Join(l.an.Counters, ", "), o.Wrap, l.an.WrapBlocker)
		case o.Wrap > 0 && o.Bound > 0:
			return nil, fmt.Errorf("Wrap and Bound exclude each other")
		case o.Wrap > 0:
			l.notes = append(l.notes, fmt.Sprintf("counters %s kept modulo %d (an abstraction: sound while the values compared for equality differ by less than %d)",
				strings.Join(l.an.Counters, ", "), o.Wrap, o.Wrap))
		case o.Bound > 0:
			l.notes = append(l.notes, fmt.Sprintf("counters %s asserted to stay within ±%d (exact while they do)",
				strings.Join(l.an.Counters, ", "), o.Bound))
		case o.Passages == 0:
			return nil, fmt.Errorf("counters %s grow without bound, so a model where processes loop for ever is infinite: bound Passages or set Wrap",
				strings.Join(l.an.Counters, ", "))
		}
	}
	if o.Passages > 0 {
		l.notes = append(l.notes, fmt.Sprintf("each process makes at most %d passages", o.Passages))
	}
	hasDelay := false
	var missing []string
	for _, op := range a.Ops() {
		l.walk(op.Code, func(s ir.Stmt) {
			if _, ok := s.(ir.Delay); ok {
				hasDelay = true
			}
			for _, e := range ir.StmtExprs(s) {
				ir.WalkExpr(e, func(x ir.Expr) {
					if pr, ok := x.(ir.Param); ok && pr.Name != "n" && pr.Name != "k" {
						if _, set := p.Extra[pr.Name]; !set {
							missing = append(missing, pr.Name)
						}
					}
				})
			}
		})
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("no value for parameter %s", missing[0])
	}
	if err := l.checkConstants(); err != nil {
		return nil, err
	}
	if hasDelay {
		l.notes = append(l.notes, "delay(Δ) is a plain step: the model has no time, so timing-based algorithms (Fischer) are expected to fail mutual exclusion")
	}
	return l, l.name()
}

// checkConstants refuses constants the model's integers cannot hold when
// they take part in arithmetic (a 2^32 reader increment): clamping those
// would change sums and remainders. Outside arithmetic (∞ as a sentinel,
// assigned and compared) they are clamped, preserving order; see clamp.
func (l *lower) checkConstants() error {
	hi := l.intMax()
	big := func(e ir.Expr) (ir.Const, bool) {
		c, ok := e.(ir.Const)
		return c, ok && (c.V > hi || c.V < -hi-1)
	}
	var err error
	for _, op := range l.a.Ops() {
		l.walk(op.Code, func(s ir.Stmt) {
			if fa, ok := s.(ir.FetchAdd); ok {
				if c, isBig := big(fa.Delta); isBig && err == nil {
					err = fmt.Errorf("%s line %s: constant %s = %d is added to a register but does not fit the model's %d-bit integers", op.Name, s.Label(), c.Name, c.V, l.intBits())
				}
			}
			for _, e := range ir.StmtExprs(s) {
				ir.WalkExpr(e, func(x ir.Expr) {
					b, ok := x.(ir.Bin)
					if !ok || b.Op.IsCompare() || b.Op == ir.And || b.Op == ir.Or {
						return
					}
					for _, o := range []ir.Expr{b.X, b.Y} {
						if c, isBig := big(o); isBig && err == nil {
							err = fmt.Errorf("%s line %s: constant %s = %d is used in arithmetic (%s) but does not fit the model's %d-bit integers", op.Name, s.Label(), c.Name, c.V, ir.FormatExpr(b), l.intBits())
						}
					}
				})
			}
		})
	}
	return err
}

func (l *lower) intBits() int {
	switch l.intT {
	case "short":
		return 16
	case "byte":
		return 8
	}
	return 32
}

func ident(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r == '_':
			b.WriteRune(r)
		case r >= '0' && r <= '9':
			if i == 0 {
				b.WriteByte('_')
			}
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}

// take reserves a Promela name for an IR name, renaming on clashes.
func (l *lower) take(want string) string {
	n := ident(want)
	if n == "" {
		n = "v"
	}
	for reserved[n] || l.used[n] || strings.HasPrefix(n, "lg_") || strings.HasPrefix(n, "g_") {
		n = "u_" + n
	}
	l.used[n] = true
	return n
}

func (l *lower) name() error {
	for _, s := range l.a.Shared {
		l.global[s.Name] = l.take(s.Name)
	}
	for _, r := range l.a.Records {
		for _, f := range r.Fields {
			l.field[r.Name+"."+f.Name] = l.take(r.Name + "_" + f.Name)
		}
	}
	next := map[string]int{}
	for _, pr := range l.a.Procs {
		l.procBase[pr.Name] = next[pr.Rec] + 1
		next[pr.Rec] += l.n * pr.Count
	}
	for _, r := range l.a.Records {
		l.recN[r.Name] = next[r.Name]
		if next[r.Name] == 0 {
			return fmt.Errorf("record %s is never allocated per process; records reached only through a pool or the heap are not supported", r.Name)
		}
		if next[r.Name] > 254 {
			return fmt.Errorf("record %s: %d records do not fit a byte reference", r.Name, next[r.Name])
		}
	}
	for _, v := range l.a.Locals {
		l.local[v.Name] = l.take(v.Name)
	}
	loopVar := func(v string) {
		if _, dup := l.local[v]; !dup {
			l.local[v] = l.take(v)
		}
	}
	for _, op := range l.a.Ops() {
		l.walk(op.Code, func(s ir.Stmt) {
			if f, ok := s.(ir.For); ok {
				loopVar(f.Var)
			}
			for _, e := range ir.StmtExprs(s) {
				ir.WalkExpr(e, func(x ir.Expr) {
					if q, ok := x.(ir.Quant); ok {
						loopVar(q.Var)
					}
				})
			}
		})
	}
	return nil
}
