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
// comment "/*@ Op|label|statement */"; the SPIN driver (verify/spin) reads
// them to turn a counterexample trail into the paper's line labels.
package promela

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/lockgen/lockgen/templates/ir"
)

// Mode is what the modelled processes do with the lock.
type Mode string

const (
	Mutex      Mode = "mutex"      // every process acquires; at most one in the CS
	KExclusion Mode = "kexclusion" // at most k (ir.Params.K) in the CS
	RW         Mode = "rw"         // writers (Acquire) exclude all, readers (RAcquire) share
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
)

// Options choose what the model contains.
type Options struct {
	Mode Mode // "" means Mutex
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
	Nil                  = "NIL"
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
	l := &lower{a: a, p: p, o: o, an: Analyze(a), n: p.N, k: p.K,
		global: map[string]string{}, field: map[string]string{}, local: map[string]string{},
		recN: map[string]int{}, procBase: map[string]int{}, used: map[string]bool{}}
	if l.o.Mode == "" {
		l.o.Mode = Mutex
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
	if l.o.Mode == RW && l.n == 0 {
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
	switch l.o.Mode {
	case Mutex:
		l.k = 1
		l.roles = []role{{name: "Proc", count: l.n, writer: true, acquire: a.Acquire, release: a.Release, try: a.TryAcquire,
			acqName: "Acquire", relName: "Release", tryName: "TryAcquire"}}
	case KExclusion:
		if l.k < 1 || l.k > l.n {
			return nil, fmt.Errorf("k-exclusion with k = %d and n = %d", l.k, l.n)
		}
		l.roles = []role{{name: "Proc", count: l.n, writer: true, acquire: a.Acquire, release: a.Release, try: a.TryAcquire,
			acqName: "Acquire", relName: "Release", tryName: "TryAcquire"}}
	case RW:
		if a.RAcquire == nil || a.RRelease == nil {
			return nil, fmt.Errorf("rw mode needs the reader operations RAcquire and RRelease")
		}
		if o.Readers+o.Writers != l.n || o.Readers < 0 || o.Writers < 0 {
			return nil, fmt.Errorf("rw mode: %d readers + %d writers, but n = %d", o.Readers, o.Writers, l.n)
		}
		if o.Checks&(FIFO|StrongFIFO|BoundedWaiting) != 0 {
			return nil, fmt.Errorf("FIFO and bounded-waiting instrumentation are not supported in rw mode (doorways are the writer's only)")
		}
		if o.Writers > 0 {
			l.roles = append(l.roles, role{name: "Writer", count: o.Writers, writer: true, acquire: a.Acquire, release: a.Release,
				try: a.TryAcquire, acqName: "Acquire", relName: "Release", tryName: "TryAcquire"})
		}
		if o.Readers > 0 {
			l.roles = append(l.roles, role{name: "Reader", first: o.Writers, count: o.Readers, acquire: a.RAcquire, release: a.RRelease,
				try: a.TryRAcquire, acqName: "RAcquire", relName: "RRelease", tryName: "TryRAcquire"})
		}
	default:
		return nil, fmt.Errorf("unknown mode %q", o.Mode)
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
	if o.Checks&(FIFO|StrongFIFO|BoundedWaiting|WriterPriority) != 0 {
		if a.DoorwayEnd == "" {
			return nil, fmt.Errorf("FIFO, bounded-waiting and writer-priority instrumentation need Algorithm.DoorwayEnd")
		}
		if l.n > 8 {
			return nil, fmt.Errorf("FIFO, bounded-waiting and writer-priority instrumentation support at most 8 processes")
		}
	}
	if o.Checks&WriterPriority != 0 && o.Mode != RW {
		return nil, fmt.Errorf("writer-priority instrumentation needs rw mode")
	}
	if o.Checks&BoundedWaiting != 0 && (o.Overtakes < 0 || o.Overtakes > 254) {
		return nil, fmt.Errorf("bounded waiting: Overtakes = %d, want 0..254", o.Overtakes)
	}
	for _, w := range o.Watch {
		if w < 0 || w >= l.n {
			return nil, fmt.Errorf("bounded waiting: watched process %d, want 0..%d", w, l.n-1)
		}
	}
	if o.Checks&Starvation != 0 && o.Checks&DeadlockFreedom != 0 {
		return nil, fmt.Errorf("one LTL claim per model: choose Starvation or DeadlockFreedom")
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
		ir.WalkStmts(op.Code, func(s ir.Stmt) {
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
		ir.WalkStmts(op.Code, func(s ir.Stmt) {
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
		ir.WalkStmts(op.Code, func(s ir.Stmt) {
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

// ---- output ----------------------------------------------------------------

func (l *lower) raw(s string) {
	l.flush()
	l.out.WriteString(s + "\n")
}

// emit writes one line of the current statement, with its Promela label (if
// not yet written) and marker.
func (l *lower) emit(s string) {
	l.flush()
	l.write(s)
}

// write is emit without closing the open step.
func (l *lower) write(s string) {
	lbl := ""
	if l.label != "" {
		lbl = l.label + ":"
		l.label = ""
	}
	line := lbl + "\t" + strings.Repeat("\t", l.ind) + s
	if l.mark != "" {
		line += "\t/*@ " + l.mark + " */"
	}
	l.raw(line)
}

// marker is the comment the driver maps trail lines with.
func marker(op, label, text string) string {
	text = strings.ReplaceAll(text, "*/", "* /")
	text = strings.ReplaceAll(text, "|", "¦")
	return op + "|" + label + "|" + text
}

// promelaLabel turns a paper label into a unique Promela label.
func (l *lower) promelaLabel(paper string) string {
	if paper == "" {
		return ""
	}
	base := "L" + strings.TrimPrefix(ident(paper), "_")
	l.labels[base]++
	if c := l.labels[base]; c > 1 {
		return fmt.Sprintf("%s_%d", base, c)
	}
	return base
}

// step writes one transition: a single statement, or an atomic sequence
// holding at most one shared access plus local bookkeeping. With
// Options.Fold the step stays open for the local work after it (see
// work), and takes in local work left open before it, unless it blocks
// (guard) or is a goto target (labels lg_*).
func (l *lower) step(parts ...string) { l.visible(false, parts) }

// guard writes a step that blocks until its first part holds.
func (l *lower) guard(parts ...string) { l.visible(true, parts) }

func (l *lower) visible(blocks bool, parts []string) {
	ps := nonEmpty(parts...)
	if !l.o.Fold {
		l.write(stepText(ps))
		return
	}
	if o := l.open; o != nil && o.resets && !blocks {
		// Resets only: they join the step (a goto target keeps its label:
		// the locals are dead on every way in).
		o.parts = append(o.parts, ps...)
		o.visible, o.resets, o.label, o.mark = true, false, l.label, l.mark
		l.label = ""
		return
	}
	if o := l.open; o != nil && !o.visible && !blocks && !strings.HasPrefix(l.label, "lg_") {
		o.parts = append(o.parts, ps...)
		o.visible, o.mark = true, l.mark // the trail names the shared access
		l.label = ""
		return
	}
	l.flush()
	l.open = &openStep{parts: ps, visible: true, label: l.label, mark: l.mark, ind: l.ind}
	l.label = ""
}

// work writes local work: a step of its own, or with Options.Fold part
// of the open step (a new one if none is open).
func (l *lower) work(parts ...string) {
	ps := nonEmpty(parts...)
	if !l.o.Fold {
		l.write(stepText(ps))
		return
	}
	if len(ps) == 0 {
		return
	}
	if o := l.open; o != nil {
		o.parts = append(o.parts, ps...)
		if o.resets {
			o.resets, o.label, o.mark = false, l.label, l.mark
		}
		l.label = ""
		return
	}
	l.open = &openStep{parts: ps, label: l.label, mark: l.mark, ind: l.ind}
	l.label = ""
}

// dead resets locals left dead (Options.Fold): work that the next
// statement's step, or its work, takes in and names.
func (l *lower) dead(resets []string) {
	resets = l.needed(resets)
	if len(resets) == 0 {
		return
	}
	fresh := l.open == nil
	l.work(resets...)
	if fresh {
		l.open.resets = true
	}
}

// openStep is a transition still being assembled (Options.Fold): at most
// one shared access or ghost update (visible), first if it blocks, and
// local work.
type openStep struct {
	prefix  string // ":: " when the step is a do- or if-option
	parts   []string
	visible bool
	resets  bool // only resets so far (never an option): the next statement names the step
	label   string
	mark    string
	ind     int
}

// flush writes the open step, if any.
func (l *lower) flush() {
	o := l.open
	if o == nil {
		return
	}
	l.open = nil
	label, mark, ind := l.label, l.mark, l.ind
	l.label, l.mark, l.ind = o.label, o.mark, o.ind
	l.write(o.prefix + stepText(o.parts))
	l.label, l.mark, l.ind = label, mark, ind
}

// option starts a do- or if-option guarded by cond, with work done when it
// is taken. With Options.Fold, when cond reads no shared memory, the option
// stays open: its first step and local work join the guard's transition.
func (l *lower) option(cond string, local bool, work ...string) {
	ps := append([]string{cond}, nonEmpty(work...)...)
	if !l.o.Fold || !local {
		if len(ps) == 1 {
			l.emit(":: " + cond + " ->")
		} else {
			l.emit(":: " + atomicGuard(cond, strings.Join(ps[1:], "; "), "") + ";")
		}
		return
	}
	l.flush()
	l.open = &openStep{prefix: ":: ", parts: ps, label: l.label, mark: l.mark, ind: l.ind}
	l.label = ""
}

// stepText is one transition's text.
func stepText(ps []string) string {
	body := strings.Join(ps, "; ")
	switch {
	case body == "":
		return "skip;"
	case strings.ContainsAny(body, ";") || strings.Contains(body, "->") || strings.HasPrefix(body, "if "):
		return "atomic { " + body + " };"
	}
	return body + ";"
}

// ---- types and names -------------------------------------------------------

func (l *lower) ptype(t ir.Type) string {
	switch t.Kind {
	case ir.Bool:
		return "bool"
	case ir.Ref:
		return "byte"
	}
	return l.intT
}

func (l *lower) localType(name string) ir.Type {
	if l.loopVars[name] {
		return ir.TInt
	}
	if v := l.a.LocalVar(name); v != nil {
		return v.Type
	}
	return ir.TInt // loop variables outside their loop (declarations)
}

func (l *lower) locType(loc ir.Loc) ir.Type {
	switch loc := loc.(type) {
	case ir.Var:
		return l.a.SharedVar(loc.Name).Type
	case ir.Fld:
		return l.a.Record(l.a.RefRecord(loc.Ref)).Field(loc.Name).Type
	}
	return ir.TInt
}

// temp allocates a temporary of type t for the current statement.
func (l *lower) temp(t ir.Type) string {
	pt := l.ptype(t)
	i := 0
	for _, v := range l.live {
		if v.typ == pt {
			i++
		}
	}
	name := fmt.Sprintf("lg_%s%d", pt, i)
	l.temps[name] = pt
	l.live = append(l.live, tempVar{name, pt})
	return name
}

// release ends the temporaries allocated since mark and returns the
// statements that reset them.
func (l *lower) release(mark int) string {
	var rs []string
	for _, v := range l.live[mark:] {
		rs = append(rs, v.name+" = 0")
	}
	l.live = l.live[:mark]
	return strings.Join(rs, "; ")
}

// ---- expressions -----------------------------------------------------------

// loads counts the read steps of e for the choice between one step and a
// flattened evaluation: a quantifier is a loop, so it always counts as many.
func loads(e ir.Expr) int {
	n := len(ir.Loads(e))
	ir.WalkExpr(e, func(x ir.Expr) {
		if _, ok := x.(ir.Quant); ok {
			n += 2
		}
	})
	return n
}

// pe prints an expression; loads are printed in place (the caller has made
// sure at most one is left, so that the expression is one read step).
func (l *lower) pe(e ir.Expr) string {
	switch e := e.(type) {
	case ir.Const:
		return fmt.Sprint(l.clamp(e.V, e.Name))
	case ir.BoolConst:
		if e.V {
			return "true"
		}
		return "false"
	case ir.Nil:
		return Nil
	case ir.Param:
		return fmt.Sprint(l.param(e.Name))
	case ir.Self:
		return "lg_me"
	case ir.LocalRef:
		if e.Index != nil {
			return l.local[e.Name] + "[" + l.pe(e.Index) + "]"
		}
		return l.local[e.Name]
	case ir.Load:
		return l.ploc(e.From, l.pe)
	case ir.Mine:
		return l.mine(e, l.pe)
	case ir.Not:
		return "!" + l.paren(l.pe(e.X))
	case ir.Bin:
		return l.bin(e, l.pe(e.X), l.pe(e.Y))
	case ir.Quant:
		return l.fe(e) // a loop of steps, never one expression
	}
	l.errf("expression %T", e)
	return "0"
}

func (l *lower) paren(s string) string {
	if simple(s) {
		return s
	}
	return "(" + s + ")"
}

// simple reports whether s needs no parentheses: a name, a number, a name
// with one index, or an already parenthesised expression.
func simple(s string) bool {
	if s == "" {
		return true
	}
	if s[0] == '(' || s[0] == '!' {
		return s[0] == '(' && closes(s, 0) == len(s)-1
	}
	i := 0
	for i < len(s) && (s[i] == '_' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || s[i] >= '0' && s[i] <= '9') {
		i++
	}
	if i == len(s) {
		return true
	}
	return i > 0 && s[i] == '[' && closes(s, i) == len(s)-1
}

// closes returns the index of the bracket closing the one at s[i].
func closes(s string, i int) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

var pOp = map[ir.Op]string{
	ir.Add: "+", ir.Sub: "-", ir.Mul: "*", ir.Div: "/", ir.Mod: "%",
	ir.Eq: "==", ir.Ne: "!=", ir.Lt: "<", ir.Le: "<=", ir.Gt: ">", ir.Ge: ">=",
	ir.And: "&&", ir.Or: "||",
}

func (l *lower) bin(e ir.Bin, x, y string) string {
	if l.o.Wrap > 0 && (e.Op == ir.Eq || e.Op == ir.Ne) && (l.an.dynExpr(e.X) || l.an.dynExpr(e.Y)) {
		// Counters are kept modulo Wrap; compare residues.
		return fmt.Sprintf("((%s - %s) %% %d %s 0)", l.paren(x), l.paren(y), l.o.Wrap, pOp[e.Op])
	}
	return "(" + l.paren(x) + " " + pOp[e.Op] + " " + l.paren(y) + ")"
}

func (l *lower) param(name string) int64 {
	switch name {
	case "n":
		return int64(l.n)
	case "k":
		return int64(l.k)
	}
	return l.p.Extra[name]
}

// ploc prints a location, printing sub-expressions with sub.
func (l *lower) ploc(loc ir.Loc, sub func(ir.Expr) string) string {
	switch loc := loc.(type) {
	case ir.Var:
		n := l.global[loc.Name]
		if loc.Index == nil {
			return n
		}
		return n + "[" + sub(loc.Index) + "]"
	case ir.Fld:
		// Record r lives at index r-1: dereferencing NIL (0) indexes -1,
		// which SPIN reports as an invalid array index (Go: nil dereference).
		return l.field[l.a.RefRecord(loc.Ref)+"."+loc.Name] + "[" + l.paren(sub(loc.Ref)) + "-1]"
	}
	l.errf("location %T", loc)
	return "0"
}

// mine is the number of the process's own record: the paper's allocation,
// records of process i at fixed indices.
func (l *lower) mine(m ir.Mine, sub func(ir.Expr) string) string {
	pr := l.a.ProcRecs(m.Name)
	base := l.procBase[m.Name]
	self := "lg_me"
	if pr.Count > 1 {
		self = fmt.Sprintf("lg_me*%d", pr.Count)
	}
	if c, ok := m.Index.(ir.Const); ok {
		return fmt.Sprintf("(%s + %d)", self, base+int(c.V))
	}
	return fmt.Sprintf("(%s + %d + %s)", self, base, l.paren(sub(m.Index)))
}

// fe flattens an expression: each load becomes its own read step into a
// temporary, in evaluation order, with && and || short-circuiting. It
// returns an expression over locals and temporaries only.
func (l *lower) fe(e ir.Expr) string {
	if loads(e) == 0 {
		return l.pe(e)
	}
	switch e := e.(type) {
	case ir.LocalRef:
		return l.local[e.Name] + "[" + l.fe(e.Index) + "]"
	case ir.Quant:
		return l.quant(e)
	case ir.Load:
		src := l.ploc(e.From, l.fe)
		t := l.temp(l.locType(e.From))
		l.step(t + " = " + src)
		return t
	case ir.Not:
		return "!" + l.paren(l.fe(e.X))
	case ir.Mine:
		return l.mine(e, l.fe)
	case ir.Bin:
		if (e.Op == ir.And || e.Op == ir.Or) && ir.HasLoad(e.Y) {
			x := l.fe(e.X)
			t := l.temp(ir.TBool)
			guard := x
			if e.Op == ir.Or {
				guard = "!" + l.paren(x)
			}
			l.emit("if")
			l.emit(":: " + l.paren(guard) + " ->")
			l.ind++
			y := l.fe(e.Y)
			l.step(t + " = " + y)
			l.ind--
			if e.Op == ir.Or {
				l.emit(":: else -> " + t + " = true;")
			} else {
				l.emit(":: else")
			}
			l.emit("fi;")
			return t
		}
		x := l.fe(e.X)
		y := l.fe(e.Y)
		return l.bin(e, x, y)
	}
	l.errf("expression %T", e)
	return "0"
}

// quant lowers ∀/∃ as the Go backend does: a loop over the elements, each
// test its own read step(s), stopping at the first element that decides.
// The result goes to a boolean temporary; the loop variable is reset on
// every way out.
func (l *lower) quant(q ir.Quant) string {
	if ir.HasLoad(q.From) || ir.HasLoad(q.To) {
		l.errf("a quantifier whose bounds read shared memory")
		return "false"
	}
	t := l.temp(ir.TBool)
	v := l.local[q.Var]
	l.loopVars[q.Var] = true
	defer delete(l.loopVars, q.Var)
	all, decided := "true", "false"
	if !q.All {
		all, decided = "false", "true"
	}
	l.work(t+" = "+all, v+" = "+l.pe(q.From))
	cond := "(" + v + " <= " + l.paren(l.pe(q.To)) + ")"
	if l.o.Fold && loads(q.Body) <= 1 {
		// Each element is one step: the bound test, the element's read
		// (in place, so no temporary) and what it decides.
		b := l.paren(l.pe(q.Body))
		hit, miss := b, "!"+b // the element decides, or the scan goes on
		if q.All {
			hit, miss = miss, hit
		}
		stop, next := cond+" && "+hit, cond+" && "+miss
		if q.SkipSelf {
			stop = cond + " && (" + v + " != lg_me) && " + hit
			next = cond + " && ((" + v + " == lg_me) || " + miss + ")"
		}
		l.emit("do")
		l.emit(":: atomic { " + stop + " -> " + t + " = " + decided + "; " + v + " = 0 }; break;")
		l.emit(":: atomic { " + next + " -> " + v + "++ };")
		l.emit(":: atomic { !" + cond + " -> " + v + " = 0 }; break;")
		l.emit("od;")
		return t
	}
	l.emit("do")
	l.emit(":: " + cond + " ->")
	l.ind++
	if q.SkipSelf {
		l.emit("if")
		l.emit(":: (" + v + " == lg_me)")
		l.emit(":: else ->")
		l.ind++
	}
	mark := len(l.live)
	var b string
	if loads(q.Body) <= 1 {
		b = l.pe(q.Body)
	} else {
		b = l.fe(q.Body)
	}
	rs := l.release(mark)
	hit := l.paren(b)
	if q.All {
		hit = "!" + hit
	}
	l.emit("if")
	l.emit(":: atomic { " + hit + " -> " + strings.Join(nonEmpty(t+" = "+decided, v+" = 0", rs), "; ") + " }; break;")
	if rs == "" {
		l.emit(":: else")
	} else {
		l.emit(":: " + atomicGuard("!"+l.paren(hit), rs, "") + ";")
	}
	l.emit("fi;")
	if q.SkipSelf {
		l.ind--
		l.emit("fi;")
	}
	l.emit(v + "++;")
	l.ind--
	l.emit(":: atomic { !" + cond + " -> " + v + " = 0 }; break;")
	l.emit("od;")
	return t
}

// value prints an expression for a step that is not itself a shared
// access: a single load may stay in place (the step is that read).
func (l *lower) value(e ir.Expr) string {
	if loads(e) <= 1 {
		return l.pe(e)
	}
	return l.fe(e)
}

// wrapTo reduces v modulo Wrap when it is stored into a counter.
func (l *lower) wrapTo(counter bool, e ir.Expr, v string) string {
	if l.o.Wrap == 0 || !counter {
		return v
	}
	switch e.(type) {
	case ir.LocalRef, ir.Load:
		return v // already a residue
	}
	return fmt.Sprintf("((%s %% %d + %d) %% %d)", l.paren(v), l.o.Wrap, l.o.Wrap, l.o.Wrap)
}

func (l *lower) counterLoc(loc ir.Loc) bool { return l.an.set[l.an.a.locKey(loc)] }
func (l *lower) counterLocal(n string) bool { return l.an.set["L:"+n] }

// checkMine emits a range check for per-process record indices computed at
// run time (Go: index out of range).
func (l *lower) checkMine(s ir.Stmt) {
	for _, e := range ir.StmtExprs(s) {
		ir.WalkExpr(e, func(x ir.Expr) {
			if m, ok := x.(ir.Mine); ok && loads(m.Index) == 0 && l.inScope(m.Index) {
				if _, isConst := m.Index.(ir.Const); !isConst {
					idx := l.pe(m.Index)
					l.step(fmt.Sprintf("assert(0 <= %s && %s < %d)", idx, idx, l.a.ProcRecs(m.Name).Count))
				}
			}
		})
	}
}

// inScope reports whether every local e reads is declared or a loop
// variable of an enclosing For (not a quantifier's, bound inside e).
func (l *lower) inScope(e ir.Expr) bool {
	ok := true
	ir.WalkExpr(e, func(x ir.Expr) {
		if r, isRef := x.(ir.LocalRef); isRef && l.a.LocalVar(r.Name) == nil && !l.loopVars[r.Name] {
			ok = false
		}
	})
	return ok
}

// ---- statements ------------------------------------------------------------

// stmts lowers code; with Options.Fold each statement is followed by the
// resets of the locals it leaves dead (l.cont is what is live after code).
func (l *lower) stmts(code ir.Code) { l.stmtsThen(code, nil) }

// stmtsThen is stmts followed by local work end (Options.Fold only). A
// statement that can end with local work (takesTail) takes its resets, and
// end if it is the last, at each of its ends: after an if or a loop they
// would otherwise be a step of their own wherever no shared access follows
// to join (the end of a branch or of a loop body).
func (l *lower) stmtsThen(code ir.Code, end []string) {
	if !l.o.Fold {
		for _, s := range code {
			l.stmt(s)
		}
		return
	}
	cont := l.cont
	defer func() { l.cont = cont }()
	for i, s := range code {
		l.cont = l.liveSeq(code[i+1:], cont)
		resets := l.deadResets(s)
		last := i == len(code)-1
		if takesTail(s) && !l.inlinable(s) && (last || !l.takesWork(code[i+1])) {
			l.tail = resets
			if last {
				l.tail = append(l.tail, end...)
			}
			l.stmt(s)
			continue
		}
		l.stmt(s)
		l.dead(resets)
		if last {
			l.work(l.needed(end)...)
		}
	}
	if len(code) == 0 {
		l.work(l.needed(end)...)
	}
}

// takesTail reports whether s can end with local work (l.tail) on each way
// out, such as a for-loop's increment (see forLoop): an if, a repeat, a
// while testing at most one register, an await re-reading several.
func takesTail(s ir.Stmt) bool {
	switch s := s.(type) {
	case ir.If, ir.Repeat:
		return true
	case ir.While:
		return loads(s.Cond) <= 1
	case ir.Await:
		return loads(s.Cond) > 1
	}
	return false
}

// takesWork reports whether s starts with a step that local work left
// open before it joins (Options.Fold).
func (l *lower) takesWork(s ir.Stmt) bool {
	switch s.(type) {
	case ir.Set, ir.Write, ir.Swap, ir.CAS, ir.FetchAdd:
		return true
	}
	return l.inlinable(s)
}

// loopBody lowers a loop body whose next iteration starts with head live.
func (l *lower) loopBody(head live, lower func()) {
	cont := l.cont
	l.cont = head
	lower()
	l.cont = cont
}

// block writes a statement list as the body of an option; an empty body
// is nothing (the guard alone).
func (l *lower) block(code ir.Code) { l.blockThen(code, nil) }

// blockThen is block followed by local work end.
func (l *lower) blockThen(code ir.Code, end []string) {
	l.ind++
	l.stmtsThen(code, end)
	l.ind--
}

func (l *lower) stmt(s ir.Stmt) {
	saveMark := l.mark
	l.mark = marker(l.op, s.Label(), ir.FormatHead(s))
	l.label = l.promelaLabel(s.Label())
	defer func() { l.mark = saveMark; l.label = "" }()

	var ghost []string
	if l.op == l.curAcquire && l.a.EndsDoorway(s) {
		if l.o.Checks&StrongFIFO != 0 {
			ghost = append(ghost, "g_ahead[lg_me] = g_dw")
		}
		if l.o.Checks&(FIFO|StrongFIFO|WriterPriority) != 0 {
			ghost = append(ghost, "g_dw = g_dw | (1 << lg_me)")
		}
		if l.o.Checks&BoundedWaiting != 0 {
			// Idempotent: a doorway redone on a retry does not restart the count.
			if l.o.Watch == nil {
				ghost = append(ghost, "g_bw = g_bw | (1 << lg_me)")
			} else {
				ghost = append(ghost, fmt.Sprintf("g_bw = g_bw | ((1 << lg_me) & %d)", l.watchMask()))
			}
		}
	}
	gh := strings.Join(ghost, "; ")
	if _, isSet := s.(ir.Set); l.o.Fold && !isSet && gh == "" && l.inlinable(s) {
		// An if or for-loop doing only local work: one piece of work.
		l.work(l.inline(s))
		l.mayBeSet(s)
		return
	}
	l.checkMine(s)
	mark := len(l.live)

	switch s.(type) {
	case ir.Set, ir.Swap, ir.CAS, ir.FetchAdd:
		defer l.mayBeSet(s)
	case ir.While, ir.Repeat, ir.For:
		l.mayBeSet(s) // the loop head: what the loop assigns may be set
	}
	switch s := s.(type) {
	case ir.Set:
		parts := append(l.assign(s), l.release(mark), gh)
		if gh == "" && loads(s.Val) != 1 { // no read in place: local work
			l.work(parts...)
		} else {
			l.step(parts...)
		}
	case ir.Write:
		loc := l.ploc(s.To, l.fe)
		v := l.fe(s.Val)
		c := l.counterLoc(s.To)
		l.step(loc+" = "+l.wrapTo(c, s.Val, v), l.bound(c && l.an.dynExpr(s.Val), loc), l.release(mark), gh)
	case ir.Swap:
		loc := l.ploc(s.To, l.fe)
		c := l.counterLoc(s.To)
		v := l.wrapTo(c, s.Val, l.fe(s.Val))
		c = c && l.an.dynExpr(s.Val)
		if s.Dst == "" {
			l.step(loc+" = "+v, l.bound(c, loc), l.release(mark), gh)
			break
		}
		// Keep the old value aside: Val may read Dst (MCS line 3).
		old := l.temp(l.locType(s.To))
		l.step(old+" = "+loc, loc+" = "+v, l.bound(c, loc), l.local[s.Dst]+" = "+old, l.release(mark), gh)
	case ir.CAS:
		loc := l.ploc(s.To, l.fe)
		oldv := l.fe(s.Old)
		c := l.counterLoc(s.To)
		newv := l.wrapTo(c, s.New, l.fe(s.New))
		eq := l.bin(ir.Bin{Op: ir.Eq, X: ir.Load{From: s.To}, Y: s.Old}, loc, oldv)
		set := strings.Join(nonEmpty(loc+" = "+newv, l.bound(c && l.an.dynExpr(s.New), loc)), "; ")
		var body string
		if s.Dst == "" {
			body = fmt.Sprintf("if :: %s -> %s :: else fi", eq, set)
		} else {
			d := l.local[s.Dst]
			body = fmt.Sprintf("if :: %s -> %s; %s = true :: else -> %s = false fi", eq, set, d, d)
		}
		l.step(body, l.release(mark), gh)
	case ir.FetchAdd:
		loc := l.ploc(s.To, l.fe)
		d := l.fe(s.Delta)
		sum := ir.Bin{Op: ir.Add, X: ir.Load{From: s.To}, Y: s.Delta}
		c := l.counterLoc(s.To)
		nv := l.wrapTo(c, sum, loc+" + "+l.paren(d))
		if s.Dst == "" {
			l.step(loc+" = "+nv, l.bound(c, loc), l.release(mark), gh)
			break
		}
		old := l.temp(l.locType(s.To))
		l.step(old+" = "+loc, loc+" = "+nv, l.bound(c, loc), l.local[s.Dst]+" = "+old, l.release(mark), gh)
	case ir.If:
		// What only the test reads is dead in both branches: reset in the
		// guards. A tail (forLoop) ends both branches.
		tail := l.tail
		l.tail = nil
		then, els := func() { l.blockThen(s.Then, tail) }, func() { l.blockThen(s.Else, tail) }
		dead := l.condResets(s)
		guarded := l.minusResets(l.nz, dead) // what branch leaves non-zero past the guard
		l.branch(s.Cond, then, els, len(s.Else) > 0 || len(l.kept(tail, guarded)) > 0, dead...)
		l.after(gh)
	case ir.While:
		tail := l.tail // forLoop's increment: part of the exit step
		l.tail = nil
		head := l.loopHead(uses(s.Cond), l.cont, s.Body)
		nz, exit := l.nz, l.kept(tail, l.nz) // the loop leaves from its head
		l.loop(s.Cond, func() { l.loopBody(head, func() { l.block(s.Body) }) }, strings.Join(exit, "; "))
		l.nz = l.minusResets(nz, exit)
		l.after(gh)
	case ir.Repeat:
		tail := l.tail // work on the way out: the until test's break
		l.tail = nil
		l.emit("do")
		l.emit("::")
		l.ind++
		head := l.liveStmt(s, l.cont)
		l.loopBody(uses(s.Until).union(l.cont).union(head), func() { l.stmts(s.Body) })
		l.mark = marker(l.op, s.Label(), "until "+ir.FormatExpr(s.Until))
		l.branch(s.Until, func() {
			l.ind++
			if w := l.needed(tail); len(w) > 0 {
				l.work(w...)
			}
			l.emit("break;")
			l.ind--
		}, nil, false)
		l.ind--
		l.emit("od;")
		l.after(gh)
	case ir.For:
		l.forLoop(s)
		l.after(gh)
	case ir.Await:
		if loads(s.Cond) <= 1 {
			// One read: a blocking guard (the process waits until the
			// register lets it through).
			l.guard(l.paren(l.pe(s.Cond)), gh)
			break
		}
		// Several reads: re-read them until the condition holds.
		exit := strings.Join(l.needed(l.tail), "; ") // work on the way out
		l.tail = nil
		l.emit("do")
		l.emit("::")
		l.ind++
		c := l.fe(s.Cond)
		rs := l.release(mark)
		l.emit("if")
		l.emit(":: " + atomicGuard(l.paren(c), strings.Join(nonEmpty(rs, exit), "; "), gh) + "; break;")
		l.emit(":: " + atomicGuard("!"+l.paren(c), rs, "") + ";")
		l.emit("fi;")
		l.ind--
		l.emit("od;")
	case ir.Succeed:
		l.gotoCS = true
		l.emit("goto lg_cs;")
	case ir.Fail:
		l.gotoEnd = true
		l.emit("goto lg_end;")
	case ir.Delay:
		// No time in the model: Δ (or a backoff) is one step like any
		// other; reads in its duration are still steps.
		if s.Dur != nil && loads(s.Dur) > 0 {
			l.fe(s.Dur)
		}
		l.step("skip", l.release(mark), gh)
	case ir.FreeRecord:
		// The paper's allocation: records stay with their process.
		if gh != "" {
			l.step(gh)
		}
	default:
		l.errf("statement %T", s)
	}
}

// assign is a Set's assignment and its counter bound check; the index's
// reads come first, each a step, and a single read of the value stays in
// place.
func (l *lower) assign(s ir.Set) []string {
	dst := l.local[s.Dst]
	if s.Index != nil {
		dst += "[" + l.fe(s.Index) + "]"
	}
	c := l.counterLocal(s.Dst)
	return []string{dst + " = " + l.wrapTo(c, s.Val, l.value(s.Val)), l.bound(c && l.an.dynExpr(s.Val), dst)}
}

// inlinable reports whether s does only local work (Options.Fold): sets,
// ifs and for-loops that read no shared memory, end no doorway and compute
// no record index (which needs a range check of its own).
func (l *lower) inlinable(s ir.Stmt) bool {
	if l.op == l.curAcquire && l.a.EndsDoorway(s) {
		return false
	}
	for _, e := range ir.StmtExprs(s) {
		mine := false
		ir.WalkExpr(e, func(x ir.Expr) {
			if _, ok := x.(ir.Mine); ok {
				mine = true
			}
		})
		if loads(e) > 0 || mine {
			return false
		}
	}
	all := func(code ir.Code) bool {
		for _, c := range code {
			if !l.inlinable(c) {
				return false
			}
		}
		return true
	}
	switch s := s.(type) {
	case ir.Set:
		return true
	case ir.If:
		return all(s.Then) && all(s.Else)
	case ir.For:
		return all(s.Body)
	}
	return false
}

// inline prints an inlinable statement as one Promela sequence, with the
// same meaning stmt gives it (the loop variable dead afterwards).
func (l *lower) inline(s ir.Stmt) string {
	seq := func(code ir.Code) string {
		var ps []string
		for _, c := range code {
			ps = append(ps, l.inline(c))
		}
		if len(ps) == 0 {
			return "skip"
		}
		return strings.Join(ps, "; ")
	}
	switch s := s.(type) {
	case ir.Set:
		return strings.Join(nonEmpty(l.assign(s)...), "; ")
	case ir.If:
		return "if :: " + l.paren(l.pe(s.Cond)) + " -> " + seq(s.Then) + " :: else -> " + seq(s.Else) + " fi"
	case ir.For:
		v := l.local[s.Var]
		l.loopVars[s.Var] = true
		defer delete(l.loopVars, s.Var)
		body := seq(s.Body)
		if s.SkipSelf {
			body = "if :: (" + v + " != lg_me) -> " + body + " :: else fi"
		}
		return v + " = " + l.pe(s.From) + "; do :: (" + v + " <= " + l.paren(l.pe(s.To)) + ") -> " + body + "; " + v +
			"++ :: else -> break od; " + v + " = 0"
	}
	l.errf("inline %T", s)
	return "skip"
}

// bound returns the check that a counter stays within the model's bound
// (Options.Bound): a run that trips it is out of its bound, not a failure.
func (l *lower) bound(counter bool, target string) string {
	if l.o.Bound == 0 || !counter {
		return ""
	}
	return fmt.Sprintf("assert(-%s <= %s && %s <= %s)", BoundName, target, target, BoundName)
}

// after writes ghost bookkeeping that belongs to a compound statement.
func (l *lower) after(gh string) {
	if gh != "" {
		l.step(gh)
	}
}

func atomicGuard(cond, resets, more string) string {
	body := strings.Join(nonEmpty(resets, more), "; ")
	if body == "" {
		return cond
	}
	return "atomic { " + cond + " -> " + body + " }"
}

func nonEmpty(xs ...string) []string {
	var out []string
	for _, x := range xs {
		if x != "" {
			out = append(out, x)
		}
	}
	return out
}

// branch writes "if cond then … else … fi". A condition with at most one
// read is the guard itself (one step); with more, the reads come first and
// the guards test the temporaries, resetting them, and the locals in dead.
func (l *lower) branch(cond ir.Expr, then, els func(), hasElse bool, dead ...string) {
	dead = l.needed(dead)
	mark := len(l.live)
	var c string
	if loads(cond) <= 1 {
		c = l.pe(cond)
	} else {
		c = l.fe(cond)
	}
	rs := strings.Join(nonEmpty(append([]string{l.release(mark)}, dead...)...), "; ")
	local := loads(cond) != 1 // the guard tests locals and temporaries only
	l.emit("if")
	l.option(l.paren(c), local, rs)
	atGuard := l.nz
	then()
	afterThen := l.nz
	l.nz = atGuard // the other way starts from the guard too
	defer func() { l.nz = l.nz.union(afterThen) }()
	switch {
	case rs != "" || hasElse && l.o.Fold && local:
		l.option("!"+l.paren(c), local, rs)
	case hasElse:
		l.emit(":: else ->")
	default:
		l.emit(":: else")
	}
	if hasElse && els != nil {
		els()
	}
	l.emit("fi;")
}

// forLoop lowers "for v from a to b" as Go does: b is re-evaluated before
// each iteration, Self is skipped when asked, v is dead (reset) afterwards.
func (l *lower) forLoop(s ir.For) {
	v := l.local[s.Var]
	l.loopVars[s.Var] = true
	defer delete(l.loopVars, s.Var)
	mark := len(l.live)
	from := l.value(s.From)
	if loads(s.From) == 1 {
		l.step(v+" = "+from, l.release(mark))
	} else {
		l.work(v+" = "+from, l.release(mark))
	}
	cond := ir.Expr(ir.Bin{Op: ir.Le, X: ir.LocalRef{Name: s.Var}, Y: s.To})
	head := l.loopHead(uses(s.To).with(s.Var), l.cont, s.Body)
	nz := l.nz
	defer func() { l.nz = nz }() // the loop leaves from its head
	l.loop(cond, func() {
		l.ind++
		tailed := false
		l.loopBody(head, func() {
			last := len(s.Body) - 1
			switch {
			case s.SkipSelf:
				l.emit("if")
				l.emit(":: (" + v + " != lg_me) ->")
				l.block(s.Body)
				l.emit(":: else")
				l.emit("fi;")
			case l.o.Fold && last >= 0 && takesTail(s.Body[last]) && !l.inlinable(s.Body[last]):
				// The increment (and the resets after the last
				// statement) ends both branches of an if, or joins a
				// while's exit, instead of being a step of its own.
				tailed = true
				l.cont = l.liveStmt(s.Body[last], head)
				l.stmts(s.Body[:last])
				l.cont = head
				l.tail = append(l.deadResets(s.Body[last]), v+"++")
				l.stmt(s.Body[last])
			default:
				l.stmts(s.Body)
			}
		})
		switch {
		case tailed:
		case l.o.Fold:
			l.work(v + "++")
		default:
			l.emit(v + "++;")
		}
		l.ind--
	}, v+" = 0")
}

// loop writes "while cond do body": with at most one read the test is the
// guard of the do-options; with more, each iteration reads first. exit is
// local bookkeeping done when leaving (folded into the exit step).
func (l *lower) loop(cond ir.Expr, body func(), exit string) {
	mark := len(l.live)
	l.emit("do")
	if loads(cond) <= 1 {
		c := l.paren(l.pe(cond))
		l.option(c, loads(cond) == 0)
		body()
		if exit == "" {
			l.emit(":: else -> break;")
		} else {
			l.emit(":: atomic { !" + c + " -> " + exit + " }; break;")
		}
		l.emit("od;")
		return
	}
	l.emit("::")
	l.ind++
	c := l.paren(l.fe(cond))
	rs := l.release(mark)
	l.emit("if")
	l.emit(":: " + atomicGuard(c, rs, "") + ";")
	body()
	l.emit(":: " + atomicGuard("!"+c, rs, exit) + "; break;")
	l.emit("fi;")
	l.ind--
	l.emit("od;")
}

// ---- the model -------------------------------------------------------------

func (l *lower) model() error {
	if err := l.body(); err != nil {
		return err
	}
	// The header goes last: lowering the body may add notes.
	body := l.out.String()
	l.out.Reset()
	l.raw(fmt.Sprintf("/* lockgen model of %s: %s, n = %d%s, %s. */", l.a.Name, l.o.Mode, l.n, l.kDesc(), l.passDesc()))
	l.raw("/* Generated from the algorithm's IR definition: do not edit. */")
	for _, nt := range l.notes {
		l.raw("/* note: " + nt + " */")
	}
	l.raw("")
	l.out.WriteString(body)
	return nil
}

func (l *lower) body() error {
	a := l.a
	l.raw(fmt.Sprintf("#define %s 0", Nil))
	if l.o.Bound > 0 && len(l.an.Counters) > 0 {
		l.raw(fmt.Sprintf("hidden int %s = %d;\t/* counters must stay within ±%s */", BoundName, l.o.Bound, BoundName))
	}
	l.raw("")
	var inits []string
	if len(a.Shared) > 0 {
		l.raw("/* shared registers */")
	}
	for _, s := range a.Shared {
		t := l.ptype(s.Type)
		name := l.global[s.Name]
		if !s.IsArray() {
			v := int64(0)
			if s.Init != nil {
				v = l.initVal(s, s.Init(l.pp(), 0))
			}
			l.raw(fmt.Sprintf("%s %s%s;%s", t, name, initSuffix(l.initVal(s, v)), docComment(s.Doc)))
			continue
		}
		n := s.Len(l.pp())
		if n < 1 || n > 1024 {
			return fmt.Errorf("shared array %s has %d elements", s.Name, n)
		}
		vals := make([]int64, n)
		uniform := true
		for i := range vals {
			if s.Init != nil {
				vals[i] = l.initVal(s, s.Init(l.pp(), i))
			}
			uniform = uniform && vals[i] == vals[0]
		}
		if uniform {
			l.raw(fmt.Sprintf("%s %s[%d]%s;%s", t, name, n, initSuffix(vals[0]), docComment(s.Doc)))
			continue
		}
		l.raw(fmt.Sprintf("%s %s[%d];%s", t, name, n, docComment(s.Doc)))
		for i, v := range vals {
			if v != 0 {
				inits = append(inits, fmt.Sprintf("%s[%d] = %d", name, i, v))
			}
		}
	}
	for _, r := range a.Records {
		l.raw(fmt.Sprintf("/* records %s: %s */", r.Name, l.recDesc(r.Name)))
		for _, f := range r.Fields {
			l.raw(fmt.Sprintf("%s %s[%d]%s;%s", l.ptype(f.Type), l.field[r.Name+"."+f.Name], l.recN[r.Name], initSuffix(l.clampType(f.Type, f.Init)), docComment(f.Doc)))
		}
	}
	l.ghosts()
	for i := range l.roles {
		if err := l.proctype(&l.roles[i]); err != nil {
			return err
		}
	}
	l.raw("")
	l.raw("init {")
	l.raw("\tatomic {")
	for _, s := range inits {
		l.raw("\t\t" + s + ";")
	}
	for _, r := range l.roles {
		for i := 0; i < r.count; i++ {
			l.raw(fmt.Sprintf("\t\trun %s(%d);", r.name, r.first+i))
		}
	}
	l.raw("\t}")
	l.raw("}")
	l.claims()
	return nil
}

// pp are the parameters with n as the model's.
func (l *lower) pp() ir.Params {
	p := l.p
	p.N, p.K = l.n, l.k
	return p
}

// initVal reduces a counter's initial value modulo Wrap.
// intMax is the largest value of the model's integers.
func (l *lower) intMax() int64 {
	switch l.intT {
	case "short":
		return 1<<15 - 1
	case "byte":
		return 255
	}
	return 1<<31 - 1
}

// clamp maps a constant outside the model's integers (∞ = MaxInt64 as a
// sentinel) to the nearest representable value. Order and equality with
// every value the model can reach are kept as long as those stay inside
// (the counter bounds make sure of it), so the substitution is recorded
// as a note rather than refused.
func (l *lower) clamp(v int64, name string) int64 {
	hi := l.intMax()
	lo := -hi - 1
	if l.intT == "byte" {
		lo = 0
	}
	if v >= lo && v <= hi {
		return v
	}
	c := hi
	if v < lo {
		c = lo
	}
	what := fmt.Sprint(v)
	if name != "" {
		what = name + " = " + what
	}
	prefix := fmt.Sprintf("constant %d ", v)
	for _, n := range l.notes {
		if strings.HasPrefix(n, prefix) || strings.Contains(n, "= "+fmt.Sprint(v)+" is") {
			return c
		}
	}
	l.notes = append(l.notes, fmt.Sprintf("constant %s is represented by %d, the nearest %s (sound while reachable values stay inside)", what, c, l.intT))
	return c
}

func (l *lower) initVal(s ir.Shared, v int64) int64 {
	if s.Type.Kind == ir.Int {
		v = l.clamp(v, "")
	}
	if l.o.Wrap > 0 && l.an.set["S:"+s.Name] {
		w := int64(l.o.Wrap)
		return (v%w + w) % w
	}
	return v
}

func (l *lower) clampType(t ir.Type, v int64) int64 {
	if t.Kind == ir.Int {
		return l.clamp(v, "")
	}
	return v
}

func initSuffix(v int64) string {
	if v == 0 {
		return ""
	}
	return fmt.Sprintf(" = %d", v)
}

func docComment(doc string) string {
	if doc == "" {
		return ""
	}
	return "\t/* " + strings.ReplaceAll(doc, "*/", "* /") + " */"
}

func (l *lower) kDesc() string {
	switch l.o.Mode {
	case KExclusion:
		return fmt.Sprintf(", k = %d", l.k)
	case RW:
		return fmt.Sprintf(" (%d writers, %d readers)", l.o.Writers, l.o.Readers)
	}
	return ""
}

func (l *lower) passDesc() string {
	if l.o.Passages == 0 {
		return "processes loop for ever"
	}
	return fmt.Sprintf("at most %d passages per process", l.o.Passages)
}

func (l *lower) recDesc(rec string) string {
	var parts []string
	for _, pr := range l.a.Procs {
		if pr.Rec != rec {
			continue
		}
		if pr.Count == 1 {
			parts = append(parts, fmt.Sprintf("%s of process i is record i+%d", pr.Name, l.procBase[pr.Name]))
		} else {
			parts = append(parts, fmt.Sprintf("%s[c] of process i is record %d*i+c+%d", pr.Name, pr.Count, l.procBase[pr.Name]))
		}
	}
	return strings.Join(parts, "; ") + fmt.Sprintf("; record r lives at index r-1, %s = 0", Nil)
}

func (l *lower) ghosts() {
	c := l.o.Checks
	if c == 0 {
		return
	}
	l.raw("")
	l.raw("/* instrumentation (ghost variables, not part of the algorithm) */")
	if c&MutualExclusion != 0 {
		if l.o.Mode == RW {
			l.raw("byte g_nw;\t/* writers in the CS */")
			l.raw("byte g_nr;\t/* readers in the CS */")
		} else {
			l.raw("byte g_ncs;\t/* processes in the CS */")
		}
	}
	if c&(Starvation|DeadlockFreedom) != 0 {
		l.raw(fmt.Sprintf("bool g_trying[%d];\t/* in acquire */", l.n))
		l.raw(fmt.Sprintf("bool g_incs[%d];\t/* in the CS */", l.n))
	}
	if c&(FIFO|StrongFIFO|WriterPriority) != 0 {
		l.raw("byte g_dw;\t/* processes past their doorway, not yet in the CS (bit i) */")
		l.raw(fmt.Sprintf("byte g_ahead[%d];\t/* who must enter before process i */", l.n))
	}
	if c&BoundedWaiting != 0 {
		l.raw("byte g_bw;\t/* processes past their doorway, not yet in the CS (bit i) */")
		l.raw(fmt.Sprintf("byte g_ovt[%d];\t/* entries of others since process i finished its doorway */", l.n))
	}
}

// watchMask is the bit set of the processes whose overtakes the
// BoundedWaiting check counts (Options.Watch; every process when unset).
func (l *lower) watchMask() int {
	if l.o.Watch == nil {
		return 1<<l.n - 1
	}
	m := 0
	for _, w := range l.o.Watch {
		m |= 1 << w
	}
	return m
}

func (l *lower) claims() {
	c := l.o.Checks
	var parts []string
	switch {
	case c&Starvation != 0:
		for i := 0; i < l.n; i++ {
			parts = append(parts, fmt.Sprintf("(g_trying[%d] -> <> g_incs[%d])", i, i))
		}
		l.raw("")
		l.raw(fmt.Sprintf("ltl %s { [] (%s) }", ClaimStarvation, strings.Join(parts, " && ")))
	case c&DeadlockFreedom != 0:
		var tr, in []string
		for i := 0; i < l.n; i++ {
			tr = append(tr, fmt.Sprintf("g_trying[%d]", i))
			in = append(in, fmt.Sprintf("g_incs[%d]", i))
		}
		l.raw("")
		l.raw(fmt.Sprintf("ltl %s { [] ((%s) -> <> (%s)) }", ClaimDeadlockFreedom, strings.Join(tr, " || "), strings.Join(in, " || ")))
	}
}

// assigned returns the locals and loop variables an operation writes.
func assigned(code ir.Code, into map[string]bool) {
	ir.WalkStmts(code, func(s ir.Stmt) {
		switch s := s.(type) {
		case ir.Set:
			into[s.Dst] = true
		case ir.Swap:
			into[s.Dst] = true
		case ir.CAS:
			into[s.Dst] = true
		case ir.FetchAdd:
			into[s.Dst] = true
		case ir.For:
			into[s.Var] = true
		}
	})
	delete(into, "")
}

// resets returns the statements zeroing the dead locals among names. Loop
// variables are zeroed by their loops on the way out, so only a jump
// (Succeed, Fail) can leave them set: loops says whether one may have.
func (l *lower) resets(names map[string]bool, loops bool, scopes ...ir.Scope) string {
	var out []string
	for n := range names {
		if l.a.LocalVar(n) == nil && !loops {
			continue
		}
		sc := ir.Step
		if v := l.a.LocalVar(n); v != nil {
			sc = v.Scope
		}
		for _, want := range scopes {
			if sc != want {
				continue
			}
			if v := l.a.LocalVar(n); v != nil && v.Len != nil {
				for i := 0; i < v.Len(l.pp()); i++ {
					out = append(out, fmt.Sprintf("%s[%d] = 0", l.local[n], i))
				}
				continue
			}
			out = append(out, l.local[n]+" = 0")
		}
	}
	sort.Strings(out)
	return strings.Join(out, "; ")
}

func (l *lower) proctype(r *role) error {
	c := l.o.Checks
	l.labels = map[string]int{}
	l.temps = map[string]string{}
	l.loopVars = map[string]bool{}
	l.gotoCS, l.gotoEnd = false, false
	l.curAcquire = r.acqName

	// The body first (it decides the temporaries), then the header.
	start := l.out.Len()

	l.mark = marker("NCS", "", "remainder section")
	var begin []string
	if l.o.Passages > 0 {
		begin = append(begin, fmt.Sprintf("(lg_pass < %d) -> lg_pass++", l.o.Passages))
	}
	if c&(Starvation|DeadlockFreedom) != 0 {
		begin = append(begin, "g_trying[lg_me] = 1")
	}
	if (c&FIFO != 0 && c&StrongFIFO == 0) || (c&WriterPriority != 0 && !r.writer) {
		begin = append(begin, "g_ahead[lg_me] = g_dw")
	}
	l.raw("end_ncs:")
	l.raw("\tdo")
	l.mark = marker("NCS", "", "begin "+r.acqName)
	l.emit(":: " + atomicSeq(begin))
	l.ind++
	l.op = r.acqName
	l.liveCS = l.liveSeq(r.release, live{})
	l.cont = l.liveCS
	l.nz = live{} // every tracked local is zero in the remainder section
	l.stmts(r.acquire)
	l.ind--

	if r.try != nil {
		l.mark = marker("NCS", "", "begin "+r.tryName)
		l.ind++
		l.emit("goto lg_cs;")
		l.ind--
		var tb []string
		if l.o.Passages > 0 {
			tb = append(tb, fmt.Sprintf("(lg_pass < %d) -> lg_pass++", l.o.Passages))
		}
		l.emit(":: " + atomicSeq(tb))
		l.ind++
		l.op = r.tryName
		l.cont = l.liveCS
		l.nz = live{}
		l.stmts(r.try)
		l.ind--
	}

	// Critical section.
	acqLocals := map[string]bool{}
	assigned(r.acquire, acqLocals)
	if r.try != nil {
		assigned(r.try, acqLocals)
	}
	var enter, leave []string
	if c&MutualExclusion != 0 {
		switch {
		case l.o.Mode == RW && r.writer:
			enter = append(enter, "assert(g_nw == 0 && g_nr == 0)", "g_nw++")
			leave = append(leave, "g_nw--")
		case l.o.Mode == RW:
			enter = append(enter, "assert(g_nw == 0)", "g_nr++")
			leave = append(leave, "g_nr--")
		default:
			enter = append(enter, "g_ncs++", fmt.Sprintf("assert(g_ncs <= %d)", l.k))
			leave = append(leave, "g_ncs--")
		}
	}
	if c&(Starvation|DeadlockFreedom) != 0 {
		enter = append(enter, "g_trying[lg_me] = 0", "g_incs[lg_me] = 1")
		leave = append(leave, "g_incs[lg_me] = 0")
	}
	// FIFO orders every process after those ahead of it; writer priority
	// orders readers after writers, so only readers are checked and only
	// writers leave the doorway set.
	fifo, wp := c&(FIFO|StrongFIFO) != 0, c&WriterPriority != 0
	if fifo || (wp && !r.writer) {
		enter = append(enter, "assert(g_ahead[lg_me] == 0)")
	}
	if fifo || (wp && r.writer) {
		enter = append(enter, "g_dw = g_dw & ~(1 << lg_me)")
		for j := 0; j < l.n; j++ {
			enter = append(enter, fmt.Sprintf("g_ahead[%d] = g_ahead[%d] & ~(1 << lg_me)", j, j))
		}
	}
	if c&BoundedWaiting != 0 {
		// This entry overtakes every process past its doorway.
		enter = append(enter, "g_bw = g_bw & ~(1 << lg_me)", "g_ovt[lg_me] = 0")
		for j := 0; j < l.n; j++ {
			if l.watchMask()&(1<<j) != 0 {
				enter = append(enter, fmt.Sprintf("if :: (g_bw & (1 << %d)) -> g_ovt[%d]++; assert(g_ovt[%d] <= %d) :: else fi", j, j, j, l.o.Overtakes))
			}
		}
	}
	if rs := l.resets(acqLocals, l.gotoCS || l.gotoEnd, ir.Step); rs != "" {
		enter = append(enter, rs)
	}
	l.ind++
	l.mark = marker("CS", "", "enter the critical section")
	if len(enter) > 0 || l.gotoCS || r.try != nil {
		l.label = "lg_cs"
		l.step(enter...)
	}
	l.mark = marker("CS", "", "leave the critical section")
	if len(leave) > 0 {
		l.step(leave...)
	}
	l.op = r.relName
	l.cont = live{}
	l.nz = live{} // entering the CS zeroes the step locals, not the passage ones
	for _, v := range l.a.Locals {
		if l.tracked(v.Name) && v.Scope == ir.Passage {
			l.nz = l.nz.with(v.Name)
		}
	}
	l.stmts(r.release)

	// Back in the remainder: the release's step locals, a failed try's,
	// and every passage local are dead.
	relLocals := map[string]bool{}
	assigned(r.release, relLocals)
	if r.try != nil {
		assigned(r.try, relLocals)
	}
	passLocals := map[string]bool{}
	assigned(r.acquire, passLocals)
	for k := range relLocals {
		passLocals[k] = true
	}
	rs := strings.Join(nonEmpty(l.resets(relLocals, l.gotoEnd, ir.Step), l.resets(passLocals, false, ir.Passage)), "; ")
	l.mark = marker("NCS", "", "back to the remainder section")
	if rs != "" || l.gotoEnd {
		l.label = "lg_end"
		l.step(rs)
	}
	l.ind--
	switch {
	case !l.o.NoHalt:
		l.mark = marker("NCS", "", "stay in the remainder section for ever")
		l.emit(":: break")
	case l.o.Passages > 0:
		l.mark = marker("NCS", "", "all passages done")
		l.emit(fmt.Sprintf(":: (lg_pass >= %d) -> break", l.o.Passages))
	}
	l.mark = ""
	l.raw("\tod")
	l.raw("}")
	body := string(l.out.Bytes()[start:])
	l.out.Truncate(start)

	// Header: parameters, locals, temporaries.
	l.raw("")
	l.raw(fmt.Sprintf("proctype %s(byte lg_me) {", r.name))
	for _, v := range l.a.Locals {
		init := ""
		if v.Scope == ir.Process {
			switch {
			case v.InitMine != nil:
				init = " = " + l.mine(*v.InitMine, l.pe)
			case v.Init != nil:
				if x := l.clampType(v.Type, v.Init(l.pp())); x != 0 {
					init = fmt.Sprintf(" = %d", x)
				}
			}
		}
		scope := map[ir.Scope]string{ir.Step: "step", ir.Passage: "passage", ir.Process: "process"}[v.Scope]
		arr := ""
		if v.Len != nil {
			n := v.Len(l.pp())
			if n < 1 || n > 256 {
				return fmt.Errorf("local array %s has %d elements", v.Name, n)
			}
			if v.InitMine != nil {
				return fmt.Errorf("local array %s: InitMine on an array", v.Name)
			}
			arr = fmt.Sprintf("[%d]", n)
		}
		l.raw(fmt.Sprintf("\t%s %s%s%s;\t/* %s local */", l.ptype(v.Type), l.local[v.Name], arr, init, scope))
	}
	var loopNames []string
	for n := range l.local {
		if l.a.LocalVar(n) == nil {
			loopNames = append(loopNames, n)
		}
	}
	sort.Strings(loopNames)
	for _, n := range loopNames {
		l.raw(fmt.Sprintf("\t%s %s;\t/* loop variable */", l.intT, l.local[n]))
	}
	var tn []string
	for n := range l.temps {
		tn = append(tn, n)
	}
	sort.Strings(tn)
	for _, n := range tn {
		l.raw(fmt.Sprintf("\t%s %s;\t/* temporary */", l.temps[n], n))
	}
	if l.o.Passages > 0 {
		l.raw("\tbyte lg_pass;\t/* passages made */")
	}
	l.out.WriteString(body)
	return nil
}

func atomicSeq(parts []string) string {
	switch len(parts) {
	case 0:
		return "skip;"
	case 1:
		if strings.Contains(parts[0], "->") {
			return "atomic { " + parts[0] + " };"
		}
		return parts[0] + ";"
	}
	return "atomic { " + strings.Join(parts, "; ") + " };"
}
