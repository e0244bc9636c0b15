package promela

import (
	"fmt"
	"strings"

	"github.com/lockgen/lockgen/ir"
)

// Lowering statements.

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
		if l.o.Checks&(FIFO|StrongFIFO|WriterPriority|FIFE) != 0 {
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
		l.step(loc+" = "+l.wrapTo(c, s.Val, v), l.bound(c && l.an.dynExpr(s.Val), loc), l.release(mark), l.quietWrite(), gh)
	case ir.Swap:
		loc := l.ploc(s.To, l.fe)
		c := l.counterLoc(s.To)
		v := l.wrapTo(c, s.Val, l.fe(s.Val))
		c = c && l.an.dynExpr(s.Val)
		if s.Dst == "" {
			l.step(loc+" = "+v, l.bound(c, loc), l.release(mark), l.quietWrite(), gh)
			break
		}
		// Keep the old value aside: Val may read Dst (MCS line 3).
		old := l.temp(l.locType(s.To))
		l.step(old+" = "+loc, loc+" = "+v, l.bound(c, loc), l.local[s.Dst]+" = "+old, l.release(mark), l.quietWrite(), gh)
	case ir.CAS:
		loc := l.ploc(s.To, l.fe)
		oldv := l.fe(s.Old)
		c := l.counterLoc(s.To)
		newv := l.wrapTo(c, s.New, l.fe(s.New))
		eq := l.bin(ir.Bin{Op: ir.Eq, X: ir.Load{From: s.To}, Y: s.Old}, loc, oldv)
		set := strings.Join(nonEmpty(loc+" = "+newv, l.bound(c && l.an.dynExpr(s.New), loc), l.quietWrite()), "; ")
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
			l.step(loc+" = "+nv, l.bound(c, loc), l.release(mark), l.quietWrite(), gh)
			break
		}
		old := l.temp(l.locType(s.To))
		l.step(old+" = "+loc, loc+" = "+nv, l.bound(c, loc), l.local[s.Dst]+" = "+old, l.release(mark), l.quietWrite(), gh)
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
		l.loop(s.Cond, func() {
			if tick := l.waitPass(s.Busy); tick != "" {
				l.ind++
				l.step(tick)
				l.ind--
			}
			l.loopBody(head, func() { l.block(s.Body) })
		}, strings.Join(nonEmpty(append(exit, l.quietLeave())...), "; "), s)
		l.nz = l.minusResets(nz, exit)
		l.after(gh)
	case ir.Repeat:
		tail := l.tail // work on the way out: the until test's break
		l.tail = nil
		l.emit("do")
		l.abortOption(s)
		l.emit("::")
		l.ind++
		head := l.liveStmt(s, l.cont)
		if tick := l.waitPass(s.Busy); tick != "" {
			l.step(tick)
		}
		l.loopBody(uses(s.Until).union(l.cont).union(head), func() { l.stmts(s.Body) })
		l.mark = marker(l.op, s.Label(), "until "+ir.FormatExpr(s.Until))
		l.branch(s.Until, func() {
			l.ind++
			if w := nonEmpty(append(l.needed(tail), l.quietLeave())...); len(w) > 0 {
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
		tick := l.waitPass(true)
		gh = strings.Join(nonEmpty(gh, l.quietLeave()), "; ")
		if loads(s.Cond) <= 1 && tick == "" && !l.aborts(s) {
			// One read: a blocking guard (the process waits until the
			// register lets it through).
			l.guard(l.paren(l.pe(s.Cond)), gh)
			break
		}
		if loads(s.Cond) <= 1 {
			// FIFE counts the failed checks, and a process may give up
			// (abort.go): a loop of guards.
			c := l.paren(l.pe(s.Cond))
			l.emit("do")
			l.emit(":: " + atomicGuard(c, "", gh) + "; break;")
			if tick != "" {
				l.emit(":: " + atomicGuard("!"+c, "", tick) + ";")
			}
			l.abortOption(s)
			l.emit("od;")
			break
		}
		// Several reads: re-read them until the condition holds.
		exit := strings.Join(l.needed(l.tail), "; ") // work on the way out
		l.tail = nil
		l.emit("do")
		l.abortOption(s)
		l.emit("::")
		l.ind++
		c := l.fe(s.Cond)
		rs := l.release(mark)
		l.emit("if")
		l.emit(":: " + atomicGuard(l.paren(c), strings.Join(nonEmpty(rs, exit), "; "), gh) + "; break;")
		l.emit(":: " + atomicGuard("!"+l.paren(c), rs, tick) + ";")
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

// waitPass is the ghost step at each pass of a loop's head or a failed
// await: the FIFE check's count (of a busy wait in the acquire) and the
// quiescence check's comparison with the previous pass (of any loop).
func (l *lower) waitPass(busy bool) string {
	return strings.Join(nonEmpty(l.fifeTick(busy), l.quietPass()), "; ")
}

// fifeTick is the FIFE check's ghost update for one more check of a wait
// in the acquire (a busy-wait's iteration, a failed await), or "" when
// there is nothing to count.
func (l *lower) fifeTick(waits bool) string {
	if !waits || l.o.Checks&FIFE == 0 || l.op != l.curAcquire {
		return ""
	}
	return fmt.Sprintf("if :: (g_fife & (1 << lg_me)) -> g_fchk[lg_me]++; assert(g_fchk[lg_me] <= %d) :: else fi", l.o.FIFEChecks)
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
	}, v+" = 0", nil)
}

// loop writes "while cond do body": with at most one read the test is the
// guard of the do-options; with more, each iteration reads first. exit is
// local bookkeeping done when leaving (folded into the exit step). wait,
// when it is a busy loop a process may give up, gets the abort option.
func (l *lower) loop(cond ir.Expr, body func(), exit string, wait ir.Stmt) {
	mark := len(l.live)
	l.emit("do")
	if wait != nil {
		l.abortOption(wait)
	}
	if loads(cond) <= 1 {
		c := l.paren(l.pe(cond))
		l.option(c, loads(cond) == 0)
		body()
		switch {
		case exit != "":
			l.emit(":: atomic { !" + c + " -> " + exit + " }; break;")
		case wait != nil && l.aborts(wait):
			// Beside an option that may always be open, else would
			// never be taken.
			l.emit(":: !" + c + " -> break;")
		default:
			l.emit(":: else -> break;")
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
