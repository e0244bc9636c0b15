package promela

import (
	"sort"
	"strings"

	"github.com/lockgen/lockgen/ir"
)

// Liveness of locals, for Options.Fold: a local whose value no path reads
// again before overwriting it is dead, and resetting it to zero merges
// states that differ only in a stale value (line 7's CAS result, a bound
// computed for one test). Only scalar step and passage locals are tracked;
// arrays, process locals and loop variables are left alone.
//
// A reset is written only where the local may be non-zero (l.nz, a forward
// analysis run as the code is lowered): a reset of a local already zero on
// every way in changes no state, and after an if or a loop it would be a
// transition of its own. Dropping a reset wrongly would cost states, never
// a verdict: the local is dead.

// live is a set of local names.
type live map[string]bool

func (s live) with(names ...string) live {
	out := live{}
	for n := range s {
		out[n] = true
	}
	for _, n := range names {
		out[n] = true
	}
	return out
}

func (s live) union(t live) live {
	out := s.with()
	for n := range t {
		out[n] = true
	}
	return out
}

func (s live) without(n string) live {
	out := s.with()
	delete(out, n)
	return out
}

func (s live) equal(t live) bool {
	if len(s) != len(t) {
		return false
	}
	for n := range s {
		if !t[n] {
			return false
		}
	}
	return true
}

// uses are the locals the expressions read.
func uses(es ...ir.Expr) live {
	out := live{}
	for _, e := range es {
		if e == nil {
			continue
		}
		ir.WalkExpr(e, func(x ir.Expr) {
			if r, ok := x.(ir.LocalRef); ok {
				out[r.Name] = true
			}
		})
	}
	return out
}

// liveSeq is what is live before code, given what is live after it.
func (l *lower) liveSeq(code ir.Code, after live) live {
	for i := len(code) - 1; i >= 0; i-- {
		after = l.liveStmt(code[i], after)
	}
	return after
}

// liveStmt is what is live before s, given what is live after it.
func (l *lower) liveStmt(s ir.Stmt, after live) live {
	read := uses(ir.StmtExprs(s)...)
	kill := func(dst string) live {
		if dst == "" {
			return after
		}
		return after.without(dst)
	}
	switch s := s.(type) {
	case ir.Set:
		if s.Index != nil {
			return after.union(read) // an element: the array stays live
		}
		return kill(s.Dst).union(read)
	case ir.Swap:
		return kill(s.Dst).union(read)
	case ir.CAS:
		return kill(s.Dst).union(read)
	case ir.FetchAdd:
		return kill(s.Dst).union(read)
	case ir.If:
		return read.union(l.liveSeq(s.Then, after)).union(l.liveSeq(s.Else, after))
	case ir.While:
		return l.loopHead(read, after, s.Body)
	case ir.Repeat:
		// The until test runs after the body: the head is what the body
		// needs given the test's reads, the exit and the next iteration.
		head := live{}
		for {
			next := l.liveSeq(s.Body, read.union(after).union(head))
			if next.equal(head) {
				return head
			}
			head = next
		}
	case ir.For:
		head := l.loopHead(read.with(s.Var), after, s.Body)
		return head.without(s.Var).union(uses(s.From))
	case ir.Succeed:
		return l.liveCS
	case ir.Fail:
		return live{}
	}
	return after.union(read) // Write, Await, Delay, FreeRecord
}

// loopHead is what is live at the head of a loop whose test reads read.
func (l *lower) loopHead(read, after live, body ir.Code) live {
	head := read.union(after)
	for {
		next := read.union(after).union(l.liveSeq(body, head))
		if next.equal(head) {
			return head
		}
		head = next
	}
}

// touched are the locals s (with its nested statements) reads or writes.
func touched(s ir.Stmt) live {
	out := live{}
	assigned(ir.Code{s}, out)
	ir.WalkStmts(ir.Code{s}, func(x ir.Stmt) {
		for n := range uses(ir.StmtExprs(x)...) {
			out[n] = true
		}
	})
	return out
}

// deadResets are the resets of the scalar step and passage locals that s
// touches and that are dead after it (l.cont, as when s was lowered),
// except those an if's guards already reset and its branches leave alone.
func (l *lower) deadResets(s ir.Stmt) []string {
	zero := map[string]bool{}
	if i, ok := s.(ir.If); ok && !l.inlinable(s) { // an inlined if has no guards to reset in
		for _, r := range l.condResets(i) {
			zero[r] = true
		}
		ir.WalkStmts(append(append(ir.Code{}, i.Then...), i.Else...), func(x ir.Stmt) {
			for n := range touched(x) {
				delete(zero, l.local[n]+" = 0")
			}
		})
	}
	var out []string
	for n := range touched(s) {
		v := l.a.LocalVar(n)
		if v == nil || v.Len != nil || v.Scope == ir.Process || l.cont[n] || zero[l.local[n]+" = 0"] {
			continue
		}
		out = append(out, l.local[n]+" = 0")
	}
	sort.Strings(out)
	return out
}

// condResets are the resets (Options.Fold) of the scalar step and passage
// locals an if's test reads and neither branch needs.
func (l *lower) condResets(s ir.If) []string {
	if !l.o.Fold {
		return nil
	}
	need := l.liveSeq(s.Then, l.cont).union(l.liveSeq(s.Else, l.cont))
	var out []string
	for n := range uses(s.Cond) {
		v := l.a.LocalVar(n)
		if v == nil || v.Len != nil || v.Scope == ir.Process || need[n] {
			continue
		}
		out = append(out, l.local[n]+" = 0")
	}
	sort.Strings(out)
	return out
}

// tracked reports whether n is a scalar step or passage local, whose
// resets Options.Fold places.
func (l *lower) tracked(n string) bool {
	v := l.a.LocalVar(n)
	return v != nil && v.Len == nil && v.Scope != ir.Process
}

// resetOf returns the tracked local that part ("x = 0") resets, if any.
func (l *lower) resetOf(part string) (string, bool) {
	name, ok := strings.CutSuffix(part, " = 0")
	if !ok {
		return "", false
	}
	for _, v := range l.a.Locals {
		if l.local[v.Name] == name && l.tracked(v.Name) {
			return v.Name, true
		}
	}
	return "", false
}

// kept drops from parts the resets of locals that are zero (not in nz).
func (l *lower) kept(parts []string, nz live) []string {
	var out []string
	for _, p := range parts {
		if n, ok := l.resetOf(p); ok && !nz[n] {
			continue
		}
		out = append(out, p)
	}
	return out
}

// needed is kept(parts, l.nz), the locals it resets then being zero.
func (l *lower) needed(parts []string) []string {
	out := l.kept(parts, l.nz)
	l.zeroed(out)
	return out
}

// zeroed records that the resets among parts were done.
func (l *lower) zeroed(parts []string) { l.nz = l.minusResets(l.nz, parts) }

// minusResets is nz without the locals that parts reset.
func (l *lower) minusResets(nz live, parts []string) live {
	for _, p := range parts {
		if n, ok := l.resetOf(p); ok {
			nz = nz.without(n)
		}
	}
	return nz
}

// mayBeSet adds the tracked locals code assigns to l.nz.
func (l *lower) mayBeSet(code ...ir.Stmt) {
	set := map[string]bool{}
	assigned(code, set)
	for n := range set {
		if l.tracked(n) {
			l.nz = l.nz.with(n)
		}
	}
}
