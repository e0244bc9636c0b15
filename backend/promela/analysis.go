package promela

import (
	"fmt"
	"sort"

	"github.com/lockgen/lockgen/ir"
)

// Analysis is what the lowering learns about an algorithm's integers before
// it writes a model: which values may grow without bound (ticket counters,
// bakery numbers) and whether keeping them modulo some M leaves the
// algorithm's decisions unchanged.
type Analysis struct {
	// Counters are the integer classes that may grow without bound: shared
	// registers ("NEXT"), record fields ("Rec.field") and locals ("my"),
	// sorted. Where they really do, a model in which processes loop for
	// ever has infinitely many states.
	Counters []string
	// WrapSafe reports whether counters are only combined by + and − and
	// compared by = and ≠, so that a model may keep them modulo M.
	WrapSafe bool
	// WrapBlocker says why not, when WrapSafe is false and there are
	// counters.
	WrapBlocker string

	set map[string]bool // node keys ("S:NAME", "F:Rec.field", "L:name")
	a   *analyzer
}

// IsCounter reports whether the named class (as in Counters) is a counter.
func (an *Analysis) IsCounter(name string) bool {
	for _, c := range an.Counters {
		if c == name {
			return true
		}
	}
	return false
}

// dynExpr reports whether e's value may be a counter's.
func (an *Analysis) dynExpr(e ir.Expr) bool { return an.a.dyn(e) }

// Analyze finds the integer classes of a checked algorithm that may grow
// without bound. Values flow between classes (registers, record fields,
// locals) through assignments; a class can grow only if it lies on a cycle
// of such flows that passes through +, − or × (NOW := NOW + 1; a bakery
// number := 1 + max of the numbers), and anything fed by such a class may
// grow too. Constants, parameters, the process id, loop variables with
// bounded bounds, and x mod c for a bounded c stay bounded. The analysis
// over-approximates (a round counter reset every passage is still
// flagged): that only costs bound checks or passages, never soundness.
func Analyze(a *ir.Algorithm) *Analysis { return analyze(a, ir.WalkStmts) }

// AnalyzeAborts is Analyze over the code of a model with aborts
// (Options.Abort): the waits' abort code too.
func AnalyzeAborts(a *ir.Algorithm) *Analysis { return analyze(a, ir.WalkAll) }

// walker visits the statements of an operation: ir.WalkStmts, or
// ir.WalkAll where processes may run abort code.
type walker func(ir.Code, func(ir.Stmt))

func analyze(a *ir.Algorithm, walk walker) *Analysis {
	an := &analyzer{a: a, walk: walk, edges: map[string][]edge{}, u: map[string]bool{}, loops: map[string][2]ir.Expr{}}
	for _, op := range a.Ops() {
		walk(op.Code, func(s ir.Stmt) {
			if f, ok := s.(ir.For); ok {
				an.loops["L:"+f.Var] = [2]ir.Expr{f.From, f.To}
			}
			for _, e := range ir.StmtExprs(s) {
				ir.WalkExpr(e, func(x ir.Expr) {
					if q, ok := x.(ir.Quant); ok {
						an.loops["L:"+q.Var] = [2]ir.Expr{q.From, q.To}
					}
				})
			}
		})
	}
	for _, op := range a.Ops() {
		walk(op.Code, func(s ir.Stmt) { an.flows(s) })
	}
	// A class on a cycle through arithmetic grows; so does everything it
	// feeds.
	for from, es := range an.edges {
		for _, e := range es {
			if e.arith && an.reaches(e.to, from) {
				for n := range an.reach(e.to) {
					an.u[n] = true
				}
			}
		}
	}
	res := &Analysis{set: an.u, WrapSafe: true, a: an}
	for k := range an.u {
		res.Counters = append(res.Counters, k[2:])
	}
	sort.Strings(res.Counters)
	if len(res.Counters) > 0 {
		res.WrapBlocker = an.wrapBlocker()
		res.WrapSafe = res.WrapBlocker == ""
	}
	return res
}

type edge struct {
	to    string
	arith bool // the value passes through +, − or ×
}

type analyzer struct {
	a     *ir.Algorithm
	walk  walker
	edges map[string][]edge // value flows: source class -> destination class
	u     map[string]bool   // unbounded classes
	loops map[string][2]ir.Expr
}

func (an *analyzer) locKey(l ir.Loc) string {
	switch l := l.(type) {
	case ir.Var:
		return "S:" + l.Name
	case ir.Fld:
		return "F:" + an.a.RefRecord(l.Ref) + "." + l.Name
	}
	return ""
}

// source is a class an expression's value comes from.
type source struct {
	key   string
	arith bool
}

// sources returns the classes e's (integer) value is computed from.
func (an *analyzer) sources(e ir.Expr) []source {
	switch e := e.(type) {
	case ir.LocalRef:
		return []source{{key: "L:" + e.Name}}
	case ir.Load:
		return []source{{key: an.locKey(e.From)}}
	case ir.Bin:
		switch e.Op {
		case ir.Add, ir.Sub, ir.Mul:
			var out []source
			for _, s := range append(an.sources(e.X), an.sources(e.Y)...) {
				out = append(out, source{s.key, true})
			}
			return out
		case ir.Div:
			return an.sources(e.X)
		case ir.Mod:
			if an.static(e.Y) {
				return nil // x mod c is below c
			}
			return append(an.sources(e.X), an.sources(e.Y)...)
		}
	}
	return nil // constants, parameters, Self, Mine, booleans
}

// static reports whether e depends on nothing but constants, parameters,
// the process id and loop variables whose bounds are static (m - x for a
// loop variable x): such a value is bounded whatever the run.
func (an *analyzer) static(e ir.Expr) bool {
	for _, s := range an.sources(e) {
		b, ok := an.loops[s.key]
		if !ok || !an.static(b[0]) || !an.static(b[1]) {
			return false
		}
	}
	return true
}

func (an *analyzer) flow(to string, from ir.Expr) {
	for _, s := range an.sources(from) {
		an.edges[s.key] = append(an.edges[s.key], edge{to, s.arith})
	}
}

func (an *analyzer) flows(s ir.Stmt) {
	switch s := s.(type) {
	case ir.Write:
		an.flow(an.locKey(s.To), s.Val)
	case ir.Set:
		an.flow("L:"+s.Dst, s.Val)
	case ir.Swap:
		an.flow(an.locKey(s.To), s.Val)
		if s.Dst != "" {
			an.flow("L:"+s.Dst, ir.Load{From: s.To})
		}
	case ir.CAS:
		an.flow(an.locKey(s.To), s.New)
	case ir.FetchAdd:
		k := an.locKey(s.To)
		an.flow(k, ir.Bin{Op: ir.Add, X: ir.Load{From: s.To}, Y: s.Delta})
		if s.Dst != "" {
			an.flow("L:"+s.Dst, ir.Load{From: s.To})
		}
	case ir.For:
		an.flow("L:"+s.Var, s.From)
		an.flow("L:"+s.Var, s.To)
	}
	for _, e := range ir.StmtExprs(s) {
		ir.WalkExpr(e, func(x ir.Expr) {
			if q, ok := x.(ir.Quant); ok {
				an.flow("L:"+q.Var, q.From)
				an.flow("L:"+q.Var, q.To)
			}
		})
	}
}

// reach returns the classes reachable from k (k included).
func (an *analyzer) reach(k string) map[string]bool {
	seen := map[string]bool{k: true}
	stack := []string{k}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range an.edges[n] {
			if !seen[e.to] {
				seen[e.to] = true
				stack = append(stack, e.to)
			}
		}
	}
	return seen
}

func (an *analyzer) reaches(from, to string) bool { return an.reach(from)[to] }

// dyn reports whether e's value may be unbounded.
func (an *analyzer) dyn(e ir.Expr) bool {
	for _, s := range an.sources(e) {
		if an.u[s.key] {
			return true
		}
	}
	return false
}

// wrapBlocker returns the first use of a counter that arithmetic modulo M
// would change: an order comparison, ×, ÷, mod, an index or a loop bound.
func (an *analyzer) wrapBlocker() string {
	var why string
	var use func(e ir.Expr, ctx string)
	index := func(idx ir.Expr, what, ctx string) {
		if idx != nil && an.dyn(idx) && why == "" {
			why = fmt.Sprintf("%s: counter used as the index of %s", ctx, what)
		}
	}
	use = func(e ir.Expr, ctx string) {
		if why != "" || e == nil {
			return
		}
		switch e := e.(type) {
		case ir.Load:
			if v, ok := e.From.(ir.Var); ok {
				index(v.Index, v.Name, ctx)
				use(v.Index, ctx)
			}
		case ir.LocalRef:
			index(e.Index, e.Name, ctx)
			use(e.Index, ctx)
		case ir.Mine:
			index(e.Index, e.Name, ctx)
		case ir.Not:
			use(e.X, ctx)
		case ir.Quant:
			if an.dyn(e.From) || an.dyn(e.To) {
				why = ctx + ": counter used as a quantifier bound"
				return
			}
			use(e.Body, ctx)
		case ir.Bin:
			switch e.Op {
			case ir.Eq, ir.Ne, ir.Add, ir.Sub, ir.And, ir.Or:
			default:
				if an.dyn(e.X) || an.dyn(e.Y) {
					why = fmt.Sprintf("%s: counter under %s (%s)", ctx, e.Op, ir.FormatExpr(e))
					return
				}
			}
			use(e.X, ctx)
			use(e.Y, ctx)
		}
	}
	for _, op := range an.a.Ops() {
		an.walk(op.Code, func(s ir.Stmt) {
			ctx := op.Name
			if s.Label() != "" {
				ctx += " line " + s.Label()
			}
			switch s := s.(type) {
			case ir.For:
				if (an.dyn(s.From) || an.dyn(s.To)) && why == "" {
					why = ctx + ": counter used as a loop bound"
				}
			case ir.Set:
				index(s.Index, s.Dst, ctx)
			case ir.Delay:
				if s.Dur != nil && an.dyn(s.Dur) && why == "" {
					why = ctx + ": counter used as a delay"
				}
			}
			if l := ir.WrittenLoc(s); l != nil {
				if v, ok := l.(ir.Var); ok {
					index(v.Index, v.Name, ctx)
				}
			}
			for _, e := range ir.StmtExprs(s) {
				use(e, ctx)
			}
		})
	}
	return why
}
