package mutate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lockgen/lockgen/ir"
)

// rawMutant is a mutation before it is checked and named.
type rawMutant struct {
	Mutant
	id string // "<operator>[-detail]@<key>"
}

// pathString names a statement by its path: "e" marks an else branch,
// "a" a wait's abort code (whose mistakes are the classic abort mistakes).
func pathString(path []ir.ListPos, idx int) string {
	var b strings.Builder
	b.WriteString("_")
	for _, p := range path {
		b.WriteString(strconv.Itoa(p.Stmt))
		b.WriteString(".")
		switch p.Body {
		case 1:
			b.WriteString("e")
		case ir.AbortBody:
			b.WriteString("a")
		}
	}
	b.WriteString(strconv.Itoa(idx))
	return b.String()
}

// raw generates every mutation of a, in a fixed order: operations, then
// statements in program order, then operators.
func raw(a *ir.Algorithm) []rawMutant {
	var out []rawMutant
	for _, op := range ir.OpNames {
		code := *a.OpCode(op)
		if code == nil {
			continue
		}
		ir.WalkLists(code, nil, func(path []ir.ListPos, list ir.Code) {
			for i, s := range list {
				w := Where{Op: op, Label: s.Label(), Stmt: ir.FormatHead(s), Path: pathString(path, i)}
				key := s.Label()
				if key == "" {
					key = w.Path
				}
				add := func(o Operator, detail, change string, edit func(*ir.Algorithm)) {
					b := a.Clone()
					edit(b)
					id := string(o)
					if detail != "" {
						id += "-" + detail
					}
					out = append(out, rawMutant{id: id + "@" + key, Mutant: Mutant{Operator: o, Where: w, Change: change, Orig: []ir.Stmt{ir.CloneStmt(s)}, Alg: b}})
				}
				stmtsAt := func(b *ir.Algorithm, f func(ir.Code) ir.Code) {
					c := b.OpCode(op)
					*c = ir.EditList(*c, path, f)
				}
				// Swap with the next statement.
				if i+1 < len(list) {
					t := list[i+1]
					tkey := t.Label()
					if tkey == "" {
						tkey = pathString(path, i+1)
					}
					change := fmt.Sprintf("swap %s and %s", show(s), show(t))
					b := a.Clone()
					stmtsAt(b, func(c ir.Code) ir.Code {
						c = append(ir.Code(nil), c...)
						c[i], c[i+1] = c[i+1], c[i]
						return c
					})
					out = append(out, rawMutant{id: "swap@" + key + "," + tkey, Mutant: Mutant{Operator: Swap, Where: w, Change: change, Orig: []ir.Stmt{ir.CloneStmt(s), ir.CloneStmt(t)}, Alg: b}})
				}
				// Delete, or drop an await.
				if _, await := s.(ir.Await); await {
					add(DropAwait, "", "drop "+show(s), func(b *ir.Algorithm) {
						stmtsAt(b, func(c ir.Code) ir.Code { return ir.ReplaceStmt(c, i) })
						fixDoorway(b, a, op, s)
					})
				} else {
					add(Delete, "", "delete "+show(s), func(b *ir.Algorithm) {
						stmtsAt(b, func(c ir.Code) ir.Code { return ir.ReplaceStmt(c, i) })
						fixDoorway(b, a, op, s)
					})
				}
				// Weaken a CAS or a FAS to a plain write.
				switch st := s.(type) {
				case ir.CAS:
					repl := ir.Code{ir.Write{At: st.At, To: st.To, Val: st.New}}
					if st.Dst != "" {
						repl = append(repl, ir.Set{At: st.At, Dst: st.Dst, Val: ir.BoolConst{V: true}})
					}
					add(CASWrite, "", fmt.Sprintf("%s → %s", show(s), showCode(repl)), func(b *ir.Algorithm) {
						stmtsAt(b, func(c ir.Code) ir.Code { return ir.ReplaceStmt(c, i, ir.CloneCode(repl)...) })
					})
				case ir.Swap:
					repl, tmp := fasWrite(a, st)
					add(FASWrite, "", fmt.Sprintf("%s → %s", show(s), showCode(repl)), func(b *ir.Algorithm) {
						stmtsAt(b, func(c ir.Code) ir.Code { return ir.ReplaceStmt(c, i, ir.CloneCode(repl)...) })
						if tmp != nil {
							b.Locals = append(b.Locals, *tmp)
						}
					})
				}
				// Flip each comparison the statement evaluates.
				for k, n := 0, ir.CountExprs(s, isCompare); k < n; k++ {
					var from ir.Op
					ns := ir.RewriteNth(s, isCompare, k, func(e ir.Expr) ir.Expr {
						b := e.(ir.Bin)
						from = b.Op
						b.Op = flipped[b.Op]
						return b
					})
					add(Flip, opWord[from], fmt.Sprintf("%s → %s", show(s), show(ns)), func(b *ir.Algorithm) {
						stmtsAt(b, func(c ir.Code) ir.Code { return ir.ReplaceStmt(c, i, ir.CloneStmt(ns)) })
					})
				}
				// Off by one: loop bounds.
				for _, m := range offByOne(s) {
					add(OffByOne, m.detail, fmt.Sprintf("%s → %s", show(s), show(m.stmt)), func(b *ir.Algorithm) {
						stmtsAt(b, func(c ir.Code) ir.Code { return ir.ReplaceStmt(c, i, ir.CloneStmt(m.stmt)) })
					})
				}
			}
		})
	}
	return out
}

// show renders a statement with its label: "(7) pred.next := mynode"; a
// repeat loop shows its condition.
func show(s ir.Stmt) string {
	h := ir.FormatHead(s)
	if r, ok := s.(ir.Repeat); ok {
		h = "repeat … until " + ir.FormatExpr(r.Until)
	}
	if l := s.Label(); l != "" {
		return "(" + l + ") " + h
	}
	return h
}

func showCode(c ir.Code) string {
	var parts []string
	for _, s := range c {
		parts = append(parts, ir.FormatHead(s))
	}
	return strings.Join(parts, "; ")
}

// fixDoorway keeps DoorwayEnd pointing at a statement of Acquire when a
// mutation removed the last statement carrying its label: the doorway
// then ends at the last labelled Acquire statement before the removed
// one ("" if none). Without this the mutant would fail ir.Check, and the
// mutations that matter most for FIFO locks would be lost.
func fixDoorway(b, orig *ir.Algorithm, op string, removed ir.Stmt) {
	if op != "Acquire" || b.DoorwayEnd == "" || hasLabel(b.Acquire, b.DoorwayEnd) {
		return
	}
	prev := ""
	done := false
	ir.WalkStmts(orig.Acquire, func(s ir.Stmt) {
		if done {
			return
		}
		if ir.FormatHead(s) == ir.FormatHead(removed) && s.Label() == removed.Label() {
			done = true
			return
		}
		if l := s.Label(); l != "" && l != orig.DoorwayEnd && hasLabel(b.Acquire, l) {
			prev = l
		}
	})
	b.DoorwayEnd = prev
}

func hasLabel(code ir.Code, l string) bool {
	found := false
	ir.WalkStmts(code, func(s ir.Stmt) { found = found || s.Label() == l })
	return found
}

// fasWrite is the FAS-to-write replacement of st, and the temporary it
// needs when the new value reads the destination.
func fasWrite(a *ir.Algorithm, st ir.Swap) (ir.Code, *ir.Local) {
	if st.Dst == "" {
		return ir.Code{ir.Write{At: st.At, To: st.To, Val: st.Val}}, nil
	}
	val := st.Val
	var out ir.Code
	var tmp *ir.Local
	if readsLocal(st.Val, st.Dst) {
		name := st.Dst + "_new"
		for a.LocalVar(name) != nil {
			name += "_"
		}
		tmp = &ir.Local{Name: name, Type: localType(a, st.Dst), Doc: "the FAS's new value, kept across the split (mutant)"}
		out = append(out, ir.Set{At: st.At, Dst: name, Val: st.Val})
		val = ir.LocalRef{Name: name}
	}
	out = append(out,
		ir.Set{At: st.At, Dst: st.Dst, Val: ir.Load{From: st.To}},
		ir.Write{At: st.At, To: st.To, Val: val})
	return out, tmp
}

func localType(a *ir.Algorithm, name string) ir.Type {
	if l := a.LocalVar(name); l != nil {
		return l.Type
	}
	return ir.TInt
}

func readsLocal(e ir.Expr, name string) bool {
	found := false
	ir.WalkExpr(e, func(x ir.Expr) {
		if r, ok := x.(ir.LocalRef); ok && r.Name == name {
			found = true
		}
	})
	return found
}

var flipped = map[ir.Op]ir.Op{ir.Eq: ir.Ne, ir.Ne: ir.Eq, ir.Lt: ir.Ge, ir.Ge: ir.Lt, ir.Gt: ir.Le, ir.Le: ir.Gt}

// opWord names a comparison in mutant IDs.
var opWord = map[ir.Op]string{ir.Eq: "eq", ir.Ne: "ne", ir.Lt: "lt", ir.Le: "le", ir.Gt: "gt", ir.Ge: "ge"}

func isCompare(e ir.Expr) bool {
	b, ok := e.(ir.Bin)
	return ok && b.Op.IsCompare()
}

func isOrder(e ir.Expr) bool {
	b, ok := e.(ir.Bin)
	return ok && (b.Op == ir.Lt || b.Op == ir.Le || b.Op == ir.Gt || b.Op == ir.Ge)
}

func isQuant(e ir.Expr) bool {
	_, ok := e.(ir.Quant)
	return ok
}

// shifted moves the bound of an ordering comparison by one.
var shifted = map[ir.Op]ir.Op{ir.Lt: ir.Le, ir.Le: ir.Lt, ir.Gt: ir.Ge, ir.Ge: ir.Gt}

type oboMutant struct {
	detail string
	stmt   ir.Stmt
}

// offByOne returns the off-by-one mutations of s: its for loop's bounds,
// the ranges of the quantifiers it evaluates, and the ordering comparisons
// of its while or repeat condition.
func offByOne(s ir.Stmt) []oboMutant {
	var out []oboMutant
	if f, ok := s.(ir.For); ok {
		for _, d := range []int64{+1, -1} {
			g := f
			g.From = plus(f.From, d)
			out = append(out, oboMutant{"from" + sign(d), g})
		}
		for _, d := range []int64{+1, -1} {
			g := f
			g.To = plus(f.To, d)
			out = append(out, oboMutant{"to" + sign(d), g})
		}
	}
	for k, n := 0, ir.CountExprs(s, isQuant); k < n; k++ {
		for _, end := range []string{"from", "to"} {
			for _, d := range []int64{+1, -1} {
				ns := ir.RewriteNth(s, isQuant, k, func(e ir.Expr) ir.Expr {
					q := e.(ir.Quant)
					if end == "from" {
						q.From = plus(q.From, d)
					} else {
						q.To = plus(q.To, d)
					}
					return q
				})
				out = append(out, oboMutant{"q" + end + sign(d), ns})
			}
		}
	}
	var cond func(ir.Stmt) ir.Expr
	var set func(ir.Stmt, ir.Expr) ir.Stmt
	switch s.(type) {
	case ir.While:
		cond = func(s ir.Stmt) ir.Expr { return s.(ir.While).Cond }
		set = func(s ir.Stmt, e ir.Expr) ir.Stmt { w := s.(ir.While); w.Cond = e; return w }
	case ir.Repeat:
		cond = func(s ir.Stmt) ir.Expr { return s.(ir.Repeat).Until }
		set = func(s ir.Stmt, e ir.Expr) ir.Stmt { r := s.(ir.Repeat); r.Until = e; return r }
	}
	if cond != nil {
		c := cond(s)
		for k, n := 0, ir.CountExpr(c, isOrder); k < n; k++ {
			var from ir.Op
			nc := ir.RewriteExprNth(c, isOrder, k, func(e ir.Expr) ir.Expr {
				b := e.(ir.Bin)
				from = b.Op
				b.Op = shifted[b.Op]
				return b
			})
			out = append(out, oboMutant{"cmp-" + opWord[from], set(s, nc)})
		}
	}
	return out
}

func sign(d int64) string {
	if d > 0 {
		return "+1"
	}
	return "-1"
}

// plus returns e + d, simplified where that keeps the paper's notation
// readable (constants, "n - 1" + 1).
func plus(e ir.Expr, d int64) ir.Expr {
	if c, ok := e.(ir.Const); ok && c.Name == "" {
		return ir.Const{V: c.V + d}
	}
	if b, ok := e.(ir.Bin); ok {
		if c, ok := b.Y.(ir.Const); ok && c.Name == "" && c.V == 1 {
			if (b.Op == ir.Sub && d == 1) || (b.Op == ir.Add && d == -1) {
				return b.X
			}
		}
	}
	if d > 0 {
		return ir.Bin{Op: ir.Add, X: e, Y: ir.Const{V: d}}
	}
	return ir.Bin{Op: ir.Sub, X: e, Y: ir.Const{V: -d}}
}
