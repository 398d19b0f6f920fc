package pgcatalog

import (
	"math"
	"math/big"
	"strings"

	"github.com/cockroachdb/apd/v3"
)

// numeric's ln, log, exp and power with a non-integer exponent, at the
// scales PostgreSQL 15's numeric.c gives them (numeric_ln, numeric_log,
// numeric_exp, power_var): enough places for 16 significant digits, and
// no fewer than an argument has. The values come from apd, which computes
// them correctly rounded to a precision we give; guard digits beyond the
// result's scale keep the final half-away-from-zero rounding to that scale
// the one that counts.

// guardDigits are the digits computed beyond the result's last place.
const guardDigits = 10

// toAPD is n as an apd decimal (n is not NaN), rounded to about sig
// significant digits when it has many more: a function of n computed to
// sig digits needs no more of its argument, and apd's arithmetic on a
// hundred-thousand-digit coefficient is slow.
func (n *numeric) toAPD(sig uint32) *apd.Decimal {
	unscaled, exp := &n.unscaled, -int64(n.scale)
	if extra := int64(float64(n.unscaled.BitLen())*math.Log10(2)) - int64(sig) - 2*guardDigits; extra > 0 {
		unscaled = roundedQuotient(unscaled, pow10(int(extra)))
		exp += extra
	}
	var coeff apd.BigInt
	coeff.SetMathBigInt(unscaled)
	return apd.NewWithBigInt(&coeff, int32(exp))
}

// numericFromAPD rounds d half away from zero to scale places.
func numericFromAPD(d *apd.Decimal, scale int32) *numeric {
	ctx := apd.BaseContext.WithPrecision(uint32(max(int64(d.NumDigits())+int64(d.Exponent)+int64(scale), 0) + 2))
	ctx.Rounding = apd.RoundHalfUp
	var q apd.Decimal
	ctx.Quantize(&q, d, -scale)
	out := &numeric{scale: scale}
	out.unscaled.Set(q.Coeff.MathBigInt())
	if q.Negative {
		out.unscaled.Neg(&out.unscaled)
	}
	return out
}

// lnDweight estimates the decimal weight of ln(n) as PostgreSQL's
// estimate_ln_dweight does: from x - 1 for x near 1, else from n's first
// two base-10000 digits.
func (n *numeric) lnDweight() int {
	if n.unscaled.Sign() <= 0 {
		return 0
	}
	if near := n.add(numericFromInt(1), true); n.cmp(&numeric{unscaled: *big.NewInt(9), scale: 1}) >= 0 &&
		n.cmp(&numeric{unscaled: *big.NewInt(11), scale: 1}) <= 0 {
		if near.unscaled.Sign() == 0 {
			return 0
		}
		w, d := near.abs().leadingDigit()
		return w*4 + int(math.Log10(float64(d)))
	}
	w, d0 := n.leadingDigit()
	digits, dweight := float64(d0), w*4
	if d1, more := n.secondDigit(w); more {
		digits, dweight = digits*10000+float64(d1), dweight-4
	}
	return int(math.Log10(math.Abs(math.Log(digits) + float64(dweight)*2.302585092994046)))
}

// secondDigit is the base-10000 digit after n's leading one (whose weight
// is w), and whether any nonzero digit follows the leading one.
func (n *numeric) secondDigit(w int) (int, bool) {
	abs := new(big.Int).Abs(&n.unscaled)
	// The digits below the leading group: abs mod 10^(4w+scale).
	low := 4*w + int(n.scale)
	if low <= 0 {
		return 0, false
	}
	rest := new(big.Int).Mod(abs, pow10(low))
	if rest.Sign() == 0 {
		return 0, false
	}
	// The next group spans decimal exponents 4(w-1) … 4w-1.
	if low < 4 {
		rest.Mul(rest, pow10(4-low))
		return int(rest.Int64()), true
	}
	return int(new(big.Int).Quo(rest, pow10(low-4)).Int64()), true
}

// clampScale bounds a result scale as numeric.c does.
func clampScale(s int) int32 {
	return int32(min(max(s, 0), maxNumericScale))
}

// logArgument checks a logarithm's argument.
func logArgument(n *numeric) error {
	switch n.unscaled.Sign() {
	case 0:
		return errorf("2201E", noPos, "cannot take logarithm of zero")
	case -1:
		return errorf("2201E", noPos, "cannot take logarithm of a negative number")
	}
	return nil
}

// ln is the natural logarithm of n.
func (n *numeric) ln() (*numeric, error) {
	if n.nan {
		return n, nil
	}
	if err := logArgument(n); err != nil {
		return nil, err
	}
	scale := clampScale(max(minSignificantDigits-n.lnDweight(), int(n.scale)))
	prec := uint32(scale) + 8 + guardDigits
	d, err := lnDigits(n.toAPD(prec), prec)
	if err != nil {
		return nil, err
	}
	return numericFromAPD(d, scale), nil
}

// log is the logarithm of n to base b.
func (n *numeric) log(b *numeric) (*numeric, error) {
	if n.nan || b.nan {
		return &numeric{nan: true}, nil
	}
	if err := logArgument(b); err != nil {
		return nil, err
	}
	if err := logArgument(n); err != nil {
		return nil, err
	}
	if b.cmp(numericFromInt(1)) == 0 {
		return nil, errorf(CodeDivisionByZero, noPos, "division by zero")
	}
	scale := clampScale(max(minSignificantDigits-(n.lnDweight()-b.lnDweight()), int(b.scale), int(n.scale)))
	// The quotient's digits before the point can be many when ln(b) is
	// tiny (b near 1): the logarithms get enough significant digits for
	// them too.
	prec := uint32(scale) + 8 + 2*guardDigits + uint32(max(n.lnDweight()-b.lnDweight(), 0))
	lnB, err := lnDigits(b.toAPD(prec), prec)
	if err != nil {
		return nil, err
	}
	lnN, err := lnDigits(n.toAPD(prec), prec)
	if err != nil {
		return nil, err
	}
	var q apd.Decimal
	apd.BaseContext.WithPrecision(prec).Quo(&q, lnN, lnB)
	return numericFromAPD(&q, scale), nil
}

// exp is e raised to n.
func (n *numeric) exp() (*numeric, error) {
	if n.nan {
		return n, nil
	}
	val := n.float()
	if math.Abs(val) >= 3*2000 { // exp_var's limit: NUMERIC_MAX_RESULT_SCALE * 3
		if val > 0 {
			return nil, errorf(CodeOutOfRange, noPos, "value overflows numeric format")
		}
		return &numeric{scale: maxNumericScale}, nil
	}
	weight := val * 0.434294481903252
	scale := clampScale(max(minSignificantDigits-int(min(max(weight, -2000), 2000)), int(n.scale)))
	return apdExp(n.toAPD(uint32(max(weight, 0))+uint32(scale)+8), scale, weight)
}

// apdExp is e^x to scale places, where weight estimates the result's
// decimal weight.
func apdExp(x *apd.Decimal, scale int32, weight float64) (*numeric, error) {
	d, err := expDigits(x, uint32(int64(scale)+int64(max(weight, 0))+guardDigits+2)+8)
	if err != nil {
		return nil, err
	}
	return numericFromAPD(d, scale), nil
}

// seriesDigits are the most significant digits apd's Exp and Ln compute
// directly: their series stop at 1000 terms.
const seriesDigits = 1800

// expDigits is e^x to prec significant digits. Past seriesDigits it is
// exp(x/2^j) squared j times, x/2^j small enough for the series to
// converge in time; each squaring costs a fraction of a digit, which the
// extra precision covers.
func expDigits(x *apd.Decimal, prec uint32) (*apd.Decimal, error) {
	j := 0
	if prec > seriesDigits {
		f, _ := x.Float64()
		j = int(max(math.Ceil(math.Log2(math.Abs(f)+1)), 0)) + 30
	}
	ctx := apd.BaseContext.WithPrecision(prec + uint32(j)*3/10 + 2)
	y := x
	if j > 0 {
		y = new(apd.Decimal)
		ctx.Quo(y, x, apd.NewWithBigInt(new(apd.BigInt).Lsh(apd.NewBigInt(1), uint(j)), 0))
	}
	var d apd.Decimal
	if _, err := ctx.Exp(&d, y); err != nil {
		return nil, errorf(CodeOutOfRange, noPos, "value overflows numeric format")
	}
	for range j {
		ctx.Mul(&d, &d, &d)
	}
	return &d, nil
}

// lnDigits is ln(x) (x > 0) to prec significant digits: x = m·10^k with m
// in [0.1, 1), so that numbers beyond apd's exponent range can be read,
// and ln(x) = ln(m) + k·ln(10).
func lnDigits(x *apd.Decimal, prec uint32) (*apd.Decimal, error) {
	k := int64(x.NumDigits()) + int64(x.Exponent)
	m := new(apd.Decimal).Set(x)
	m.Exponent -= int32(k)
	prec += 8 // k·ln(10)'s digits before the point
	lnM, err := lnNear(m, prec)
	if err != nil || k == 0 {
		return lnM, err
	}
	ln10, err := lnNear(apd.New(10, 0), prec)
	if err != nil {
		return nil, err
	}
	ctx := apd.BaseContext.WithPrecision(prec)
	var t, out apd.Decimal
	ctx.Mul(&t, ln10, apd.New(k, 0))
	ctx.Add(&out, &t, lnM)
	return &out, nil
}

// lnNear is ln(x) for x of modest size to prec significant digits: apd's
// Ln, then past seriesDigits one step of Halley's iteration,
// y + 2(x - e^y)/(x + e^y), which triples the digits that are right.
func lnNear(x *apd.Decimal, prec uint32) (*apd.Decimal, error) {
	ctx := apd.BaseContext.WithPrecision(min(prec, seriesDigits))
	var y apd.Decimal
	if _, err := ctx.Ln(&y, x); err != nil {
		return nil, errorf(CodeOutOfRange, noPos, "value out of range: %v", err)
	}
	if prec <= seriesDigits {
		return &y, nil
	}
	e, err := expDigits(&y, prec+guardDigits)
	if err != nil {
		return nil, err
	}
	ctx = apd.BaseContext.WithPrecision(prec + guardDigits)
	var num, den, q apd.Decimal
	ctx.Sub(&num, x, e)
	ctx.Add(&den, x, e)
	ctx.Quo(&q, &num, &den)
	ctx.Add(&q, &q, &q)
	ctx.Add(&y, &y, &q)
	return &y, nil
}

// powFrac is n raised to a non-integer exponent e, as power_var computes
// it: e^(e·ln n), at a scale from a low-precision estimate of its weight.
func (n *numeric) powFrac(e *numeric) (*numeric, error) {
	if n.nan || e.nan {
		return &numeric{nan: true}, nil
	}
	switch n.unscaled.Sign() {
	case 0:
		if e.unscaled.Sign() < 0 {
			return nil, errorf("2201F", noPos, "zero raised to a negative power is undefined")
		}
		return &numeric{scale: minSignificantDigits}, nil
	case -1:
		return nil, errorf("2201F", noPos, "a negative number raised to a non-integer power yields a complex result")
	}
	val := e.float() * math.Log(n.float())
	if math.IsInf(val, 0) || math.IsNaN(val) {
		val = e.float() * lnOfLarge(n)
	}
	if math.Abs(val) > 2000*3.01 {
		if val > 0 {
			return nil, errorf(CodeOutOfRange, noPos, "value overflows numeric format")
		}
		return &numeric{scale: maxNumericScale}, nil
	}
	weight := val * 0.434294481903252
	scale := clampScale(max(minSignificantDigits-int(weight), int(n.scale), int(e.scale)))
	// e·ln(n) good to the result's significant digits, and to its own
	// (at most four) before the point.
	sig := max(int64(scale)+int64(weight), 0)
	prec := uint32(sig) + 2*guardDigits + 8
	lnN, err := lnDigits(n.toAPD(prec), prec)
	if err != nil {
		return nil, err
	}
	var prod apd.Decimal
	apd.BaseContext.WithPrecision(prec).Mul(&prod, lnN, e.toAPD(prec))
	return apdExp(&prod, scale, weight)
}

// lnOfLarge is ln(n) as a float for an n too large for a double.
func lnOfLarge(n *numeric) float64 {
	s := strings.TrimPrefix(new(big.Int).Abs(&n.unscaled).String(), "-")
	lead := s[:min(len(s), 17)]
	f, _ := new(big.Float).SetString("0." + lead)
	m, _ := f.Float64()
	return math.Log(m) + float64(len(s)-int(n.scale))*math.Ln10
}
