package sql

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

// Mathematical functions (GoogleSQL "Mathematical functions"): sign,
// rounding, powers and logarithms, trigonometry, the SAFE_ arithmetic,
// IEEE_DIVIDE, GREATEST and LEAST, RANGE_BUCKET and RAND. DIV and MOD are
// operators (funcs_ops.go); the vector distances are in funcs_vector.go.
//
// As documented, INT64 arguments coerce to FLOAT64 wherever the result is
// FLOAT64 (ROUND, TRUNC, CEIL and FLOOR included); ABS, SIGN and the SAFE_
// arithmetic keep INT64. A domain error or an overflow on finite input is
// an OUT_OF_RANGE error; infinite and NaN input follows IEEE-754 instead.
func init() {
	Register("ABS",
		fixedTo(types.Int64, absInt, types.Int64),
		fixedTo(types.Float32, float32Fn(math.Abs), types.Float32),
		fixedTo(types.Float64, float64Fn(math.Abs), types.Float64))
	Register("SIGN",
		fixedTo(types.Int64, signInt, types.Int64),
		fixedTo(types.Float32, float32Fn(sign), types.Float32),
		fixedTo(types.Float64, float64Fn(sign), types.Float64))

	Register("ROUND",
		fixedTo(types.Float64, float64Fn(math.Round), types.Float64),
		fixed(types.Float64, roundDigits, types.Float64, types.Int64))
	Register("TRUNC",
		fixedTo(types.Float64, float64Fn(math.Trunc), types.Float64),
		fixed(types.Float64, truncDigits, types.Float64, types.Int64))
	Register("CEIL", fixedTo(types.Float64, float64Fn(math.Ceil), types.Float64))
	Register("CEILING", fixedTo(types.Float64, float64Fn(math.Ceil), types.Float64))
	Register("FLOOR", fixedTo(types.Float64, float64Fn(math.Floor), types.Float64))

	unary := []struct {
		name string
		f    func(float64) float64
		bad  func(float64) bool // finite arguments outside the domain
	}{
		{"SQRT", math.Sqrt, func(x float64) bool { return x < 0 }},
		{"CBRT", math.Cbrt, nil},
		{"EXP", math.Exp, nil},
		{"LN", math.Log, nonPositive},
		{"LOG10", math.Log10, nonPositive},
		{"ACOS", math.Acos, outsideUnit},
		{"ASIN", math.Asin, outsideUnit},
		{"ATAN", math.Atan, nil},
		{"ACOSH", math.Acosh, func(x float64) bool { return x < 1 }},
		{"ASINH", math.Asinh, nil},
		{"ATANH", math.Atanh, func(x float64) bool { return x <= -1 || x >= 1 }},
		{"COS", math.Cos, nil},
		{"COSH", math.Cosh, nil},
		{"SIN", math.Sin, nil},
		{"SINH", math.Sinh, nil},
		{"TAN", math.Tan, nil},
		{"TANH", math.Tanh, nil},
		{"COT", func(x float64) float64 { return math.Cos(x) / math.Sin(x) }, isZero},
		{"COTH", func(x float64) float64 { return 1 / math.Tanh(x) }, isZero},
		{"CSC", func(x float64) float64 { return 1 / math.Sin(x) }, isZero},
		{"CSCH", csch, isZero},
		{"SEC", func(x float64) float64 { return 1 / math.Cos(x) }, nil},
		{"SECH", func(x float64) float64 { return 1 / math.Cosh(x) }, nil},
	}
	for _, u := range unary {
		Register(u.name, fixedTo(types.Float64, checkedFn(u.name, u.f, u.bad), types.Float64))
	}
	Register("LOG",
		fixedTo(types.Float64, checkedFn("LOG", math.Log, nonPositive), types.Float64),
		fixed(types.Float64, logBase, types.Float64, types.Float64))
	Register("POW", fixed(types.Float64, pow, types.Float64, types.Float64))
	Register("POWER", fixed(types.Float64, pow, types.Float64, types.Float64))
	Register("ATAN2", fixed(types.Float64, func(a []types.Value, _ *types.Type) (types.Value, error) {
		return types.Float64Value(math.Atan2(a[0].Float64(), a[1].Float64())), nil
	}, types.Float64, types.Float64))

	Register("IEEE_DIVIDE",
		fixed(types.Float32, func(a []types.Value, _ *types.Type) (types.Value, error) {
			return types.Float32Value(float32(a[0].Float64()) / float32(a[1].Float64())), nil
		}, types.Float32, types.Float32),
		fixed(types.Float64, func(a []types.Value, _ *types.Type) (types.Value, error) {
			return types.Float64Value(a[0].Float64() / a[1].Float64()), nil
		}, types.Float64, types.Float64))
	Register("IS_INF", fixed(types.Bool, func(a []types.Value, _ *types.Type) (types.Value, error) {
		return types.BoolValue(math.IsInf(a[0].Float64(), 0)), nil
	}, types.Float64))
	Register("IS_NAN", fixed(types.Bool, func(a []types.Value, _ *types.Type) (types.Value, error) {
		return types.BoolValue(math.IsNaN(a[0].Float64())), nil
	}, types.Float64))
	Register("RAND", fixed(types.Float64, func([]types.Value, *types.Type) (types.Value, error) {
		return types.Float64Value(rand.Float64()), nil
	}))
	Lookup("RAND").Volatile = true
}

// The SAFE_ arithmetic: the operator's result, or NULL where the operator
// fails (overflow, division by zero).
func init() {
	Register("SAFE_ADD",
		fixed(types.Int64, safeInt(addInt), types.Int64, types.Int64),
		fixed(types.Float64, safeFloat(func(x, y float64) float64 { return x + y }), types.Float64, types.Float64))
	Register("SAFE_SUBTRACT",
		fixed(types.Int64, safeInt(subInt), types.Int64, types.Int64),
		fixed(types.Float64, safeFloat(func(x, y float64) float64 { return x - y }), types.Float64, types.Float64))
	Register("SAFE_MULTIPLY",
		fixed(types.Int64, safeInt(mulInt), types.Int64, types.Int64),
		fixed(types.Float64, safeFloat(func(x, y float64) float64 { return x * y }), types.Float64, types.Float64))
	Register("SAFE_DIVIDE", fixed(types.Float64, func(a []types.Value, ret *types.Type) (types.Value, error) {
		if a[1].Float64() == 0 {
			return types.NullOf(ret), nil
		}
		return safeFloat(func(x, y float64) float64 { return x / y })(a, ret)
	}, types.Float64, types.Float64))
	Register("SAFE_NEGATE",
		fixed(types.Int64, func(a []types.Value, ret *types.Type) (types.Value, error) {
			if a[0].Int64() == math.MinInt64 {
				return types.NullOf(ret), nil
			}
			return types.Int64Value(-a[0].Int64()), nil
		}, types.Int64),
		fixedTo(types.Float32, float32Fn(func(x float64) float64 { return -x }), types.Float32),
		fixedTo(types.Float64, float64Fn(func(x float64) float64 { return -x }), types.Float64))
}

// GREATEST, LEAST and RANGE_BUCKET take any orderable type.
func init() {
	for _, name := range []string{"GREATEST", "LEAST"} {
		Register(name, &Overload{Args: []*types.Type{nil}, Variadic: true,
			ArgTypes: func(args []*types.Type) []*types.Type { return commonTypes(args) },
			Result:   extremeResult(name), Eval: extreme(name == "GREATEST")})
	}
	Register("RANGE_BUCKET", &Overload{Args: []*types.Type{nil, nil}, ArgTypes: rangeBucketArgTypes,
		Result: rangeBucketResult, Eval: rangeBucket})
}

func absInt(dst *types.Value, a []types.Value, _ *types.Type) error {
	x := a[0].Int64()
	if x == math.MinInt64 {
		return sqlerr.New(sqlerr.OutOfRange, "int64 overflow: ABS(%d)", x)
	}
	if x < 0 {
		x = -x
	}
	*dst = types.Int64Value(x)
	return nil
}

func signInt(dst *types.Value, a []types.Value, _ *types.Type) error {
	x := a[0].Int64()
	s := int64(0)
	switch {
	case x > 0:
		s = 1
	case x < 0:
		s = -1
	}
	*dst = types.Int64Value(s)
	return nil
}

// sign is SIGN of a float: -1, 0 (for both zeros) or 1; NaN stays NaN.
func sign(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	case x == 0:
		return 0
	}
	return x
}

// float64Fn lifts f to a FLOAT64 function that cannot fail.
func float64Fn(f func(float64) float64) evalToFunc {
	return func(dst *types.Value, a []types.Value, _ *types.Type) error {
		*dst = types.Float64Value(f(a[0].Float64()))
		return nil
	}
}

// float32Fn lifts f to a FLOAT32 function that cannot fail.
func float32Fn(f func(float64) float64) evalToFunc {
	return func(dst *types.Value, a []types.Value, _ *types.Type) error {
		*dst = types.Float32Value(float32(f(a[0].Float64())))
		return nil
	}
}

// csch is 1/sinh(x), +0 (not -0) at -inf as documented.
func csch(x float64) float64 {
	if math.IsInf(x, 0) {
		return 0
	}
	return 1 / math.Sinh(x)
}

func nonPositive(x float64) bool { return x <= 0 }
func outsideUnit(x float64) bool { return x < -1 || x > 1 }
func isZero(x float64) bool      { return x == 0 }

// checkedFn lifts f to a FLOAT64 function that rejects finite arguments
// for which bad holds and finite arguments whose result overflows.
func checkedFn(name string, f func(float64) float64, bad func(float64) bool) evalToFunc {
	return func(dst *types.Value, a []types.Value, _ *types.Type) error {
		x := a[0].Float64()
		finite := !math.IsInf(x, 0) && !math.IsNaN(x)
		if finite && bad != nil && bad(x) {
			return domainError(name, x)
		}
		r := f(x)
		if finite && math.IsInf(r, 0) {
			return sqlerr.New(sqlerr.OutOfRange, "float64 overflow: %s", callText(name, x))
		}
		*dst = types.Float64Value(r)
		return nil
	}
}

func domainError(name string, args ...float64) error {
	switch name {
	case "SQRT":
		return sqlerr.New(sqlerr.OutOfRange, "argument to SQRT cannot be negative: %s", fmtFloat(args[0]))
	case "LN", "LOG", "LOG10":
		return sqlerr.New(sqlerr.OutOfRange, "argument to %s cannot be negative or zero: %s", name, fmtFloat(args[0]))
	}
	return sqlerr.New(sqlerr.OutOfRange, "floating point error in function: %s", callText(name, args...))
}

// callText renders NAME(x, y) for error messages.
func callText(name string, args ...float64) string {
	s := name + "("
	for i, x := range args {
		if i > 0 {
			s += ", "
		}
		s += fmtFloat(x)
	}
	return s + ")"
}

func fmtFloat(x float64) string { return types.Float64Value(x).String() }

// logBase is LOG(X, Y): the logarithm of X to base Y.
func logBase(a []types.Value, _ *types.Type) (types.Value, error) {
	x, y := a[0].Float64(), a[1].Float64()
	switch {
	case math.IsNaN(x) || math.IsNaN(y) || math.IsInf(y, 1):
		return types.Float64Value(math.NaN()), nil
	case !math.IsInf(x, 0) && x <= 0:
		return types.Value{}, domainError("LOG", x)
	case y <= 0 || y == 1:
		return types.Value{}, sqlerr.New(sqlerr.OutOfRange, "base of LOG cannot be negative, zero or one: %s", fmtFloat(y))
	}
	return types.Float64Value(math.Log(x) / math.Log(y)), nil
}

// pow is POW(X, Y): an error for a negative finite X with a non-integer Y,
// for 0 to a negative power, and on overflow.
func pow(a []types.Value, _ *types.Type) (types.Value, error) {
	x, y := a[0].Float64(), a[1].Float64()
	finite := !math.IsInf(x, 0) && !math.IsNaN(x) && !math.IsInf(y, 0) && !math.IsNaN(y)
	if finite && (x < 0 && y != math.Trunc(y) || x == 0 && y < 0) {
		return types.Value{}, domainError("POW", x, y)
	}
	r := math.Pow(x, y)
	if finite && math.IsInf(r, 0) {
		return types.Value{}, sqlerr.New(sqlerr.OutOfRange, "float64 overflow: %s", callText("POW", x, y))
	}
	return types.Float64Value(r), nil
}

// roundDigits is ROUND(X, N): halfway cases away from zero; N < 0 rounds
// digits left of the decimal point. A result that overflows is an error.
func roundDigits(a []types.Value, _ *types.Type) (types.Value, error) {
	x, n := a[0].Float64(), a[1].Int64()
	r := scaleRound(x, n, math.Round)
	if math.IsInf(r, 0) && !math.IsInf(x, 0) {
		return types.Value{}, sqlerr.New(sqlerr.OutOfRange, "float64 overflow: ROUND(%s, %d)", fmtFloat(x), n)
	}
	return types.Float64Value(r), nil
}

// truncDigits is TRUNC(X, N): like ROUND(X, N) but towards zero; it cannot
// overflow.
func truncDigits(a []types.Value, _ *types.Type) (types.Value, error) {
	return types.Float64Value(scaleRound(a[0].Float64(), a[1].Int64(), math.Trunc)), nil
}

// scaleRound applies the integer rounding f at 10^-n.
func scaleRound(x float64, n int64, f func(float64) float64) float64 {
	const maxDigits = 400 // past every float64 exponent
	switch {
	case math.IsInf(x, 0) || math.IsNaN(x) || x == 0:
		return x
	case n >= 0:
		// Above 2^52 a float64 has no fractional digits left to round.
		if n > maxDigits || math.Abs(x) >= 1<<52 {
			return x
		}
		p := math.Pow10(int(n))
		if math.IsInf(x*p, 0) {
			return x
		}
		return f(x*p) / p
	default:
		if n < -maxDigits {
			return math.Copysign(0, x)
		}
		p := math.Pow10(int(-n))
		if math.IsInf(p, 0) {
			return math.Copysign(0, x)
		}
		return f(x/p) * p
	}
}

func safeInt(f func(x, y int64) (int64, error)) func([]types.Value, *types.Type) (types.Value, error) {
	return func(a []types.Value, ret *types.Type) (types.Value, error) {
		r, err := f(a[0].Int64(), a[1].Int64())
		if err != nil {
			return types.NullOf(ret), nil
		}
		return types.Int64Value(r), nil
	}
}

func safeFloat(f func(x, y float64) float64) func([]types.Value, *types.Type) (types.Value, error) {
	return func(a []types.Value, ret *types.Type) (types.Value, error) {
		x, y := a[0].Float64(), a[1].Float64()
		r := f(x, y)
		if math.IsInf(r, 0) && !math.IsInf(x, 0) && !math.IsInf(y, 0) {
			return types.NullOf(ret), nil
		}
		return types.Float64Value(r), nil
	}
}

// commonTypes returns the supertype of GREATEST's or LEAST's arguments for
// each of them, judged from the types alone: numeric types widen (INT64
// and FLOAT32 to FLOAT64); an INT64 (the NULL literal's type) or a STRING
// (a literal that may coerce to DATE, TIMESTAMP or BYTES) gives way to the
// other type. Coercion then rejects the arguments that cannot convert.
func commonTypes(args []*types.Type) []*types.Type {
	var t *types.Type
	for _, a := range args {
		switch {
		case t == nil || t.Equal(a):
			t = a
		case t.IsNumeric() && a.IsNumeric():
			t = types.Float64
		case t.Kind == types.KindInt64 || t.Kind == types.KindString && a.Kind != types.KindInt64:
			t = a
		}
	}
	out := make([]*types.Type, len(args))
	for i := range out {
		out[i] = t
	}
	return out
}

func orderable(t *types.Type) bool { return t.IsScalar() }

func extremeResult(name string) func([]*types.Type) (*types.Type, error) {
	return func(args []*types.Type) (*types.Type, error) {
		if len(args) == 0 {
			return nil, fmt.Errorf("%s needs at least one argument", name)
		}
		for _, a := range args[1:] {
			if !a.Equal(args[0]) {
				return nil, fmt.Errorf("%s arguments have no common supertype: %s, %s", name, args[0], a)
			}
		}
		if !orderable(args[0]) {
			return nil, fmt.Errorf("%s is not defined for %s: the type does not support ordering", name, args[0])
		}
		return args[0], nil
	}
}

// extreme returns GREATEST (max) or LEAST: NaN if any argument is NaN,
// otherwise the extreme value in ORDER BY order.
func extreme(greatest bool) func([]types.Value, *types.Type) (types.Value, error) {
	return func(a []types.Value, _ *types.Type) (types.Value, error) {
		best := a[0]
		for _, v := range a {
			if v.IsNaN() {
				return v, nil
			}
			if c := types.Compare(v, best); greatest && c > 0 || !greatest && c < 0 {
				best = v
			}
		}
		return best, nil
	}
}

// rangeBucketArgTypes coerces an INT64 point (or the NULL literal) to the
// array's element type: INT64 meets an ARRAY<FLOAT64>, NULL any array.
func rangeBucketArgTypes(args []*types.Type) []*types.Type {
	if args[0].Kind == types.KindInt64 && args[1].Kind == types.KindArray {
		return []*types.Type{args[1].Elem, nil}
	}
	return []*types.Type{nil, nil}
}

func rangeBucketResult(args []*types.Type) (*types.Type, error) {
	if args[1].Kind != types.KindArray || !args[1].Elem.Equal(args[0]) {
		return nil, fmt.Errorf("RANGE_BUCKET expects a point and an array of the same type, got %s, %s", args[0], args[1])
	}
	if !orderable(args[0]) {
		return nil, fmt.Errorf("RANGE_BUCKET is not defined for %s: the type does not support ordering", args[0])
	}
	return types.Int64, nil
}

// rangeBucket returns the number of boundaries <= point, checking that the
// boundaries are sorted and hold no NULL or NaN. A NaN point gives NULL.
func rangeBucket(a []types.Value, ret *types.Type) (types.Value, error) {
	point, bounds := a[0], a[1].Elems()
	if point.IsNaN() {
		return types.NullOf(ret), nil
	}
	n := 0
	for i, b := range bounds {
		switch {
		case b.IsNull():
			return types.Value{}, sqlerr.New(sqlerr.OutOfRange, "elements in the array of RANGE_BUCKET cannot be NULL")
		case b.IsNaN():
			return types.Value{}, sqlerr.New(sqlerr.OutOfRange, "elements in the array of RANGE_BUCKET cannot be NaN")
		case i > 0 && types.Compare(bounds[i-1], b) > 0:
			return types.Value{}, sqlerr.New(sqlerr.OutOfRange, "elements in the array of RANGE_BUCKET must be in ascending order")
		}
		if types.Compare(b, point) <= 0 {
			n = i + 1
		}
	}
	return types.Int64Value(int64(n)), nil
}
