package promela

import (
	"fmt"
	"strings"

	"github.com/lockgen/lockgen/ir"
)

// Statements and expressions of a message-passing definition, as Promela,
// with the FCFS ghost updates after the statements where requests join.

func (w *netWriter) code(c ir.Code) {
	for _, s := range c {
		w.stmt(s)
	}
}

func (w *netWriter) stmt(s ir.Stmt) {
	w.stmtOnly(s)
	if !w.o.FCFS {
		return
	}
	for _, j := range w.a.Joins {
		if j.Label != s.Label() {
			continue
		}
		when := "true"
		if j.When != nil {
			when = w.expr(j.When)
		}
		who := w.expr(j.Who)
		var join string
		switch {
		case j.Key != nil:
			join = fmt.Sprintf("g_inlist[%s] = true; g_key[%s] = %s", who, who, w.expr(j.Key))
		case j.Behind == nil:
			join = fmt.Sprintf("lg_c = %s; %s", who, joinChain)
		default:
			b := w.expr(j.Behind)
			join = fmt.Sprintf("g_after[%s] = %s; if :: g_inlist[%s] -> lg_c = %s; %s :: else -> skip fi", b, who, b, who, joinChain)
		}
		w.line(fmt.Sprintf("if :: %s -> %s :: else -> skip fi;\t/* FCFS: joins */", when, join))
	}
}

// joinChain gives places, in order, to the request lg_c and the segment
// queued behind it.
const joinChain = "do :: lg_c != -1 -> g_joins++; g_inlist[lg_c] = true; g_entered[lg_c] = false; g_key[lg_c] = g_joins; lg_c = g_after[lg_c] :: else -> break od"

func (w *netWriter) stmtOnly(s ir.Stmt) {
	switch s := s.(type) {
	case ir.Set:
		dst := w.lvalue(s.Dst)
		if s.Index != nil {
			dst = w.elem(s.Dst, s.Index)
		}
		w.stmtLine(fmt.Sprintf("%s = %s;", dst, w.expr(s.Val)), s, ir.FormatHead(s))
	case ir.For:
		v := pvar(s.Var)
		w.stmtLine(fmt.Sprintf("%s = %s;", v, w.expr(s.From)), s, ir.FormatHead(s))
		if w.env == nil {
			w.env = map[string]string{}
			defer func() { w.env = nil }()
		}
		w.env[s.Var] = v
		w.line("do")
		w.line(fmt.Sprintf(":: %s <= %s ->", v, w.expr(s.To)))
		w.ind++
		if s.SkipSelf {
			w.line(fmt.Sprintf("if :: %s == self -> skip :: else ->", v))
			w.ind++
		}
		w.code(s.Body)
		w.line("skip")
		if s.SkipSelf {
			w.ind--
			w.line("fi;")
		}
		w.line(v + "++")
		w.ind--
		w.line(":: else -> break")
		w.line("od;")
		w.line(v + " = 0;")
		delete(w.env, s.Var)
	case ir.Send:
		m := w.a.Message(s.Msg)
		w.stmtLine(fmt.Sprintf("lg_to = %s;", w.expr(s.To)), s, ir.FormatHead(s))
		w.line("assert(lg_to >= 0 && lg_to < N && inbox[lg_to].n < CAP);")
		parts := []string{
			fmt.Sprintf("inbox[lg_to].s[inbox[lg_to].n].kind = m_%s", ident(m.Name)),
			"inbox[lg_to].s[inbox[lg_to].n].from = self",
		}
		for i, arg := range s.Args {
			off := m.Offset(i, w.par)
			if m.Params[i].Len == nil {
				parts = append(parts, fmt.Sprintf("inbox[lg_to].s[inbox[lg_to].n].arg[%d] = %s", off, w.expr(arg)))
				continue
			}
			// An array, element by element (ir.Check: a process's array, whole).
			for k := range w.par.N {
				parts = append(parts, fmt.Sprintf("inbox[lg_to].s[inbox[lg_to].n].arg[%d] = %s", off+k, w.elem(arg.(ir.LocalRef).Name, ir.Const{V: int64(k)})))
			}
		}
		w.line(strings.Join(append(parts, "inbox[lg_to].n++", "lg_to = 0"), "; ") + ";")
	case ir.If:
		w.line("if")
		w.stmtLine(fmt.Sprintf(":: (%s) ->", w.expr(s.Cond)), s, ir.FormatHead(s))
		w.ind++
		w.code(s.Then)
		w.line("skip")
		w.ind--
		w.stmtLine(":: else ->", s, "not ("+ir.FormatExpr(s.Cond)+")")
		w.ind++
		w.code(s.Else)
		w.line("skip")
		w.ind--
		w.line("fi;")
	case ir.Await:
		id := 0
		for i, aw := range w.waits {
			if aw.Label() == s.Label() {
				id = i + 1
			}
		}
		w.line(fmt.Sprintf("g_wait[self] = %d;", id))
		w.stmtLine(fmt.Sprintf("(%s);", w.expr(s.Cond)), s, ir.FormatHead(s))
		w.line("g_wait[self] = 0; g_resume[self] = false;")
	default:
		w.err = fmt.Errorf("%s line %s: %T has no network lowering", w.a.Name, s.Label(), s)
	}
}

// elem is element idx of process self's local array name.
func (w *netWriter) elem(name string, idx ir.Expr) string {
	if w.arrays[name] {
		if v, ok := w.env[name]; ok {
			return fmt.Sprintf("%s[%s]", v, w.expr(idx))
		}
	}
	return fmt.Sprintf("%s[%s*N + (%s)]", pvar(name), w.selfName(), w.expr(idx))
}

// selfName is the process whose state expressions read: self, or the one
// exprAt names.
func (w *netWriter) selfName() string {
	if w.self != "" {
		return w.self
	}
	return "self"
}

// exprAt is e as process p evaluates it, outside any of p's own code (in
// an LTL claim).
func (w *netWriter) exprAt(e ir.Expr, p int) string {
	w.self = fmt.Sprint(p)
	defer func() { w.self = "" }()
	return w.expr(e)
}

// loopVars declares the variables of the algorithm's for loops (in the
// handler, those that are not also a message's parameter, which is
// declared already).
func (w *netWriter) loopVars() {
	seen := map[string]bool{}
	for name := range w.env {
		seen[name] = true
	}
	visit := func(c ir.Code) {
		ir.WalkStmts(c, func(s ir.Stmt) {
			if f, ok := s.(ir.For); ok && !seen[f.Var] {
				seen[f.Var] = true
				w.line(fmt.Sprintf("short %s;\t/* a for loop's variable */", pvar(f.Var)))
			}
		})
	}
	for _, b := range w.a.Bodies() {
		visit(b.Code)
	}
}

func (w *netWriter) lvalue(name string) string {
	if v, ok := w.env[name]; ok {
		return v
	}
	return pvar(name) + "[" + w.selfName() + "]"
}

func (w *netWriter) expr(e ir.Expr) string {
	switch e := e.(type) {
	case ir.Const:
		return fmt.Sprint(e.V)
	case ir.BoolConst:
		return fmt.Sprint(e.V)
	case ir.Param:
		return fmt.Sprint(w.par.Get(e.Name))
	case ir.Self:
		return w.selfName()
	case ir.LocalRef:
		if e.Index != nil {
			return w.elem(e.Name, e.Index)
		}
		return w.lvalue(e.Name)
	case ir.Not:
		return "!(" + w.expr(e.X) + ")"
	case ir.Bin:
		return "(" + w.expr(e.X) + " " + e.Op.String() + " " + w.expr(e.Y) + ")"
	case ir.Quant:
		return w.quant(e)
	}
	w.err = fmt.Errorf("%s: expression %T has no network lowering", w.a.Name, e)
	return "0"
}

// quant expands ∀/∃ over constant bounds into a conjunction or
// disjunction, one term per process: a guard evaluates atomically, and the
// model's n is fixed.
func (w *netWriter) quant(q ir.Quant) string {
	from, err1 := ir.EvalConst(q.From, w.par, 0)
	to, err2 := ir.EvalConst(q.To, w.par, 0)
	if err1 != nil || err2 != nil {
		w.err = fmt.Errorf("%s: a quantifier's bounds must be constant (%s .. %s)", w.a.Name, ir.FormatExpr(q.From), ir.FormatExpr(q.To))
		return "false"
	}
	if w.env == nil {
		w.env = map[string]string{}
		defer func() { w.env = nil }()
	}
	outer, had := w.env[q.Var]
	defer func() {
		if had {
			w.env[q.Var] = outer
		} else {
			delete(w.env, q.Var)
		}
	}()
	op, none := " && ", "true"
	if !q.All {
		op, none = " || ", "false"
	}
	var terms []string
	for v := from; v <= to; v++ {
		w.env[q.Var] = fmt.Sprint(v)
		t := w.expr(q.Body)
		if q.SkipSelf && q.All {
			t = fmt.Sprintf("(self == %d || %s)", v, t)
		} else if q.SkipSelf {
			t = fmt.Sprintf("(self != %d && %s)", v, t)
		}
		terms = append(terms, t)
	}
	if len(terms) == 0 {
		return none
	}
	return "(" + strings.Join(terms, op) + ")"
}
