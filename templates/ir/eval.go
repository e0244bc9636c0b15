package ir

import "fmt"

// EvalConst evaluates an expression that reads no state: constants,
// parameters, Self (as process self) and operators. Initial values of
// message-passing algorithms (Local.InitSelf) are such expressions.
func EvalConst(e Expr, p Params, self int) (int64, error) {
	b := func(v bool) int64 {
		if v {
			return 1
		}
		return 0
	}
	switch e := e.(type) {
	case Const:
		return e.V, nil
	case BoolConst:
		return b(e.V), nil
	case Param:
		return p.Get(e.Name), nil
	case Self:
		return int64(self), nil
	case Not:
		x, err := EvalConst(e.X, p, self)
		return b(x == 0), err
	case Bin:
		x, err := EvalConst(e.X, p, self)
		if err != nil {
			return 0, err
		}
		y, err := EvalConst(e.Y, p, self)
		if err != nil {
			return 0, err
		}
		switch e.Op {
		case Add:
			return x + y, nil
		case Sub:
			return x - y, nil
		case Mul:
			return x * y, nil
		case Div, Mod:
			if y == 0 {
				return 0, fmt.Errorf("division by zero in %s", FormatExpr(e))
			}
			if e.Op == Div {
				return x / y, nil
			}
			return x % y, nil
		case Eq:
			return b(x == y), nil
		case Ne:
			return b(x != y), nil
		case Lt:
			return b(x < y), nil
		case Le:
			return b(x <= y), nil
		case Gt:
			return b(x > y), nil
		case Ge:
			return b(x >= y), nil
		case And:
			return b(x != 0 && y != 0), nil
		case Or:
			return b(x != 0 || y != 0), nil
		}
	}
	return 0, fmt.Errorf("%s reads state: not a constant expression", FormatExpr(e))
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
