package promela

import (
	"fmt"
	"strings"

	"github.com/lockgen/lockgen/ir"
)

// Lowering expressions.

// loads counts the read steps of e for the choice between one step and a
// flattened evaluation: a quantifier is a loop, so it always counts as many.
func loads(e ir.Expr) int {
	n := len(ir.Loads(e))
	ir.WalkExpr(e, func(x ir.Expr) {
		if _, ok := x.(ir.Quant); ok {
			n += 2
		}
	})
	return n
}

// pe prints an expression; loads are printed in place (the caller has made
// sure at most one is left, so that the expression is one read step).
func (l *lower) pe(e ir.Expr) string {
	switch e := e.(type) {
	case ir.Const:
		return fmt.Sprint(l.clamp(e.V, e.Name))
	case ir.BoolConst:
		if e.V {
			return "true"
		}
		return "false"
	case ir.Nil:
		return Nil
	case ir.Param:
		return fmt.Sprint(l.param(e.Name))
	case ir.Self:
		return "lg_me"
	case ir.LocalRef:
		if e.Index != nil {
			return l.local[e.Name] + "[" + l.pe(e.Index) + "]"
		}
		return l.local[e.Name]
	case ir.Load:
		return l.ploc(e.From, l.pe)
	case ir.Mine:
		return l.mine(e, l.pe)
	case ir.Not:
		return "!" + l.paren(l.pe(e.X))
	case ir.Bin:
		return l.bin(e, l.pe(e.X), l.pe(e.Y))
	case ir.Quant:
		return l.fe(e) // a loop of steps, never one expression
	}
	l.errf("expression %T", e)
	return "0"
}

func (l *lower) paren(s string) string {
	if simple(s) {
		return s
	}
	return "(" + s + ")"
}

// simple reports whether s needs no parentheses: a name, a number, a name
// with one index, or an already parenthesised expression.
func simple(s string) bool {
	if s == "" {
		return true
	}
	if s[0] == '(' || s[0] == '!' {
		return s[0] == '(' && closes(s, 0) == len(s)-1
	}
	i := 0
	for i < len(s) && (s[i] == '_' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || s[i] >= '0' && s[i] <= '9') {
		i++
	}
	if i == len(s) {
		return true
	}
	return i > 0 && s[i] == '[' && closes(s, i) == len(s)-1
}

// closes returns the index of the bracket closing the one at s[i].
func closes(s string, i int) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

var pOp = map[ir.Op]string{
	ir.Add: "+", ir.Sub: "-", ir.Mul: "*", ir.Div: "/", ir.Mod: "%",
	ir.Eq: "==", ir.Ne: "!=", ir.Lt: "<", ir.Le: "<=", ir.Gt: ">", ir.Ge: ">=",
	ir.And: "&&", ir.Or: "||",
}

func (l *lower) bin(e ir.Bin, x, y string) string {
	if l.o.Wrap > 0 && (e.Op == ir.Eq || e.Op == ir.Ne) && (l.an.dynExpr(e.X) || l.an.dynExpr(e.Y)) {
		// Counters are kept modulo Wrap; compare residues.
		return fmt.Sprintf("((%s - %s) %% %d %s 0)", l.paren(x), l.paren(y), l.o.Wrap, pOp[e.Op])
	}
	return "(" + l.paren(x) + " " + pOp[e.Op] + " " + l.paren(y) + ")"
}

func (l *lower) param(name string) int64 {
	switch name {
	case "n":
		return int64(l.n)
	case "k":
		return int64(l.k)
	}
	return l.p.Extra[name]
}

// ploc prints a location, printing sub-expressions with sub.
func (l *lower) ploc(loc ir.Loc, sub func(ir.Expr) string) string {
	switch loc := loc.(type) {
	case ir.Var:
		n := l.global[loc.Name]
		if loc.Index == nil {
			return n
		}
		return n + "[" + sub(loc.Index) + "]"
	case ir.Fld:
		// Record r lives at index r-1: dereferencing NIL (0) indexes -1,
		// which SPIN reports as an invalid array index (Go: nil dereference).
		return l.field[l.a.RefRecord(loc.Ref)+"."+loc.Name] + "[" + l.paren(sub(loc.Ref)) + "-1]"
	}
	l.errf("location %T", loc)
	return "0"
}

// mine is the number of the process's own record: the paper's allocation,
// records of process i at fixed indices.
func (l *lower) mine(m ir.Mine, sub func(ir.Expr) string) string {
	pr := l.a.ProcRecs(m.Name)
	base := l.procBase[m.Name]
	self := "lg_me"
	if pr.Count > 1 {
		self = fmt.Sprintf("lg_me*%d", pr.Count)
	}
	if c, ok := m.Index.(ir.Const); ok {
		return fmt.Sprintf("(%s + %d)", self, base+int(c.V))
	}
	return fmt.Sprintf("(%s + %d + %s)", self, base, l.paren(sub(m.Index)))
}

// fe flattens an expression: each load becomes its own read step into a
// temporary, in evaluation order, with && and || short-circuiting. It
// returns an expression over locals and temporaries only.
func (l *lower) fe(e ir.Expr) string {
	if loads(e) == 0 {
		return l.pe(e)
	}
	switch e := e.(type) {
	case ir.LocalRef:
		return l.local[e.Name] + "[" + l.fe(e.Index) + "]"
	case ir.Quant:
		return l.quant(e)
	case ir.Load:
		src := l.ploc(e.From, l.fe)
		t := l.temp(l.locType(e.From))
		l.step(t + " = " + src)
		return t
	case ir.Not:
		return "!" + l.paren(l.fe(e.X))
	case ir.Mine:
		return l.mine(e, l.fe)
	case ir.Bin:
		if (e.Op == ir.And || e.Op == ir.Or) && ir.HasLoad(e.Y) {
			x := l.fe(e.X)
			t := l.temp(ir.TBool)
			guard := x
			if e.Op == ir.Or {
				guard = "!" + l.paren(x)
			}
			l.emit("if")
			l.emit(":: " + l.paren(guard) + " ->")
			l.ind++
			y := l.fe(e.Y)
			l.step(t + " = " + y)
			l.ind--
			if e.Op == ir.Or {
				l.emit(":: else -> " + t + " = true;")
			} else {
				l.emit(":: else")
			}
			l.emit("fi;")
			return t
		}
		x := l.fe(e.X)
		y := l.fe(e.Y)
		return l.bin(e, x, y)
	}
	l.errf("expression %T", e)
	return "0"
}

// quant lowers ∀/∃ as the Go backend does: a loop over the elements, each
// test its own read step(s), stopping at the first element that decides.
// The result goes to a boolean temporary; the loop variable is reset on
// every way out.
func (l *lower) quant(q ir.Quant) string {
	if ir.HasLoad(q.From) || ir.HasLoad(q.To) {
		l.errf("a quantifier whose bounds read shared memory")
		return "false"
	}
	t := l.temp(ir.TBool)
	v := l.local[q.Var]
	l.loopVars[q.Var] = true
	defer delete(l.loopVars, q.Var)
	all, decided := "true", "false"
	if !q.All {
		all, decided = "false", "true"
	}
	l.work(t+" = "+all, v+" = "+l.pe(q.From))
	cond := "(" + v + " <= " + l.paren(l.pe(q.To)) + ")"
	if l.o.Fold && loads(q.Body) <= 1 {
		// Each element is one step: the bound test, the element's read
		// (in place, so no temporary) and what it decides.
		b := l.paren(l.pe(q.Body))
		hit, miss := b, "!"+b // the element decides, or the scan goes on
		if q.All {
			hit, miss = miss, hit
		}
		stop, next := cond+" && "+hit, cond+" && "+miss
		if q.SkipSelf {
			stop = cond + " && (" + v + " != lg_me) && " + hit
			next = cond + " && ((" + v + " == lg_me) || " + miss + ")"
		}
		l.emit("do")
		l.emit(":: atomic { " + stop + " -> " + t + " = " + decided + "; " + v + " = 0 }; break;")
		l.emit(":: atomic { " + next + " -> " + v + "++ };")
		l.emit(":: atomic { !" + cond + " -> " + v + " = 0 }; break;")
		l.emit("od;")
		return t
	}
	l.emit("do")
	l.emit(":: " + cond + " ->")
	l.ind++
	if q.SkipSelf {
		l.emit("if")
		l.emit(":: (" + v + " == lg_me)")
		l.emit(":: else ->")
		l.ind++
	}
	mark := len(l.live)
	var b string
	if loads(q.Body) <= 1 {
		b = l.pe(q.Body)
	} else {
		b = l.fe(q.Body)
	}
	rs := l.release(mark)
	hit := l.paren(b)
	if q.All {
		hit = "!" + hit
	}
	l.emit("if")
	l.emit(":: atomic { " + hit + " -> " + strings.Join(nonEmpty(t+" = "+decided, v+" = 0", rs), "; ") + " }; break;")
	if rs == "" {
		l.emit(":: else")
	} else {
		l.emit(":: " + atomicGuard("!"+l.paren(hit), rs, "") + ";")
	}
	l.emit("fi;")
	if q.SkipSelf {
		l.ind--
		l.emit("fi;")
	}
	l.emit(v + "++;")
	l.ind--
	l.emit(":: atomic { !" + cond + " -> " + v + " = 0 }; break;")
	l.emit("od;")
	return t
}

// value prints an expression for a step that is not itself a shared
// access: a single load may stay in place (the step is that read).
func (l *lower) value(e ir.Expr) string {
	if loads(e) <= 1 {
		return l.pe(e)
	}
	return l.fe(e)
}

// wrapTo reduces v modulo Wrap when it is stored into a counter.
func (l *lower) wrapTo(counter bool, e ir.Expr, v string) string {
	if l.o.Wrap == 0 || !counter {
		return v
	}
	switch e.(type) {
	case ir.LocalRef, ir.Load:
		return v // already a residue
	}
	return fmt.Sprintf("((%s %% %d + %d) %% %d)", l.paren(v), l.o.Wrap, l.o.Wrap, l.o.Wrap)
}

func (l *lower) counterLoc(loc ir.Loc) bool { return l.an.set[l.an.a.locKey(loc)] }
func (l *lower) counterLocal(n string) bool { return l.an.set["L:"+n] }

// checkMine emits a range check for per-process record indices computed at
// run time (Go: index out of range).
func (l *lower) checkMine(s ir.Stmt) {
	for _, e := range ir.StmtExprs(s) {
		ir.WalkExpr(e, func(x ir.Expr) {
			if m, ok := x.(ir.Mine); ok && loads(m.Index) == 0 && l.inScope(m.Index) {
				if _, isConst := m.Index.(ir.Const); !isConst {
					idx := l.pe(m.Index)
					l.step(fmt.Sprintf("assert(0 <= %s && %s < %d)", idx, idx, l.a.ProcRecs(m.Name).Count))
				}
			}
		})
	}
}

// inScope reports whether every local e reads is declared or a loop
// variable of an enclosing For (not a quantifier's, bound inside e).
func (l *lower) inScope(e ir.Expr) bool {
	ok := true
	ir.WalkExpr(e, func(x ir.Expr) {
		if r, isRef := x.(ir.LocalRef); isRef && l.a.LocalVar(r.Name) == nil && !l.loopVars[r.Name] {
			ok = false
		}
	})
	return ok
}
