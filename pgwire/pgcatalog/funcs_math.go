package pgcatalog

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
)

// Mathematical functions, for PostgreSQL-dialect queries over Shale's
// tables: Grafana's time-bucketing macro expands to
// floor(extract(epoch from ts)/300)*300. numeric is float64 here, so
// numeric results keep no scale of their own (round(2.50, 1) prints 2.5).
// Errors are PostgreSQL 15's.

func init() {
	for _, name := range []string{"floor", "ceil", "ceiling"} {
		f := map[string]func(float64) float64{"floor": math.Floor, "ceil": math.Ceil, "ceiling": math.Ceil}[name]
		register(name, &builtin{min: 1, args: []uint32{tNumeric}, retFn: floatOrNumeric, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
			return floatV(f(num(a[0]))), nil
		}})
	}
	register("round", &builtin{min: 1, max: 2, args: []uint32{tNumeric, tInt4}, retFn: floatOrNumeric, fn: func(_ *evaluator, a []Value, t []uint32) (Value, error) {
		if len(a) == 1 && floatOrNumeric(t) == tFloat8 {
			return floatV(math.RoundToEven(num(a[0]))), nil // float8 rounds as rint does
		}
		return floatV(roundDecimal(num(a[0]), places(a), false)), nil
	}})
	register("trunc", &builtin{min: 1, max: 2, args: []uint32{tNumeric, tInt4}, retFn: floatOrNumeric, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		return floatV(roundDecimal(num(a[0]), places(a), true)), nil
	}})
	register("abs", &builtin{min: 1, args: []uint32{tNumeric}, retFn: sameAsFirst, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		if a[0].k == kInt {
			if a[0].i == math.MinInt64 {
				return null, errorf(CodeOutOfRange, noPos, "bigint out of range")
			}
			return intV(max(a[0].i, -a[0].i)), nil
		}
		return floatV(math.Abs(a[0].f)), nil
	}})
	register("sign", &builtin{min: 1, args: []uint32{tNumeric}, retFn: floatOrNumeric, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		x := num(a[0])
		switch {
		case x > 0:
			return floatV(1), nil
		case x < 0:
			return floatV(-1), nil
		}
		return floatV(0), nil
	}})
	register("sqrt", mathFn(func(x float64) (float64, error) {
		if x < 0 {
			return 0, errorf("2201F", noPos, "cannot take square root of a negative number")
		}
		return math.Sqrt(x), nil
	}))
	register("cbrt", mathFn(func(x float64) (float64, error) { return math.Cbrt(x), nil }))
	register("exp", mathFn(func(x float64) (float64, error) { return math.Exp(x), nil }))
	register("ln", mathFn(func(x float64) (float64, error) { return logarithm(x, math.Log) }))
	register("log10", mathFn(func(x float64) (float64, error) { return logarithm(x, math.Log10) }))
	register("log", &builtin{min: 1, max: 2, args: []uint32{tNumeric}, retFn: floatOrNumeric, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		if len(a) == 1 {
			x, err := logarithm(num(a[0]), math.Log10)
			return floatV(x), err
		}
		b, err := logarithm(num(a[0]), math.Log)
		if err != nil {
			return null, err
		}
		x, err := logarithm(num(a[1]), math.Log)
		if err != nil {
			return null, err
		}
		if b == 0 {
			return null, errorf(CodeDivisionByZero, noPos, "division by zero")
		}
		return floatV(x / b), nil
	}})
	for _, name := range []string{"power", "pow"} {
		register(name, &builtin{min: 2, args: []uint32{tNumeric}, retFn: floatOrNumeric, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
			x, y := num(a[0]), num(a[1])
			if x == 0 && y < 0 {
				return null, errorf("2201F", noPos, "zero raised to a negative power is undefined")
			}
			if x < 0 && y != math.Trunc(y) {
				return null, errorf("2201F", noPos, "a negative number raised to a non-integer power yields a complex result")
			}
			return floatV(math.Pow(x, y)), nil
		}})
	}
	register("mod", &builtin{min: 2, args: []uint32{tNumeric}, retFn: func(t []uint32) uint32 { return arithType(t[0], t[1]) },
		fn: func(_ *evaluator, a []Value, t []uint32) (Value, error) {
			if a[0].k == kInt && a[1].k == kInt {
				if a[1].i == 0 {
					return null, errorf(CodeDivisionByZero, noPos, "division by zero")
				}
				if a[1].i == -1 {
					return intV(0), nil
				}
				return intV(a[0].i % a[1].i), nil
			}
			if num(a[1]) == 0 {
				return null, errorf(CodeDivisionByZero, noPos, "division by zero")
			}
			return floatV(math.Mod(num(a[0]), num(a[1]))), nil
		}})
	register("pi", constFn(tFloat8, func(*evaluator) Value { return floatV(math.Pi) }))
	register("random", constFn(tFloat8, func(*evaluator) Value { return floatV(rand.Float64()) }))
	register("degrees", mathFloat(func(x float64) float64 { return x * 180 / math.Pi }))
	register("radians", mathFloat(func(x float64) float64 { return x * math.Pi / 180 }))
}

// num is a numeric value as a float64.
func num(v Value) float64 {
	if v.k == kInt {
		return float64(v.i)
	}
	return v.f
}

// floatOrNumeric: a function of double precision returns double precision;
// of anything else, numeric.
func floatOrNumeric(t []uint32) uint32 {
	if t[0] == tFloat8 || t[0] == tFloat4 {
		return tFloat8
	}
	return tNumeric
}

// mathFn is a function of one number, of its argument's kind (double
// precision or numeric).
func mathFn(f func(float64) (float64, error)) *builtin {
	return &builtin{min: 1, args: []uint32{tNumeric}, retFn: floatOrNumeric, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		x, err := f(num(a[0]))
		if err != nil {
			return null, err
		}
		return floatV(x), nil
	}}
}

// mathFloat is a function of one number that returns double precision.
func mathFloat(f func(float64) float64) *builtin {
	return &builtin{min: 1, args: []uint32{tFloat8}, ret: tFloat8, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		return floatV(f(num(a[0]))), nil
	}}
}

func logarithm(x float64, log func(float64) float64) (float64, error) {
	switch {
	case x == 0:
		return 0, errorf("2201E", noPos, "cannot take logarithm of zero")
	case x < 0:
		return 0, errorf("2201E", noPos, "cannot take logarithm of a negative number")
	}
	return log(x), nil
}

// places is round's and trunc's second argument, 0 when absent.
func places(a []Value) int64 {
	if len(a) > 1 {
		return a[1].i
	}
	return 0
}

// roundDecimal rounds x, read as its shortest decimal, to n decimal places
// (negative n: to tens, hundreds, ...): half away from zero as numeric's
// round does, or toward zero for trunc.
func roundDecimal(x float64, n int64, truncate bool) float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) || n > 300 || n < -300 {
		return x
	}
	r, ok := new(big.Rat).SetString(strconv.FormatFloat(x, 'g', -1, 64))
	if !ok {
		return x
	}
	scale := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(max(n, -n)), nil))
	if n >= 0 {
		r.Mul(r, scale)
	} else {
		r.Quo(r, scale)
	}
	q, rem := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int)) // toward zero
	if !truncate {
		// |rem| * 2 >= denom: away from zero.
		twice := new(big.Int).Mul(new(big.Int).Abs(rem), big.NewInt(2))
		if twice.Cmp(r.Denom()) >= 0 {
			q.Add(q, big.NewInt(int64(r.Sign())))
		}
	}
	out := new(big.Rat).SetInt(q)
	if n >= 0 {
		out.Quo(out, scale)
	} else {
		out.Mul(out, scale)
	}
	f, _ := out.Float64()
	return f
}
