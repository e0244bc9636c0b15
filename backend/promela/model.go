package promela

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/lockgen/lockgen/ir"
)

// The model: processes, the body of each operation and the property instrumentation.

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
	if l.o.Crashes > 0 {
		l.crasher()
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
	if l.o.Crashes > 0 {
		l.raw("\t\trun " + CrasherRole + "();")
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
	switch {
	case l.o.Mode.Readers():
		return fmt.Sprintf(" (%d writers, %d readers)", l.o.Writers, l.o.Readers)
	case l.o.Mode.TakesK():
		return fmt.Sprintf(", k = %d", l.k)
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
	if c == 0 && l.o.Crashes == 0 {
		return
	}
	l.raw("")
	l.raw("/* instrumentation (ghost variables, not part of the algorithm) */")
	if c&MutualExclusion != 0 {
		if l.o.Mode.Readers() {
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
	if l.patience() {
		l.raw(fmt.Sprintf("bool g_abt[%d];\t/* this passage of process i may give up its waits */", l.n))
	}
	if c&(FIFO|StrongFIFO|WriterPriority|FIFE) != 0 {
		l.raw("byte g_dw;\t/* processes past their doorway, not yet in the CS (bit i) */")
		l.raw(fmt.Sprintf("byte g_ahead[%d];\t/* who must enter before process i */", l.n))
	}
	if c&FIFE != 0 {
		l.raw("byte g_fife;\t/* processes overtaken by a later one, which must now be enabled (bit i) */")
		l.raw(fmt.Sprintf("byte g_fchk[%d];\t/* waits process i re-checked since it was overtaken */", l.n))
	}
	if l.o.Crashes > 0 {
		if l.rendezvousCrash() {
			l.raw(fmt.Sprintf("chan g_crash[%d] = [0] of { bit };\t/* the crasher's rendezvous with process i, which crashes in that step */", l.n))
		} else {
			l.raw(fmt.Sprintf("byte g_victim = %d;\t/* the process to crash at its next step (%d: none) */", noVictim, noVictim))
			l.raw("byte g_ncrash;\t/* crashes so far */")
		}
		l.raw(fmt.Sprintf("bool g_dead[%d];\t/* process i crashed */", l.n))
	}
	if c&Quiescence != 0 {
		l.quietGhosts()
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

// noVictim is g_victim when no crash is pending.
const noVictim = 255

// CrasherRole is the proctype of the ghost process that picks the
// processes to crash (Options.Crashes).
const CrasherRole = "lg_crasher"

// claims writes the LTL claim Checks selects. With crashes it speaks of
// the live processes: a crashed one is neither waited for nor counted as
// entering (one crashed inside the critical section stays in it).
func (l *lower) claims() {
	c := l.o.Checks
	crash := l.o.Crashes > 0
	name := func(n string) string {
		if crash {
			return ClaimCrashTolerance
		}
		return n
	}
	live := func(f string, i int) string {
		if f == "g_trying" && !crash {
			return l.trying(i)
		}
		if crash {
			return fmt.Sprintf("(%s[%d] && !g_dead[%d])", f, i, i)
		}
		return fmt.Sprintf("%s[%d]", f, i)
	}
	var parts []string
	switch {
	case c&Starvation != 0:
		// A process that crashes while trying is no longer owed an entry.
		for i := 0; i < l.n; i++ {
			enters := fmt.Sprintf("g_incs[%d]", i)
			if crash {
				enters = fmt.Sprintf("(g_incs[%d] || g_dead[%d])", i, i)
			}
			parts = append(parts, fmt.Sprintf("(%s -> <> %s)", live("g_trying", i), enters))
		}
		l.raw("")
		l.raw(fmt.Sprintf("ltl %s { %s[] (%s) }", name(ClaimStarvation), l.abortAssumption(), strings.Join(parts, " && ")))
	case c&DeadlockFreedom != 0:
		var tr, in []string
		for i := 0; i < l.n; i++ {
			tr = append(tr, live("g_trying", i))
			in = append(in, live("g_incs", i))
		}
		l.raw("")
		trying, enters := strings.Join(tr, " || "), strings.Join(in, " || ")
		if crash {
			// Live processes that all crash while trying are owed nothing.
			enters += " || !(" + trying + ")"
		}
		l.raw(fmt.Sprintf("ltl %s { %s[] ((%s) -> <> (%s)) }", name(ClaimDeadlockFreedom), l.abortAssumption(), trying, enters))
	}
}

// crasher writes the ghost process that picks the processes to crash: at
// any moment, up to Options.Crashes times, any live process (any live one
// of Options.Victims when set).
func (l *lower) crasher() {
	l.raw("")
	l.raw("proctype " + CrasherRole + "() {")
	if l.rendezvousCrash() {
		l.rendezvousCrasher()
		l.raw("}")
		return
	}
	var pick []string
	for _, i := range l.victims() {
		pick = append(pick, fmt.Sprintf(":: !g_dead[%d] -> g_victim = %d", i, i))
	}
	l.raw("end_crasher:")
	l.raw("\tdo")
	l.raw(fmt.Sprintf("\t:: atomic { (g_ncrash < %d && g_victim == %d) -> g_ncrash++; if %s fi }\t/*@ crash||pick a process to crash */",
		l.o.Crashes, noVictim, strings.Join(pick, " ")))
	l.raw("\t:: break")
	l.raw("\tod")
	l.raw("}")
}

// rendezvousCrash reports whether a crash is one rendezvous between the
// crasher and its victim, whose escape zeroes the victim's locals in the
// same atomic step: the safety (quiescence) form of the crash check. The
// liveness form needs weak fairness, which SPIN's partial order reduction
// does not support beside rendezvous; there the crasher sets g_victim and
// the victim crashes at its next step. In between, the others run on
// beside a victim that still holds its locals, states the rendezvous never
// makes.
func (l *lower) rendezvousCrash() bool { return l.o.Checks&Quiescence != 0 }

// rendezvousCrasher is the crasher's body for rendezvousCrash: Crashes
// choices of a victim in turn. It offers no way to stop crashing, as the
// liveness form's crasher does (for weak fairness): a safety check covers
// every prefix, and a crasher that had stopped would copy every crash-free
// state.
func (l *lower) rendezvousCrasher() {
	for c := 1; c <= l.o.Crashes; c++ {
		l.raw(fmt.Sprintf("end_crash%d:", c))
		l.raw("\tif")
		for _, i := range l.victims() {
			l.raw(fmt.Sprintf("\t:: g_crash[%d]!1\t/*@ crash||crash process %d */", i, i))
		}
		l.raw("\tfi;")
	}
	// Done, it stays in the state vector as it is: a step to its end, or
	// its removal, would copy every state after the last crash.
	l.raw("end_crasher:")
	l.raw("\tfalse\t/* no more crashes: blocked for ever */")
}

// victims are the processes the crasher may pick.
func (l *lower) victims() []int {
	var v []int
	for i := 0; i < l.n; i++ {
		if l.o.Victims == nil || slices.Contains(l.o.Victims, i) {
			v = append(v, i)
		}
	}
	return v
}

// assigned adds the locals and loop variables code writes to into; the
// lowering's method counts abort code too where processes may run it.
func assigned(code ir.Code, into map[string]bool) { assignedBy(ir.WalkStmts, code, into) }

func (l *lower) assigned(code ir.Code, into map[string]bool) { assignedBy(l.walk, code, into) }

func assignedBy(walk walker, code ir.Code, into map[string]bool) {
	walk(code, func(s ir.Stmt) {
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
	l.role = r

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
	if b := l.abortBegin(); b != "" {
		begin = append(begin, b)
	}
	if (c&(FIFO|FIFE) != 0 && c&StrongFIFO == 0) || (c&WriterPriority != 0 && !r.writer) {
		begin = append(begin, "g_ahead[lg_me] = g_dw")
	}
	if c&Quiescence != 0 {
		begin = append(begin, "g_idle = g_idle & ~(1 << lg_me)")
	}
	if l.o.Crashes > 0 {
		l.raw("\t{")
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
	l.assigned(r.acquire, acqLocals)
	if r.try != nil {
		l.assigned(r.try, acqLocals)
	}
	var enter, leave []string
	if c&MutualExclusion != 0 {
		// The mode's invariant: readers share and a writer is alone, or
		// at most mode.Holders(k) (l.k) processes inside.
		switch {
		case l.o.Mode.Readers() && r.writer:
			enter = append(enter, "assert(g_nw == 0 && g_nr == 0)", "g_nw++")
			leave = append(leave, "g_nw--")
		case l.o.Mode.Readers():
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
	enter = append(enter, l.abortEnd(true)...)
	// FIFO orders every process after those ahead of it; writer priority
	// orders readers after writers, so only readers are checked and only
	// writers leave the doorway set.
	fifo, wp, fife := c&(FIFO|StrongFIFO) != 0, c&WriterPriority != 0, c&FIFE != 0
	if fifo || (wp && !r.writer) {
		enter = append(enter, "assert(g_ahead[lg_me] == 0)")
	}
	if fife {
		// Those still ahead of this process are overtaken: from now on
		// they must be enabled.
		enter = append(enter, "g_fife = (g_fife | g_ahead[lg_me]) & ~(1 << lg_me)", "g_fchk[lg_me] = 0")
	}
	if fifo || fife || (wp && r.writer) {
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
	if q := l.quietLeave(); q != "" {
		// A wait left by a jump (Succeed) has no exit step of its own.
		enter = append(enter, q)
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
	l.assigned(r.release, relLocals)
	if r.try != nil {
		l.assigned(r.try, relLocals)
	}
	if l.o.Abort {
		// A passage that gave up comes here with the acquire's step locals.
		l.assigned(r.acquire, relLocals)
	}
	passLocals := map[string]bool{}
	l.assigned(r.acquire, passLocals)
	for k := range relLocals {
		passLocals[k] = true
	}
	rs := strings.Join(nonEmpty(append([]string{l.resets(relLocals, l.gotoEnd, ir.Step), l.resets(passLocals, false, ir.Passage), l.quietIdle()},
		l.abortEnd(false)...)...), "; ")
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
	if l.o.Crashes > 0 {
		// The escape is taken before the next step, even a blocked one.
		// Nothing reads a crashed process's locals again: zeroing them
		// makes its crashes at different points of a wait one state.
		guard, crash := "g_victim == lg_me", []string{"g_dead[lg_me] = 1", fmt.Sprintf("g_victim = %d", noVictim)}
		if l.rendezvousCrash() {
			guard, crash = "g_crash[lg_me]?_", []string{"g_dead[lg_me] = 1"}
		}
		if c&Quiescence != 0 {
			crash = append(crash, "g_idle = g_idle | (1 << lg_me)")
		}
		crash = append(crash, l.zeroLocals()...)
		l.raw(fmt.Sprintf("\t} unless { atomic { %s -> %s } }\t/*@ crash||stop for ever */", guard, strings.Join(crash, "; ")))
	}
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
	l.snapDecls()
	l.out.WriteString(body)
	return nil
}

// zeroLocals zeroes every local of the current proctype: the
// algorithm's, loop variables, temporaries, the passage count and the
// quiescence snapshots.
func (l *lower) zeroLocals() []string {
	var out []string
	for _, v := range l.a.Locals {
		if v.Len == nil {
			out = append(out, l.local[v.Name]+" = 0")
			continue
		}
		for i := range v.Len(l.pp()) {
			out = append(out, fmt.Sprintf("%s[%d] = 0", l.local[v.Name], i))
		}
	}
	var more []string
	for n := range l.local {
		if l.a.LocalVar(n) == nil {
			more = append(more, l.local[n]+" = 0")
		}
	}
	for n := range l.temps {
		more = append(more, n+" = 0")
	}
	if l.o.Passages > 0 {
		more = append(more, "lg_pass = 0")
	}
	sort.Strings(more)
	out = append(out, more...)
	if l.o.Checks&Quiescence != 0 {
		for _, v := range l.snapVars() {
			out = append(out, snapName(v)+" = 0")
		}
	}
	return out
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
