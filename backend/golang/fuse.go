package golang

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/lockgen/lockgen/ir"
)

// A fetch&add followed at once by an await that reads only the register
// it added to (a reader's "fetch&add(L, RC_INCR); await L mod 2 = 0"):
// the await's first check, on the inline path, uses the value the
// fetch&add left in the register instead of reading it again. That is the
// paper's execution in which no other step comes between the two, one of
// the interleavings the algorithm must already be correct in, so every
// execution of the lowered code is one of the paper's; a check that fails
// goes on to the await's wait, which reads the register as before. It
// saves a read issued right after a locked instruction, which waits for
// it: about 2 ns here (make bench measures it among the machine's limits,
// "an atomic read of a word just before a read-modify-write of it", in
// docs/performance.md).

// fusion is one such pair.
type fusion struct {
	add, await *node
	local      string // the Go local holding the register's value after add
}

// analyseFusions finds the pairs in each operation's inline prefix: its
// accesses and awaits up to anything else, which the fast path lowers
// once, in order, in the public method (an await whose first check holds
// goes on inline, as in a writer-preference reader's "await WREQ = WCOMP;
// fetch&add(RCF, RC_INCR); await RCF mod 2 = 0"). A pair past an await
// is lowered in that await's continuation too, where the await's first
// check uses the fetch&add's value the same way.
func (g *gen) analyseFusions() {
	g.fusions = map[int]*fusion{}
	for _, op := range g.ops {
		ns := op.nodes
		for i := 0; i+1 < len(ns); i++ {
			n, m := ns[i], ns[i+1]
			if _, ok := n.s.(ir.Await); ok && n.id != g.doorwayNode {
				continue
			}
			if !inlineAccess(n.s) {
				break
			}
			fa, ok := n.s.(ir.FetchAdd)
			aw, ok2 := m.s.(ir.Await)
			if !ok || !ok2 || m.id == g.doorwayNode || locHasLoad(fa.To) || !readsOnly(aw.Cond, fa.To) {
				continue
			}
			fu := &fusion{add: n, await: m, local: "after" + exportName(goIdent(fa.Label()))}
			g.fusions[n.id], g.fusions[m.id] = fu, fu
		}
	}
}

// inlineAccess reports whether the fast path lowers s in line and goes on.
func inlineAccess(s ir.Stmt) bool {
	switch s.(type) {
	case ir.Write, ir.Swap, ir.CAS, ir.FetchAdd, ir.Set, ir.FreeRecord:
		return true
	}
	return false
}

// locHasLoad reports whether naming loc reads shared memory.
func locHasLoad(l ir.Loc) bool {
	switch l := l.(type) {
	case ir.Var:
		return l.Index != nil && ir.HasLoad(l.Index)
	case ir.Fld:
		return ir.HasLoad(l.Ref)
	}
	return true
}

// readsOnly reports whether e reads shared memory, and only at loc.
func readsOnly(e ir.Expr, loc ir.Loc) bool {
	loads := ir.Loads(e)
	for _, l := range loads {
		if locString(l) != locString(loc) {
			return false
		}
	}
	return len(loads) > 0
}

// fused lowers an await's first check (lower) with the value its
// fetch&add left in the register standing for the register's reads.
func (g *gen) fused(fu *fusion, lower func() *jen.Statement) *jen.Statement {
	g.known = map[string]string{locString(fu.add.s.(ir.FetchAdd).To): fu.local}
	defer func() { g.known = nil }()
	return lower()
}

// fusionNotes says, for the doc comment, which awaits first check a value
// their fetch&add returned.
func (g *gen) fusionNotes() []string {
	var out []string
	for _, op := range g.ops {
		if !g.wants(op.name) {
			continue
		}
		for _, n := range op.nodes { // pairs are in the top-level list only
			if fu := g.fusions[n.id]; fu != nil && fu.add == n {
				out = append(out, fmt.Sprintf("line %s's first check uses the value line %s's fetch&add left in %s (the interleaving in which no step comes between them); later checks read it",
					fu.await.s.Label(), fu.add.s.Label(), ir.FormatLoc(fu.add.s.(ir.FetchAdd).To)))
			}
		}
	}
	return out
}
