package ir

// Clone returns a deep copy of a: every slice (declarations, record
// fields, statement lists) and every expression tree is new, so that
// editing the copy never changes a. Functions (array lengths, initial
// values) are shared: they are never mutated.
func (a *Algorithm) Clone() *Algorithm {
	if a == nil {
		return nil
	}
	b := *a
	b.Shared = append([]Shared(nil), a.Shared...)
	b.Records = append([]Record(nil), a.Records...)
	for i := range b.Records {
		b.Records[i].Fields = append([]Field(nil), b.Records[i].Fields...)
	}
	b.Procs = append([]ProcRecords(nil), a.Procs...)
	b.Locals = append([]Local(nil), a.Locals...)
	for i := range b.Locals {
		if m := b.Locals[i].InitMine; m != nil {
			c := CloneExpr(*m).(Mine)
			b.Locals[i].InitMine = &c
		}
	}
	for _, op := range OpNames {
		*b.OpCode(op) = CloneCode(*a.OpCode(op))
	}
	return &b
}

// OpNames are the operations of an algorithm, in Algorithm.Ops order.
var OpNames = []string{"Acquire", "Release", "TryAcquire", "RAcquire", "RRelease", "TryRAcquire"}

// OpCode returns a pointer to the operation named op (one of OpNames).
func (a *Algorithm) OpCode(op string) *Code {
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
	panic("ir: unknown operation " + op)
}

func CloneCode(c Code) Code {
	if c == nil {
		return nil
	}
	out := make(Code, len(c))
	for i, s := range c {
		out[i] = CloneStmt(s)
	}
	return out
}

func CloneStmt(s Stmt) Stmt {
	s = MapStmtExprs(s, CloneExpr)
	switch s := s.(type) {
	case If:
		s.Then, s.Else = CloneCode(s.Then), CloneCode(s.Else)
		return s
	case While:
		s.Body, s.Abort = CloneCode(s.Body), CloneCode(s.Abort)
		return s
	case Repeat:
		s.Body, s.Abort = CloneCode(s.Body), CloneCode(s.Abort)
		return s
	case For:
		s.Body = CloneCode(s.Body)
		return s
	case Await:
		s.Abort = CloneCode(s.Abort)
		return s
	}
	return s
}

// CloneExpr rebuilds e node by node: expressions are values, so the copy
// shares nothing with e.
func CloneExpr(e Expr) Expr {
	return MapExpr(e, func(Expr) (Expr, bool) { return nil, false })
}
