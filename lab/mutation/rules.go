package mutation

import (
	"github.com/lockgen/lockgen/ir"
	"github.com/lockgen/lockgen/mutate"
)

// Reasons shared by many equivalences. An entry of Equivalences that
// starts with LocalCommute is checked by TestEquivalenceRules: the swap
// must satisfy the rule's syntactic conditions (commutes).
const (
	// LocalCommute: swapping an invisible local step with its neighbour.
	LocalCommute = "the same executions: one of the two swapped statements only computes locals (no shared access; " +
		"it cannot block, give up or enter), neither reads or writes a local the other writes, and the other does not " +
		"leave the operation; every execution of the mutant is one of the original with that local computation done a " +
		"step earlier or later, which no other process can observe"
	// FreeDropped: a FreeRecord deleted or never reached.
	FreeDropped = "free(record) only hands the record back to the pool policy's allocator; without it the pool " +
		"allocates a fresh record for the next passage, so every execution is the original's with one more allocation"
)

// commutes reports whether the two statements a swap mutant exchanged
// satisfy LocalCommute's conditions.
func commutes(m mutate.Mutant) bool {
	if m.Operator != mutate.Swap || len(m.Orig) != 2 {
		return false
	}
	a, b := m.Orig[0], m.Orig[1]
	if !(localOnly(a) && movable(b)) && !(localOnly(b) && movable(a)) {
		return false
	}
	ra, wa := localUses(a)
	rb, wb := localUses(b)
	for x := range wa {
		if rb[x] || wb[x] {
			return false
		}
	}
	for x := range wb {
		if ra[x] {
			return false
		}
	}
	return true
}

// localOnly: a statement (with its body) that computes locals only: no
// load, no shared write, no await, delay, free, enter or give-up, no busy
// loop. (LocalCommute assumes, as everywhere else, that the original's
// local computations neither panic nor run for ever.)
func localOnly(s ir.Stmt) bool {
	ok := true
	ir.WalkStmts(ir.Code{s}, func(x ir.Stmt) {
		if ir.WrittenLoc(x) != nil {
			ok = false
		}
		switch x := x.(type) {
		case ir.Await, ir.Delay, ir.FreeRecord, ir.Succeed, ir.Fail:
			ok = false
		case ir.While:
			ok = ok && !x.Busy
		case ir.Repeat:
			ok = ok && !x.Busy
		}
		for _, e := range ir.StmtExprs(x) {
			if ir.HasLoad(e) {
				ok = false
			}
		}
	})
	return ok
}

// movable: a statement that does not leave the operation (no Succeed or
// Fail anywhere in it).
func movable(s ir.Stmt) bool {
	ok := true
	ir.WalkStmts(ir.Code{s}, func(x ir.Stmt) {
		switch x.(type) {
		case ir.Succeed, ir.Fail:
			ok = false
		}
	})
	return ok
}

// localUses returns the locals a statement (with its body) reads and
// writes; loop and quantifier variables are included, which only makes
// the rule stricter.
func localUses(s ir.Stmt) (reads, writes map[string]bool) {
	reads, writes = map[string]bool{}, map[string]bool{}
	ir.WalkStmts(ir.Code{s}, func(x ir.Stmt) {
		for _, e := range ir.StmtExprs(x) {
			ir.WalkExpr(e, func(y ir.Expr) {
				if r, ok := y.(ir.LocalRef); ok {
					reads[r.Name] = true
				}
			})
		}
		switch x := x.(type) {
		case ir.Set:
			writes[x.Dst] = true
		case ir.Swap:
			writes[x.Dst] = true
		case ir.CAS:
			writes[x.Dst] = true
		case ir.FetchAdd:
			writes[x.Dst] = true
		case ir.For:
			writes[x.Var] = true
		}
	})
	delete(writes, "")
	return reads, writes
}
