package pgcatalog

import "math"

// Trigonometric and hyperbolic functions of double precision, as
// PostgreSQL 15's float.c computes them: the degree variants (sind,
// cosd...) reduce the angle to the first quadrant and scale by constants
// so that 30, 45, 60 and 90 degrees give exact results; an infinite angle,
// or an inverse function's argument outside its domain, is 22003 "input is
// out of range". The functions PostgreSQL takes from the C library are Go's
// math package's, which can differ from glibc's in the last digit.

func init() {
	register("sin", floatFn(periodic(math.Sin)))
	register("cos", floatFn(periodic(math.Cos)))
	register("tan", floatFn(periodic(math.Tan)))
	register("cot", floatFn(periodic(func(x float64) float64 { return 1 / math.Tan(x) })))
	register("asin", floatFn(unitDomain(math.Asin)))
	register("acos", floatFn(unitDomain(math.Acos)))
	register("atan", floatFn(everywhere(math.Atan)))
	register("atan2", &builtin{min: 2, args: []uint32{tFloat8}, ret: tFloat8, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		return floatV(math.Atan2(num(a[0]), num(a[1]))), nil
	}})
	register("sind", floatFn(degreeFn(func(x float64) float64 {
		sign := 1.0
		if x > 180 { // sind(360-x) = -sind(x)
			x, sign = 360-x, -1
		}
		if x > 90 { // sind(180-x) = sind(x)
			x = 180 - x
		}
		return sign * sindQ1(x)
	}, true)))
	register("cosd", floatFn(degreeFn(func(x float64) float64 {
		sign := 1.0
		if x > 180 { // cosd(360-x) = cosd(x)
			x = 360 - x
		}
		if x > 90 { // cosd(180-x) = -cosd(x)
			x, sign = 180-x, -1
		}
		return sign * cosdQ1(x)
	}, false)))
	register("tand", floatFn(noMinusZero(degreeFn(func(x float64) float64 {
		return tanLike(x, func(x float64) float64 { return sindQ1(x) / cosdQ1(x) / tan45 })
	}, true))))
	register("cotd", floatFn(noMinusZero(degreeFn(func(x float64) float64 {
		return tanLike(x, func(x float64) float64 { return cosdQ1(x) / sindQ1(x) / cot45 })
	}, true))))
	register("asind", floatFn(unitDomain(func(x float64) float64 {
		if x >= 0 {
			return asindQ1(x)
		}
		return -asindQ1(-x)
	})))
	register("acosd", floatFn(unitDomain(func(x float64) float64 {
		if x >= 0 {
			return acosdQ1(x)
		}
		return 90 + asindQ1(-x)
	})))
	register("atand", floatFn(everywhere(func(x float64) float64 { return math.Atan(x) / atan1 * 45 })))
	register("atan2d", &builtin{min: 2, args: []uint32{tFloat8}, ret: tFloat8, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		return floatV(math.Atan2(num(a[0]), num(a[1])) / atan1 * 45), nil
	}})
	register("sinh", floatFn(everywhere(math.Sinh)))
	register("cosh", floatFn(everywhere(math.Cosh)))
	register("tanh", floatFn(everywhere(math.Tanh)))
	register("asinh", floatFn(everywhere(math.Asinh)))
	register("acosh", floatFn(func(x float64) (float64, error) {
		if x < 1 {
			return 0, errInputRange()
		}
		return math.Acosh(x), nil
	}))
	register("atanh", floatFn(func(x float64) (float64, error) {
		if x < -1 || x > 1 {
			return 0, errInputRange()
		}
		return math.Atanh(x), nil
	}))
}

// The scaling constants of the degree functions (float.c's
// init_degree_constants).
var (
	sin30         = math.Sin(30 * radiansPerDegree)
	oneMinusCos60 = 1 - math.Cos(60*radiansPerDegree)
	asin05        = math.Asin(0.5)
	acos05        = math.Acos(0.5)
	atan1         = math.Atan(1)
	tan45         = sindQ1(45) / cosdQ1(45)
	cot45         = cosdQ1(45) / sindQ1(45)
)

// radiansPerDegree is a variable so that the constants above, like the
// arguments at run time, multiply by it in double precision (a constant
// expression would be exact).
var radiansPerDegree = 0.0174532925199432957692

// floatFn is a function of one double precision that may fail.
func floatFn(f func(float64) (float64, error)) *builtin {
	return &builtin{min: 1, args: []uint32{tFloat8}, ret: tFloat8, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		x, err := f(num(a[0]))
		if err != nil {
			return null, err
		}
		return floatV(x), nil
	}}
}

func errInputRange() *Error { return errorf(CodeOutOfRange, noPos, "input is out of range") }

// everywhere is a function defined for every double.
func everywhere(f func(float64) float64) func(float64) (float64, error) {
	return func(x float64) (float64, error) { return f(x), nil }
}

// periodic is sin, cos, tan or cot: NaN for NaN, and out of range for an
// infinite argument.
func periodic(f func(float64) float64) func(float64) (float64, error) {
	return func(x float64) (float64, error) {
		if math.IsInf(x, 0) {
			return 0, errInputRange()
		}
		return f(x), nil
	}
}

// unitDomain is an inverse sine or cosine, defined on [-1, 1].
func unitDomain(f func(float64) float64) func(float64) (float64, error) {
	return func(x float64) (float64, error) {
		if x < -1 || x > 1 {
			return 0, errInputRange()
		}
		return f(x), nil
	}
}

// degreeFn is a degree function given an angle reduced to [0, 360) (odd:
// f(-x) = -f(x), else f(-x) = f(x)).
func degreeFn(f func(float64) float64, odd bool) func(float64) (float64, error) {
	return periodic(func(x float64) float64 {
		if math.IsNaN(x) {
			return x
		}
		x = math.Mod(x, 360)
		sign := 1.0
		if x < 0 {
			x = -x
			if odd {
				sign = -1
			}
		}
		return sign * f(x)
	})
}

// tanLike is tand or cotd of x in [0, 360), from q, its value in the
// first quadrant: both are odd about 180 and 90 degrees.
func tanLike(x float64, q func(float64) float64) float64 {
	sign := 1.0
	if x > 180 {
		x, sign = 360-x, -sign
	}
	if x > 90 {
		x, sign = 180-x, -sign
	}
	return sign * q(x)
}

// noMinusZero makes tand's and cotd's zeros plain zeros (tand(180),
// cotd(270)), as PostgreSQL does.
func noMinusZero(f func(float64) (float64, error)) func(float64) (float64, error) {
	return func(x float64) (float64, error) {
		r, err := f(x)
		if r == 0 {
			r = 0
		}
		return r, err
	}
}

func sind0to30(x float64) float64 { return float64(math.Sin(x*radiansPerDegree)/sin30) / 2 }

func cosd0to60(x float64) float64 {
	return 1 - float64(float64(1-math.Cos(x*radiansPerDegree))/oneMinusCos60)/2
}

func sindQ1(x float64) float64 {
	if x <= 30 {
		return sind0to30(x)
	}
	return cosd0to60(90 - x)
}

func cosdQ1(x float64) float64 {
	if x <= 60 {
		return cosd0to60(x)
	}
	return sind0to30(90 - x)
}

func asindQ1(x float64) float64 {
	if x <= 0.5 {
		return math.Asin(x) / asin05 * 30
	}
	return 90 - math.Acos(x)/acos05*60
}

func acosdQ1(x float64) float64 {
	if x <= 0.5 {
		return 90 - math.Asin(x)/asin05*30
	}
	return math.Acos(x) / acos05 * 60
}
