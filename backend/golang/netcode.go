package golang

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/lockgen/lockgen/ir"
)

// Statements and expressions of a message-passing definition, as Go.

func (g *netGen) code(c ir.Code) []jen.Code {
	var out []jen.Code
	for _, s := range c {
		out = append(out, g.stmt(s)...)
	}
	return out
}

func (g *netGen) stmt(s ir.Stmt) []jen.Code {
	comment := jen.Comment(fmt.Sprintf("(%s) %s", s.Label(), ir.FormatHead(s)))
	switch s := s.(type) {
	case ir.Set:
		dst := g.ref(s.Dst)
		if s.Index != nil {
			dst = dst.Index(g.expr(s.Index))
		}
		return []jen.Code{comment, dst.Op("=").Add(g.expr(s.Val))}
	case ir.For:
		v := jen.Id(s.Var)
		body := g.withParam(s.Var, func() []jen.Code { return g.code(s.Body) })
		if s.SkipSelf {
			body = append([]jen.Code{jen.If(v.Clone().Op("==").Int64().Call(jen.Id("l").Dot("self"))).Block(jen.Continue())}, body...)
		}
		return []jen.Code{comment, jen.For(
			v.Clone().Op(":=").Int64().Call(g.expr(s.From)),
			v.Clone().Op("<=").Add(g.expr(s.To)),
			v.Clone().Op("++"),
		).Block(body...)}
	case ir.Send:
		m := g.a.Message(s.Msg)
		args := []jen.Code{g.expr(s.To), jen.Id(g.kind(s.Msg))}
		var words []jen.Code // with array arguments: the parts to concatenate
		for i, a := range s.Args {
			if m.Params[i].Len != nil {
				words = append(words, g.ref(a.(ir.LocalRef).Name)) // a process's array, whole (ir.Check)
				continue
			}
			e := g.expr(a)
			if m.Params[i].Type == ir.TBool {
				e = jen.Id("netBool").Call(e)
			}
			words = append(words, jen.Index().Int64().Values(e))
			args = append(args, e)
		}
		if m.Width(ir.Params{N: 2}) != len(m.Params) {
			args = append(args[:2], jen.Qual("slices", "Concat").Call(words...).Op("..."))
		}
		return []jen.Code{comment, jen.Id("l").Dot("send").Call(args...)}
	case ir.If:
		st := jen.If(g.expr(s.Cond)).Block(g.code(s.Then)...)
		if len(s.Else) > 0 {
			st = st.Else().Block(g.code(s.Else)...)
		}
		return []jen.Code{comment, st}
	case ir.Await:
		return []jen.Code{comment, jen.If(jen.Err().Op(":=").Id("l").Dot("await").Call(jen.Lit(g.awaits[s.Label()])), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))}
	}
	g.err = fmt.Errorf("%s line %s: %T has no Go network lowering", g.a.Name, s.Label(), s)
	return nil
}

// withParam runs lower with name bound as a plain Go variable (a loop's).
func (g *netGen) withParam(name string, lower func() []jen.Code) []jen.Code {
	if g.params == nil {
		g.params = map[string]bool{}
		defer func() { g.params = nil }()
	}
	had := g.params[name]
	g.params[name] = true
	defer func() { g.params[name] = had }()
	return lower()
}

func (g *netGen) ref(name string) *jen.Statement {
	if g.params[name] {
		return jen.Id(name)
	}
	return jen.Id("l").Dot("s").Dot(name)
}

// expr lowers an expression over the process's state: Self and n are
// the epoch's (l.self, l.n).
func (g *netGen) expr(e ir.Expr) *jen.Statement {
	sub := func(x ir.Expr) *jen.Statement {
		if _, ok := x.(ir.Bin); ok {
			return jen.Parens(g.expr(x))
		}
		return g.expr(x)
	}
	switch e := e.(type) {
	case ir.Const:
		if e.Name != "" {
			return jen.Id(g.constName(e.Name))
		}
		return jen.Lit(int(e.V))
	case ir.BoolConst:
		return jen.Lit(e.V)
	case ir.Param:
		if e.Name == "n" {
			return jen.Int64().Call(jen.Id("l").Dot("n"))
		}
	case ir.Self:
		return jen.Int64().Call(jen.Id("l").Dot("self"))
	case ir.LocalRef:
		if e.Index != nil {
			return g.ref(e.Name).Index(g.expr(e.Index))
		}
		return g.ref(e.Name)
	case ir.Not:
		if x, ok := e.X.(ir.Not); ok { // ¬¬x is x (staticcheck SA4013)
			return sub(x.X)
		}
		return jen.Op("!").Add(sub(e.X))
	case ir.Bin:
		return sub(e.X).Op(e.Op.String()).Add(sub(e.Y))
	case ir.Quant:
		return g.quant(e)
	}
	g.err = fmt.Errorf("%s: expression %s has no Go network lowering", g.a.Name, ir.FormatExpr(e))
	return jen.Lit(0)
}

// quant lowers ∀/∃ to a function literal called in place: a loop over the
// processes that returns at the first one that decides.
func (g *netGen) quant(q ir.Quant) *jen.Statement {
	v := jen.Id(q.Var)
	var body []jen.Code
	if q.SkipSelf {
		me := jen.Int64().Call(jen.Id("l").Dot("self"))
		body = append(body, jen.If(v.Clone().Op("==").Add(me)).Block(jen.Continue()))
	}
	g.withParam(q.Var, func() []jen.Code {
		var cond *jen.Statement
		switch x, negated := q.Body.(ir.Not); {
		case !q.All:
			cond = g.expr(q.Body)
		case negated: // ¬¬x is x (staticcheck SA4013)
			cond = g.expr(x.X)
		default:
			cond = jen.Op("!").Parens(g.expr(q.Body))
		}
		body = append(body, jen.If(cond).Block(jen.Return(jen.Lit(!q.All))))
		return nil
	})
	return jen.Func().Params().Bool().Block(
		jen.For(
			v.Clone().Op(":=").Int64().Call(g.expr(q.From)),
			v.Clone().Op("<=").Add(g.expr(q.To)),
			v.Clone().Op("++"),
		).Block(body...),
		jen.Return(jen.Lit(q.All)),
	).Call()
}
