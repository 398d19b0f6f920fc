package sql

import (
	"cmp"
	"fmt"
	"math"

	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

// Operators are registered as functions under their symbol; NEG is unary
// minus. Comparison operands are unified to one type by the binder first.
func init() {
	for _, op := range []string{"=", "!=", "<", "<=", ">", ">="} {
		cmp := compareOp(op)
		Register(op, &Overload{Args: []*types.Type{nil, nil}, Result: comparable(op), Eval: evalOf(cmp), EvalTo: cmp})
	}
	Register("+",
		fixedTo(types.Int64, intOp(addInt), types.Int64, types.Int64),
		fixedTo(types.Float64, floatOp(func(a, b float64) float64 { return a + b }), types.Float64, types.Float64))
	Register("-",
		fixedTo(types.Int64, intOp(subInt), types.Int64, types.Int64),
		fixedTo(types.Float64, floatOp(func(a, b float64) float64 { return a - b }), types.Float64, types.Float64))
	Register("*",
		fixedTo(types.Int64, intOp(mulInt), types.Int64, types.Int64),
		fixedTo(types.Float64, floatOp(func(a, b float64) float64 { return a * b }), types.Float64, types.Float64))
	Register("/", fixedTo(types.Float64, divide, types.Float64, types.Float64))
	Register("NEG",
		fixedTo(types.Int64, func(dst *types.Value, a []types.Value, _ *types.Type) error {
			if a[0].Int64() == math.MinInt64 {
				return sqlerr.New(sqlerr.OutOfRange, "int64 overflow: -(%d)", a[0].Int64())
			}
			*dst = types.Int64Value(-a[0].Int64())
			return nil
		}, types.Int64),
		fixedTo(types.Float64, func(dst *types.Value, a []types.Value, _ *types.Type) error {
			*dst = types.Float64Value(-a[0].Float64())
			return nil
		}, types.Float64))
	Register("DIV", fixedTo(types.Int64, intOp(divInt), types.Int64, types.Int64))
	Register("MOD", fixedTo(types.Int64, intOp(modInt), types.Int64, types.Int64))
	Register("||",
		fixed(types.String, concatValues, types.String, types.String),
		fixed(types.Bytes, concatValues, types.Bytes, types.Bytes))
	Register("LIKE",
		fixed(types.Bool, likeOp, types.String, types.String),
		fixed(types.Bool, likeOp, types.Bytes, types.Bytes))
}

func comparable(op string) func([]*types.Type) (*types.Type, error) {
	return func(a []*types.Type) (*types.Type, error) {
		if !a[0].Equal(a[1]) && !(a[0].IsNumeric() && a[1].IsNumeric()) {
			return nil, fmt.Errorf("no matching signature for operator %s for argument types %s, %s", op, a[0], a[1])
		}
		if !a[0].IsScalar() && op != "=" && op != "!=" {
			return nil, fmt.Errorf("operator %s is not defined for %s", op, a[0])
		}
		if a[0].Kind == types.KindMap || a[0].Kind == types.KindProto {
			return nil, fmt.Errorf("operator %s is not defined for %s", op, a[0])
		}
		return types.Bool, nil
	}
}

func compareOp(op string) evalToFunc {
	// holds[c+1] is the result for Compare's c.
	var holds [3]bool
	switch op {
	case "=":
		holds = [3]bool{false, true, false}
	case "!=":
		holds = [3]bool{true, false, true}
	case "<":
		holds = [3]bool{true, false, false}
	case "<=":
		holds = [3]bool{true, true, false}
	case ">":
		holds = [3]bool{false, false, true}
	default:
		holds = [3]bool{false, true, true}
	}
	ne := op == "!="
	return func(dst *types.Value, a []types.Value, _ *types.Type) error {
		x, y := &a[0], &a[1]
		switch {
		case x.Kind() == types.KindInt64 && y.Kind() == types.KindInt64:
			*dst = types.BoolValue(holds[cmp.Compare(x.Int64(), y.Int64())+1])
		case x.IsNaN() || y.IsNaN():
			*dst = types.BoolValue(ne)
		default:
			*dst = types.BoolValue(holds[types.Compare(*x, *y)+1])
		}
		return nil
	}
}

func intOp(f func(a, b int64) (int64, error)) evalToFunc {
	return func(dst *types.Value, a []types.Value, _ *types.Type) error {
		r, err := f(a[0].Int64(), a[1].Int64())
		if err != nil {
			return err
		}
		*dst = types.Int64Value(r)
		return nil
	}
}

func floatOp(f func(a, b float64) float64) evalToFunc {
	return func(dst *types.Value, a []types.Value, _ *types.Type) error {
		r := f(a[0].Float64(), a[1].Float64())
		if math.IsInf(r, 0) && !math.IsInf(a[0].Float64(), 0) && !math.IsInf(a[1].Float64(), 0) {
			return sqlerr.New(sqlerr.OutOfRange, "float64 overflow")
		}
		*dst = types.Float64Value(r)
		return nil
	}
}

func overflow(op string, a, b int64) error {
	return sqlerr.New(sqlerr.OutOfRange, "int64 overflow: %d %s %d", a, op, b)
}

func addInt(a, b int64) (int64, error) {
	r := a + b
	if (a >= 0) == (b >= 0) && (r >= 0) != (a >= 0) {
		return 0, overflow("+", a, b)
	}
	return r, nil
}

func subInt(a, b int64) (int64, error) {
	r := a - b
	if (a >= 0) != (b >= 0) && (r >= 0) != (a >= 0) {
		return 0, overflow("-", a, b)
	}
	return r, nil
}

func mulInt(a, b int64) (int64, error) {
	r := a * b
	if a != 0 && (r/a != b || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64)) {
		return 0, overflow("*", a, b)
	}
	return r, nil
}

func divInt(a, b int64) (int64, error) {
	if b == 0 {
		return 0, sqlerr.New(sqlerr.DivisionByZero, "division by zero: %d / 0", a)
	}
	if a == math.MinInt64 && b == -1 {
		return 0, overflow("/", a, b)
	}
	return a / b, nil
}

func modInt(a, b int64) (int64, error) {
	if b == 0 {
		return 0, sqlerr.New(sqlerr.DivisionByZero, "division by zero: MOD(%d, 0)", a)
	}
	if b == -1 {
		return 0, nil
	}
	return a % b, nil
}

func divide(dst *types.Value, a []types.Value, _ *types.Type) error {
	if a[1].Float64() == 0 {
		return sqlerr.New(sqlerr.DivisionByZero, "division by zero: %s / %s", a[0], a[1])
	}
	*dst = types.Float64Value(a[0].Float64() / a[1].Float64())
	return nil
}

func concatValues(a []types.Value, ret *types.Type) (types.Value, error) {
	n := 0
	for _, v := range a {
		n += len(v.Bytes())
	}
	b := make([]byte, 0, n)
	for _, v := range a {
		b = append(b, v.Bytes()...)
	}
	if ret.Kind == types.KindString {
		return types.StringBytesValue(b), nil
	}
	return types.BytesValue(b), nil
}
