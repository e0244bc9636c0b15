package ir

import "fmt"

// EvalConst evaluates an expression that reads no state: constants,
// parameters, Self (as process self) and operators. Initial values of
// message-passing algorithms (Local.InitSelf) are such expressions.
func EvalConst(e Expr, p Params, self int) (int64, error) {
	switch e := e.(type) {
	case Const:
		return e.V, nil
	case BoolConst:
		return BoolValue(e.V), nil
	case Param:
		return p.Get(e.Name), nil
	case Self:
		return int64(self), nil
	case Not:
		x, err := EvalConst(e.X, p, self)
		return BoolValue(x == 0), err
	case Bin:
		x, err := EvalConst(e.X, p, self)
		if err != nil {
			return 0, err
		}
		y, err := EvalConst(e.Y, p, self)
		if err != nil {
			return 0, err
		}
		if v, ok := e.Op.Apply(x, y); ok {
			return v, nil
		}
		return 0, fmt.Errorf("division by zero in %s", FormatExpr(e))
	}
	return 0, fmt.Errorf("%s reads state: not a constant expression", FormatExpr(e))
}

// Apply is o applied to x and y, booleans as 0 and 1 (And and Or on
// values already computed: a caller that short-circuits decides before).
// It reports false for a division or remainder by zero.
func (o Op) Apply(x, y int64) (int64, bool) {
	switch o {
	case Add:
		return x + y, true
	case Sub:
		return x - y, true
	case Mul:
		return x * y, true
	case Div, Mod:
		if y == 0 {
			return 0, false
		}
		if o == Div {
			return x / y, true
		}
		return x % y, true
	case Eq:
		return BoolValue(x == y), true
	case Ne:
		return BoolValue(x != y), true
	case Lt:
		return BoolValue(x < y), true
	case Le:
		return BoolValue(x <= y), true
	case Gt:
		return BoolValue(x > y), true
	case Ge:
		return BoolValue(x >= y), true
	case And:
		return BoolValue(x != 0 && y != 0), true
	case Or:
		return BoolValue(x != 0 || y != 0), true
	}
	return 0, false
}

// BoolValue is a boolean as the evaluators' word: 1 or 0.
func BoolValue(v bool) int64 {
	if v {
		return 1
	}
	return 0
}

// InitialValue is process self's initial value of Process local l.
func (l *Local) InitialValue(p Params, self int) (int64, error) {
	switch {
	case l.InitSelf != nil:
		return EvalConst(l.InitSelf, p, self)
	case l.Init != nil:
		return l.Init(p), nil
	}
	return 0, nil
}
