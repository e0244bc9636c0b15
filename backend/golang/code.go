package golang

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/lockgen/lockgen/ir"
	"github.com/lockgen/lockgen/nodes"
)

// This file lowers statements the ordinary way: the paper's code, line by
// line, each shared access through a register method carrying its label,
// every wait through the lock's waiting policy (lockrt/wait.go). fast.go
// decides which part of an operation runs inline in the public method and
// which part in a continuation lowered here.

// opInfo is an operation the lock uses, as a statement tree.
type opInfo struct {
	name  string // "Acquire", "Release", ...
	nodes []*node
	try   bool // returns whether it succeeded
	ctx   bool // LockContext's acquire: returns nil or ctx.Err()
}

// localReads returns the locals an operation reads.
func localReads(code ir.Code) map[string]bool { return localReadsBy(ir.WalkStmts, code) }

// localReadsAll is localReads of the acquire with its abort code.
func localReadsAll(code ir.Code) map[string]bool { return localReadsBy(ir.WalkAll, code) }

func localReadsBy(walk func(ir.Code, func(ir.Stmt)), code ir.Code) map[string]bool {
	reads := map[string]bool{}
	walk(code, func(s ir.Stmt) {
		for _, e := range ir.StmtExprs(s) {
			ir.WalkExpr(e, func(x ir.Expr) {
				if r, ok := x.(ir.LocalRef); ok {
					reads[r.Name] = true
				}
			})
		}
	})
	return reads
}

// stepLocals are the Step locals an operation reads: the fast path
// declares them and passes them to its continuations.
func (g *gen) stepLocals() []ir.Local {
	var out []ir.Local
	for _, l := range g.a.Locals {
		if l.Scope == ir.Step && g.stepReads[l.Name] {
			out = append(out, l)
		}
	}
	return out
}

// localType is a local's Go type (an array for local arrays).
func (g *gen) localType(l ir.Local) jen.Code {
	if l.Len != nil {
		return jen.Index(jen.Lit(l.Len(g.c.Params))).Add(g.goType(l.Type))
	}
	return g.goType(l.Type)
}

func (g *gen) isState(name string) bool {
	for _, l := range g.stateLocals {
		if l.Name == name {
			return true
		}
	}
	return false
}

// local is the Go expression for reading local name.
func (g *gen) local(name string) *jen.Statement {
	if g.loopVars[name] || !g.isState(name) {
		return jen.Id(goIdent(name))
	}
	return jen.Id("st").Dot(goIdent(name))
}

// target is the Go expression assigned for local dst: the blank identifier
// when the operation never reads a Step local (Go rejects unused variables).
func (g *gen) target(dst string) *jen.Statement {
	if g.discarded(dst) {
		return jen.Id("_")
	}
	return g.local(dst)
}

// lower lowers statements the ordinary way.
func (g *gen) lower(ns []*node) []jen.Code {
	var out []jen.Code
	for _, n := range ns {
		out = append(out, g.lowerNode(n)...)
	}
	return out
}

func comment(s ir.Stmt) jen.Code {
	if l := s.Label(); l != "" {
		return jen.Comment(l + ": " + ir.FormatHead(s))
	}
	return jen.Comment(ir.FormatHead(s))
}

// lowerNode lowers one statement (with its nested code).
func (g *gen) lowerNode(n *node) []jen.Code {
	lbl := n.s.Label()
	out := []jen.Code{comment(n.s)}
	switch s := n.s.(type) {
	case ir.Write, ir.Swap, ir.CAS, ir.FetchAdd:
		out = append(out, g.access(n)...)
	case ir.Set:
		dst := g.target(s.Dst)
		if s.Index != nil {
			dst = g.local(s.Dst).Index(g.expr(s.Index, lbl))
		}
		out = append(out, dst.Op("=").Add(g.expr(s.Val, lbl)))
	case ir.If:
		st := jen.If(g.expr(s.Cond, lbl)).Block(g.lower(n.then)...)
		if len(n.els) > 0 {
			st = st.Else().Block(g.lower(n.els)...)
		}
		out = append(out, st)
	case ir.While:
		if !s.Busy {
			out = append(out, jen.For(g.expr(s.Cond, lbl)).Block(g.lower(n.body)...))
			break
		}
		// A busy "while c do B" is "if c then repeat B until ¬c": the
		// condition is tested after the body and before any wait, so an
		// iteration that ends the loop (through a local, say) never waits
		// for a write that will not come.
		out = append(out, jen.If(g.expr(s.Cond, lbl)).Block(g.busyLoop(n, true)...))
	case ir.Repeat:
		if s.Busy {
			out = append(out, g.busyLoop(n, true)...)
		} else {
			out = append(out, jen.For().Block(append(g.lower(n.body), jen.If(g.expr(s.Until, lbl)).Block(jen.Break()))...))
		}
	case ir.For:
		v := goIdent(s.Var)
		g.loopVars[s.Var] = true
		body := g.lower(n.body)
		delete(g.loopVars, s.Var)
		if s.SkipSelf {
			body = append([]jen.Code{jen.If(jen.Id(v).Op("==").Int64().Call(jen.Id("id"))).Block(jen.Continue())}, body...)
		}
		out = append(out, jen.For(
			jen.Id(v).Op(":=").Int64().Call(g.expr(s.From, lbl)),
			jen.Id(v).Op("<=").Add(g.expr(s.To, lbl)),
			jen.Id(v).Op("++"),
		).Block(body...))
	case ir.Await:
		notYet := g.not(s.Cond, lbl)
		if fu := g.fusions[n.id]; fu != nil && fu.await == n {
			notYet = g.fused(fu, func() *jen.Statement { return g.not(s.Cond, lbl) }) // its fetch&add was lowered just before, in this continuation
		}
		out = append(out, jen.If(notYet).Block(g.awaitWait(n)...))
	case ir.Succeed:
		out = append(out, g.disarmAll(lbl)...)
		switch {
		case g.op.ctx:
			out = append(out, jen.Return(jen.Nil()))
		case g.op.try:
			out = append(out, jen.Return(jen.True()))
		default:
			out = append(out, jen.Return())
		}
	case ir.Fail:
		out = append(out, g.disarmAll(lbl)...)
		if g.op.ctx {
			// Only abort code fails, and only once the context is done.
			out = append(out, jen.Return(jen.Id("ctx").Dot("Err").Call()))
			break
		}
		out = append(out, jen.Return(jen.False()))
	case ir.Delay:
		out = append(out, g.delay(s))
	case ir.FreeRecord:
		if g.c.Nodes != nodes.Pool {
			return nil // only pooled records go back anywhere
		}
		rec := g.a.RefRecord(s.Ref)
		out = append(out, jen.Id("l").Dot(poolField(rec)).Dot("Put").Call(g.expr(s.Ref, lbl)))
	default:
		g.fail(fmt.Errorf("line %s: unsupported statement %T", lbl, s))
	}
	if n.id == g.doorwayNode && g.op.name == "Acquire" || g.op.ctx && n.id == g.ctxDoorway {
		out = append(out, jen.Id("doorway").Call(jen.Lit(lbl)))
	}
	return out
}

func (g *gen) fail(err error) {
	if g.err == nil {
		g.err = err
	}
}

func (g *gen) delay(s ir.Delay) jen.Code {
	lbl := s.Label()
	var d jen.Code
	if s.Param == "" {
		d = g.expr(s.Dur, lbl)
	} else {
		ns, ok := g.c.Params.Extra[s.Param]
		if !ok {
			g.fail(fmt.Errorf("line %s: no value for parameter %s", lbl, s.Param))
		}
		d = jen.Lit(int(ns))
	}
	return jen.Id("delay").Call(jen.Lit(lbl), jen.Qual("time", "Duration").Call(d))
}

// access lowers a shared write (Write, Swap, CAS, FetchAdd) with the wakes
// it owes. A write inside a busy-wait loop wakes only when it changed the
// value: the loop's own rewrite of the same value must not wake itself.
func (g *gen) access(n *node) []jen.Code {
	lbl := n.s.Label()
	l := jen.Lit(lbl)
	newVal, prevVal := jen.Id("newVal"), jen.Id("prevVal")
	switch s := n.s.(type) {
	case ir.Write:
		reg := g.loc(s.To, lbl)
		targets := g.wakeTargets(s.To, s.Val, nil)
		if len(targets) == 0 {
			return []jen.Code{reg.Dot("store").Call(l, g.expr(s.Val, lbl))}
		}
		block := []jen.Code{jen.Var().Add(newVal).Add(g.goType(g.locType(s.To))).Op("=").Add(g.expr(s.Val, lbl))}
		wakes := g.wakes(targets, g.locType(s.To), newVal, g.runtimeValue(s.Val), lbl)
		if g.inBusy[n.id] {
			block = append(block, jen.If(reg.Dot("swap").Call(l, newVal).Op("!=").Add(newVal)).Block(wakes...))
		} else {
			block = append(block, reg.Dot("store").Call(l, newVal))
			block = append(block, wakes...)
		}
		return []jen.Code{jen.Block(block...)}
	case ir.Swap:
		reg := g.loc(s.To, lbl)
		targets := g.wakeTargets(s.To, s.Val, nil)
		if len(targets) == 0 {
			return []jen.Code{g.assign(s.Dst, reg.Dot("swap").Call(l, g.expr(s.Val, lbl)))}
		}
		block := []jen.Code{
			jen.Var().Add(newVal).Add(g.goType(g.locType(s.To))).Op("=").Add(g.expr(s.Val, lbl)),
			prevVal.Clone().Op(":=").Add(reg.Dot("swap").Call(l, newVal)),
		}
		if !g.discarded(s.Dst) {
			block = append(block, g.target(s.Dst).Op("=").Add(prevVal))
		}
		block = append(block, jen.If(prevVal.Clone().Op("!=").Add(newVal)).Block(g.wakes(targets, g.locType(s.To), newVal, g.runtimeValue(s.Val), lbl)...))
		return []jen.Code{jen.Block(block...)}
	case ir.CAS:
		reg := g.loc(s.To, lbl)
		targets := g.wakeTargets(s.To, s.New, nil)
		if len(targets) == 0 {
			return []jen.Code{g.assign(s.Dst, reg.Dot("cas").Call(l, g.expr(s.Old, lbl), g.expr(s.New, lbl)))}
		}
		block := []jen.Code{jen.Var().Add(newVal).Add(g.goType(g.locType(s.To))).Op("=").Add(g.expr(s.New, lbl))}
		ok := jen.Id("casOK")
		block = append(block, ok.Clone().Op(":=").Add(reg.Dot("cas").Call(l, g.expr(s.Old, lbl), newVal)))
		if !g.discarded(s.Dst) {
			block = append(block, g.target(s.Dst).Op("=").Add(ok))
		}
		block = append(block, jen.If(ok).Block(g.wakes(targets, g.locType(s.To), newVal, g.runtimeValue(s.New), lbl)...))
		return []jen.Code{jen.Block(block...)}
	case ir.FetchAdd:
		reg := g.loc(s.To, lbl)
		targets := g.wakeTargets(s.To, nil, s.Delta)
		fu := g.fusions[n.id]
		if len(targets) == 0 && fu == nil {
			return []jen.Code{g.assign(s.Dst, reg.Dot("fetchAdd").Call(l, g.expr(s.Delta, lbl)))}
		}
		keyed := false
		for _, t := range targets {
			keyed = keyed || t.keyed
		}
		block := []jen.Code{jen.Var().Id("delta").Int64().Op("=").Add(g.expr(s.Delta, lbl))}
		if !keyed && g.discarded(s.Dst) && fu == nil {
			block = append(block, reg.Dot("fetchAdd").Call(l, jen.Id("delta")))
		} else {
			block = append(block, prevVal.Clone().Op(":=").Add(reg.Dot("fetchAdd").Call(l, jen.Id("delta"))))
			if !g.discarded(s.Dst) {
				block = append(block, g.target(s.Dst).Op("=").Add(prevVal))
			}
		}
		if len(targets) > 0 {
			block = append(block, jen.If(jen.Id("delta").Op("!=").Lit(0)).Block(
				g.wakes(targets, ir.TInt, prevVal.Clone().Op("+").Id("delta"), true, lbl)...))
		}
		if fu == nil {
			return []jen.Code{jen.Block(block...)}
		}
		after := prevVal.Clone().Op("+").Id("delta")
		if g.c.WaitControl == "stale-fused-check" {
			after = jen.Lit(0)
		}
		block = append(block, jen.Id(fu.local).Op("=").Add(after))
		return []jen.Code{jen.Var().Id(fu.local).Int64(), jen.Block(block...)}
	}
	panic("golang: access of a statement that writes nothing")
}

// runtimeValue reports whether a written value is known only at run time.
func (g *gen) runtimeValue(e ir.Expr) bool {
	_, ok := g.constValue(e, nil, 0)
	return !ok
}

// wakes calls each target queue's wake with the value written (only keyed
// waits look at it); a value known only at run time (runtimeVal) first
// meets the target's constant keys, if it has them.
func (g *gen) wakes(targets []wakeTarget, t ir.Type, val *jen.Statement, runtimeVal bool, lbl string) []jen.Code {
	var out []jen.Code
	for _, tg := range targets {
		key := jen.Code(jen.Lit(0))
		if tg.keyed {
			switch t.Kind {
			case ir.Bool:
				key = jen.Id("b2i").Call(val.Clone())
			case ir.Int:
				key = val.Clone()
			}
		}
		wake := tg.q.Clone().Dot("wake").Call(jen.Lit(lbl), key)
		if tg.mixed && g.c.WaitControl != "one-kind-wake" {
			wake = jen.If(tg.q.Clone().Dot("mustWake").Call(jen.Lit(lbl))).Block(
				tg.q.Clone().Dot("wakeSlow").Call(jen.Lit(lbl), key))
		}
		if tg.ticket {
			slot := key
			if g.c.WaitControl == "wrong-ticket-slot" {
				slot = jen.Add(key).Op("+").Lit(1)
			}
			wake = tg.q.Clone().Dot("slot").Call(slot).Dot("wake").Call(jen.Lit(lbl), key)
		}
		if len(tg.guards) == 0 || !runtimeVal {
			out = append(out, wake)
			continue
		}
		var cond *jen.Statement
		for i, kg := range tg.guards {
			c := val.Clone()
			if kg.mod != 0 {
				c = jen.Parens(c).Op("%").Lit(kg.mod)
			}
			guardKey := kg.key
			if g.c.WaitControl == "wrong-key-guard" {
				guardKey++
			}
			c = c.Op("==").Lit(guardKey)
			if i == 0 {
				cond = c
			} else {
				cond = cond.Op("||").Add(c)
			}
		}
		out = append(out, jen.If(cond).Block(wake))
	}
	return out
}

// discarded reports whether an assignment to dst goes to the blank identifier.
func (g *gen) discarded(dst string) bool {
	return dst == "" || (!g.isState(dst) && !g.loopVars[dst] && !g.stepReads[dst])
}

func (g *gen) assign(dst string, call jen.Code) jen.Code {
	if dst == "" {
		return call
	}
	return g.target(dst).Op("=").Add(call)
}

func poolField(rec string) string { return "pool" + exportName(goIdent(rec)) }

// waiter is the waiter a wait at nesting depth d uses: the process's own,
// or, for locks without per-process state, one taken from the runtime's
// pool for the function (see waiterDecls).
func (g *gen) waiter(d int) *jen.Statement {
	g.fnWaiters = max(g.fnWaiters, d+1)
	if g.api.HolderState() {
		return jen.Id(fmt.Sprintf("w%d", d))
	}
	return jen.Id("st").Dot("waiters").Index(jen.Lit(d))
}

// waiterDecls declares a function's pooled waiters.
func (g *gen) waiterDecls() []jen.Code {
	if !g.api.HolderState() {
		return nil
	}
	var out []jen.Code
	for d := 0; d < g.fnWaiters; d++ {
		w := jen.Id(fmt.Sprintf("w%d", d))
		out = append(out, w.Clone().Op(":=").Id("getWaiter").Call(), jen.Defer().Id("putWaiter").Call(w.Clone()))
	}
	return out
}

// awaitWait waits, after a failed check, until an await's condition
// holds: spinning or yielding while the policy says so, otherwise queued
// on the site's queue, checked once more, and asleep until a write that
// may end it.
func (g *gen) awaitWait(n *node) []jen.Code {
	s := n.s.(ir.Await)
	lbl := s.Label()
	l := jen.Lit(lbl)
	site := g.sites[n.id]
	w := g.waiter(len(g.armed))
	c := func() jen.Code { return g.expr(s.Cond, lbl) }
	var loop []jen.Code
	switch {
	case g.c.Wait.Parks() && g.c.WaitControl == "check-before-announce":
		loop = []jen.Code{
			jen.If(jen.Op("!").Add(w.Clone().Dot("spin").Call(l))).Block(
				jen.If(c()).Block(jen.Break()),
				w.Clone().Dot("prepare").Call(l),
				w.Clone().Dot("park").Call(l),
			),
			jen.If(c()).Block(jen.Break()),
		}
	case g.c.Wait.Parks():
		loop = []jen.Code{
			jen.If(jen.Op("!").Add(w.Clone().Dot("spin").Call(l))).Block(
				w.Clone().Dot("prepare").Call(l),
				jen.If(c()).Block(w.Clone().Dot("cancel").Call(l), jen.Break()),
				w.Clone().Dot("park").Call(l),
			),
			jen.If(c()).Block(jen.Break()),
		}
	default:
		loop = []jen.Code{w.Clone().Dot("spin").Call(l), jen.If(c()).Block(jen.Break())}
	}
	if g.abandons(n) {
		// LockContext: each round starts by looking at the context, and a
		// sleep ends with the wake-up or the cancellation.
		loop = []jen.Code{g.giveUp(n, w)}
		if g.c.Wait.Parks() {
			loop = append(loop,
				jen.If(jen.Op("!").Add(w.Clone().Dot("spin").Call(l))).Block(
					w.Clone().Dot("prepare").Call(l),
					jen.If(c()).Block(w.Clone().Dot("cancel").Call(l), jen.Break()),
					jen.If(jen.Op("!").Add(w.Clone().Dot("parkContext").Call(l, jen.Id("ctx")))).Block(w.Clone().Dot("cancel").Call(l)),
				),
				jen.If(c()).Block(jen.Break()))
		} else {
			loop = append(loop, w.Clone().Dot("spin").Call(l), jen.If(c()).Block(jen.Break()))
		}
	}
	return []jen.Code{
		g.beginCall(w, lbl, site),
		jen.For().Block(loop...),
		w.Clone().Dot("end").Call(l),
	}
}

// busyLoop lowers a busy-wait loop (Repeat, or the repeat of a busy
// While). first says whether its first iteration is still to run; when it
// ran already (inline, in the fast path) the loop starts at its back edge.
// Once the policy stops spinning, an iteration starts by queuing the
// waiter (prepare): if the iteration fails, nothing it read changed since
// or the waiter was woken, so it sleeps (park) until a write.
func (g *gen) busyLoop(n *node, first bool) []jen.Code {
	lbl := n.s.Label()
	l := jen.Lit(lbl)
	site := g.sites[n.id]
	d := len(g.armed)
	w := g.waiter(d)
	armed := jen.Id(fmt.Sprintf("armed%d", d))
	firstV := jen.Id(fmt.Sprintf("first%d", d))
	parks := g.c.Wait.Parks()
	g.armed = append(g.armed, armedLoop{armed: armed, w: w, parks: parks})
	body := g.lower(n.body)
	g.armed = g.armed[:len(g.armed)-1]

	var exit ir.Expr
	var pre []jen.Code
	switch s := n.s.(type) {
	case ir.Repeat:
		exit = s.Until
	case ir.While:
		exit = ir.Not{X: s.Cond}
	}
	cancel := func() []jen.Code {
		if !parks {
			return nil
		}
		return []jen.Code{jen.If(armed.Clone()).Block(w.Clone().Dot("cancel").Call(l))}
	}
	var iter []jen.Code
	abandons := g.abandons(n)
	if abandons {
		// LockContext: a round after the first starts by looking at the
		// context (the waiter is off its queue there).
		iter = append(iter, jen.If(jen.Op("!").Add(firstV.Clone())).Block(g.giveUp(n, w)))
	}
	if parks {
		iter = append(iter,
			armed.Clone().Op(":=").Op("!").Add(firstV.Clone()).Op("&&").Op("!").Add(w.Clone().Dot("spin").Call(l)),
			jen.If(armed.Clone()).Block(w.Clone().Dot("prepare").Call(l)))
	} else {
		iter = append(iter, jen.If(jen.Op("!").Add(firstV.Clone())).Block(w.Clone().Dot("spin").Call(l)))
	}
	iter = append(iter, pre...)
	iter = append(iter, body...)
	iter = append(iter, jen.If(g.expr(exit, lbl)).Block(append(cancel(), jen.Break())...))
	switch {
	case parks && abandons:
		iter = append(iter, jen.If(armed.Clone().Op("&&").Op("!").Add(w.Clone().Dot("parkContext").Call(l, jen.Id("ctx")))).Block(
			w.Clone().Dot("cancel").Call(l)))
	case parks:
		iter = append(iter, jen.If(armed.Clone()).Block(w.Clone().Dot("park").Call(l)))
	}
	return []jen.Code{
		g.beginCall(w, lbl, site),
		jen.For(firstV.Clone().Op(":=").Lit(first), jen.Empty(), firstV.Clone().Op("=").False()).Block(iter...),
		w.Clone().Dot("end").Call(l),
	}
}

// armedLoop is an enclosing busy loop that may have queued its waiter:
// leaving it early (Succeed, Fail) must withdraw the waiter and end the
// wait.
type armedLoop struct {
	armed, w *jen.Statement
	parks    bool
}

func (g *gen) disarmAll(lbl string) []jen.Code {
	var out []jen.Code
	l := jen.Lit(lbl)
	for i := len(g.armed) - 1; i >= 0; i-- {
		a := g.armed[i]
		if a.parks {
			out = append(out, jen.If(a.armed.Clone()).Block(a.w.Clone().Dot("cancel").Call(l)))
		}
		out = append(out, a.w.Clone().Dot("end").Call(l))
	}
	return out
}

// locType is the type of the register a location names.
func (g *gen) locType(l ir.Loc) ir.Type {
	switch l := l.(type) {
	case ir.Var:
		return g.a.SharedVar(l.Name).Type
	case ir.Fld:
		return g.a.Record(g.a.RefRecord(l.Ref)).Field(l.Name).Type
	}
	panic(fmt.Sprintf("golang: unknown location %T", l))
}

// loc is the register a location names.
func (g *gen) loc(l ir.Loc, lbl string) *jen.Statement {
	switch l := l.(type) {
	case ir.Var:
		r := jen.Id("l").Dot(g.fieldNames[l.Name])
		if l.Index == nil {
			return r
		}
		r = r.Index(g.expr(l.Index, lbl))
		if g.elemStruct(l.Name) {
			r = r.Dot("r")
		}
		return r
	case ir.Fld:
		return g.deref(g.expr(l.Ref, lbl), g.a.RefRecord(l.Ref)).Dot(goIdent(l.Name))
	}
	panic(fmt.Sprintf("golang: unknown location %T", l))
}

func (g *gen) expr(e ir.Expr, lbl string) *jen.Statement {
	switch e := e.(type) {
	case ir.Const:
		if e.Name != "" {
			return g.namedConst(e)
		}
		return jen.Lit(int(e.V))
	case ir.BoolConst:
		return jen.Lit(e.V)
	case ir.Nil:
		if g.recIDs != nil {
			return jen.Lit(0)
		}
		return jen.Nil()
	case ir.Param:
		switch {
		case e.Name == "n" && g.c.Params.N > 0:
			return jen.Id(g.procsConst())
		case e.Name == "k" && g.c.Mode.TakesK():
			return jen.Id(g.kConst())
		}
		return jen.Lit(int(g.c.Params.Get(e.Name)))
	case ir.Self:
		return jen.Int64().Call(jen.Id("id"))
	case ir.LocalRef:
		if e.Index != nil {
			return g.local(e.Name).Index(g.expr(e.Index, lbl))
		}
		return g.local(e.Name)
	case ir.Load:
		if v, ok := g.known[locString(e.From)]; ok {
			return jen.Id(v)
		}
		return g.loc(e.From, lbl).Dot("load").Call(jen.Lit(lbl))
	case ir.Mine:
		return g.mine(e, lbl)
	case ir.Not:
		if x, ok := e.X.(ir.Not); ok { // ¬¬x is x (staticcheck SA4013)
			return g.operand(x.X, lbl)
		}
		return jen.Op("!").Add(g.operand(e.X, lbl))
	case ir.Bin:
		return g.operand(e.X, lbl).Op(goOp[e.Op]).Add(g.operand(e.Y, lbl))
	case ir.Quant:
		return g.quant(e, lbl)
	}
	panic(fmt.Sprintf("golang: unknown expression %T", e))
}

// quant lowers ∀/∃ to a loop in a directly called function literal (which
// does not allocate): each element is read in turn and the loop stops at
// the first element that decides, as the papers' n-1 separate reads do.
func (g *gen) quant(q ir.Quant, lbl string) *jen.Statement {
	v := goIdent(q.Var)
	g.loopVars[q.Var] = true
	decides := g.expr(q.Body, lbl) // ∃: the first element for which the body holds
	if q.All {
		decides = g.not(q.Body, lbl) // ∀: the first for which it does not
	}
	delete(g.loopVars, q.Var)
	var loop []jen.Code
	if q.SkipSelf {
		loop = append(loop, jen.If(jen.Id(v).Op("==").Int64().Call(jen.Id("id"))).Block(jen.Continue()))
	}
	loop = append(loop, jen.If(decides).Block(jen.Return(jen.Lit(!q.All))))
	return jen.Func().Params().Bool().Block(
		jen.For(jen.Id(v).Op(":=").Int64().Call(g.expr(q.From, lbl)), jen.Id(v).Op("<=").Add(g.expr(q.To, lbl)), jen.Id(v).Op("++")).Block(loop...),
		jen.Return(jen.Lit(q.All)),
	).Call()
}

// operand parenthesises compound sub-expressions.
// not lowers ¬e as a condition: !(e), or e's operand where e is itself a
// negation, so that no double negation reaches the Go code (staticcheck's
// SA4013 reports one).
func (g *gen) not(e ir.Expr, lbl string) *jen.Statement {
	if x, ok := e.(ir.Not); ok {
		return g.expr(x.X, lbl)
	}
	return jen.Op("!").Parens(g.expr(e, lbl))
}

func (g *gen) operand(e ir.Expr, lbl string) *jen.Statement {
	if _, ok := e.(ir.Bin); ok {
		return jen.Parens(g.expr(e, lbl))
	}
	return g.expr(e, lbl)
}

var goOp = map[ir.Op]string{
	ir.Add: "+", ir.Sub: "-", ir.Mul: "*", ir.Div: "/", ir.Mod: "%",
	ir.Eq: "==", ir.Ne: "!=", ir.Lt: "<", ir.Le: "<=", ir.Gt: ">", ir.Ge: ">=",
	ir.And: "&&", ir.Or: "||",
}

// mine is a reference to one of the process's own records: where it lives
// is the node policy.
func (g *gen) mine(m ir.Mine, lbl string) *jen.Statement {
	rec := g.a.ProcRecs(m.Name).Rec
	switch {
	case g.recIDs != nil:
		return jen.Parens(g.recordID(rec, m.Name, jen.Id("id"), m.Index, lbl))
	case !g.api.HolderState():
		// Parenthesised: the reference may be followed by a field (&st.q[0].next would take the field's address).
		return jen.Parens(jen.Op("&").Id("st").Dot(goIdent(m.Name)).Index(g.expr(m.Index, lbl)))
	case g.c.Nodes == nodes.Pool:
		return jen.Id("l").Dot("get" + exportName(goIdent(rec))).Call()
	default: // heap
		return jen.Id("new" + exportName(g.recType(rec))).Call()
	}
}
