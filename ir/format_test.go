package ir_test

import (
	"strings"
	"testing"

	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
)

func TestFormatExpr(t *testing.T) {
	for _, c := range []struct {
		e    ir.Expr
		want string
	}{
		{Named("FREE", 0), "FREE"},
		{Lit(-3), "-3"},
		{True, "true"},
		{Null, "⊥"},
		{Self, "i"},
		{N, "n"},
		{VarAt("v", Self), "v[i]"},
		{Own("q", Lit(0)), "&q_i[0]"},
		{Read(Field(Var("me"), "next")), "me.next"},
		{Read(Elem("F", Plus(Self, Lit(1)))), "F[i + 1]"},
		{Not(Read(Reg("L"))), "¬L"},
		{Not(Eq(Var("x"), Lit(1))), "¬(x = 1)"},
		{Times(Plus(Var("x"), Lit(1)), K), "(x + 1) * k"},
		{Mod(Var("x"), N), "x mod n"},
		{Le(Var("x"), Var("y")), "x ≤ y"},
		{Ge(Var("x"), Var("y")), "x ≥ y"},
		{Ne(Var("x"), Var("y")), "x ≠ y"},
		{Lex(Var("a"), Var("b"), Var("c"), Var("d")), "(a < c) ∨ ((a = c) ∧ (b < d))"},
		{ForAllOthers("j", Lit(0), Minus(N, Lit(1)), Not(Read(Elem("F", Var("j"))))), "(∀ j ∈ 0..n - 1, j ≠ i: ¬F[j])"},
		{Exists("j", Lit(1), N, Read(Elem("F", Var("j")))), "(∃ j ∈ 1..n: F[j])"},
	} {
		if got := ir.FormatExpr(c.e); got != c.want {
			t.Errorf("FormatExpr(%#v) = %q, want %q", c.e, got, c.want)
		}
	}
}

func TestFormatHead(t *testing.T) {
	for _, c := range []struct {
		s    ir.Stmt
		want string
	}{
		{Write("1", Elem("F", Self), True), "F[i] := true"},
		{SetAt("1", "v", Self, Lit(2)), "v[i] := 2"},
		{Swap("1", "", Reg("L"), Named("BUSY", 1)), "FAS(L, BUSY)"},
		{Swap("1", "old", Reg("L"), Named("BUSY", 1)), "old := FAS(L, BUSY)"},
		{CAS("1", "ok", Reg("TAIL"), Var("me"), Null), "ok := CAS(TAIL, me, ⊥)"},
		{FetchAdd("1", "t", Reg("C"), Lit(1)), "t := fetch&add(C, 1)"},
		{If("1", Var("ok")), "if ok then"},
		{BusyWhile("1", Read(Reg("L"))), "while L do"},
		{Repeat("1", True), "repeat"},
		{For("1", "j", Lit(0), N), "for j from 0 to n do"},
		{ForOthers("1", "j", Lit(0), N), "for j from 0 to n (j ≠ i) do"},
		{Await("1", Eq(Read(Reg("L")), Lit(0))), "await L = 0"},
		{Succeed("1"), "enter the critical section"},
		{Fail("1"), "give up (return failure)"},
		{Delay("1", "delta"), "delay(delta)"},
		{DelayFor("1", Lit(100)), "delay(100 ns)"},
		{Free("1", Var("pred")), "free(pred)"},
		{Send("1", Plus(Self, Lit(1)), "token"), "send(i + 1, token)"},
		{Send("1", Lit(0), "req", Self, True), "send(0, req; i, true)"},
	} {
		if got := ir.FormatHead(c.s); got != c.want {
			t.Errorf("FormatHead(%#v) = %q, want %q", c.s, got, c.want)
		}
	}
}

// TestListing: labels in the left column, bodies indented, else and until
// on lines of their own, unlabelled statements with an empty column.
func TestListing(t *testing.T) {
	code := Code(
		IfElse("1", Eq(Var("t"), Lit(0)),
			Code(Set("2", "t", Lit(1))),
			Code(Set("3", "t", Lit(2)))),
		Repeat("4", Ge(Var("t"), N),
			FetchAdd("5", "t", Reg("C"), Lit(1))),
		Set("", "t", Plus(Var("t"), Times(Lit(2), K))),
		For("6", "j", Lit(0), N,
			While("7", Read(Elem("F", Var("j"))))),
	)
	want := []string{
		"(1)     if t = 0 then",
		"(2)       t := 1",
		"        else",
		"(3)       t := 2",
		"(4)     repeat",
		"(5)       t := fetch&add(C, 1)",
		"        until t ≥ n",
		"        t := t + (2 * k)",
		"(6)     for j from 0 to n do",
		"(7)       while F[j] do",
	}
	got := ir.Listing(code)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Listing:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
