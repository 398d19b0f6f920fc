package pgcatalog

import (
	"math"
	"math/big"
	"strconv"
	"strings"
)

// numeric is PostgreSQL's numeric: an exact decimal, unscaled × 10^-scale,
// whose scale is part of the value ('1.50' keeps two places, as its
// display scale does in PostgreSQL), or NaN. A Value holds it as its
// canonical text (kNumeric): statements over the catalog and Shale's tables
// compute with few numerics, so reading them back is cheaper than carrying
// a big.Int in every Value.
type numeric struct {
	unscaled big.Int
	scale    int32
	nan      bool
}

// maxNumericScale bounds the display scale, as NUMERIC_MAX_DISPLAY_SCALE
// does.
const maxNumericScale = 1000

// maxNumericWeightDigits bounds the digits before the point (131072 in
// PostgreSQL).
const maxNumericWeightDigits = 131072

// minSignificantDigits is the least number of significant digits a
// quotient gets (NUMERIC_MIN_SIG_DIGITS).
const minSignificantDigits = 16

func numericV(n *numeric) Value { return Value{k: kNumeric, s: n.String()} }

// parseNumeric reads numeric input: [+-]digits[.digits][e[+-]digits] with
// white space around, or NaN in any case.
func parseNumeric(s string) (*numeric, error) {
	in := strings.TrimSpace(s)
	bad := errorf(CodeInvalidText, noPos, "invalid input syntax for type numeric: \"%s\"", s)
	if strings.EqualFold(in, "nan") {
		return &numeric{nan: true}, nil
	}
	mant, exp := in, int64(0)
	if i := strings.IndexAny(in, "eE"); i >= 0 {
		e, err := strconv.ParseInt(in[i+1:], 10, 32)
		if err != nil || i == 0 {
			return nil, bad
		}
		mant, exp = in[:i], e
	}
	neg := false
	if mant != "" && (mant[0] == '+' || mant[0] == '-') {
		neg, mant = mant[0] == '-', mant[1:]
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := intPart + frac
	if digits == "" || strings.Trim(digits, "0123456789") != "" {
		return nil, bad
	}
	n := &numeric{}
	n.unscaled.SetString(digits, 10)
	if neg {
		n.unscaled.Neg(&n.unscaled)
	}
	scale := int64(len(frac)) - exp
	if int64(len(intPart))+exp > maxNumericWeightDigits {
		return nil, errorf(CodeOutOfRange, noPos, "value overflows numeric format")
	}
	if scale < 0 {
		n.unscaled.Mul(&n.unscaled, pow10(int(-scale)))
		scale = 0
	}
	if scale > maxNumericScale {
		return nil, errorf(CodeOutOfRange, noPos, "value overflows numeric format")
	}
	n.scale = int32(scale)
	return n, nil
}

// numericFromInt is i as a numeric of scale 0.
func numericFromInt(i int64) *numeric {
	n := &numeric{}
	n.unscaled.SetInt64(i)
	return n
}

// numericFromFloat converts a double as float8_numeric does: to its 15
// significant digits (DBL_DIG), trailing zeros of the fraction dropped.
func numericFromFloat(f float64) (*numeric, error) {
	switch {
	case math.IsNaN(f):
		return &numeric{nan: true}, nil
	case math.IsInf(f, 0):
		return nil, errorf(CodeNotSupported, noPos, "cannot convert infinity to numeric")
	}
	return parseNumeric(strconv.FormatFloat(f, 'g', 15, 64))
}

// numericOf converts a value of a numeric kind (int, float, numeric, or
// text holding a number) to a numeric.
func numericOf(v Value) (*numeric, error) {
	switch v.k {
	case kInt:
		return numericFromInt(v.i), nil
	case kFloat:
		return numericFromFloat(v.f)
	case kBool:
		if v.b {
			return numericFromInt(1), nil
		}
		return numericFromInt(0), nil
	}
	return parseNumeric(v.s)
}

// numericPair converts two values as numericOf does.
func numericPair(x, y Value) (*numeric, *numeric, error) {
	a, err := numericOf(x)
	if err != nil {
		return nil, nil, err
	}
	b, err := numericOf(y)
	return a, b, err
}

func pow10(n int) *big.Int {
	return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
}

// String prints n with exactly its scale's digits after the point.
func (n *numeric) String() string {
	if n.nan {
		return "NaN"
	}
	digits := new(big.Int).Abs(&n.unscaled).String()
	sign := ""
	if n.unscaled.Sign() < 0 {
		sign = "-"
	}
	if n.scale == 0 {
		return sign + digits
	}
	if pad := int(n.scale) + 1 - len(digits); pad > 0 {
		digits = strings.Repeat("0", pad) + digits
	}
	cut := len(digits) - int(n.scale)
	return sign + digits[:cut] + "." + digits[cut:]
}

// trimmedScale is n with its trailing fractional zeros dropped: the
// smallest scale that holds it exactly (min_scale, trim_scale).
func (n *numeric) trimmedScale() *numeric {
	out := &numeric{scale: n.scale}
	out.unscaled.Set(&n.unscaled)
	ten, r := big.NewInt(10), new(big.Int)
	for out.scale > 0 {
		q, m := new(big.Int).QuoRem(&out.unscaled, ten, r)
		if m.Sign() != 0 {
			break
		}
		out.unscaled.Set(q)
		out.scale--
	}
	return out
}

// float is n as the nearest double.
func (n *numeric) float() float64 {
	if n.nan {
		return math.NaN()
	}
	f, _ := strconv.ParseFloat(n.String(), 64)
	return f
}

// rescaled is n's unscaled value at scale s ≥ n.scale.
func (n *numeric) rescaled(s int32) *big.Int {
	if s == n.scale {
		return new(big.Int).Set(&n.unscaled)
	}
	return new(big.Int).Mul(&n.unscaled, pow10(int(s-n.scale)))
}

// cmp orders two numerics; NaN equals itself and is above every number,
// as in PostgreSQL.
func (n *numeric) cmp(o *numeric) int {
	switch {
	case n.nan || o.nan:
		return boolCmp(n.nan, o.nan)
	}
	s := max(n.scale, o.scale)
	return n.rescaled(s).Cmp(o.rescaled(s))
}

func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// add is n + o (or n - o when sub is set), at the larger scale.
func (n *numeric) add(o *numeric, sub bool) *numeric {
	if n.nan || o.nan {
		return &numeric{nan: true}
	}
	s := max(n.scale, o.scale)
	out := &numeric{scale: s}
	if sub {
		out.unscaled.Sub(n.rescaled(s), o.rescaled(s))
	} else {
		out.unscaled.Add(n.rescaled(s), o.rescaled(s))
	}
	return out
}

// mul is n × o, whose scale is the sum of theirs.
func (n *numeric) mul(o *numeric) *numeric {
	if n.nan || o.nan {
		return &numeric{nan: true}
	}
	out := &numeric{scale: min(n.scale+o.scale, maxNumericScale)}
	out.unscaled.Mul(&n.unscaled, &o.unscaled)
	if n.scale+o.scale > maxNumericScale {
		return out.roundTo(maxNumericScale, n.scale+o.scale)
	}
	return out
}

// div is n / o at the scale PostgreSQL's select_div_scale picks: enough
// for 16 significant digits, and no fewer places than either operand has.
func (n *numeric) div(o *numeric) (*numeric, error) {
	if n.nan || o.nan {
		return &numeric{nan: true}, nil
	}
	if o.unscaled.Sign() == 0 {
		return nil, errorf(CodeDivisionByZero, noPos, "division by zero")
	}
	w1, d1 := n.leadingDigit()
	w2, d2 := o.leadingDigit()
	qweight := w1 - w2
	if d1 <= d2 {
		qweight--
	}
	scale := int32(minSignificantDigits - qweight*4)
	scale = max(scale, n.scale, o.scale, 0)
	scale = min(scale, maxNumericScale)
	return n.quotient(o, scale), nil
}

// quotient is n / o rounded half away from zero to scale places.
func (n *numeric) quotient(o *numeric, scale int32) *numeric {
	// n/o = n.u × 10^(o.scale - n.scale) / o.u; scaled by 10^scale.
	num, den := new(big.Int).Set(&n.unscaled), new(big.Int).Set(&o.unscaled)
	if e := int(o.scale) - int(n.scale) + int(scale); e >= 0 {
		num.Mul(num, pow10(e))
	} else {
		den.Mul(den, pow10(-e))
	}
	out := &numeric{scale: scale}
	out.unscaled.Set(roundedQuotient(num, den))
	return out
}

// roundedQuotient is num/den rounded half away from zero.
func roundedQuotient(num, den *big.Int) *big.Int {
	q, r := new(big.Int).QuoRem(num, den, new(big.Int))
	if r.Sign() != 0 {
		twice := new(big.Int).Abs(r)
		twice.Lsh(twice, 1)
		if twice.Cmp(new(big.Int).Abs(den)) >= 0 {
			if (num.Sign() < 0) != (den.Sign() < 0) {
				q.Sub(q, big.NewInt(1))
			} else {
				q.Add(q, big.NewInt(1))
			}
		}
	}
	return q
}

// leadingDigit is n's weight and first digit in PostgreSQL's base 10000:
// the position of its most significant group of four decimal digits
// (0 for the units group) and that group's value.
func (n *numeric) leadingDigit() (weight, digit int) {
	if n.unscaled.Sign() == 0 {
		return 0, 0
	}
	abs := new(big.Int).Abs(&n.unscaled).String()
	e := len(abs) - 1 - int(n.scale) // the decimal exponent of the leading digit
	weight = e / 4
	if e < 0 && e%4 != 0 {
		weight--
	}
	// The group spans decimal exponents 4·weight … 4·weight+3.
	lead := e - 4*weight + 1 // digits of the group present at its top
	group := abs[:min(lead, len(abs))]
	digit, _ = strconv.Atoi(group + strings.Repeat("0", lead-len(group)))
	return weight, digit
}

// mod is n - trunc(n/o)·o at the larger scale, as PostgreSQL's numeric %.
func (n *numeric) mod(o *numeric) (*numeric, error) {
	if n.nan || o.nan {
		return &numeric{nan: true}, nil
	}
	if o.unscaled.Sign() == 0 {
		return nil, errorf(CodeDivisionByZero, noPos, "division by zero")
	}
	s := max(n.scale, o.scale)
	out := &numeric{scale: s}
	out.unscaled.Rem(n.rescaled(s), o.rescaled(s))
	return out, nil
}

// round rounds n to places digits after the point, half away from zero
// (places < 0 rounds to tens, hundreds...); the result's scale is
// max(places, 0). With trunc set it truncates instead.
func (n *numeric) round(places int32, trunc bool) *numeric {
	if n.nan {
		return n
	}
	places = min(places, maxNumericScale)
	if places >= n.scale {
		out := &numeric{scale: places}
		out.unscaled.Set(n.rescaled(places))
		return out
	}
	if trunc {
		out := &numeric{scale: max(places, 0)}
		out.unscaled.Quo(&n.unscaled, pow10(int(n.scale-places)))
		if places < 0 {
			out.unscaled.Mul(&out.unscaled, pow10(int(-places)))
		}
		return out
	}
	out := n.roundTo(places, n.scale)
	if places < 0 {
		out.unscaled.Mul(&out.unscaled, pow10(int(-places)))
		out.scale = 0
	}
	return out
}

// roundTo rounds n's unscaled value, read at scale from, to scale to (<
// from), half away from zero.
func (n *numeric) roundTo(to, from int32) *numeric {
	out := &numeric{scale: to}
	out.unscaled.Set(roundedQuotient(&n.unscaled, pow10(int(from-to))))
	return out
}

// floorCeil rounds n down (floor) or up to an integer.
func (n *numeric) floorCeil(up bool) *numeric {
	if n.nan || n.scale == 0 {
		return n
	}
	out := &numeric{}
	q, r := new(big.Int).QuoRem(&n.unscaled, pow10(int(n.scale)), new(big.Int))
	if r.Sign() != 0 && (r.Sign() > 0) == up {
		if up {
			q.Add(q, big.NewInt(1))
		} else {
			q.Sub(q, big.NewInt(1))
		}
	}
	out.unscaled.Set(q)
	return out
}

// sqrt is n's square root (n ≥ 0) rounded half up to scale places.
func (n *numeric) sqrt(scale int32) *numeric {
	if n.nan {
		return n
	}
	// floor(sqrt(n) · 10^(scale+1)) = isqrt(n.unscaled · 10^(2·scale+2−n.scale)).
	x := new(big.Int).Set(&n.unscaled)
	if e := 2*int(scale) + 2 - int(n.scale); e >= 0 {
		x.Mul(x, pow10(e))
	} else {
		x.Quo(x, pow10(-e))
	}
	root := new(big.Int).Sqrt(x)
	out := &numeric{scale: scale}
	out.unscaled.Set(roundedQuotient(root, big.NewInt(10)))
	return out
}

// sqrtScale is the scale numeric_sqrt gives its result: enough for 16
// significant digits, and no fewer places than the argument has.
func (n *numeric) sqrtScale() int32 {
	w, _ := n.leadingDigit()
	sweight := (w+1)*4/2 - 1
	return min(max(int32(minSignificantDigits-sweight), n.scale, 0), maxNumericScale)
}

// powInt is n raised to the integer e at the scale PostgreSQL's power_var
// picks for an integer exponent: 16 places, or the base's if it has more.
// The power is exact before it is rounded.
func (n *numeric) powInt(e int64) (*numeric, error) {
	if n.nan {
		return n, nil
	}
	scale := min(max(int32(minSignificantDigits), n.scale), maxNumericScale)
	if e == 0 {
		return numericFromInt(1).round(scale, false), nil
	}
	f := float64(e) * math.Log10(math.Abs(n.float()))
	if n.unscaled.Sign() == 0 {
		f = 0
	}
	overflow := errorf(CodeOutOfRange, noPos, "value overflows numeric format")
	digits := len(new(big.Int).Abs(&n.unscaled).String())
	if f > maxNumericWeightDigits || float64(digits)*math.Abs(float64(e)) > 200_000 {
		return nil, overflow
	}
	abs := e
	if abs < 0 {
		abs = -abs
	}
	p := &numeric{scale: n.scale * int32(abs)}
	p.unscaled.Exp(&n.unscaled, big.NewInt(abs), nil)
	if e < 0 {
		return numericFromInt(1).quotient(p, scale), nil
	}
	return p.round(scale, false), nil
}

// neg is -n.
func (n *numeric) neg() *numeric {
	out := &numeric{scale: n.scale, nan: n.nan}
	out.unscaled.Neg(&n.unscaled)
	return out
}

// abs is |n|.
func (n *numeric) abs() *numeric {
	out := &numeric{scale: n.scale, nan: n.nan}
	out.unscaled.Abs(&n.unscaled)
	return out
}

// integer is n rounded half away from zero to an int64, as numeric_int8
// does; ok is false for NaN and out-of-range values.
func (n *numeric) integer() (int64, bool) {
	if n.nan {
		return 0, false
	}
	r := n.round(0, false)
	return r.unscaled.Int64(), r.unscaled.IsInt64()
}

// numericArith applies + - * / % to two numerics.
func numericArith(op string, x, y *numeric) (*numeric, error) {
	switch op {
	case "+":
		return x.add(y, false), nil
	case "-":
		return x.add(y, true), nil
	case "*":
		return x.mul(y), nil
	case "/":
		return x.div(y)
	case "%":
		return x.mod(y)
	}
	return nil, errorf(CodeUndefinedFunc, noPos, "operator does not exist: numeric %s numeric", op)
}
