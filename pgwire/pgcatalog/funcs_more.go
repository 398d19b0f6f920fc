package pgcatalog

import (
	"crypto/sha256"
	"crypto/sha512"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Smaller functions of PostgreSQL's library that hand-written queries
// reach for: counting NULLs, hashes, integer arithmetic, overlay, regexp
// counting and matching, array editing, and building and normalizing
// times and intervals. Results and errors are PostgreSQL 15's.

func init() {
	for name, nulls := range map[string]bool{"num_nulls": true, "num_nonnulls": false} {
		register(name, &builtin{min: 1, max: -1, ret: tInt4, lenient: true, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
			n := 0
			for _, v := range a {
				if v.isNull() == nulls {
					n++
				}
			}
			return intV(int64(n)), nil
		}})
	}
	for name, sum := range map[string]func([]byte) []byte{
		"sha224": func(b []byte) []byte { s := sha256.Sum224(b); return s[:] },
		"sha256": func(b []byte) []byte { s := sha256.Sum256(b); return s[:] },
		"sha384": func(b []byte) []byte { s := sha512.Sum384(b); return s[:] },
		"sha512": func(b []byte) []byte { s := sha512.Sum512(b); return s[:] },
	} {
		register(name, &builtin{min: 1, args: []uint32{tBytea}, ret: tBytea, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
			return byteaV(sum(byteaBytes(a[0]))), nil
		}})
	}
	register("to_hex", &builtin{min: 1, args: []uint32{tInt8}, ret: tText, fn: func(_ *evaluator, a []Value, t []uint32) (Value, error) {
		if t[0] == tInt4 || t[0] == tInt2 { // to_hex(integer) shows the 32-bit two's complement
			return textV(strconv.FormatUint(uint64(uint32(a[0].i)), 16)), nil
		}
		return textV(strconv.FormatUint(uint64(a[0].i), 16)), nil
	}})
	register("bit_length", &builtin{min: 1, ret: tInt4, fn: func(_ *evaluator, a []Value, t []uint32) (Value, error) {
		if t[0] == tBytea {
			return intV(int64(8 * len(byteaBytes(a[0])))), nil
		}
		return intV(int64(8 * len(a[0].s))), nil
	}})
	register("overlay", &builtin{min: 3, max: 4, args: []uint32{tText, tText, tInt4, tInt4}, retFn: textOrBytea, fn: overlay})
	register("regexp_count", &builtin{min: 2, max: 4, args: []uint32{tText, tText, tInt4, tText}, ret: tInt4, fn: func(ev *evaluator, a []Value, _ []uint32) (Value, error) {
		s, err := fromPosition(a)
		if err != nil {
			return null, err
		}
		o, err := reFlagsArg(a, 3, "regexp_count")
		if err != nil {
			return null, err
		}
		re, err := ev.pgRegexp(a[1].s, o)
		if err != nil {
			return null, err
		}
		return intV(int64(len(findAllPG(re, s, -1)))), nil
	}})
	// PostgreSQL 15's regexp_substr, regexp_instr and regexp_like: the
	// N-th match (from character start), its position, whether one exists.
	nthMatch := func(ev *evaluator, a []Value, flagsAt, nAt, subAt int, fn string) (string, []int, int, error) {
		s, err := fromPosition(a)
		if err != nil {
			return "", nil, 0, err
		}
		o, err := reFlagsArg(a, flagsAt, fn)
		if err != nil {
			return "", nil, 0, err
		}
		re, err := ev.pgRegexp(a[1].s, o)
		if err != nil {
			return "", nil, 0, err
		}
		n, sub := int64(1), int64(0)
		if len(a) > nAt {
			if n = a[nAt].i; n <= 0 {
				return "", nil, 0, errorf(CodeInvalidParameter, noPos, "invalid value for parameter \"n\": %d", n)
			}
		}
		if len(a) > subAt {
			if sub = a[subAt].i; sub < 0 {
				return "", nil, 0, errorf(CodeInvalidParameter, noPos, "invalid value for parameter \"subexpr\": %d", sub)
			}
		}
		all := findAllPG(re, s, int(n))
		if int64(len(all)) < n || 2*int(sub)+1 >= len(all[n-1]) || all[n-1][2*sub] < 0 {
			return s, nil, len([]rune(a[0].s)) - len([]rune(s)), nil
		}
		m := all[n-1]
		return s, m[2*sub : 2*sub+2], len([]rune(a[0].s)) - len([]rune(s)), nil
	}
	register("regexp_substr", &builtin{min: 2, max: 6, args: []uint32{tText, tText, tInt4, tInt4, tText, tInt4}, ret: tText,
		fn: func(ev *evaluator, a []Value, _ []uint32) (Value, error) {
			s, m, _, err := nthMatch(ev, a, 4, 3, 5, "regexp_substr")
			if err != nil || m == nil {
				return null, err
			}
			return textV(s[m[0]:m[1]]), nil
		}})
	register("regexp_instr", &builtin{min: 2, max: 7, args: []uint32{tText, tText, tInt4, tInt4, tInt4, tText, tInt4}, ret: tInt4,
		fn: func(ev *evaluator, a []Value, _ []uint32) (Value, error) {
			s, m, skipped, err := nthMatch(ev, a, 5, 3, 6, "regexp_instr")
			if err != nil || m == nil {
				return intV(0), err
			}
			at := m[0]
			if len(a) > 4 && a[4].i != 0 { // endoption: the position after the match
				at = m[1]
			}
			return intV(int64(skipped + len([]rune(s[:at])) + 1)), nil
		}})
	register("regexp_like", &builtin{min: 2, max: 3, ret: tBool, fn: func(ev *evaluator, a []Value, _ []uint32) (Value, error) {
		o, err := reFlagsArg(a, 2, "regexp_like")
		if err != nil {
			return null, err
		}
		re, err := ev.pgRegexp(a[1].s, o)
		if err != nil {
			return null, err
		}
		return boolV(re.MatchString(a[0].s)), nil
	}})
	register("regexp_match", &builtin{min: 2, max: 3, ret: tTextArray, fn: func(ev *evaluator, a []Value, _ []uint32) (Value, error) {
		o, err := reFlagsArg(a, 2, "regexp_match")
		if err != nil {
			return null, err
		}
		re, err := ev.pgRegexp(a[1].s, o)
		if err != nil {
			return null, err
		}
		m := re.FindStringSubmatchIndex(a[0].s)
		if m == nil {
			return null, nil
		}
		return matchGroups(a[0].s, m), nil
	}})
	for name, fn := range map[string]func(x, y int64) (int64, error){"gcd": gcd, "lcm": lcm} {
		register(name, &builtin{min: 2, args: []uint32{tInt8}, retFn: func(t []uint32) uint32 { return arithType(t[0], t[1]) },
			fn: func(_ *evaluator, a []Value, t []uint32) (Value, error) {
				if arithType(t[0], t[1]) == tNumeric {
					return numericGCD(a[0], a[1], name == "lcm")
				}
				n, err := fn(a[0].i, a[1].i)
				if err == nil { // gcd(integer, integer) is an integer
					err = intRange(n, arithType(t[0], t[1]), "", 0, 0)
				}
				return intV(n), err
			}})
	}
	register("scale", &builtin{min: 1, max: 1, args: []uint32{tNumeric}, ret: tInt4, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		n, err := numericOf(a[0])
		if err != nil || n.nan {
			return null, err
		}
		return intV(int64(n.scale)), nil
	}})
	register("min_scale", &builtin{min: 1, max: 1, args: []uint32{tNumeric}, ret: tInt4, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		n, err := numericOf(a[0])
		if err != nil || n.nan {
			return null, err
		}
		return intV(int64(n.trimmedScale().scale)), nil
	}})
	register("trim_scale", &builtin{min: 1, max: 1, args: []uint32{tNumeric}, ret: tNumeric, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		n, err := numericOf(a[0])
		if err != nil || n.nan {
			return numericV(n), err
		}
		return numericV(n.trimmedScale()), nil
	}})
	register("factorial", &builtin{min: 1, args: []uint32{tInt8}, ret: tNumeric, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		n := a[0].i
		switch {
		case n < 0:
			return null, errorf(CodeOutOfRange, noPos, "factorial of a negative number is undefined")
		case n > 32177:
			return null, errorf(CodeOutOfRange, noPos, "value overflows numeric format")
		}
		f := &numeric{}
		f.unscaled.MulRange(1, max(n, 1))
		return numericV(f), nil
	}})
	register("div", &builtin{min: 2, args: []uint32{tNumeric}, ret: tNumeric, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		x, y, err := numericPair(a[0], a[1])
		if err != nil {
			return null, err
		}
		if y.unscaled.Sign() == 0 && !y.nan {
			return null, errorf(CodeDivisionByZero, noPos, "division by zero")
		}
		if x.nan || y.nan {
			return numericV(&numeric{nan: true}), nil
		}
		sc := max(x.scale, y.scale)
		q := &numeric{}
		q.unscaled.Quo(x.rescaled(sc), y.rescaled(sc)) // toward zero
		return numericV(q), nil
	}})
	register("width_bucket", &builtin{min: 2, max: 4, args: []uint32{tFloat8, tFloat8, tFloat8, tInt4}, ret: tInt4, fn: func(ev *evaluator, a []Value, t []uint32) (Value, error) {
		switch len(a) {
		case 2:
			return widthBucketArray(a[0], a[1], t[1])
		case 3:
			return null, errorf(CodeUndefinedFunc, noPos, "function width_bucket(%s, %s, %s) does not exist", formatType(t[0], -1), formatType(t[1], -1), formatType(t[2], -1))
		}
		return widthBucket(ev, a, t)
	}})
	register("array_prepend", &builtin{min: 2, retFn: func(t []uint32) uint32 { return t[1] }, lenient: true, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		return arrayV(append([]Value{a[0]}, a[1].a...)), nil
	}})
	register("array_replace", &builtin{min: 3, retFn: sameAsFirst, lenient: true, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		if a[0].isNull() {
			return null, nil
		}
		out := make([]Value, len(a[0].a))
		for i, v := range a[0].a {
			out[i] = v
			if v.isNull() && a[1].isNull() || !v.isNull() && !a[1].isNull() && compare(v, a[1]) == 0 {
				out[i] = a[2]
			}
		}
		return arrayV(out), nil
	}})
	register("array_dims", &builtin{min: 1, ret: tText, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		if len(a[0].a) == 0 {
			return null, nil
		}
		return textV("[1:" + strconv.Itoa(len(a[0].a)) + "]"), nil
	}})
	// infinity and -infinity are the only infinite times (they stay words:
	// castTime); every interval is finite.
	register("isfinite", &builtin{min: 1, args: []uint32{tTimestamptz}, ret: tBool, fn: func(_ *evaluator, a []Value, t []uint32) (Value, error) {
		return boolV(t[0] == tInterval || a[0].s != "infinity" && a[0].s != "-infinity"), nil
	}})
	register("justify_hours", intervalFn(func(iv interval) interval { return iv.justifyHours() }))
	register("justify_days", intervalFn(func(iv interval) interval { return iv.justifyDays() }))
	register("justify_interval", intervalFn(func(iv interval) interval { return iv.justify() }))
	register("make_interval", &builtin{min: 0, max: 7, args: []uint32{tInt4, tInt4, tInt4, tInt4, tInt4, tInt4, tFloat8}, ret: tInterval, fn: makeInterval,
		named: []string{"years", "months", "weeks", "days", "hours", "mins", "secs"}})
	register("make_timestamp", &builtin{min: 6, args: []uint32{tInt4, tInt4, tInt4, tInt4, tInt4, tFloat8}, ret: tTimestamp, fn: makeTimestamp(false)})
	register("make_timestamptz", &builtin{min: 6, max: 7, args: []uint32{tInt4, tInt4, tInt4, tInt4, tInt4, tFloat8, tText}, ret: tTimestamptz, fn: makeTimestamp(true)})
	register("date_bin", &builtin{min: 3, args: []uint32{tInterval, tTimestamptz, tTimestamptz}, retFn: func(t []uint32) uint32 { return t[1] }, fn: dateBin})
}

// overlay is overlay(s placing r from start [for n]): s with n characters
// from start (by default r's length) replaced by r.
func overlay(_ *evaluator, a []Value, t []uint32) (Value, error) {
	// As PostgreSQL: the part before start, the replacement, and the part
	// from start+n on (n defaulting to the replacement's length, and a
	// negative n taking some of the string again).
	if t[0] == tBytea {
		s := byteaBytes(a[0])
		r, err := byteaArg(a, t, 1)
		if err != nil {
			return null, err
		}
		from, to, err := overlayBounds(a, int64(len(r)), int64(len(s)))
		if err != nil {
			return null, err
		}
		return byteaV(append(append(append([]byte{}, s[:from]...), r...), s[to:]...)), nil
	}
	s, r := []rune(a[0].s), a[1].s
	from, to, err := overlayBounds(a, int64(utf8.RuneCountInString(r)), int64(len(s)))
	if err != nil {
		return null, err
	}
	return textV(string(s[:from]) + r + string(s[to:])), nil
}

// overlayBounds are the ends of the parts of a string of size units that
// overlay keeps: [0, from) and [to, size).
func overlayBounds(a []Value, rlen, size int64) (from, to int64, err error) {
	start, n := a[2].i, rlen
	if len(a) > 3 {
		n = a[3].i
	}
	if start < 1 {
		return 0, 0, errorf(CodeSubstring, noPos, "negative substring length not allowed")
	}
	if start+n > math.MaxInt32 || start+n < math.MinInt32 { // int4 arithmetic in PostgreSQL
		return 0, 0, errorf(CodeOutOfRange, noPos, "integer out of range")
	}
	from = min(start-1, size)
	to = min(max(start+n, 1)-1, size)
	return from, to, nil
}

// fromPosition is regexp_count's text from its start position (1-based).
func fromPosition(a []Value) (string, error) {
	s := a[0].s
	if len(a) > 2 {
		start := a[2].i
		if start < 1 {
			return "", errorf(CodeInvalidParameter, noPos, "invalid value for parameter \"start\": %d", start)
		}
		r := []rune(s)
		s = string(r[min(start-1, int64(len(r))):])
	}
	return s, nil
}

func gcd(x, y int64) (int64, error) {
	g := new(big.Int).GCD(nil, nil, big.NewInt(x), big.NewInt(y))
	if !g.IsInt64() {
		return 0, errorf(CodeOutOfRange, noPos, "bigint out of range")
	}
	return g.Int64(), nil
}

// numericGCD is gcd (or with lcm set, lcm) of two numerics, as
// numeric_gcd and numeric_lcm compute them: over the values at the larger
// of their scales, which the result keeps; NaN with either is NaN.
func numericGCD(x, y Value, lcm bool) (Value, error) {
	a, b, err := numericPair(x, y)
	if err != nil {
		return null, err
	}
	if a.nan || b.nan {
		return numericV(&numeric{nan: true}), nil
	}
	sc := max(a.scale, b.scale)
	p, q := a.rescaled(sc), b.rescaled(sc)
	out := &numeric{scale: sc}
	g := new(big.Int).GCD(nil, nil, new(big.Int).Abs(p), new(big.Int).Abs(q))
	switch {
	case !lcm:
		out.unscaled.Set(g)
	case p.Sign() != 0 && q.Sign() != 0:
		out.unscaled.Mul(new(big.Int).Quo(p, g), q)
		out.unscaled.Abs(&out.unscaled)
	}
	return numericV(out), nil
}

func lcm(x, y int64) (int64, error) {
	if x == 0 || y == 0 {
		return 0, nil
	}
	g, _ := gcd(x, y)
	l := new(big.Int).Mul(big.NewInt(x/g), big.NewInt(y))
	l.Abs(l)
	if !l.IsInt64() {
		return 0, errorf(CodeOutOfRange, noPos, "bigint out of range")
	}
	return l.Int64(), nil
}

// widthBucketArray is width_bucket(operand, thresholds): the number of
// thresholds at or below operand, found by width_bucket_array's binary
// search (the thresholds are taken to be sorted).
func widthBucketArray(x, th Value, thType uint32) (Value, error) {
	if th.k != kArray {
		return null, errorf(CodeUndefinedFunc, noPos, "function width_bucket(%s, %s) does not exist", "unknown", formatType(thType, -1))
	}
	for _, e := range th.a {
		switch {
		case e.k == kArray:
			return null, errorf("2202E", noPos, "thresholds must be one-dimensional array")
		case e.isNull():
			return null, errorf("22004", noPos, "thresholds array must not contain NULLs")
		}
	}
	elem := elemType(thType)
	left, right := 0, len(th.a)
	for left < right {
		mid := (left + right) / 2
		if compareAs(x, th.a[mid], elem) < 0 {
			right = mid
		} else {
			left = mid + 1
		}
	}
	return intV(int64(left)), nil
}

// widthBucket is width_bucket(operand, low, high, count): the bucket of
// count equal ones over [low, high) that operand falls in, 0 below and
// count+1 above; the numeric form when an argument is numeric and none a
// float, else the double precision one.
func widthBucket(_ *evaluator, a []Value, t []uint32) (Value, error) {
	count := a[3].i
	if count <= 0 {
		return null, errorf("2201G", noPos, "count must be greater than zero")
	}
	if floatOrNumeric([]uint32{arithType(arithType(t[0], t[1]), t[2])}) == tNumeric {
		return widthBucketNumeric(a, count)
	}
	x, lo, hi := num(a[0]), num(a[1]), num(a[2])
	switch {
	case math.IsNaN(x) || math.IsNaN(lo) || math.IsNaN(hi):
		return null, errorf("2201G", noPos, "operand, lower bound, and upper bound cannot be NaN")
	case math.IsInf(lo, 0) || math.IsInf(hi, 0):
		return null, errorf("2201G", noPos, "lower and upper bounds must be finite")
	case lo == hi:
		return null, errorf("2201G", noPos, "lower bound cannot equal upper bound")
	}
	// As width_bucket_float8: count times the fraction, plus one, in
	// double precision, then converted to an integer as C converts it (a
	// value outside the integers, NaN from an infinite product, becomes
	// INT_MIN).
	var f float64
	switch {
	case lo < hi && x < lo, lo > hi && x > lo:
		return intV(0), nil
	case lo < hi && x >= hi, lo > hi && x <= hi:
		return intV(count + 1), intRange(count+1, tInt4, "", 0, 0)
	case lo < hi:
		f = float64(count)*(x-lo)/(hi-lo) + 1
	default:
		f = float64(count)*(lo-x)/(lo-hi) + 1
	}
	if math.IsNaN(f) || f < math.MinInt32 || f >= math.MaxInt32+1 {
		return intV(math.MinInt32), nil
	}
	return intV(int64(f)), nil
}

// widthBucketNumeric is width_bucket of numerics, exactly, as
// width_bucket_numeric: ((operand - low) * count) / (high - low) at the
// division's scale, plus one, floored.
func widthBucketNumeric(a []Value, count int64) (Value, error) {
	var v [3]*numeric
	for i := range v {
		n, err := numericOf(a[i])
		if err != nil {
			return null, err
		}
		v[i] = n
	}
	x, lo, hi := v[0], v[1], v[2]
	if x.nan || lo.nan || hi.nan {
		return null, errorf("2201G", noPos, "operand, lower bound, and upper bound cannot be NaN")
	}
	var b *numeric
	switch c := lo.cmp(hi); {
	case c == 0:
		return null, errorf("2201G", noPos, "lower bound cannot equal upper bound")
	case c < 0 && x.cmp(lo) < 0, c > 0 && x.cmp(lo) > 0:
		return intV(0), nil
	case c < 0 && x.cmp(hi) >= 0, c > 0 && x.cmp(hi) <= 0:
		return intV(count + 1), intRange(count+1, tInt4, "", 0, 0)
	default:
		q, err := x.add(lo, true).mul(numericFromInt(count)).div(hi.add(lo, true))
		if err != nil {
			return null, err
		}
		b = q.add(numericFromInt(1), false).floorCeil(false)
	}
	n, ok := b.integer()
	if !ok || n < math.MinInt32 || n > math.MaxInt32 {
		return null, errorf(CodeOutOfRange, noPos, "integer out of range")
	}
	return intV(n), nil
}

// intervalFn is a function of one interval to an interval.
func intervalFn(fn func(interval) interval) *builtin {
	return &builtin{min: 1, args: []uint32{tInterval}, ret: tInterval, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		iv, err := parseInterval(a[0].s)
		if err != nil {
			return null, err
		}
		return textV(fn(iv).String()), nil
	}}
}

// justifyHours moves whole days of the time into days (the time keeps the
// sign the days take), as justify_hours does.
func (iv interval) justifyHours() interval {
	day := int64(86400e6)
	iv.days += iv.micros / day
	iv.micros %= day
	if iv.days > 0 && iv.micros < 0 {
		iv.micros += day
		iv.days--
	} else if iv.days < 0 && iv.micros > 0 {
		iv.micros -= day
		iv.days++
	}
	return iv
}

// justifyDays moves whole 30-day months of the days into months.
func (iv interval) justifyDays() interval {
	iv.months += iv.days / 30
	iv.days %= 30
	if iv.months > 0 && iv.days < 0 {
		iv.days += 30
		iv.months--
	} else if iv.months < 0 && iv.days > 0 {
		iv.days -= 30
		iv.months++
	}
	return iv
}

// justify is justify_interval: whole days of the time into days, whole
// months of the days into months, then the three fields given one sign.
func (iv interval) justify() interval {
	day := int64(86400e6)
	iv.days += iv.micros / day
	iv.micros %= day
	iv.months += iv.days / 30
	iv.days %= 30
	switch {
	case iv.months > 0 && (iv.days < 0 || iv.days == 0 && iv.micros < 0):
		iv.days += 30
		iv.months--
	case iv.months < 0 && (iv.days > 0 || iv.days == 0 && iv.micros > 0):
		iv.days -= 30
		iv.months++
	}
	switch {
	case iv.days > 0 && iv.micros < 0:
		iv.micros += day
		iv.days--
	case iv.days < 0 && iv.micros > 0:
		iv.micros -= day
		iv.days++
	}
	return iv
}

// makeInterval is make_interval(years, months, weeks, days, hours, mins,
// secs), each 0 when not given.
func makeInterval(_ *evaluator, a []Value, _ []uint32) (Value, error) {
	var f [7]float64
	for i, v := range a {
		f[i] = num(v)
	}
	iv := interval{months: int64(f[0])*12 + int64(f[1]), days: int64(f[2])*7 + int64(f[3])}
	iv.micros = int64(f[4])*3600e6 + int64(f[5])*60e6 + int64(math.Round(f[6]*1e6))
	return textV(iv.String()), nil
}

// makeTimestamp is make_timestamp(year, month, day, hour, min, sec), or
// with zoned make_timestamptz, whose wall time is in its seventh
// argument's zone or else the session's.
func makeTimestamp(zoned bool) func(*evaluator, []Value, []uint32) (Value, error) {
	return func(ev *evaluator, a []Value, _ []uint32) (Value, error) {
		y, mo, d, h, mi, sec := a[0].i, a[1].i, a[2].i, a[3].i, a[4].i, num(a[5])
		if y == 0 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec >= 60 {
			return null, errorf("22008", noPos, "date field value out of range: %d-%02d-%02d", y, mo, d)
		}
		typ, loc := uint32(tTimestamp), time.UTC
		if zoned {
			typ, loc = tTimestamptz, ev.zone()
			if len(a) > 6 {
				name := strings.TrimSpace(a[6].s)
				z, ok := offsetZone(name, false) // an offset here is east of UTC, unlike AT TIME ZONE's
				if !ok {
					var err error
					if z, err = zoneArg(name); err != nil {
						return null, errorf(CodeInvalidParameter, noPos, "time zone \"%s\" not recognized", a[6].s)
					}
				}
				loc = z
			}
		}
		whole, frac := math.Modf(sec)
		out := wallTime(int(y), time.Month(mo), int(d), int(h), int(mi), int(whole), int(math.Round(frac*1e6))*1000, loc)
		if out.Day() != int(d) {
			return null, errorf("22008", noPos, "date field value out of range: %d-%02d-%02d", y, mo, d)
		}
		return timeValue(instantIfZoned(out, typ), typ), nil
	}
}

// dateBin is date_bin(stride, source, origin): the start of the stride
// -long bin, counted from origin, that source falls in.
func dateBin(_ *evaluator, a []Value, t []uint32) (Value, error) {
	iv, err := parseInterval(a[0].s)
	if err != nil {
		return null, err
	}
	if iv.months != 0 {
		return null, errorf(CodeNotSupported, noPos, "timestamps cannot be binned into intervals containing months or years")
	}
	stride := iv.days*86400e6 + iv.micros
	if stride <= 0 {
		return null, errorf(CodeInvalidParameter, noPos, "stride must be greater than zero")
	}
	src, err := timeArg(a[1])
	if err != nil {
		return null, err
	}
	origin, err := timeArg(a[2])
	if err != nil {
		return null, err
	}
	delta := src.Sub(origin).Microseconds()
	bin := delta / stride * stride
	if delta < 0 && delta%stride != 0 {
		bin -= stride
	}
	return timeValue(origin.Add(time.Duration(bin)*time.Microsecond), t[1]), nil
}

func init() {
	register("parse_ident", &builtin{min: 1, max: 2, args: []uint32{tText, tBool}, ret: tTextArray, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		strict := len(a) < 2 || a[1].truthy()
		parts, err := parseIdent(a[0].s, strict)
		if err != nil {
			return null, err
		}
		return textArray(parts...), nil
	}})
	for name, typ := range map[string]uint32{"json_object": tJSON, "jsonb_object": tJSONB} {
		register(name, &builtin{min: 1, max: 2, args: []uint32{tTextArray, tTextArray}, ret: typ, fn: func(ev *evaluator, a []Value, _ []uint32) (Value, error) {
			return jsonObjectOf(ev, a, typ)
		}})
	}
}

// parseIdent splits a qualified identifier as parse_ident does: parts
// separated by dots, unquoted ones lower-cased, quoted ones as written
// ("" a quote). Strict, anything after the name is an error; otherwise it
// ends the name.
func parseIdent(s string, strict bool) ([]string, error) {
	bad := func() error {
		return errorf(CodeInvalidText, noPos, "string is not a valid identifier: \"%s\"", s)
	}
	var parts []string
	i := 0
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
			i++
		}
		var part strings.Builder
		switch {
		case i < len(s) && s[i] == '"':
			i++
			for {
				if i >= len(s) {
					return nil, bad()
				}
				if s[i] == '"' {
					if i+1 < len(s) && s[i+1] == '"' {
						part.WriteByte('"')
						i += 2
						continue
					}
					i++
					break
				}
				part.WriteByte(s[i])
				i++
			}
		default:
			start := i
			for i < len(s) && (s[i] == '_' || s[i] == '$' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' ||
				s[i] >= '0' && s[i] <= '9' && i > start || s[i] >= 0x80) {
				i++
			}
			if i == start {
				return nil, bad()
			}
			part.WriteString(strings.ToLower(s[start:i]))
		}
		parts = append(parts, part.String())
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
			i++
		}
		if i < len(s) && s[i] == '.' {
			i++
			continue
		}
		if i < len(s) && strict {
			return nil, bad()
		}
		return parts, nil
	}
}

// jsonObjectOf is json_object(text[]) of alternating keys and values, or
// json_object(keys, values); jsonb_object the same as jsonb.
func jsonObjectOf(ev *evaluator, a []Value, typ uint32) (Value, error) {
	var keys, vals []Value
	if len(a) == 2 {
		if len(a[0].a) != len(a[1].a) {
			return null, errorf("2202E", noPos, "mismatched array dimensions")
		}
		keys, vals = a[0].a, a[1].a
	} else {
		if len(a[0].a)%2 != 0 {
			return null, errorf("2202E", noPos, "array must have even number of elements")
		}
		for i := 0; i < len(a[0].a); i += 2 {
			keys, vals = append(keys, a[0].a[i]), append(vals, a[0].a[i+1])
		}
	}
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range keys {
		if k.isNull() {
			return null, errorf(CodeNullValue, noPos, "null value not allowed for object key")
		}
		if i > 0 {
			b.WriteString(", ")
		}
		writeJSONString(&b, k.s)
		b.WriteString(" : ")
		if vals[i].isNull() {
			b.WriteString("null")
		} else {
			writeJSONString(&b, vals[i].s)
		}
	}
	b.WriteByte('}')
	return jsonValue(b.String(), typ)
}

func init() {
	// like_escape is what LIKE ... ESCAPE 'c' becomes: the pattern
	// rewritten to use LIKE's default escape, the backslash.
	register("like_escape", &builtin{min: 2, args: []uint32{tText, tText}, retFn: textOrBytea, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		out, err := likeEscape(a[0].s, a[1].s)
		return textV(out), err
	}})
}

// likeEscape rewrites a LIKE pattern whose escape character is esc ("":
// none) into one escaped by backslashes.
func likeEscape(pattern, esc string) (string, error) {
	if esc == `\` {
		return pattern, nil
	}
	if utf8.RuneCountInString(esc) > 1 {
		return "", errorf(CodeInvalidEscape, noPos, "invalid escape string")
	}
	var b strings.Builder
	escaped := false
	for _, c := range pattern {
		switch {
		case escaped:
			b.WriteByte('\\')
			b.WriteRune(c)
			escaped = false
		case esc != "" && string(c) == esc:
			escaped = true
		case c == '\\':
			b.WriteString(`\\`)
		default:
			b.WriteRune(c)
		}
	}
	if escaped {
		return "", errorf(CodeInvalidEscape, noPos, "LIKE pattern must not end with escape character")
	}
	return b.String(), nil
}
