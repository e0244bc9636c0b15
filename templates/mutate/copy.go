package mutate

import "github.com/lockgen/lockgen/templates/ir"

// Clone returns a deep copy of a: every slice (declarations, record
// fields, statement lists) and every expression tree is new, so that
// editing the copy never changes a. Functions (array lengths, initial
// values) are shared: they are never mutated.
func Clone(a *ir.Algorithm) *ir.Algorithm {
	if a == nil {
		return nil
	}
	b := *a
	b.Shared = append([]ir.Shared(nil), a.Shared...)
	b.Records = append([]ir.Record(nil), a.Records...)
	for i := range b.Records {
		b.Records[i].Fields = append([]ir.Field(nil), b.Records[i].Fields...)
	}
	b.Procs = append([]ir.ProcRecords(nil), a.Procs...)
	b.Locals = append([]ir.Local(nil), a.Locals...)
	for i := range b.Locals {
		if m := b.Locals[i].InitMine; m != nil {
			c := copyExpr(*m).(ir.Mine)
			b.Locals[i].InitMine = &c
		}
	}
	for _, op := range opNames {
		*opCode(&b, op) = copyCode(*opCode(a, op))
	}
	return &b
}

// opNames are the operations of an algorithm, in ir.Algorithm.Ops order.
var opNames = []string{"Acquire", "Release", "TryAcquire", "RAcquire", "RRelease", "TryRAcquire"}

// opCode returns a pointer to the operation named op.
func opCode(a *ir.Algorithm, op string) *ir.Code {
	switch op {
	case "Acquire":
		return &a.Acquire
	case "Release":
		return &a.Release
	case "TryAcquire":
		return &a.TryAcquire
	case "RAcquire":
		return &a.RAcquire
	case "RRelease":
		return &a.RRelease
	case "TryRAcquire":
		return &a.TryRAcquire
	}
	panic("mutate: unknown operation " + op)
}

func copyCode(c ir.Code) ir.Code {
	if c == nil {
		return nil
	}
	out := make(ir.Code, len(c))
	for i, s := range c {
		out[i] = copyStmt(s)
	}
	return out
}

func copyStmt(s ir.Stmt) ir.Stmt {
	switch s := s.(type) {
	case ir.Write:
		s.To, s.Val = copyLoc(s.To), copyExpr(s.Val)
		return s
	case ir.Set:
		s.Index, s.Val = copyExpr(s.Index), copyExpr(s.Val)
		return s
	case ir.Swap:
		s.To, s.Val = copyLoc(s.To), copyExpr(s.Val)
		return s
	case ir.CAS:
		s.To, s.Old, s.New = copyLoc(s.To), copyExpr(s.Old), copyExpr(s.New)
		return s
	case ir.FetchAdd:
		s.To, s.Delta = copyLoc(s.To), copyExpr(s.Delta)
		return s
	case ir.If:
		s.Cond, s.Then, s.Else = copyExpr(s.Cond), copyCode(s.Then), copyCode(s.Else)
		return s
	case ir.While:
		s.Cond, s.Body = copyExpr(s.Cond), copyCode(s.Body)
		return s
	case ir.Repeat:
		s.Body, s.Until = copyCode(s.Body), copyExpr(s.Until)
		return s
	case ir.For:
		s.From, s.To, s.Body = copyExpr(s.From), copyExpr(s.To), copyCode(s.Body)
		return s
	case ir.Await:
		s.Cond = copyExpr(s.Cond)
		return s
	case ir.Delay:
		s.Dur = copyExpr(s.Dur)
		return s
	case ir.FreeRecord:
		s.Ref = copyExpr(s.Ref)
		return s
	}
	return s // Succeed, Fail: no sub-parts
}

func copyLoc(l ir.Loc) ir.Loc {
	switch l := l.(type) {
	case ir.Var:
		l.Index = copyExpr(l.Index)
		return l
	case ir.Fld:
		l.Ref = copyExpr(l.Ref)
		return l
	}
	return l
}

func copyExpr(e ir.Expr) ir.Expr {
	switch e := e.(type) {
	case nil:
		return nil
	case ir.LocalRef:
		e.Index = copyExpr(e.Index)
		return e
	case ir.Load:
		e.From = copyLoc(e.From)
		return e
	case ir.Mine:
		e.Index = copyExpr(e.Index)
		return e
	case ir.Bin:
		e.X, e.Y = copyExpr(e.X), copyExpr(e.Y)
		return e
	case ir.Not:
		e.X = copyExpr(e.X)
		return e
	case ir.Quant:
		e.From, e.To, e.Body = copyExpr(e.From), copyExpr(e.To), copyExpr(e.Body)
		return e
	}
	return e // constants, parameters, Self, Nil
}
