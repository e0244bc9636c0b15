package ir_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
)

// listing is all of a's operations as one text, to compare definitions.
func listing(a *ir.Algorithm) string {
	var b strings.Builder
	for _, op := range a.Ops() {
		fmt.Fprintf(&b, "%s:\n%s\n", op.Name, strings.Join(ir.Listing(op.Code), "\n"))
	}
	return b.String()
}

// TestCloneIsDeep edits the clone's declarations and statement lists, at
// the top and nested, and requires the original unchanged.
func TestCloneIsDeep(t *testing.T) {
	a := queue()
	before := listing(a)
	b := a.Clone()
	if listing(b) != before || b.DoorwayEnd != a.DoorwayEnd {
		t.Fatal("the clone differs from the original")
	}
	b.Shared[0].Name = "X"
	b.Records[0].Fields[0].Name = "X"
	b.Procs[0].Count = 9
	b.Locals[0].InitMine.Name = "X"
	b.Acquire[0] = Succeed("X")
	b.Acquire[2].(ir.If).Then[0] = Succeed("X")
	b.Release[2].(ir.For).Body[0] = Succeed("X")
	*b.OpCode("TryAcquire") = nil
	if a.Shared[0].Name != "TAIL" || a.Records[0].Fields[0].Name != "locked" || a.Procs[0].Count != 1 || a.Locals[0].InitMine.Name != "q" {
		t.Error("editing the clone's declarations changed the original")
	}
	if listing(a) != before {
		t.Errorf("editing the clone's code changed the original:\n%s", listing(a))
	}
	if (*ir.Algorithm)(nil).Clone() != nil {
		t.Error("a nil algorithm's clone is not nil")
	}
}

func TestOpCodeCoversOpNames(t *testing.T) {
	a := queue()
	for _, name := range ir.OpNames {
		if a.OpCode(name) == nil {
			t.Errorf("OpCode(%s) is nil", name)
		}
	}
	if len(*a.OpCode("TryAcquire")) != 3 || *a.OpCode("RAcquire") != nil {
		t.Error("OpCode points at the wrong operation")
	}
	defer func() {
		if recover() == nil {
			t.Error("OpCode of an unknown operation did not panic")
		}
	}()
	a.OpCode("Lock")
}

// TestWalkListsAndEditList: every statement list with its path; editing
// one by path copies the lists on the way and leaves the others shared.
func TestWalkListsAndEditList(t *testing.T) {
	code := Code(
		Set("1", "t", Lit(0)),
		IfElse("2", Var("ok"),
			Code(Set("3", "t", Lit(1))),
			Code(BusyWhile("4", Var("ok"), Set("5", "t", Lit(2))))),
	)
	var paths []string
	ir.WalkLists(code, nil, func(path []ir.ListPos, list ir.Code) {
		paths = append(paths, fmt.Sprintf("%v:%s", path, list[0].Label()))
	})
	want := "[]:1 [{1 0}]:3 [{1 1}]:4 [{1 1} {0 0}]:5"
	if got := strings.Join(paths, " "); got != want {
		t.Errorf("WalkLists: %s, want %s", got, want)
	}
	before := strings.Join(ir.Listing(code), "\n")
	path := []ir.ListPos{{Stmt: 1, Body: 1}, {Stmt: 0, Body: 0}}
	edited := ir.EditList(code, path, func(c ir.Code) ir.Code { return ir.ReplaceStmt(c, 0, Succeed("6")) })
	if got := strings.Join(ir.Listing(code), "\n"); got != before {
		t.Errorf("EditList changed the original:\n%s", got)
	}
	inner := edited[1].(ir.If).Else[0].(ir.While).Body
	if len(inner) != 1 || inner[0].Label() != "6" {
		t.Errorf("EditList did not edit the list at the path: %v", inner)
	}
	if then := edited[1].(ir.If).Then; &then[0] != &code[1].(ir.If).Then[0] {
		t.Error("EditList copied a list off the path")
	}
}

func TestReplaceStmt(t *testing.T) {
	c := Code(Set("1", "t", Lit(0)), Set("2", "t", Lit(1)))
	labels := func(c ir.Code) string {
		var ls []string
		for _, s := range c {
			ls = append(ls, s.Label())
		}
		return strings.Join(ls, ",")
	}
	if got := labels(ir.ReplaceStmt(c, 0, Succeed("a"), Succeed("b"))); got != "a,b,2" {
		t.Errorf("replace by two: %s", got)
	}
	if got := labels(ir.ReplaceStmt(c, 1)); got != "1" {
		t.Errorf("delete: %s", got)
	}
	if got := ir.ReplaceStmt(Code(Set("1", "t", Lit(0))), 0); got == nil || len(got) != 0 {
		t.Errorf("deleting the only statement gives %#v, want an empty, non-nil list", got)
	}
	if labels(c) != "1,2" {
		t.Error("ReplaceStmt changed its argument")
	}
}

// TestRewriteNth replaces the k-th comparison of a statement, counting
// parents first, and leaves the statement it was given unchanged.
func TestRewriteNth(t *testing.T) {
	isCmp := func(e ir.Expr) bool { b, ok := e.(ir.Bin); return ok && b.Op.IsCompare() }
	s := Await("1", And(Eq(Var("x"), Lit(0)), Not(Lt(Read(Elem("A", Var("x"))), N))))
	if n := ir.CountExprs(s, isCmp); n != 2 {
		t.Fatalf("CountExprs = %d, want 2", n)
	}
	flip := func(e ir.Expr) ir.Expr { b := e.(ir.Bin); b.Op = ir.Ge; return b }
	for k, want := range []string{"await (x ≥ 0) ∧ ¬(A[x] < n)", "await (x = 0) ∧ ¬(A[x] ≥ n)"} {
		if got := ir.FormatHead(ir.RewriteNth(s, isCmp, k, flip)); got != want {
			t.Errorf("RewriteNth(%d) = %s, want %s", k, got, want)
		}
	}
	if got := ir.FormatHead(s); got != "await (x = 0) ∧ ¬(A[x] < n)" {
		t.Errorf("RewriteNth changed its argument: %s", got)
	}
	isX := func(e ir.Expr) bool { r, ok := e.(ir.LocalRef); return ok && r.Name == "x" }
	e := Plus(Var("x"), Read(Elem("A", Var("x"))))
	if n := ir.CountExpr(e, isX); n != 2 {
		t.Errorf("CountExpr = %d, want 2 (the index of a load counts)", n)
	}
	if got := ir.FormatExpr(ir.RewriteExprNth(e, isX, 1, func(ir.Expr) ir.Expr { return Self })); got != "x + A[i]" {
		t.Errorf("RewriteExprNth = %s", got)
	}
}

// TestMapStmtExprs rewrites every expression a statement evaluates,
// location indices and references included, and nothing nested.
func TestMapStmtExprs(t *testing.T) {
	toSelf := func(e ir.Expr) ir.Expr {
		return ir.MapExpr(e, func(x ir.Expr) (ir.Expr, bool) {
			if r, ok := x.(ir.LocalRef); ok && r.Name == "j" {
				return Self, true
			}
			return nil, false
		})
	}
	for _, c := range []struct {
		s    ir.Stmt
		want string
	}{
		{Write("1", Elem("F", Var("j")), Eq(Var("j"), Lit(0))), "F[i] := i = 0"},
		{CAS("1", "ok", Field(Var("j"), "next"), Var("j"), Null), "ok := CAS(i.next, i, ⊥)"},
		{SetAt("1", "v", Var("j"), Var("j")), "v[i] := i"},
		{For("1", "k", Var("j"), Var("j"), Write("2", Elem("F", Var("j")), True)), "for k from i to i do"},
		{DelayFor("1", Var("j")), "delay(i ns)"},
	} {
		got := ir.MapStmtExprs(c.s, toSelf)
		if ir.FormatHead(got) != c.want {
			t.Errorf("MapStmtExprs(%s) = %s, want %s", ir.FormatHead(c.s), ir.FormatHead(got), c.want)
		}
		if f, ok := got.(ir.For); ok && ir.FormatHead(f.Body[0]) != "F[j] := true" {
			t.Errorf("MapStmtExprs rewrote a nested statement: %s", ir.FormatHead(f.Body[0]))
		}
	}
}
