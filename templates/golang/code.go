package golang

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/lockgen/lockgen/templates"
	"github.com/lockgen/lockgen/templates/ir"
)

// opMethod names the internal method implementing an operation.
var opMethod = map[string]string{
	"Acquire": "acquire", "Release": "release", "TryAcquire": "tryAcquire",
	"RAcquire": "rAcquire", "RRelease": "rRelease", "TryRAcquire": "tryRAcquire",
}

// opFunc emits the internal method of one operation: the paper's code, line
// by line, each shared access through a register method carrying its label.
func (g *gen) opFunc(op ir.NamedCode) (jen.Code, error) {
	g.op = op.Name
	g.try = op.Name == "TryAcquire" || op.Name == "TryRAcquire"
	g.loopVars = map[string]bool{}
	g.stepReads = g.localReads(op.Code)

	g.err = nil
	g.doorwaySeen, g.doorwayCount = 0, 0
	ir.WalkStmts(op.Code, func(s ir.Stmt) {
		if g.a.EndsDoorway(s) {
			g.doorwayCount++
		}
	})
	body, err := g.stmts(op.Code)
	if err == nil {
		err = g.err
	}
	if err != nil {
		return nil, fmt.Errorf("%s.%s: %w", g.a.Name, op.Name, err)
	}
	var decls []jen.Code
	for _, l := range g.a.Locals {
		if l.Scope == ir.Step && g.stepReads[l.Name] {
			decls = append(decls, jen.Var().Id(goIdent(l.Name)).Add(g.localType(l)))
		}
	}
	if g.try {
		body = append(body, jen.Return(jen.True()))
	}
	fn := jen.Func().Params(jen.Id("l").Op("*").Id(g.c.Name)).Id(opMethod[op.Name]).
		Params(jen.Id("st").Op("*").Id(g.stateType()), jen.Id("id").Int())
	if g.try {
		fn = fn.Bool()
	}
	return fn.Block(append(decls, body...)...), nil
}

// localType is a local's Go type (an array for local arrays).
func (g *gen) localType(l ir.Local) jen.Code {
	if l.Len != nil {
		return jen.Index(jen.Lit(l.Len(g.c.Params))).Add(g.goType(l.Type))
	}
	return g.goType(l.Type)
}

// localReads returns the locals an operation reads.
func (g *gen) localReads(code ir.Code) map[string]bool {
	reads := map[string]bool{}
	ir.WalkStmts(code, func(s ir.Stmt) {
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

func (g *gen) stmts(code ir.Code) ([]jen.Code, error) {
	var out []jen.Code
	for _, s := range code {
		cs, err := g.stmt(s)
		if err != nil {
			return nil, err
		}
		out = append(out, cs...)
	}
	return out, nil
}

func comment(s ir.Stmt) jen.Code {
	if l := s.Label(); l != "" {
		return jen.Comment(l + ": " + ir.FormatHead(s))
	}
	return jen.Comment(ir.FormatHead(s))
}

func (g *gen) stmt(s ir.Stmt) ([]jen.Code, error) {
	lbl := s.Label()
	out := []jen.Code{comment(s)}
	switch s := s.(type) {
	case ir.Write:
		if w := g.wakes(s.To); w != nil {
			// Wake only when the value changed: a busy loop that rewrites
			// the same value each iteration must not wake itself.
			out = append(out, jen.If(g.loc(s.To, lbl).Dot("storeChanged").Call(jen.Lit(lbl), g.expr(s.Val, lbl))).Block(w...))
			break
		}
		out = append(out, g.loc(s.To, lbl).Dot("store").Call(jen.Lit(lbl), g.expr(s.Val, lbl)))
	case ir.Set:
		dst := g.target(s.Dst)
		if s.Index != nil {
			dst = g.local(s.Dst).Index(g.expr(s.Index, lbl))
		}
		out = append(out, dst.Op("=").Add(g.expr(s.Val, lbl)))
	case ir.Swap:
		w := g.wakes(s.To)
		if w == nil {
			out = append(out, g.assign(s.Dst, g.loc(s.To, lbl).Dot("swap").Call(jen.Lit(lbl), g.expr(s.Val, lbl))))
			break
		}
		// Wake only when the value changed: a test-and-set that swaps 1
		// over 1 while it waits must not wake itself.
		block := []jen.Code{
			jen.Var().Id("newVal").Add(g.goType(g.locType(s.To))).Op("=").Add(g.expr(s.Val, lbl)),
			jen.Id("prevVal").Op(":=").Add(g.loc(s.To, lbl).Dot("swap").Call(jen.Lit(lbl), jen.Id("newVal"))),
		}
		if !g.discarded(s.Dst) {
			block = append(block, g.target(s.Dst).Op("=").Id("prevVal"))
		}
		block = append(block, jen.If(jen.Id("prevVal").Op("!=").Id("newVal")).Block(w...))
		out = append(out, jen.Block(block...))
	case ir.CAS:
		call := g.loc(s.To, lbl).Dot("cas").Call(jen.Lit(lbl), g.expr(s.Old, lbl), g.expr(s.New, lbl))
		w := g.wakes(s.To)
		switch {
		case w == nil:
			out = append(out, g.assign(s.Dst, call))
		case g.discarded(s.Dst):
			out = append(out, jen.If(call).Block(w...)) // wake only when the CAS wrote
		default:
			out = append(out, g.assign(s.Dst, call), jen.If(g.local(s.Dst)).Block(w...))
		}
	case ir.FetchAdd:
		call := g.loc(s.To, lbl).Dot("fetchAdd").Call(jen.Lit(lbl), g.expr(s.Delta, lbl))
		out = append(out, g.assign(s.Dst, call))
		out = append(out, g.wakes(s.To)...)
	case ir.If:
		then, err := g.stmts(s.Then)
		if err != nil {
			return nil, err
		}
		st := jen.If(g.expr(s.Cond, lbl)).Block(then...)
		if len(s.Else) > 0 {
			els, err := g.stmts(s.Else)
			if err != nil {
				return nil, err
			}
			st = st.Else().Block(els...)
		}
		out = append(out, st)
	case ir.While:
		if !s.Busy {
			out = append(out, g.loop(lbl, s.Cond, nil, s.Body, false)...)
			break
		}
		// A busy "while c do B" is "if c then repeat B until ¬c": the
		// condition is re-tested after the body and before any wait, so
		// an iteration that ends the loop (through a local, say) never
		// waits for a write that will not come.
		loop := g.loop(lbl, nil, ir.Not{X: s.Cond}, s.Body, true)
		out = append(out, jen.If(g.expr(s.Cond, lbl)).Block(loop...))
	case ir.Repeat:
		out = append(out, g.loop(lbl, nil, s.Until, s.Body, s.Busy)...)
	case ir.For:
		v := goIdent(s.Var)
		g.loopVars[s.Var] = true
		body, err := g.stmts(s.Body)
		delete(g.loopVars, s.Var)
		if err != nil {
			return nil, err
		}
		if s.SkipSelf {
			body = append([]jen.Code{jen.If(jen.Id(v).Op("==").Int64().Call(jen.Id("id"))).Block(jen.Continue())}, body...)
		}
		out = append(out, jen.For(
			jen.Id(v).Op(":=").Int64().Call(g.expr(s.From, lbl)),
			jen.Id(v).Op("<=").Add(g.expr(s.To, lbl)),
			jen.Id(v).Op("++"),
		).Block(body...))
	case ir.Await:
		out = append(out, g.await(lbl, s.Cond)...)
	case ir.Succeed:
		out = append(out, g.disarmAll()...)
		if g.try {
			out = append(out, jen.Return(jen.True()))
		} else {
			out = append(out, jen.Return())
		}
	case ir.Fail:
		out = append(out, g.disarmAll()...)
		out = append(out, jen.Return(jen.False()))
	case ir.Delay:
		var d jen.Code
		if s.Param == "" {
			d = g.expr(s.Dur, lbl)
		} else {
			ns, ok := g.c.Params.Extra[s.Param]
			if !ok {
				return nil, fmt.Errorf("line %s: no value for parameter %s", lbl, s.Param)
			}
			d = jen.Lit(int(ns))
		}
		out = append(out, jen.Id("delay").Call(jen.Lit(lbl), jen.Qual("time", "Duration").Call(d)))
	case ir.FreeRecord:
		if g.c.Nodes != templates.Pool {
			return nil, nil // only pooled records go back anywhere
		}
		rec := g.a.RefRecord(s.Ref)
		out = append(out, jen.Id("l").Dot(poolField(rec)).Dot("Put").Call(g.expr(s.Ref, lbl)))
	default:
		return nil, fmt.Errorf("line %s: unsupported statement %T", lbl, s)
	}
	if g.op == "Acquire" && g.a.EndsDoorway(s) {
		// Several statements may share the label (a read and a write of
		// one paper line): the doorway ends after the last of them.
		g.doorwaySeen++
		if g.doorwaySeen == g.doorwayCount {
			out = append(out, jen.Id("doorway").Call(jen.Lit(lbl)))
		}
	}
	return out, nil
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

// wakes returns the wake calls that must follow a write to loc under the
// park policies: the record's parker when an await on that record reads
// it, the lock's when a lock-wide wait reads it.
func (g *gen) wakes(loc ir.Loc) []jen.Code {
	key := g.a.LocKey(loc)
	var out []jen.Code
	if g.nodeWake[key] {
		f := loc.(ir.Fld)
		out = append(out, g.expr(f.Ref, "").Dot("park").Dot("wake").Call())
	}
	if g.lockWake[key] {
		out = append(out, jen.Id("l").Dot("park").Dot("wake").Call())
	}
	if v, ok := loc.(ir.Var); ok && g.elemWake[v.Name] {
		if ir.HasLoad(v.Index) {
			panic("golang: a write naming its element through a load to an array awaited element by element")
		}
		out = append(out, jen.Id("l").Dot(g.fieldNames[v.Name]).Index(g.expr(v.Index, "")).Dot("park").Dot("wake").Call())
	}
	return out
}

// parkerFor is the parker an await with these reads sleeps on.
func (g *gen) parkerFor(reads []ir.Loc) *jen.Statement {
	if ref, ok := g.oneRecord(reads); ok {
		return g.expr(ref, "").Dot("park")
	}
	if v, ok := g.oneElement(reads); ok {
		return jen.Id("l").Dot(g.fieldNames[v.Name]).Index(g.expr(v.Index, "")).Dot("park")
	}
	return jen.Id("l").Dot("park")
}

// await lowers "await cond" through the waiting policy. Every policy
// re-evaluates cond (re-reading its registers) between waits; the park
// policies announce themselves before a last re-check, so a write between
// the check and the sleep is never missed.
func (g *gen) await(lbl string, cond ir.Expr) []jen.Code {
	c := func() jen.Code { return g.expr(cond, lbl) }
	notC := func() jen.Code { return jen.Op("!").Parens(c()) }
	l := jen.Lit(lbl)
	spins := jen.Id("spins")
	counted := func(body ...jen.Code) jen.Code {
		return jen.For(spins.Clone().Op(":=").Lit(0), notC(), spins.Clone().Op("++")).Block(body...)
	}
	park := func(p *jen.Statement) []jen.Code {
		return []jen.Code{
			jen.Id("tok").Op(":=").Add(p.Clone().Dot("prepare").Call()),
			jen.If(c()).Block(p.Clone().Dot("cancel").Call(), jen.Break()),
			p.Clone().Dot("sleep").Call(l, jen.Id("tok")),
		}
	}
	switch g.c.Wait {
	case templates.Spin:
		return []jen.Code{counted(jen.Id("spinWait").Call(l, spins.Clone()))}
	case templates.Yield:
		return []jen.Code{jen.For(notC()).Block(jen.Id("yield").Call(l))}
	case templates.SpinThenYield:
		return []jen.Code{counted(jen.If(spins.Clone().Op("<").Lit(g.c.Spin)).
			Block(jen.Id("pause").Call(l)).Else().Block(jen.Id("yield").Call(l)))}
	case templates.Park:
		return []jen.Code{jen.For(notC()).Block(park(g.parkerFor(ir.Loads(cond)))...)}
	case templates.SpinThenPark:
		body := append([]jen.Code{jen.If(spins.Clone().Op("<").Lit(g.c.Spin)).
			Block(jen.Id("pause").Call(l), jen.Continue())}, park(g.parkerFor(ir.Loads(cond)))...)
		return []jen.Code{counted(body...)}
	}
	panic("golang: unknown wait policy " + string(g.c.Wait))
}

// loop lowers While (cond) and Repeat (until). A busy-wait loop applies
// the waiting policy at its back edge. Under the park policies, once the
// spin budget is spent an iteration starts by announcing itself (prepare);
// if no register the loop reads changed while it ran, re-running it would
// read the same values, so it sleeps until a write changes one (a write
// between prepare and sleep makes sleep return at once).
func (g *gen) loop(lbl string, cond, until ir.Expr, body ir.Code, busy bool) []jen.Code {
	var pre []jen.Code
	var armed, tok, p *jen.Statement
	parks := busy && g.c.Wait.Parks()
	if parks {
		depth := len(g.armed)
		armed, tok = jen.Id(fmt.Sprintf("armed%d", depth)), jen.Id(fmt.Sprintf("tok%d", depth))
		p = g.parkerFor(loopReads(orTrue(cond, until), body))
		spinFor := g.c.Spin
		if g.c.Wait == templates.Park {
			spinFor = 1 // the first iteration runs before anyone can be waited for
		}
		pre = []jen.Code{
			armed.Clone().Op(":=").Id("spins").Op(">=").Lit(spinFor),
			jen.Var().Add(tok.Clone()).Uint64(),
			jen.If(armed.Clone()).Block(tok.Clone().Op("=").Add(p.Clone().Dot("prepare").Call())),
		}
		g.armed = append(g.armed, armedLoop{armed: armed, park: p})
	}
	disarm := func() []jen.Code {
		if !parks {
			return nil
		}
		return []jen.Code{jen.If(armed.Clone()).Block(p.Clone().Dot("cancel").Call())}
	}
	stmts, err := g.stmts(body)
	if parks {
		g.armed = g.armed[:len(g.armed)-1]
	}
	if err != nil {
		g.err = err
		return nil
	}
	if !busy && until == nil {
		return []jen.Code{jen.For(g.expr(cond, lbl)).Block(stmts...)}
	}
	var block []jen.Code
	block = append(block, pre...)
	if cond != nil {
		block = append(block, jen.If(jen.Op("!").Parens(g.expr(cond, lbl))).Block(append(disarm(), jen.Break())...))
	}
	block = append(block, stmts...)
	if until != nil {
		block = append(block, jen.If(g.expr(until, lbl)).Block(append(disarm(), jen.Break())...))
	}
	if !busy {
		return []jen.Code{jen.For().Block(block...)}
	}
	l := jen.Lit(lbl)
	switch g.c.Wait {
	case templates.Spin:
		block = append(block, jen.Id("spinWait").Call(l, jen.Id("spins")))
	case templates.Yield:
		block = append(block, jen.Id("yield").Call(l))
	case templates.SpinThenYield:
		block = append(block, jen.If(jen.Id("spins").Op("<").Lit(g.c.Spin)).
			Block(jen.Id("pause").Call(l)).Else().Block(jen.Id("yield").Call(l)))
	default: // the park policies
		block = append(block, jen.If(armed.Clone()).Block(p.Clone().Dot("sleep").Call(l, tok.Clone())).
			Else().Block(jen.Id("pause").Call(l)))
	}
	return []jen.Code{jen.For(jen.Id("spins").Op(":=").Lit(0), jen.Empty(), jen.Id("spins").Op("++")).Block(block...)}
}

// armedLoop is an enclosing busy loop that may have announced a waiter:
// leaving it early (Succeed, Fail) must withdraw the announcement.
type armedLoop struct{ armed, park *jen.Statement }

func (g *gen) disarmAll() []jen.Code {
	var out []jen.Code
	for i := len(g.armed) - 1; i >= 0; i-- {
		a := g.armed[i]
		out = append(out, jen.If(a.armed.Clone()).Block(a.park.Clone().Dot("cancel").Call()))
	}
	return out
}

func orTrue(a, b ir.Expr) ir.Expr {
	if a != nil {
		return a
	}
	if b != nil {
		return b
	}
	return ir.BoolConst{V: true}
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
		return g.expr(l.Ref, lbl).Dot(goIdent(l.Name))
	}
	panic(fmt.Sprintf("golang: unknown location %T", l))
}

func (g *gen) expr(e ir.Expr, lbl string) *jen.Statement {
	switch e := e.(type) {
	case ir.Const:
		return jen.Lit(int(e.V))
	case ir.BoolConst:
		return jen.Lit(e.V)
	case ir.Nil:
		return jen.Nil()
	case ir.Param:
		switch {
		case e.Name == "n" && g.c.Params.N > 0:
			return jen.Id(g.procsConst())
		case e.Name == "k" && g.c.Mode == templates.KExclusion:
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
		return g.loc(e.From, lbl).Dot("load").Call(jen.Lit(lbl))
	case ir.Mine:
		return g.mine(e, lbl)
	case ir.Not:
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
	body := g.expr(q.Body, lbl)
	delete(g.loopVars, q.Var)
	var loop []jen.Code
	if q.SkipSelf {
		loop = append(loop, jen.If(jen.Id(v).Op("==").Int64().Call(jen.Id("id"))).Block(jen.Continue()))
	}
	if q.All {
		loop = append(loop, jen.If(jen.Op("!").Parens(body)).Block(jen.Return(jen.False())))
	} else {
		loop = append(loop, jen.If(body).Block(jen.Return(jen.True())))
	}
	return jen.Func().Params().Bool().Block(
		jen.For(jen.Id(v).Op(":=").Int64().Call(g.expr(q.From, lbl)), jen.Id(v).Op("<=").Add(g.expr(q.To, lbl)), jen.Id(v).Op("++")).Block(loop...),
		jen.Return(jen.Lit(q.All)),
	).Call()
}

// operand parenthesises compound sub-expressions.
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
	case g.api != apiLocker:
		// Parenthesised: the reference may be followed by a field (&st.q[0].next would take the field's address).
		return jen.Parens(jen.Op("&").Id("st").Dot(goIdent(m.Name)).Index(g.expr(m.Index, lbl)))
	case g.c.Nodes == templates.Pool:
		return jen.Id("l").Dot("get" + exportName(goIdent(rec))).Call()
	default: // heap
		return jen.Id("new" + exportName(g.recType(rec))).Call()
	}
}
