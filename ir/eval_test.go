package ir_test

import (
	"strings"
	"testing"

	"github.com/lockgen/lockgen/ir"
	. "github.com/lockgen/lockgen/ir/dsl"
)

func TestEvalConst(t *testing.T) {
	p := ir.Params{N: 5, K: 2, Extra: map[string]int64{"m": 7}}
	for _, c := range []struct {
		e    ir.Expr
		self int
		want int64
	}{
		{Lit(4), 0, 4},
		{True, 0, 1},
		{False, 0, 0},
		{N, 0, 5},
		{K, 0, 2},
		{Param("m"), 0, 7},
		{Param("absent"), 0, 0},
		{Self, 3, 3},
		{Mod(Plus(Self, Lit(1)), N), 4, 0},
		{Div(Minus(Param("m"), Lit(1)), K), 0, 3},
		{Times(Self, Lit(-2)), 3, -6},
		{Eq(Self, Lit(0)), 0, 1},
		{Eq(Self, Lit(0)), 1, 0},
		{Not(Lt(Self, K)), 2, 1},
		{And(Gt(Self, Lit(0)), Le(Self, K)), 2, 1},
		{Or(Ne(Self, Self), Ge(Self, N)), 1, 0},
	} {
		got, err := ir.EvalConst(c.e, p, c.self)
		if err != nil || got != c.want {
			t.Errorf("EvalConst(%s, self %d) = %d, %v; want %d", ir.FormatExpr(c.e), c.self, got, err, c.want)
		}
	}
}

func TestEvalConstRejects(t *testing.T) {
	for _, c := range []struct {
		e    ir.Expr
		want string
	}{
		{Read(Reg("L")), "L reads state: not a constant expression"},
		{Plus(Lit(1), Var("x")), "x reads state"},
		{Div(Lit(1), Minus(N, N)), "division by zero in 1 / (n - n)"},
		{Mod(Lit(1), Lit(0)), "division by zero in 1 mod 0"},
		{Not(Null), "⊥ reads state"},
	} {
		_, err := ir.EvalConst(c.e, ir.Params{N: 3}, 0)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("EvalConst(%s) = %v; want an error containing %q", ir.FormatExpr(c.e), err, c.want)
		}
	}
}

func TestOpApply(t *testing.T) {
	for _, c := range []struct {
		op   ir.Op
		x, y int64
		want int64
		ok   bool
	}{
		{ir.Sub, 2, 5, -3, true},
		{ir.Div, -7, 2, -3, true}, // truncating, as Go's
		{ir.Mod, -7, 2, -1, true},
		{ir.Div, 1, 0, 0, false},
		{ir.Mod, 1, 0, 0, false},
		{ir.Le, 2, 2, 1, true},
		{ir.Gt, 2, 2, 0, true},
		{ir.And, 1, 0, 0, true},
		{ir.Or, 0, 2, 1, true},
	} {
		got, ok := c.op.Apply(c.x, c.y)
		if got != c.want || ok != c.ok {
			t.Errorf("%d %s %d = %d, %v; want %d, %v", c.x, c.op, c.y, got, ok, c.want, c.ok)
		}
	}
}

// TestInitialValue: a message-passing local's initial value is its
// expression of Self, which wins over Init; a plain local's is Init or 0.
func TestInitialValue(t *testing.T) {
	l := ir.Local{Name: "x", Type: ir.TInt, Scope: ir.Process, InitSelf: Times(Self, Lit(10)), Init: func(ir.Params) int64 { return 99 }}
	if v, err := l.InitialValue(ir.Params{N: 3}, 2); v != 20 || err != nil {
		t.Errorf("InitSelf: %d, %v; want 20", v, err)
	}
	l.InitSelf = nil
	if v, err := l.InitialValue(ir.Params{N: 3}, 2); v != 99 || err != nil {
		t.Errorf("Init: %d, %v; want 99", v, err)
	}
	l.Init = nil
	if v, err := l.InitialValue(ir.Params{N: 3}, 2); v != 0 || err != nil {
		t.Errorf("no initial value: %d, %v; want 0", v, err)
	}
}
