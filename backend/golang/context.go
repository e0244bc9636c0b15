package golang

import (
	"fmt"
	"strings"

	"github.com/lockgen/lockgen/shape"

	"github.com/dave/jennifer/jen"

	"github.com/lockgen/lockgen/ir"
)

// LockContext (context = true): the acquire lowered once more, whole, in
// a method of its own, whose waits that the paper lets a process abandon
// (ir.AbortOf) watch a context besides their condition. Each round of
// such a wait starts by looking at the context (a non-blocking receive
// from ctx.Done()), and a sleep ends with the wake-up or the
// cancellation, whichever comes first (lockrt's parkContext). A waiter
// whose context is done withdraws from its queue, ends its wait
// (abandon, which passes on a wake-up it may have taken) and runs the
// wait's abort code, the paper's, which ends in Fail (LockContext
// returns ctx.Err(), the lock not held) or Succeed (the lock came to it
// after all: LockContext returns nil). Waits without abort code wait as
// Lock's do. Lock itself is not touched: it never looks at a context.

// ctxOp names LockContext's acquire among the lowered operations.
const ctxOp = "AcquireContext"

// contextOp adds LockContext's acquire, with its abort code, to the
// operations the wait analysis sees: its waits sleep on the same queues
// as Lock's, and the abort code's writes wake them.
func (g *gen) contextOp(next *int) {
	nodes := abortTree(g.a.Acquire, next)
	g.trees[ctxOp] = nodes
	g.ops = append(g.ops, opInfo{name: ctxOp, nodes: nodes, ctx: true})
	// The doorway is made of the acquire's own lines (ir.Check), never of
	// abort code, which may repeat its statements.
	var find func([]*node)
	find = func(ns []*node) {
		for _, n := range ns {
			if g.a.EndsDoorway(n.s) {
				g.ctxDoorway = n.id
			}
			find(n.then)
			find(n.els)
			find(n.body)
		}
	}
	find(nodes)
}

// abandons reports whether a wait being lowered may be given up: in
// LockContext's acquire, a wait with abort code.
func (g *gen) abandons(n *node) bool { return g.op.ctx && len(n.abort) > 0 }

// giveUp is the look at the context at the head of an abandonable wait's
// round: if it is done, the waiter (off its queue) ends its wait and the
// abort code runs; it returns from the acquire.
func (g *gen) giveUp(n *node, w *jen.Statement) jen.Code {
	l := jen.Lit(n.s.Label())
	abort := append([]jen.Code{w.Clone().Dot("abandon").Call(l)}, g.lower(n.abort)...)
	return jen.If(jen.Id("cancelled").Call(jen.Id("ctxDone"))).Block(abort...)
}

// contextMethod emits LockContext and the method that runs its acquire.
func (g *gen) contextMethod(f *jen.File) error {
	if !g.c.Context {
		return nil
	}
	op := opInfo{name: ctxOp, nodes: g.trees[ctxOp], ctx: true}
	g.beginOp(op)
	saved := g.fnWaiters
	g.fnWaiters = 0
	code := g.lower(op.nodes)
	if g.err != nil {
		return fmt.Errorf("%s.LockContext: %w", g.a.Name, g.err)
	}
	code = append(code, jen.Return(jen.Nil()))
	code = append(g.waiterDecls(), code...)
	g.fnWaiters = saved

	// The acquire's locals, then the context's channel, then the code.
	decls := g.opLocals(code)
	if mentions(code, "ctxDone") {
		decls = append(decls, jen.Id("ctxDone").Op(":=").Id("ctx").Dot("Done").Call())
	}
	code = append(decls, code...)
	params := []jen.Code{jen.Id("ctx").Qual("context", "Context")}
	args := []jen.Code{jen.Id("ctx")}
	if mentions(code, "st") {
		params = append(params, jen.Id("st").Op("*").Id(g.stateType()))
		if g.api == shape.Locker {
			args = append(args, jen.Op("&").Id("st"))
		} else {
			args = append(args, jen.Id("st"))
		}
	}
	if g.api == shape.IDs && mentions(code, "id") {
		params = append(params, jen.Id("id").Int())
		args = append(args, jen.Id("id"))
	}
	if !mentions(code, "ctx") {
		params[0] = jen.Id("_").Qual("context", "Context")
	}
	const inner = "lockContext"
	call := jen.Id("l").Dot(inner).Call(args...)
	if g.api == shape.Handles {
		call = jen.Id("h").Dot("l").Dot(inner).Call(args...)
	}

	// The public method: the misuse checks of Lock around the call.
	typeName, recv, pub := g.c.Name, jen.Id("l").Op("*").Id(g.c.Name), []jen.Code{jen.Id("ctx").Qual("context", "Context")}
	msg := func(what string) jen.Code {
		return jen.Lit(fmt.Sprintf("lockgen: %s.LockContext: %s", typeName, what))
	}
	var body []jen.Code
	switch g.api {
	case shape.IDs:
		pub = append(pub, jen.Id("id").Int())
		msg = func(what string) jen.Code {
			return jen.Lit(fmt.Sprintf("lockgen: %s.LockContext(", typeName)).Op("+").
				Qual("strconv", "Itoa").Call(jen.Id("id")).Op("+").Lit("): " + what)
		}
		body = append(body, g.setupCheck(jen.Id("l"))...)
		body = append(body, jen.Id("st").Op(":=").Id("l").Dot("proc").Call(jen.Id("id")))
	case shape.Handles:
		typeName = g.handleType()
		recv = jen.Id("h").Op("*").Id(typeName)
		msg = func(what string) jen.Code { return jen.Lit(fmt.Sprintf("lockgen: %s.LockContext: %s", typeName, what)) }
		body = append(body,
			jen.If(jen.Id("h").Dot("l").Op("==").Nil()).Block(
				jen.Panic(jen.Lit(fmt.Sprintf("lockgen: %s.LockContext: a handle must come from %s.NewHandle", typeName, g.c.Name)))),
			jen.Id("st").Op(":=").Op("&").Id("h").Dot("st"))
	case shape.CallerNodes:
		pub = append(pub, jen.Id("nd").Op("*").Id(g.nodeType()))
		body = append(body, jen.If(jen.Id("nd").Op("==").Nil()).Block(jen.Panic(msg("nil "+g.nodeType()))))
		body = append(body, g.setupCheck(jen.Id("l"))...)
		body = append(body, jen.Id("st").Op(":=").Op("&").Id("nd").Dot("st"))
	case shape.Locker:
		body = append(body, g.setupCheck(jen.Id("l"))...)
	}
	hasState := len(g.stateLocals) > 0
	try := func(c *jen.Statement) jen.Code {
		return jen.If(jen.Err().Op(":=").Add(c), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
	}
	switch {
	case g.releaseMisuse():
		// No flag: the release's own check tells a release without a
		// holder (as for Lock).
		if g.api == shape.Locker && mentions(code, "st") {
			body = append(body, jen.Var().Id("st").Id(g.stateType()))
		}
		body = append(body, try(call))
	case g.api == shape.Locker:
		if hasState {
			body = append(body, jen.Var().Id("st").Id(g.stateType()))
			body = append(body, g.passageInit()...)
		} else if mentions(code, "st") {
			body = append(body, jen.Var().Id("st").Id(g.stateType()))
		}
		body = append(body, try(call))
		if hasState {
			body = append(body, jen.Id("l").Dot("holder").Op("=").Id("st"))
		}
		body = append(body, jen.Id("l").Dot("held").Op("=").True())
	default:
		holds := jen.Id("st").Dot("held")
		if g.c.Mode.Readers() {
			holds = holds.Op("||").Id("st").Dot("rheld")
		}
		body = append(body, jen.If(holds).Block(jen.Panic(msg("already holds the lock"))))
		body = append(body, try(call), jen.Id("st").Dot("held").Op("=").True())
	}
	body = append(body, jen.Return(jen.Nil()))

	f.Line()
	docLines(f, g.contextDoc())
	f.Func().Params(recv).Id("LockContext").Params(pub...).Error().Block(body...)
	f.Line()
	f.Comment(fmt.Sprintf("%s is LockContext's acquire: the paper's, whose waits at %s give up when ctx is done first, running the paper's abort code.", inner, abortLabels(g.a)))
	f.Func().Params(jen.Id("l").Op("*").Id(g.c.Name)).Id(inner).Params(params...).Error().Block(code...)
	return nil
}

// contextDoc documents LockContext.
func (g *gen) contextDoc() string {
	s := fmt.Sprintf("LockContext acquires the lock as Lock does, unless ctx is done first: it returns nil with the lock held, "+
		"or ctx.Err() with the lock not held and nothing of the attempt left behind. A waiter may give up at %s, "+
		"where the paper gives the abort code it then runs (%s); elsewhere it waits as Lock does. "+
		"As with a select on ctx.Done(), a lock that comes when ctx is done may still be taken; Lock never looks at a context.", abortLabels(g.a), g.abortCost())
	switch g.api {
	case shape.IDs:
		s += " id identifies the calling process, as for Lock."
	case shape.CallerNodes:
		s += " nd is the caller's node, as for Lock."
	}
	return s
}

// abortCost says what giving up costs, from the catalogue.
func (g *gen) abortCost() string {
	var parts []string
	for _, p := range g.a.AbortPoints() {
		if p.Op == "Acquire" {
			parts = append(parts, p.Wait.Label()+": "+ir.AbortCost(p.Abort).String())
		}
	}
	return strings.Join(parts, "; ")
}

// abortLabels names the waits of the acquire that may be given up.
func abortLabels(a *ir.Algorithm) string {
	var ls []string
	for _, p := range a.AbortPoints() {
		if p.Op == "Acquire" {
			ls = append(ls, p.Wait.Label())
		}
	}
	return labelsText(ls)
}

// labelsText is "A", "A and B", "A, B and C".
func labelsText(ls []string) string {
	switch len(ls) {
	case 0:
		return "no wait"
	case 1:
		return ls[0]
	}
	s := ""
	for i, l := range ls {
		switch {
		case i == 0:
		case i == len(ls)-1:
			s += " and "
		default:
			s += ", "
		}
		s += l
	}
	return s
}
