package golang

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/lockgen/lockgen/templates/ir"
)

// Guards: an uncontended passage as one compare-and-swap.
//
// A test-and-set lock's uncontended acquire is its exchange returning FREE,
// and its release the exchange of FREE over BUSY; the waiting layer adds a
// look at the queue of sleepers after each write. Where the register holds
// only 0 and 1, the Go backend folds it into bit 0 of its queue's state word
// (lockrt's bitReg), and the public method starts with a guard: one
// compare-and-swap of the whole word from "the value the passage finds,
// nobody queued" to "the value it leaves". When it succeeds, it is the
// paper's step, with the old value the rest of the operation needs to
// finish at once, and it owes no wake since nobody sleeps. When it fails it
// wrote nothing, and the operation runs from its first line in a method of
// its own. So the guarded method is one atomic step and one call, small
// enough to inline (TestInlineShapes), as sync.Mutex's Lock and Unlock are.
// A register with no queue (the spin and yield policies) takes the same
// guard on its own word.
//
// Guards are derived from the operations' code, never declared, so that a
// mutant of the code changes its guard or loses it:
//
//   - an acquire that, after setting locals, is one loop "repeat [await
//     R = a;] x := swap(R, b); [if x ≠ a then ...] until x = a" enters
//     from R = a with one step leaving R = b;
//   - a release that is one "p := swap(R, a)" whose misuse test
//     (ReleaseMisuse) is p ≠ b leaves from R = b with one step leaving
//     R = a.
//
// Both must be found, on the same register and values, and every other
// write of the register must be a constant 0 or 1, with no other queue
// reading it. Only a Locker mutex whose release tells misuse from its
// register has them: a misuse flag would cost the fast path a plain write
// each way, past the inliner's budget.

// guard is one operation's uncontended passage as a compare-and-swap of
// register reg from from to to.
type guard struct {
	reg      string
	from, to int64
	lbl      string // the label of the step the compare-and-swap stands for
	check    string // the label of the await it also stands for ("": none)
}

// deriveGuards sets g.guards and g.bitRegs.
func (g *gen) deriveGuards() {
	g.guards = map[string]*guard{}
	g.bitRegs = map[string]bool{}
	if g.api != apiLocker || g.c.Params.K > 1 || g.c.Mode.Readers() || !g.releaseMisuse() ||
		len(g.stateLocals) > 0 || len(g.setupCode()) > 0 {
		return
	}
	acq, ok1 := g.acquireGuard(g.a.Acquire)
	rel, ok2 := g.releaseGuard(g.a.Release)
	if !ok1 || !ok2 || acq.reg != rel.reg || acq.from != rel.to || acq.to != rel.from {
		return
	}
	if !g.bitRegister(acq.reg) {
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
	x, a, ok := g.localIsConst(loop.Until, ir.Eq)
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
		if y, v, ok := g.localIsConst(i.Cond, ir.Ne); !ok || y != x || v != a || len(i.Else) > 0 {
			return nil, false
		}
	}
	return &guard{reg: r, from: a, to: b, lbl: sw.Label(), check: check}, true
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
	p, b, ok := g.localIsConst(g.a.ReleaseMisuse, ir.Ne)
	if !ok || p != sw.Dst {
		return nil, false
	}
	return &guard{reg: r, from: b, to: a, lbl: sw.Label()}, true
}

// localIsConst matches "x op c" with x a local and c a constant.
func (g *gen) localIsConst(e ir.Expr, op ir.Op) (string, int64, bool) {
	b, ok := e.(ir.Bin)
	if !ok || b.Op != op {
		return "", 0, false
	}
	x, ok := b.X.(ir.LocalRef)
	if !ok || x.Index != nil {
		return "", 0, false
	}
	c, ok := g.constValue(b.Y, nil, 0)
	return x.Name, c, ok
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
// integer starting at 0 or 1 that the lock's operations write only with
// swaps and writes of those constants, and that no queue but its own
// reads (the guard would skip another queue's wake).
func (g *gen) bitRegister(name string) bool {
	var sh *ir.Shared
	for i := range g.a.Shared {
		if g.a.Shared[i].Name == name {
			sh = &g.a.Shared[i]
		}
	}
	if sh == nil || sh.IsArray() || sh.Type.Kind != ir.Int {
		return false
	}
	if sh.Init != nil {
		if v := sh.Init(g.c.Params, 0); v != 0 && v != 1 {
			return false
		}
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

// guarded wraps a public method's body behind its operation's guard: the
// body moves to a method of its own (slow), called when the guard fails.
func (g *gen) guarded(op string, slow string, body []jen.Code) (public []jen.Code, rest []jen.Code, ok bool) {
	gd := g.guards[op]
	if gd == nil {
		return body, nil, false
	}
	cas := jen.Id("l").Dot(g.fieldNames[gd.reg]).Dot("idle").Call(jen.Lit(gd.lbl), jen.Lit(int(gd.from)), jen.Lit(int(gd.to)))
	public = []jen.Code{jen.If(jen.Op("!").Add(cas)).Block(jen.Id("l").Dot(slow).Call())}
	return public, body, true
}

// guardNotes say, for the doc comment, which passages a guard takes.
func (g *gen) guardNotes() []string {
	var out []string
	for _, v := range []struct{ op, verb string }{{"Acquire", "Lock"}, {"Release", "Unlock"}} {
		gd := g.guards[v.op]
		if gd == nil {
			continue
		}
		nobody := ""
		if g.bitRegs[gd.reg] {
			nobody = " and nobody waits"
		}
		step := fmt.Sprintf("line %s's exchange returning %d", gd.lbl, gd.from)
		if gd.check != "" {
			step = fmt.Sprintf("line %s's check finding %s = %d and %s right after it", gd.check, gd.reg, gd.from, step)
		}
		out = append(out, fmt.Sprintf("%s first tries one compare-and-swap of %s from %d to %d, which succeeds only when %s = %d%s: that is %s, and it owes no wake-up; when it fails it has written nothing, and the paper's code runs from its first line",
			v.verb, gd.reg, gd.from, gd.to, gd.reg, gd.from, nobody, step))
	}
	return out
}
