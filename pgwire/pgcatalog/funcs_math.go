package pgcatalog

import (
	"math"
	"math/rand/v2"
)

// Mathematical functions, for PostgreSQL-dialect queries over Shale's
// tables: Grafana's time-bucketing macro expands to
// floor(extract(epoch from ts)/300)*300. numeric arguments compute
// exactly (numeric.go, numeric_transcendental.go); double precision ones
// use Go's math package, whose exp, ln, power and trigonometric functions
// can differ from glibc's (which PostgreSQL calls on Linux) in the last
// digit. Errors are PostgreSQL 15's.

func init() {
	for _, name := range []string{"floor", "ceil", "ceiling"} {
		up := name != "floor"
		f := map[bool]func(float64) float64{false: math.Floor, true: math.Ceil}[up]
		register(name, &builtin{min: 1, args: []uint32{tNumeric}, retFn: floatOrNumeric, fn: func(_ *evaluator, a []Value, t []uint32) (Value, error) {
			if floatOrNumeric(t) == tFloat8 {
				return floatV(f(num(a[0]))), nil
			}
			n, err := numericOf(a[0])
			if err != nil {
				return null, err
			}
			return numericV(n.floorCeil(up)), nil
		}})
	}
	for _, name := range []string{"round", "trunc"} {
		trunc := name == "trunc"
		register(name, &builtin{min: 1, max: 2, args: []uint32{tNumeric, tInt4}, retFn: roundType, fn: func(_ *evaluator, a []Value, t []uint32) (Value, error) {
			if roundType(t) == tFloat8 { // round(float8) rounds as rint does
				if trunc {
					return floatV(math.Trunc(num(a[0]))), nil
				}
				return floatV(math.RoundToEven(num(a[0]))), nil
			}
			n, err := numericOf(a[0])
			if err != nil {
				return null, err
			}
			return numericV(n.round(int32(max(min(places(a), maxNumericScale), -maxNumericScale)), trunc)), nil
		}})
	}
	register("abs", &builtin{min: 1, args: []uint32{tNumeric}, retFn: sameAsFirst, fn: func(_ *evaluator, a []Value, t []uint32) (Value, error) {
		switch a[0].k {
		case kInt:
			switch {
			case a[0].i == math.MinInt64:
				return null, errorf(CodeOutOfRange, noPos, "bigint out of range")
			case t[0] == tInt4 && a[0].i == math.MinInt32:
				return null, errorf(CodeOutOfRange, noPos, "integer out of range")
			case t[0] == tInt2 && a[0].i == math.MinInt16:
				return null, errorf(CodeOutOfRange, noPos, "smallint out of range")
			}
			return intV(max(a[0].i, -a[0].i)), nil
		case kNumeric:
			n, err := numericOf(a[0])
			if err != nil {
				return null, err
			}
			return numericV(n.abs()), nil
		}
		return floatV(math.Abs(num(a[0]))), nil
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
	register("sqrt", &builtin{min: 1, args: []uint32{tNumeric}, retFn: floatOrNumeric, fn: func(_ *evaluator, a []Value, t []uint32) (Value, error) {
		if num(a[0]) < 0 {
			return null, errorf("2201F", noPos, "cannot take square root of a negative number")
		}
		if floatOrNumeric(t) == tFloat8 {
			return floatV(math.Sqrt(num(a[0]))), nil
		}
		n, err := numericOf(a[0])
		if err != nil {
			return null, err
		}
		return numericV(n.sqrt(n.sqrtScale())), nil
	}})
	register("cbrt", mathFloat(math.Cbrt))
	register("exp", numericOrFloat(floatExp, (*numeric).exp))
	register("ln", numericOrFloat(func(x float64) (float64, error) { return logarithm(x, false) }, (*numeric).ln))
	log10 := func(n *numeric) (*numeric, error) { return n.log(numericFromInt(10)) }
	register("log10", numericOrFloat(func(x float64) (float64, error) { return logarithm(x, true) }, log10))
	register("log", &builtin{min: 1, max: 2, args: []uint32{tNumeric}, retFn: logType, fn: func(_ *evaluator, a []Value, t []uint32) (Value, error) {
		if len(a) == 1 && floatOrNumeric(t) == tFloat8 {
			x, err := logarithm(num(a[0]), true)
			return floatV(x), err
		}
		base, x := numericFromInt(10), a[0]
		if len(a) == 2 {
			b, err := numericOf(a[0])
			if err != nil {
				return null, err
			}
			base, x = b, a[1]
		}
		n, err := numericOf(x)
		if err != nil {
			return null, err
		}
		l, err := n.log(base)
		if err != nil {
			return null, err
		}
		return numericV(l), nil
	}})
	for _, name := range []string{"power", "pow"} {
		register(name, &builtin{min: 2, args: []uint32{tNumeric}, retFn: powerType, fn: func(_ *evaluator, a []Value, t []uint32) (Value, error) {
			x, y := num(a[0]), num(a[1])
			if x == 0 && y < 0 {
				return null, errorf("2201F", noPos, "zero raised to a negative power is undefined")
			}
			if x < 0 && y != math.Trunc(y) {
				return null, errorf("2201F", noPos, "a negative number raised to a non-integer power yields a complex result")
			}
			if powerType(t) == tFloat8 {
				p, err := floatPow(x, y)
				return floatV(p), err
			}
			base, exp, err := numericPair(a[0], a[1])
			if err != nil {
				return null, err
			}
			var p *numeric
			if y == math.Trunc(y) && math.Abs(y) <= math.MaxInt32 && exp.round(0, true).cmp(exp) == 0 {
				p, err = base.powInt(int64(y))
			} else {
				p, err = base.powFrac(exp)
			}
			if err != nil {
				return null, err
			}
			return numericV(p), nil
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
			if arithType(t[0], t[1]) == tNumeric {
				return numericBinary("%", a[0], a[1])
			}
			if num(a[1]) == 0 {
				return null, errorf(CodeDivisionByZero, noPos, "division by zero")
			}
			return floatV(math.Mod(num(a[0]), num(a[1]))), nil
		}})
	register("pi", constFn(tFloat8, func(*evaluator) Value { return floatV(math.Pi) }))
	register("random", constFn(tFloat8, func(*evaluator) Value { return floatV(rand.Float64()) }))
	// As float8_div and float8_mul: an infinite result of a finite
	// argument is an overflow, a zero one of a nonzero argument an
	// underflow.
	register("degrees", floatFn(func(x float64) (float64, error) {
		v, err := floatResult(x/radiansPerDegree, math.IsInf(x, 0), x == 0)
		return v.f, err
	}))
	register("radians", floatFn(func(x float64) (float64, error) {
		v, err := floatResult(x*radiansPerDegree, math.IsInf(x, 0), x == 0)
		return v.f, err
	}))
}

// num is a number as a float64.
func num(v Value) float64 {
	f, _ := v.asFloat()
	return f
}

// powerType is power's result type: numeric when either argument is and
// neither is a float (numeric converts to double precision implicitly, not
// the other way).
func powerType(t []uint32) uint32 {
	if (t[0] == tNumeric || t[1] == tNumeric) && !isFloatType(t[0]) && !isFloatType(t[1]) {
		return tNumeric
	}
	return tFloat8
}

func isFloatType(t uint32) bool { return t == tFloat4 || t == tFloat8 }

// logType is log's result type: log(b, x) has only a numeric form.
func logType(t []uint32) uint32 {
	if len(t) == 2 {
		return tNumeric
	}
	return floatOrNumeric(t)
}

// roundType is round's and trunc's result type: double precision for a
// double without places (the only form PostgreSQL has for it), else
// numeric.
func roundType(t []uint32) uint32 {
	if len(t) == 1 {
		return floatOrNumeric(t)
	}
	return tNumeric
}

// floatOrNumeric is the result type of a function PostgreSQL has in a
// double precision and a numeric form: numeric for a numeric argument;
// for any other number double precision, the preferred type integers
// convert to (sqrt(16) is a double, sqrt(16.0) a numeric).
func floatOrNumeric(t []uint32) uint32 {
	if t[0] == tNumeric {
		return tNumeric
	}
	return tFloat8
}

// numericOrFloat is a function PostgreSQL has for double precision (f)
// and for numeric (n); the argument's type picks one, as floatOrNumeric
// says.
func numericOrFloat(f func(float64) (float64, error), n func(*numeric) (*numeric, error)) *builtin {
	return &builtin{min: 1, args: []uint32{tNumeric}, retFn: floatOrNumeric, fn: func(_ *evaluator, a []Value, t []uint32) (Value, error) {
		if floatOrNumeric(t) == tNumeric {
			x, err := numericOf(a[0])
			if err != nil {
				return null, err
			}
			r, err := n(x)
			if err != nil {
				return null, err
			}
			return numericV(r), nil
		}
		x, err := f(num(a[0]))
		if err != nil {
			return null, err
		}
		return floatV(x), nil
	}}
}

// mathFloat is a function of one number that returns double precision.
func mathFloat(f func(float64) float64) *builtin { return floatFn(everywhere(f)) }

// floatExp is exp of a double, as dexp: an infinite or zero result of a
// finite argument is out of range.
func floatExp(x float64) (float64, error) {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return math.Exp(x), nil
	}
	v, err := floatResult(math.Exp(x), false, false)
	return v.f, err
}

// floatPow is power of doubles whose domain the caller checked, as dpow:
// NaN ^ 0 and 1 ^ NaN are 1; an infinite result of finite arguments is an
// overflow, a zero one of a nonzero base an underflow.
func floatPow(x, y float64) (float64, error) {
	switch {
	case math.IsNaN(x) && y == 0, math.IsNaN(y) && x == 1:
		return 1, nil
	case math.IsNaN(x) || math.IsNaN(y):
		return math.NaN(), nil
	case math.IsInf(x, 0) || math.IsInf(y, 0):
		return math.Pow(x, y), nil
	}
	v, err := floatResult(math.Pow(x, y), false, x == 0)
	return v.f, err
}

// logarithm is ln x, or log10 x (base10), refusing zero and negative x.
func logarithm(x float64, base10 bool) (float64, error) {
	switch {
	case x == 0:
		return 0, errorf("2201E", noPos, "cannot take logarithm of zero")
	case x < 0:
		return 0, errorf("2201E", noPos, "cannot take logarithm of a negative number")
	}
	if base10 {
		return math.Log10(x), nil
	}
	return math.Log(x), nil
}

// places is round's and trunc's second argument, 0 when absent.
func places(a []Value) int64 {
	if len(a) > 1 {
		return a[1].i
	}
	return 0
}
