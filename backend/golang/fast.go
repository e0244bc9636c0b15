package golang

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/lockgen/lockgen/ir"
)

// The fast path. A public method (Lock, Unlock, ...) runs its operation's
// code inline up to the first point where it may have to wait: the first
// check of an await, the first iteration of a loop, a branch that waits
// or wakes someone. If the check holds, the method goes on inline; if not,
// it calls a continuation: a method that runs the rest of the operation
// from exactly that point, with the operation's locals passed by value. So
// an uncontended passage makes no call and touches no waiting bookkeeping,
// and a small one inlines like sync.Mutex's (the statements are the
// paper's, in the paper's order: nothing is re-executed or skipped).
//
// A frame is what follows the code being lowered: the rest of a statement
// list and, when that list is the body of a loop's first iteration, the
// loop's exit check before it.
type frame struct {
	rest   []*node
	loop   *node // the loop whose first iteration this frame ends
	parent *frame
}

// cont is one continuation of an operation.
type cont struct {
	name   string
	params []jen.Code
	args   []jen.Code // what the inline path passes for params
	code   []jen.Code
	ctx    bool // takes LockContext's ctx (first)
}

// fastOp lowers op's fast path into the public method's body. It returns
// the inline code and the continuations it calls.
func (g *gen) fastOp(op opInfo) ([]jen.Code, []cont, error) {
	g.beginOp(op)
	code := g.fast(op.nodes, nil)
	if g.err != nil {
		return nil, nil, fmt.Errorf("%s.%s: %w", g.a.Name, op.name, g.err)
	}
	return code, g.conts, nil
}

// beginOp resets the per-operation state.
func (g *gen) beginOp(op opInfo) {
	g.op = op
	g.loopVars = map[string]bool{}
	g.stepReads = localReads(g.opCode(op.name))
	if op.ctx {
		g.stepReads = localReadsAll(g.a.Acquire)
	}
	if misuse := g.releaseCheck(op.name); misuse != nil {
		// The misuse check after the release reads locals too.
		ir.WalkExpr(misuse, func(x ir.Expr) {
			if r, ok := x.(ir.LocalRef); ok {
				g.stepReads[r.Name] = true
			}
		})
	}
	g.err = nil
	g.conts = nil
	g.armed = nil
}

// fast lowers ns, then what f says follows, for the inline path.
func (g *gen) fast(ns []*node, f *frame) []jen.Code {
	if len(ns) == 0 {
		return g.fastFollow(f)
	}
	n, rest := ns[0], ns[1:]
	lbl := n.s.Label()
	here := &frame{rest: rest, parent: f}
	switch s := n.s.(type) {
	case ir.Await:
		if n.id == g.doorwayNode {
			g.fail(fmt.Errorf("line %s: a doorway that ends with an await is not supported", lbl))
		}
		notYet := g.not(s.Cond, lbl)
		if fu := g.fusions[n.id]; fu != nil {
			notYet = g.fused(fu, func() *jen.Statement { return g.not(s.Cond, lbl) })
		}
		wait := g.exit([]*node{n}, func() []jen.Code { return g.awaitWait(n) }, here)
		if rest := g.fast(rest, f); len(rest) > 0 {
			return []jen.Code{comment(s), jen.If(notYet).Block(wait...).Else().Block(rest...)}
		}
		return []jen.Code{comment(s), jen.If(notYet).Block(wait...)}
	case ir.Succeed:
		return []jen.Code{comment(s)}
	case ir.Fail:
		if g.op.ctx {
			return []jen.Code{comment(s), jen.Return(jen.Id("ctx").Dot("Err").Call())}
		}
		return []jen.Code{comment(s), jen.Return(jen.False())}
	case ir.If:
		if !g.exits(n) {
			return append(g.lowerNode(n), g.fast(rest, f)...)
		}
		// What follows the If is lowered at the end of each branch that
		// does not leave the inline path.
		return []jen.Code{comment(s), g.ifElse(s.Cond, lbl, g.fast(n.then, here), g.fast(n.els, here))}
	case ir.Write, ir.Swap, ir.CAS, ir.FetchAdd, ir.Set, ir.FreeRecord:
		return append(g.lowerNode(n), g.fast(rest, f)...)
	case ir.Repeat:
		if !g.inLoop(f) {
			// The first iteration inline; the exit check follows it.
			return append([]jen.Code{comment(s)}, g.fast(n.body, &frame{rest: rest, loop: n, parent: f})...)
		}
	case ir.While:
		if !g.inLoop(f) {
			return []jen.Code{comment(s), g.ifElse(s.Cond, lbl,
				g.fast(n.body, &frame{rest: rest, loop: n, parent: f}), g.fast(rest, f))}
		}
	}
	// A loop inside a loop's first iteration, a for loop, a delay: the
	// rest runs in a continuation.
	return g.exit([]*node{n}, func() []jen.Code { return g.lowerNode(n) }, here)
}

// ifElse is "if c {then} else {els}" without an empty branch.
func (g *gen) ifElse(c ir.Expr, lbl string, then, els []jen.Code) jen.Code {
	switch {
	case len(els) == 0:
		return jen.If(g.expr(c, lbl)).Block(then...)
	case len(then) == 0:
		return jen.If(g.not(c, lbl)).Block(els...)
	}
	return jen.If(g.expr(c, lbl)).Block(then...).Else().Block(els...)
}

// inLoop reports whether a frame lies inside a loop's first iteration.
func (g *gen) inLoop(f *frame) bool {
	for ; f != nil; f = f.parent {
		if f.loop != nil {
			return true
		}
	}
	return false
}

// fastFollow lowers, inline, what follows the end of a statement list.
func (g *gen) fastFollow(f *frame) []jen.Code {
	switch {
	case f == nil:
		return nil
	case f.loop == nil:
		return g.fast(f.rest, f.parent)
	}
	// The end of a loop's first iteration: leave the loop, or continue it
	// in a continuation.
	lbl := f.loop.s.Label()
	after := &frame{rest: f.rest, parent: f.parent}
	again := func() []jen.Code { return g.loopAgain(f.loop) }
	return []jen.Code{g.ifElse(loopExit(f.loop), lbl, g.fast(f.rest, f.parent), g.exit([]*node{f.loop}, again, after))}
}

// loopExit is the condition that ends a loop after an iteration.
func loopExit(n *node) ir.Expr {
	switch s := n.s.(type) {
	case ir.Repeat:
		return s.Until
	case ir.While:
		return ir.Not{X: s.Cond}
	}
	panic("golang: loopExit of a statement that is not a loop")
}

// loopAgain is a loop after an iteration that did not end it.
func (g *gen) loopAgain(n *node) []jen.Code {
	lbl := n.s.Label()
	if n.busy() {
		return g.busyLoop(n, false)
	}
	return []jen.Code{jen.For().Block(append(g.lower(n.body), jen.If(g.expr(loopExit(n), lbl)).Block(jen.Break()))...)}
}

// exits reports whether an If of the fast path may leave it: one of its
// branches waits, loops, delays, or ends the operation.
func (g *gen) exits(n *node) bool {
	found := false
	walk(append(append([]*node{}, n.then...), n.els...), func(m *node) {
		switch m.s.(type) {
		case ir.Await, ir.While, ir.Repeat, ir.For, ir.Delay, ir.Succeed, ir.Fail:
			found = true
		}
	})
	return found
}

// exit ends the inline path with a call to a new continuation that runs
// resumed, then everything f says follows, lowered the ordinary way. The
// continuation takes only what it uses of the process's state and id and
// of the operation's locals.
func (g *gen) exit(at []*node, resumed func() []jen.Code, f *frame) []jen.Code {
	saved := g.fnWaiters
	g.fnWaiters = 0
	body := resumed()
	body = append(body, g.follow(f)...)
	switch {
	case g.op.try:
		body = append(body, jen.Return(jen.True()))
	case g.op.ctx:
		body = append(body, jen.Return(jen.Nil()))
	}
	body = append(g.waiterDecls(), body...)
	g.fnWaiters = saved
	c := cont{name: fmt.Sprintf("%sSlow%d", opMethod[g.op.name], len(g.conts)+1), code: body}
	var args []jen.Code
	if g.op.ctx && mentions(body, "ctxDone") {
		// LockContext's continuation looks at the context: only the slow
		// path pays for ctx.Done().
		c.code = append([]jen.Code{jen.Id("ctxDone").Op(":=").Id("ctx").Dot("Done").Call()}, c.code...)
	}
	if g.op.ctx && mentions(c.code, "ctx") {
		c.ctx = true
		c.params = append(c.params, jen.Id("ctx").Qual("context", "Context"))
		args = append(args, jen.Id("ctx"))
	}
	if mentions(body, "st") {
		c.params = append(c.params, jen.Id("st").Op("*").Id(g.stateType()))
		if g.api.HolderState() {
			args = append(args, jen.Op("&").Id("st"))
		} else {
			args = append(args, jen.Id("st"))
		}
	}
	if mentions(body, "id") {
		c.params = append(c.params, jen.Id("id").Int())
		args = append(args, jen.Id("id"))
	}
	live := g.liveIn(at, f)
	var decls []jen.Code
	for _, l := range g.stepLocals() {
		switch {
		case !mentions(body, goIdent(l.Name)):
		case live[l.Name]:
			c.params = append(c.params, jen.Id(goIdent(l.Name)).Add(g.localType(l)))
			args = append(args, jen.Id(goIdent(l.Name)))
		default:
			decls = append(decls, declareLocal(goIdent(l.Name), g.localType(l), body)...)
		}
	}
	c.code = append(decls, c.code...)
	c.args = args
	g.conts = append(g.conts, c)
	call := jen.Id("l").Dot(c.name).Call(args...)
	switch {
	case g.op.try:
		return []jen.Code{jen.If(jen.Op("!").Add(call)).Block(jen.Return(jen.False()))}
	case g.op.ctx:
		return []jen.Code{jen.If(jen.Err().Op(":=").Add(call), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))}
	}
	return []jen.Code{call}
}

// follow lowers, the ordinary way, what a frame says follows.
func (g *gen) follow(f *frame) []jen.Code {
	var out []jen.Code
	for ; f != nil; f = f.parent {
		if f.loop != nil {
			lbl := f.loop.s.Label()
			out = append(out, jen.If(g.not(loopExit(f.loop), lbl)).Block(g.loopAgain(f.loop)...))
		}
		out = append(out, g.lower(f.rest)...)
	}
	return out
}

// opMethod names the continuations of an operation.
var opMethod = map[string]string{
	"Acquire": "acquire", "Release": "release", "TryAcquire": "tryAcquire", ctxOp: "lockContext",
	"RAcquire": "rAcquire", "RRelease": "rRelease", "TryRAcquire": "tryRAcquire",
}

// contFuncs emits an operation's continuations.
func (g *gen) contFuncs(f *jen.File, conts []cont) {
	for _, c := range conts {
		fn := jen.Func().Params(jen.Id("l").Op("*").Id(g.c.Name)).Id(c.name).Params(c.params...)
		doc := fmt.Sprintf("%s continues %s where its inline path had to wait.", c.name, opTitle[g.op.name])
		switch {
		case g.op.try:
			fn = fn.Bool()
		case g.op.ctx:
			fn = fn.Error()
			if c.ctx {
				doc = fmt.Sprintf("%s continues LockContext's acquire where its inline path had to wait; its waits at %s give up when ctx is done first, running the paper's abort code.", c.name, abortLabels(g.a))
			} else {
				doc = fmt.Sprintf("%s continues LockContext's acquire where its inline path had to wait.", c.name)
			}
		}
		f.Line()
		f.Comment(doc)
		f.Add(fn.Block(c.code...))
	}
}
