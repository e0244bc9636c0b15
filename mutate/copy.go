package mutate

import "github.com/lockgen/lockgen/ir"

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
	s = mapStmtExprs(s, copyExpr)
	switch s := s.(type) {
	case ir.If:
		s.Then, s.Else = copyCode(s.Then), copyCode(s.Else)
		return s
	case ir.While:
		s.Body = copyCode(s.Body)
		return s
	case ir.Repeat:
		s.Body = copyCode(s.Body)
		return s
	case ir.For:
		s.Body = copyCode(s.Body)
		return s
	}
	return s
}

// copyExpr rebuilds e node by node: expressions are values, so the copy
// shares nothing with e.
func copyExpr(e ir.Expr) ir.Expr {
	return mapExpr(e, func(ir.Expr) (ir.Expr, bool) { return nil, false })
}
