package golang

import (
	"fmt"
	"strings"

	"github.com/lockgen/lockgen/shape"

	"github.com/dave/jennifer/jen"

	"github.com/lockgen/lockgen/ir"
)

// LockContext (context = true): the acquire once more, as a method of
// its own, whose waits that the paper lets a process abandon
// (ir.AbortOf) watch a context besides their condition. LockContext is a
// verb like Lock (api.go): the same fast path (fast.go) runs the
// uncontended acquire inline, with Lock's guard where it has one
// (guard.go), and looks at no context, takes no waiter and defers
// nothing; where Lock's inline path would call its continuation,
// LockContext calls its own (lockContextSlowN), which goes on from the
// same point with the context-aware waits, so no step of the inline path
// (a queue lock's swap of the tail) runs twice. There each round of an
// abandonable wait starts by looking at the context (a non-blocking
// receive from ctx.Done()), and a sleep ends with the wake-up or the
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
