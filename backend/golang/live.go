package golang

import "github.com/lockgen/lockgen/ir"

// Liveness of locals at a continuation's start: a continuation takes only
// the locals it may read before it writes them, so the call that leaves
// the inline path stays small (the inliner charges every argument).

// liveIn returns the locals that code, run from its start and then
// followed by what f says follows, may read before writing.
func (g *gen) liveIn(code []*node, f *frame) map[string]bool {
	live := map[string]bool{}
	assigned := map[string]bool{}
	g.liveSeq(code, assigned, live)
	for ; f != nil; f = f.parent {
		if f.loop != nil {
			g.liveExpr(loopExit(f.loop), assigned, live)
			g.liveNode(f.loop, copySet(assigned), live)
		}
		g.liveSeq(f.rest, assigned, live)
	}
	return live
}

func (g *gen) liveSeq(code []*node, assigned, live map[string]bool) {
	for _, n := range code {
		g.liveNode(n, assigned, live)
	}
}

// liveNode adds what n may read before a write to live, and what it
// certainly writes to assigned.
func (g *gen) liveNode(n *node, assigned, live map[string]bool) {
	read := func(e ir.Expr) { g.liveExpr(e, assigned, live) }
	if len(n.abort) > 0 {
		// LockContext's abort code may run at the wait's first round.
		g.liveSeq(n.abort, copySet(assigned), live)
	}
	switch s := n.s.(type) {
	case ir.If:
		read(s.Cond)
		a, b := copySet(assigned), copySet(assigned)
		g.liveSeq(n.then, a, live)
		g.liveSeq(n.els, b, live)
		for k := range a {
			if b[k] {
				assigned[k] = true
			}
		}
	case ir.Repeat:
		g.liveSeq(n.body, assigned, live)
		read(s.Until)
	case ir.While:
		read(s.Cond)
		g.liveSeq(n.body, copySet(assigned), live)
	case ir.For:
		read(s.From)
		read(s.To)
		inner := copySet(assigned)
		inner[s.Var] = true
		g.liveSeq(n.body, inner, live)
	default:
		for _, e := range ir.StmtExprs(s) {
			read(e)
		}
		if dst := assignedLocal(s); dst != "" {
			assigned[dst] = true
		}
	}
}

func (g *gen) liveExpr(e ir.Expr, assigned, live map[string]bool) {
	ir.WalkExpr(e, func(x ir.Expr) {
		if r, ok := x.(ir.LocalRef); ok && !assigned[r.Name] {
			live[r.Name] = true
		}
	})
}

// assignedLocal is the whole local a statement assigns ("" for none, or
// for one element of a local array, which leaves the rest as it was).
func assignedLocal(s ir.Stmt) string {
	switch s := s.(type) {
	case ir.Set:
		if s.Index == nil {
			return s.Dst
		}
	case ir.Swap:
		return s.Dst
	case ir.CAS:
		return s.Dst
	case ir.FetchAdd:
		return s.Dst
	}
	return ""
}

func copySet(m map[string]bool) map[string]bool {
	out := make(map[string]bool, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
