package ir

import (
	"fmt"
)

// ListPos is one step of a path to a statement list: statement Stmt of the
// enclosing list, and which of its bodies (0: then/body, 1: else,
// AbortBody: a wait's abort code).
type ListPos struct{ Stmt, Body int }

// AbortBody is the ListPos.Body of a wait's abort code.
const AbortBody = 2

// WalkLists calls fn on every statement list of code, outermost first.
func WalkLists(code Code, path []ListPos, fn func([]ListPos, Code)) {
	fn(path, code)
	for i, s := range code {
		sub := func(body int, c Code) {
			if len(c) > 0 {
				WalkLists(c, append(append([]ListPos(nil), path...), ListPos{Stmt: i, Body: body}), fn)
			}
		}
		switch s := s.(type) {
		case If:
			sub(0, s.Then)
			sub(1, s.Else)
		case While:
			sub(0, s.Body)
		case Repeat:
			sub(0, s.Body)
		case For:
			sub(0, s.Body)
		}
		if abort, ok := AbortOf(s); ok {
			sub(AbortBody, abort)
		}
	}
}

// EditList returns code with f applied to the list at path; the lists on
// the way are copied.
func EditList(code Code, path []ListPos, f func(Code) Code) Code {
	if len(path) == 0 {
		return f(code)
	}
	out := append(Code(nil), code...)
	p, rest := path[0], path[1:]
	if p.Body == AbortBody {
		abort, _ := AbortOf(out[p.Stmt])
		out[p.Stmt] = WithAbort(out[p.Stmt], EditList(abort, rest, f))
		return out
	}
	switch s := out[p.Stmt].(type) {
	case If:
		if p.Body == 0 {
			s.Then = EditList(s.Then, rest, f)
		} else {
			s.Else = EditList(s.Else, rest, f)
		}
		out[p.Stmt] = s
	case While:
		s.Body = EditList(s.Body, rest, f)
		out[p.Stmt] = s
	case Repeat:
		s.Body = EditList(s.Body, rest, f)
		out[p.Stmt] = s
	case For:
		s.Body = EditList(s.Body, rest, f)
		out[p.Stmt] = s
	default:
		panic(fmt.Sprintf("ir: path through %T", s))
	}
	return out
}

// ReplaceStmt returns c with statement i replaced by with (removed if none).
func ReplaceStmt(c Code, i int, with ...Stmt) Code {
	out := append(Code(nil), c[:i]...)
	out = append(out, with...)
	out = append(out, c[i+1:]...)
	if len(out) == 0 && c != nil {
		return Code{}
	}
	return out
}

// Expression rewriting. Matches are counted in WalkExpr order (parents
// first) over the statement's own expressions (StmtExprs order); a
// replaced node is not descended into.

// CountExprs counts the nodes of s's own expressions that match accepts.
func CountExprs(s Stmt, match func(Expr) bool) int {
	n := 0
	for _, e := range StmtExprs(s) {
		n += CountExpr(e, match)
	}
	return n
}

// CountExpr counts the nodes of e that match accepts.
func CountExpr(e Expr, match func(Expr) bool) int {
	n := 0
	WalkExpr(e, func(x Expr) {
		if match(x) {
			n++
		}
	})
	return n
}

// RewriteNth returns s with the k-th matching expression node replaced
// by f of it.
func RewriteNth(s Stmt, match func(Expr) bool, k int, f func(Expr) Expr) Stmt {
	r := replaceNth(match, k, f)
	return MapStmtExprs(CloneStmt(s), func(e Expr) Expr { return MapExpr(e, r) })
}

// RewriteExprNth returns e with the k-th matching node replaced by f of it.
func RewriteExprNth(e Expr, match func(Expr) bool, k int, f func(Expr) Expr) Expr {
	return MapExpr(CloneExpr(e), replaceNth(match, k, f))
}

// replaceNth is a MapExpr function that replaces the k-th node (counting
// from 0, in MapExpr's order) that match accepts by f of it.
func replaceNth(match func(Expr) bool, k int, f func(Expr) Expr) func(Expr) (Expr, bool) {
	seen := 0
	return func(x Expr) (Expr, bool) {
		if !match(x) {
			return nil, false
		}
		seen++
		if seen-1 == k {
			return f(x), true
		}
		return nil, false
	}
}

// MapStmtExprs applies rw to each of s's own expressions, in StmtExprs
// order.
func MapStmtExprs(s Stmt, rw func(Expr) Expr) Stmt {
	loc := func(l Loc) Loc {
		switch l := l.(type) {
		case Var:
			if l.Index != nil {
				l.Index = rw(l.Index)
			}
			return l
		case Fld:
			l.Ref = rw(l.Ref)
			return l
		}
		return l
	}
	switch s := s.(type) {
	case Write:
		s.To = loc(s.To)
		s.Val = rw(s.Val)
		return s
	case Set:
		if s.Index != nil {
			s.Index = rw(s.Index)
		}
		s.Val = rw(s.Val)
		return s
	case Swap:
		s.To = loc(s.To)
		s.Val = rw(s.Val)
		return s
	case CAS:
		s.To = loc(s.To)
		s.Old, s.New = rw(s.Old), rw(s.New)
		return s
	case FetchAdd:
		s.To = loc(s.To)
		s.Delta = rw(s.Delta)
		return s
	case If:
		s.Cond = rw(s.Cond)
		return s
	case While:
		s.Cond = rw(s.Cond)
		return s
	case Repeat:
		s.Until = rw(s.Until)
		return s
	case For:
		s.From, s.To = rw(s.From), rw(s.To)
		return s
	case Await:
		s.Cond = rw(s.Cond)
		return s
	case FreeRecord:
		s.Ref = rw(s.Ref)
		return s
	case Delay:
		if s.Dur != nil {
			s.Dur = rw(s.Dur)
		}
		return s
	}
	return s
}

// MapExpr rebuilds e top-down: where f returns (r, true) the node is
// replaced by r and not descended into.
func MapExpr(e Expr, f func(Expr) (Expr, bool)) Expr {
	if e == nil {
		return nil
	}
	if r, ok := f(e); ok {
		return r
	}
	loc := func(l Loc) Loc {
		switch l := l.(type) {
		case Var:
			l.Index = MapExpr(l.Index, f)
			return l
		case Fld:
			l.Ref = MapExpr(l.Ref, f)
			return l
		}
		return l
	}
	switch e := e.(type) {
	case LocalRef:
		e.Index = MapExpr(e.Index, f)
		return e
	case Load:
		e.From = loc(e.From)
		return e
	case Mine:
		e.Index = MapExpr(e.Index, f)
		return e
	case Bin:
		e.X, e.Y = MapExpr(e.X, f), MapExpr(e.Y, f)
		return e
	case Not:
		e.X = MapExpr(e.X, f)
		return e
	case Quant:
		e.From, e.To, e.Body = MapExpr(e.From, f), MapExpr(e.To, f), MapExpr(e.Body, f)
		return e
	}
	return e
}
