package golang

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/lockgen/lockgen/ir"
)

// Guards: the uncontended passage of a test-and-set lock as one atomic
// step and one comparison, small enough to inline.
//
// A test-and-set lock's uncontended acquire is its exchange returning
// FREE, and its release the exchange of FREE over BUSY; the waiting layer
// adds a look at the queue of sleepers after each write, and a misuse
// flag would add a plain write each way. The guarded methods make the
// paper's exchange first, inline, and compare what it returned:
//
//   - Lock: if the exchange returned the value that ends the acquire, the
//     acquire is done (its write wakes nobody: no wait ends on the value
//     it writes). If not, it wrote BUSY over BUSY, which changes nothing,
//     and the operation runs from its first line in a method of its own
//     (lockSlow). For an acquire that first awaits L = FREE (TTAS), an
//     exchange returning FREE is the await's check and the exchange with
//     no step between them, one interleaving of the paper's; such an
//     acquire is guarded only when its waiters park (acquireGuarded).
//     An acquire that is the exchange alone, in a loop (TAS), goes on
//     with the loop instead of starting it again.
//   - Unlock: where the register holds only 0 and 1, the Go backend folds
//     it into bit 0 of its wait queue's state word (lockrt's bitReg), so
//     the exchange returns the whole old word. If it is exactly BUSY with
//     nobody queued, the release is done: not misuse, and no wake owed.
//     If not, unlockSlow goes on from after the exchange with that word:
//     the wake test on it, then the misuse test on its value. The
//     exchange is never repeated.
//
// A register with no queue (the spin and yield policies) takes the same
// guards on its own word. Guards are derived from the operations' code,
// never declared, so that a mutant of the code changes its guard or loses
// it:
//
//   - an acquire that, after setting locals, is one loop "repeat [await
//     L = a;] x := swap(L, b); [if x ≠ a then ...] until x = a";
//   - a release that is one "p := swap(L, a)" whose misuse test
//     (ReleaseMisuse) is p ≠ b.
//
// Both must be found, on the same register and values, no wait may end on
// b, and every other write of the register must be a constant 0 or 1,
// with no other queue reading it. Only a Locker mutex whose release tells
// misuse from its register has them.

// guard is one operation's uncontended passage: its exchange of to into
// register reg, returning from.
type guard struct {
	reg      string
	from, to int64
	// fromE and toE are from and to as the definition writes them (FREE,
	// BUSY), for the code to name them as it does.
	fromE, toE ir.Expr
	lbl        string // the exchange's label
	check      string // the label of the await the exchange also stands for ("": none)
	prev       string // the release's local for the old value
	bare       bool   // the acquire is the loop of the exchange alone, with no local set
}

// deriveGuards sets g.guards and g.bitRegs.
func (g *gen) deriveGuards() {
	g.guards = map[string]*guard{}
	g.bitRegs = map[string]bool{}
	if !g.api.HolderState() || g.c.Params.K > 1 || g.c.Mode.Readers() || !g.releaseMisuse() ||
		len(g.stateLocals) > 0 || len(g.setupCode()) > 0 {
		return
	}
	acq, ok1 := g.acquireGuard(g.a.Acquire)
	rel, ok2 := g.releaseGuard(g.a.Release)
	if !ok1 || !ok2 || acq.reg != rel.reg || acq.from != rel.to || acq.to != rel.from {
		return
	}
	if !g.bitRegister(acq.reg) || len(g.wakeTargets(ir.Var{Name: acq.reg}, ir.Const{V: acq.to}, nil)) > 0 {
		return
	}
	g.guards["Acquire"], g.guards["Release"] = acq, rel
	if _, queued := g.regQ[acq.reg]; queued {
		g.bitRegs[acq.reg] = true
		g.regQ[acq.reg] = g.fieldNames[acq.reg] + ".q"
	}
}

// acquireGuard matches "[set locals;] repeat [await R = a;] x := swap(R,
// b); [if x ≠ a then ...] until x = a".
func (g *gen) acquireGuard(code ir.Code) (*guard, bool) {
	sets := len(code)
	for len(code) > 0 {
		if _, ok := code[0].(ir.Set); !ok || stmtLoads(code[0]) {
			break
		}
		code = code[1:]
	}
	if len(code) != 1 {
		return nil, false
	}
	loop, ok := code[0].(ir.Repeat)
	if !ok {
		return nil, false
	}
	x, a, aE, ok := g.localIsConst(loop.Until, ir.Eq)
	if !ok {
		return nil, false
	}
	body := loop.Body
	if len(body) == 0 {
		return nil, false
	}
	reg, check := "", ""
	if aw, ok := body[0].(ir.Await); ok {
		r, v, ok := g.regIsConst(aw.Cond)
		if !ok || v != a {
			return nil, false
		}
		reg, check, body = r, aw.Label(), body[1:]
	}
	if len(body) == 0 {
		return nil, false
	}
	sw, ok := body[0].(ir.Swap)
	r, isReg := scalarReg(sw.To)
	if !ok || !isReg || sw.Dst != x || reg != "" && r != reg {
		return nil, false
	}
	b, ok := g.constValue(sw.Val, nil, 0)
	if !ok {
		return nil, false
	}
	for _, s := range body[1:] {
		// Skipped when the swap returned a.
		i, ok := s.(ir.If)
		if !ok {
			return nil, false
		}
		if y, v, _, ok := g.localIsConst(i.Cond, ir.Ne); !ok || y != x || v != a || len(i.Else) > 0 {
			return nil, false
		}
	}
	bare := sets == 1 && check == "" && len(body) == 1
	return &guard{reg: r, from: a, to: b, fromE: aE, toE: sw.Val, lbl: sw.Label(), check: check, bare: bare}, true
}

// releaseGuard matches "p := swap(R, a)" with misuse test p ≠ b.
func (g *gen) releaseGuard(code ir.Code) (*guard, bool) {
	if len(code) != 1 {
		return nil, false
	}
	sw, ok := code[0].(ir.Swap)
	r, isReg := scalarReg(sw.To)
	if !ok || !isReg {
		return nil, false
	}
	a, ok := g.constValue(sw.Val, nil, 0)
	if !ok {
		return nil, false
	}
	p, b, bE, ok := g.localIsConst(g.a.ReleaseMisuse, ir.Ne)
	if !ok || p != sw.Dst {
		return nil, false
	}
	return &guard{reg: r, from: b, to: a, fromE: bE, toE: sw.Val, lbl: sw.Label(), prev: sw.Dst}, true
}

// localIsConst matches "x op c" with x a local and c a constant, which it
// returns as its value and its expression.
func (g *gen) localIsConst(e ir.Expr, op ir.Op) (string, int64, ir.Expr, bool) {
	b, ok := e.(ir.Bin)
	if !ok || b.Op != op {
		return "", 0, nil, false
	}
	x, ok := b.X.(ir.LocalRef)
	if !ok || x.Index != nil {
		return "", 0, nil, false
	}
	c, ok := g.constValue(b.Y, nil, 0)
	return x.Name, c, b.Y, ok
}

// regIsConst matches "R = c" with R a scalar register and c a constant.
func (g *gen) regIsConst(e ir.Expr) (string, int64, bool) {
	b, ok := e.(ir.Bin)
	if !ok || b.Op != ir.Eq {
		return "", 0, false
	}
	ld, ok := b.X.(ir.Load)
	if !ok {
		return "", 0, false
	}
	r, ok := scalarReg(ld.From)
	if !ok {
		return "", 0, false
	}
	c, ok := g.constValue(b.Y, nil, 0)
	return r, c, ok
}

func scalarReg(l ir.Loc) (string, bool) {
	v, ok := l.(ir.Var)
	return v.Name, ok && v.Index == nil
}

// bitRegister reports whether register name only ever holds 0 or 1: an
// integer starting at 0 (a bitReg has no initialiser) that the lock's
// operations write only with swaps and writes of those constants, and
// that no queue but its own reads (the guard would skip another queue's
// wake).
func (g *gen) bitRegister(name string) bool {
	var sh *ir.Shared
	for i := range g.a.Shared {
		if g.a.Shared[i].Name == name {
			sh = &g.a.Shared[i]
		}
	}
	if sh == nil || sh.IsArray() || sh.Type.Kind != ir.Int || sh.Init != nil && sh.Init(g.c.Params, 0) != 0 {
		return false
	}
	ok := true
	for _, op := range g.ops {
		walk(op.nodes, func(n *node) {
			var to ir.Loc
			var val ir.Expr
			switch s := n.s.(type) {
			case ir.Write:
				to, val = s.To, s.Val
			case ir.Swap:
				to, val = s.To, s.Val
			case ir.CAS:
				to = s.To
			case ir.FetchAdd:
				to = s.To
			default:
				return
			}
			if r, _ := scalarReg(to); r != name {
				return
			}
			v, isConst := int64(0), false
			if val != nil {
				v, isConst = g.constValue(val, nil, 0)
			}
			if !isConst || v != 0 && v != 1 {
				ok = false
			}
		})
	}
	key := g.a.LocKey(ir.Var{Name: name})
	for _, s := range g.sites {
		if s.keys[key] && !(s.kind == domReg && s.name == name) {
			ok = false
		}
	}
	if id := "reg:" + name; g.c.Wait.Parks() && (g.ticketQ[id] || !g.sharedQ[id] || g.mixedQ[id]) {
		ok = false
	}
	return ok
}

// guarded returns, for an operation with a guard, the public method's
// body and the method it calls when the guard does not hold (slow, with
// its parameters and body; none when it calls a continuation of the
// operation instead); body and conts are the operation as lowered without
// a guard. ok is false for an operation without one. LockContext's
// acquire takes Lock's guard: it is the same acquire until its first
// wait, and its slow path returns LockContext's error.
func (g *gen) guarded(o opInfo, slow string, body []jen.Code, conts []cont) (public []jen.Code, params []jen.Code, rest []jen.Code, ok bool) {
	op := o.name
	if o.ctx {
		op = "Acquire"
	}
	gd := g.guards[op]
	if gd == nil || op == "Acquire" && !g.acquireGuarded() {
		return body, nil, nil, false
	}
	reg := jen.Id("l").Dot(g.fieldNames[gd.reg])
	folded := g.bitRegs[gd.reg]
	var step *jen.Statement
	switch {
	case folded && gd.to == 1:
		step = reg.Clone().Dot("set").Call(jen.Lit(gd.lbl))
	case folded:
		step = reg.Clone().Dot("clear").Call(jen.Lit(gd.lbl))
	default:
		step = reg.Clone().Dot("swap").Call(jen.Lit(gd.lbl), g.expr(gd.toE, gd.lbl))
	}
	w := jen.Id("w")
	if op == "Acquire" {
		// Not the acquire's value: the exchange changed nothing, and the
		// acquire runs from its first line. When the acquire is that
		// exchange alone, in a loop, its first line would make it again:
		// the loop goes on instead where the unguarded inline path would
		// (its one continuation, "after a failed exchange").
		if folded {
			step = jen.Parens(step).Op("&").Id("qValue")
		}
		taken := step.Op("!=").Add(g.expr(gd.fromE, gd.lbl))
		if gd.bare && len(conts) == 1 && (len(conts[0].args) == 0 || conts[0].ctx && len(conts[0].args) == 1) {
			// The continuation takes nothing of the inline path (LockContext's
			// takes its ctx only).
			call := jen.Id("l").Dot(conts[0].name).Call(conts[0].args...)
			if o.ctx {
				return []jen.Code{jen.If(taken).Block(jen.Return(call)), jen.Return(jen.Nil())}, nil, nil, true
			}
			return []jen.Code{jen.If(taken).Block(call)}, nil, nil, true
		}
		if o.ctx {
			// body ends with LockContext's return nil.
			var args []jen.Code
			if mentions(body, "ctx") {
				args, params = []jen.Code{jen.Id("ctx")}, []jen.Code{jen.Id("ctx").Qual("context", "Context")}
			}
			return []jen.Code{jen.If(taken).Block(jen.Return(jen.Id("l").Dot(slow).Call(args...))), jen.Return(jen.Nil())}, params, body, true
		}
		public = []jen.Code{jen.If(taken).Block(jen.Id("l").Dot(slow).Call())}
		return public, nil, body, true
	}
	// The release: anything but exactly the holder's value with nobody
	// queued goes on after the exchange, with the word it returned.
	test := w.Clone()
	if g.c.WaitControl == "guard-ignores-sleepers" {
		test = jen.Parens(w.Clone().Op("&").Id("qValue"))
	}
	public = []jen.Code{jen.If(w.Clone().Op(":=").Add(step), test.Op("!=").Add(g.expr(gd.fromE, gd.lbl))).Block(jen.Id("l").Dot(slow).Call(w.Clone()))}
	prev := w.Clone()
	if folded {
		prev = w.Clone().Op("&").Id("qValue")
		rest = append(rest, reg.Clone().Dot("q").Dot("wakeWord").Call(jen.Lit(gd.lbl), w.Clone(), g.expr(gd.toE, gd.lbl)))
	}
	rest = append([]jen.Code{jen.Id(goIdent(gd.prev)).Op(":=").Add(prev)}, rest...)
	rest = append(rest, jen.If(g.expr(g.a.ReleaseMisuse, "misuse")).Block(g.releaseMisusePanic("Unlock", false)))
	return public, []jen.Code{w.Clone().Int64()}, rest, true
}

// acquireGuarded reports whether the acquire's guard is used. An acquire
// that reads before its exchange (TTAS) takes it only when its waiters
// park: with spinning or yielding waiters, an arriving process finds the
// lock held more often, and its exchange would take the cache line the
// holder is about to write where the paper's read shares it. lockgen
// bench on generated/ttas/lock.toml, 8 goroutines, empty critical
// section: with the spin-then-yield policy 70 ns a passage guarded and
// 27 unguarded; with the adaptive one 16 and 32.
func (g *gen) acquireGuarded() bool {
	acq := g.guards["Acquire"]
	return acq != nil && (acq.check == "" || g.bitRegs[acq.reg])
}

// guardNotes say, for the doc comment, what the guards do.
func (g *gen) guardNotes() []string {
	acq, rel := g.guards["Acquire"], g.guards["Release"]
	if acq == nil || rel == nil {
		return nil
	}
	step := fmt.Sprintf("line %s's exchange returning %d", acq.lbl, acq.from)
	if acq.check != "" {
		step = fmt.Sprintf("line %s's check finding %s = %d and line %s's exchange right after it", acq.check, acq.reg, acq.from, acq.lbl)
	}
	lock := fmt.Sprintf("Lock makes line %s's exchange first; if it returns %d, that is %s and the acquire is done; if not, it wrote %d over %d, which changes nothing, and the paper's code runs from its first line",
		acq.lbl, acq.from, step, acq.to, acq.to)
	if acq.bare {
		lock = fmt.Sprintf("Lock's exchange (line %s) and its test are inline, and the loop goes on out of line only if it returned %d", acq.lbl, acq.to)
	}
	if !g.acquireGuarded() {
		lock = ""
	}
	unlock := fmt.Sprintf("Unlock's exchange (line %s) and its misuse test are inline, so that an uncontended release is that one step and one comparison", rel.lbl)
	if g.bitRegs[rel.reg] {
		unlock = fmt.Sprintf("Unlock's exchange (line %s) also returns whether anyone waits (the waiting layer's count shares %s's word), so that an uncontended release is that one step and one comparison", rel.lbl, rel.reg)
	}
	if lock == "" {
		return []string{unlock}
	}
	return []string{lock, unlock}
}
