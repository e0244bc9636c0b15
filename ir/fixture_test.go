package ir_test

import (
	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
)

// queue is a small shared-memory algorithm with one of most things the
// checker types: scalar, array and record registers, per-process records,
// locals of every scope, each kind of statement an acquire, a release and
// a try-acquire may hold, and a doorway. It is not a lock anyone should
// use; it only has to check.
func queue() *ir.Algorithm {
	return &ir.Algorithm{
		Name: "q",
		Shared: []ir.Shared{
			{Name: "TAIL", Type: ir.TRef("Node")},
			{Name: "F", Type: ir.TBool, Len: func(p ir.Params) int { return p.N }, Owner: "proc"},
			{Name: "C", Type: ir.TInt},
		},
		Records: []ir.Record{{Name: "Node", Fields: []ir.Field{
			{Name: "locked", Type: ir.TBool},
			{Name: "next", Type: ir.TRef("Node")},
		}}},
		Procs: []ir.ProcRecords{{Name: "q", Rec: "Node", Count: 1}},
		Locals: []ir.Local{
			{Name: "me", Type: ir.TRef("Node"), Scope: ir.Process, InitMine: &ir.Mine{Name: "q", Index: Lit(0)}},
			{Name: "pred", Type: ir.TRef("Node")},
			{Name: "ok", Type: ir.TBool},
			{Name: "t", Type: ir.TInt},
		},
		Acquire: Code(
			Write("1", Elem("F", Self), True),
			Swap("2", "pred", Reg("TAIL"), Var("me")),
			If("3", Ne(Var("pred"), Null),
				Write("4", Field(Var("me"), "locked"), True),
				Write("5", Field(Var("pred"), "next"), Var("me")),
				Await("6", Not(Read(Field(Var("me"), "locked")))),
			),
		),
		Release: Code(
			FetchAdd("7", "t", Reg("C"), Lit(1)),
			CAS("8", "ok", Reg("TAIL"), Var("me"), Null),
			For("9", "j", Lit(0), Minus(N, Lit(1)),
				Write("10", Elem("F", Var("j")), False),
			),
		),
		TryAcquire: Code(
			CAS("t1", "ok", Reg("TAIL"), Null, Var("me")),
			If("t2", Not(Var("ok")), Fail("t2")),
			Succeed("t3"),
		),
		DoorwayEnd: "2",
	}
}

// ring is a small message-passing algorithm: a token goes round a ring,
// carrying its sender and an array.
func ring() *ir.Algorithm {
	perProc := func(p ir.Params) int { return p.N }
	return &ir.Algorithm{
		Name: "ring",
		Locals: []ir.Local{
			State("has", ir.TBool, "holds the token", Eq(Self, Lit(0))),
			State("want", ir.TBool, "wants the lock", nil),
			{Name: "seen", Type: ir.TInt, Scope: ir.Process, Len: perProc},
		},
		Messages: []ir.Message{{Name: "token", Params: []ir.Local{
			{Name: "from", Type: ir.TInt},
			{Name: "ln", Type: ir.TInt, Len: perProc},
		}}},
		Handlers: []ir.Handler{On("token", Set("h1", "has", True))},
		Start:    Code(Send("s", Self, "token", Self, Var("seen"))),
		Acquire: Code(
			Set("1", "want", True),
			Await("2", Var("has")),
		),
		Release: Code(
			Set("3", "want", False),
			Set("4", "has", False),
			Send("5", Mod(Plus(Self, Lit(1)), N), "token", Self, Var("seen")),
		),
		Joins: []ir.Join{{Label: "1", Who: Self}},
	}
}
