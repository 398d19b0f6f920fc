package sql

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

// Array functions (spec §4.6): ARRAY_LENGTH, ARRAY_CONCAT (and || on
// arrays), ARRAY_TO_STRING, ARRAY_REVERSE, ARRAY_SLICE, ARRAY_FIRST[_N],
// ARRAY_LAST[_N], ARRAY_INCLUDES[_ANY|_ALL], ARRAY_IS_DISTINCT,
// ARRAY_OFFSET(S), GENERATE_ARRAY, GENERATE_DATE_ARRAY and
// GENERATE_TIMESTAMP_ARRAY; the lambda forms (ARRAY_FILTER,
// ARRAY_TRANSFORM...) bind in bind_lambda.go.
//
// Element types are generic: an overload's ArgTypes names the array type
// its arguments coerce to, so a literal adapts ([1, 2] to ARRAY<FLOAT64>,
// NULL to ARRAY<INT64>) and anything else must match exactly.

// arrayMaxGenerated caps the arrays of the GENERATE_* functions.
const arrayMaxGenerated = 1_000_000

func init() {
	Register("ARRAY_LENGTH", arrayFn(nil, func(*types.Type) *types.Type { return types.Int64 },
		func(a []types.Value, _ *types.Type) (types.Value, error) {
			return types.Int64Value(int64(a[0].Len())), nil
		}))
	Register("ARRAY_CONCAT", arrayConcat("ARRAY_CONCAT", 1, true))
	Register("||", arrayConcat("||", 2, false))
	Register("ARRAY_TO_STRING",
		fixed(types.String, arrayToString, types.ArrayOf(types.String), types.String),
		fixed(types.String, arrayToString, types.ArrayOf(types.String), types.String, types.String),
		fixed(types.Bytes, arrayToString, types.ArrayOf(types.Bytes), types.Bytes),
		fixed(types.Bytes, arrayToString, types.ArrayOf(types.Bytes), types.Bytes, types.Bytes))
	same := func(t *types.Type) *types.Type { return t }
	elem := func(t *types.Type) *types.Type { return t.Elem }
	Register("ARRAY_REVERSE", arrayFn(nil, same, arrayReverse))
	Register("ARRAY_SLICE", arrayFn([]*types.Type{types.Int64, types.Int64}, same, arraySlice))
	Register("ARRAY_FIRST", arrayFn(nil, elem, arrayEnd("ARRAY_FIRST", "first", true)))
	Register("ARRAY_LAST", arrayFn(nil, elem, arrayEnd("ARRAY_LAST", "last", false)))
	Register("ARRAY_FIRST_N", arrayFn([]*types.Type{types.Int64}, same, arrayEndN("ARRAY_FIRST_N", true)))
	Register("ARRAY_LAST_N", arrayFn([]*types.Type{types.Int64}, same, arrayEndN("ARRAY_LAST_N", false)))
	Register("ARRAY_IS_DISTINCT", arrayFn(nil, func(*types.Type) *types.Type { return types.Bool }, arrayIsDistinct))

	Register("ARRAY_INCLUDES", append(arraySearchFn(types.Bool, arrayIncludes), lambdaResult())...)
	Register("ARRAY_OFFSET", append(append(arraySearchFn(types.Int64, arrayOffset),
		arraySearchFn(types.Int64, arrayOffset, types.String)...), lambdaResult())...)
	Register("ARRAY_OFFSETS", append(arraySearchFn(types.ArrayOf(types.Int64), arrayOffsets), lambdaResult())...)
	Register("ARRAY_INCLUDES_ANY", arrayPair(arrayIncludesAny)...)
	Register("ARRAY_INCLUDES_ALL", arrayPair(arrayIncludesAll)...)
	Register("ARRAY_FILTER", lambdaResult())
	Register("ARRAY_TRANSFORM", lambdaResult())

	ints, floats := types.ArrayOf(types.Int64), types.ArrayOf(types.Float64)
	Register("GENERATE_ARRAY",
		fixed(ints, generateInts, types.Int64, types.Int64),
		fixed(ints, generateInts, types.Int64, types.Int64, types.Int64),
		fixed(floats, generateFloats, types.Float64, types.Float64),
		fixed(floats, generateFloats, types.Float64, types.Float64, types.Float64))
	// The step INTERVAL n part binds as two arguments, n and the part name.
	dates := types.ArrayOf(types.Date)
	Register("GENERATE_DATE_ARRAY",
		fixed(dates, generateDates, types.Date, types.Date),
		fixed(dates, generateDates, types.Date, types.Date, types.Int64, types.String))
	Register("GENERATE_TIMESTAMP_ARRAY", fixed(types.ArrayOf(types.Timestamp), generateTimestamps,
		types.Timestamp, types.Timestamp, types.Int64, types.String))
}

// arrayArgType is the array type an argument of type t coerces to: t
// itself, or for a non-array (only the NULL literal coerces) ARRAY<elem>,
// elem defaulting to INT64.
func arrayArgType(t, elem *types.Type) *types.Type {
	if t.Kind == types.KindArray {
		return t
	}
	if elem == nil || elem.Kind == types.KindArray {
		elem = types.Int64
	}
	return types.ArrayOf(elem)
}

// arrayFn is an overload taking an array and then arguments of the types
// rest; ret computes the result type from the array type.
func arrayFn(rest []*types.Type, ret func(arr *types.Type) *types.Type, eval func([]types.Value, *types.Type) (types.Value, error)) *Overload {
	return &Overload{
		Args: append([]*types.Type{nil}, rest...),
		ArgTypes: func(a []*types.Type) []*types.Type {
			return append([]*types.Type{arrayArgType(a[0], nil)}, rest...)
		},
		Result: func(a []*types.Type) (*types.Type, error) { return ret(a[0]), nil },
		Eval:   eval,
	}
}

// arraySearchFn is the pair of overloads of a function searching an array
// for a value (then arguments of the types rest): the value coerces to the
// element type, or else an array literal to ARRAY<value type>
// (ARRAY_INCLUDES([1, 2], 1.5)).
func arraySearchFn(ret *types.Type, eval func([]types.Value, *types.Type) (types.Value, error), rest ...*types.Type) []*Overload {
	mk := func(arrayWins bool) *Overload {
		return &Overload{
			Args: append([]*types.Type{nil, nil}, rest...),
			ArgTypes: func(a []*types.Type) []*types.Type {
				arr := types.ArrayOf(a[1])
				if arrayWins {
					arr = arrayArgType(a[0], a[1])
				}
				return append([]*types.Type{arr, arr.Elem}, rest...)
			},
			Result: func(a []*types.Type) (*types.Type, error) {
				if a[1].Kind == types.KindArray {
					return nil, fmt.Errorf("cannot search an array for an array (%s in %s)", a[1], a[0])
				}
				return ret, nil
			},
			Eval: eval,
		}
	}
	return []*Overload{mk(true), mk(false)}
}

// arrayPair is the pair of overloads of a function of two arrays of one
// element type: the second coerces to the first's type, or the first to
// the second's.
func arrayPair(eval func([]types.Value, *types.Type) (types.Value, error)) []*Overload {
	mk := func(first bool) *Overload {
		return &Overload{
			Args: []*types.Type{nil, nil},
			ArgTypes: func(a []*types.Type) []*types.Type {
				from, other := a[0], a[1]
				if !first {
					from, other = other, from
				}
				if from.Kind != types.KindArray {
					from = other
				}
				t := arrayArgType(from, nil)
				return []*types.Type{t, t}
			},
			Ret:  types.Bool,
			Eval: eval,
		}
	}
	return []*Overload{mk(true), mk(false)}
}

// arrayConcat concatenates n or more arrays of one type. Mixed INT64 and
// FLOAT64 elements concatenate as FLOAT64 when the INT64 arrays are
// literals; NULL arguments alone are ARRAY<INT64>s, except for the ||
// operator, which leaves arguments without an array to its STRING and
// BYTES overloads.
func arrayConcat(fn string, n int, variadic bool) *Overload {
	return &Overload{
		Args:     make([]*types.Type, n),
		Variadic: variadic,
		ArgTypes: func(a []*types.Type) []*types.Type {
			var t *types.Type
			for _, x := range a {
				if x.Kind == types.KindArray && (t == nil || t.Elem.Kind == types.KindInt64 && x.Elem.Kind == types.KindFloat64) {
					t = x
				}
			}
			want := make([]*types.Type, len(a))
			if t == nil && fn == "||" {
				return want
			}
			for i := range want {
				want[i] = arrayArgType(a[i], nil)
				if t != nil {
					want[i] = t
				}
			}
			return want
		},
		Result: func(a []*types.Type) (*types.Type, error) {
			if len(a) == 0 {
				return nil, fmt.Errorf("%s takes at least one array", fn)
			}
			for _, x := range a {
				if x.Kind != types.KindArray {
					ts := make([]string, len(a))
					for i := range a {
						ts[i] = a[i].String()
					}
					return nil, fmt.Errorf("no matching signature for %s(%s)", fn, strings.Join(ts, ", "))
				}
			}
			return a[0], nil
		},
		Eval: concatArrays,
	}
}

func concatArrays(a []types.Value, ret *types.Type) (types.Value, error) {
	if len(a) == 1 {
		return a[0], nil
	}
	n := 0
	for _, x := range a {
		n += x.Len()
	}
	out := make([]types.Value, 0, n)
	for _, x := range a {
		out = append(out, x.Elems()...)
	}
	return types.ArrayValue(ret, out), nil
}

// arrayToString joins STRING or BYTES elements; NULL elements are skipped,
// or replaced by the third argument.
func arrayToString(a []types.Value, ret *types.Type) (types.Value, error) {
	elems, delim := a[0].Elems(), a[1].Bytes()
	var nullText []byte
	withNull := len(a) == 3
	if withNull {
		nullText = a[2].Bytes()
	}
	size := 0
	for _, e := range elems {
		switch {
		case !e.IsNull():
			size += len(e.Bytes()) + len(delim)
		case withNull:
			size += len(nullText) + len(delim)
		}
	}
	buf := make([]byte, 0, size)
	first := true
	for _, e := range elems {
		b := e.Bytes()
		if e.IsNull() {
			if !withNull {
				continue
			}
			b = nullText
		}
		if !first {
			buf = append(buf, delim...)
		}
		first = false
		buf = append(buf, b...)
	}
	if ret.Kind == types.KindBytes {
		return types.BytesValue(buf), nil
	}
	return types.StringBytesValue(buf), nil
}

func arrayReverse(a []types.Value, ret *types.Type) (types.Value, error) {
	out := slices.Clone(a[0].Elems())
	slices.Reverse(out)
	return types.ArrayValue(ret, out), nil
}

// arraySlice keeps the elements between two inclusive offsets; a negative
// offset counts from the end.
func arraySlice(a []types.Value, ret *types.Type) (types.Value, error) {
	elems := a[0].Elems()
	n := int64(len(elems))
	lo, hi := a[1].Int64(), a[2].Int64()
	if lo < 0 {
		lo += n
	}
	if hi < 0 {
		hi += n
	}
	lo, hi = max(lo, 0), min(hi, n-1)
	if lo > hi {
		return types.ArrayValue(ret, nil), nil
	}
	return types.ArrayValue(ret, elems[lo:hi+1:hi+1]), nil
}

func arrayEnd(fn, which string, first bool) func([]types.Value, *types.Type) (types.Value, error) {
	return func(a []types.Value, _ *types.Type) (types.Value, error) {
		elems := a[0].Elems()
		if len(elems) == 0 {
			return types.Value{}, sqlerr.New(sqlerr.OutOfRange, "%s cannot get the %s element of an empty array", fn, which)
		}
		if first {
			return elems[0], nil
		}
		return elems[len(elems)-1], nil
	}
}

func arrayEndN(fn string, first bool) func([]types.Value, *types.Type) (types.Value, error) {
	return func(a []types.Value, ret *types.Type) (types.Value, error) {
		elems, n := a[0].Elems(), a[1].Int64()
		if n < 0 {
			return types.Value{}, sqlerr.New(sqlerr.OutOfRange, "the n argument to %s must not be negative, got %d", fn, n)
		}
		k := int(min(n, int64(len(elems))))
		if first {
			return types.ArrayValue(ret, elems[:k:k]), nil
		}
		return types.ArrayValue(ret, elems[len(elems)-k:]), nil
	}
}

// arrayIsDistinct compares as SELECT DISTINCT does: NULLs are equal, and
// so are NaNs.
func arrayIsDistinct(a []types.Value, _ *types.Type) (types.Value, error) {
	elems := a[0].Elems()
	if len(elems) <= 32 {
		for i := range elems {
			for j := i + 1; j < len(elems); j++ {
				if types.Equal(elems[i], elems[j]) {
					return types.BoolValue(false), nil
				}
			}
		}
		return types.BoolValue(true), nil
	}
	s := slices.Clone(elems)
	slices.SortFunc(s, types.Compare)
	for i := 1; i < len(s); i++ {
		if types.Equal(s[i-1], s[i]) {
			return types.BoolValue(false), nil
		}
	}
	return types.BoolValue(true), nil
}

// arrayElemEq is the = operator on array elements: NULL and NaN equal nothing.
func arrayElemEq(a, b types.Value) bool {
	return !a.IsNull() && !b.IsNull() && !a.IsNaN() && !b.IsNaN() && types.Compare(a, b) == 0
}

func arrayIncludes(a []types.Value, _ *types.Type) (types.Value, error) {
	for _, e := range a[0].Elems() {
		if arrayElemEq(e, a[1]) {
			return types.BoolValue(true), nil
		}
	}
	return types.BoolValue(false), nil
}

func arrayIncludesAny(a []types.Value, _ *types.Type) (types.Value, error) {
	for _, v := range a[1].Elems() {
		for _, e := range a[0].Elems() {
			if arrayElemEq(e, v) {
				return types.BoolValue(true), nil
			}
		}
	}
	return types.BoolValue(false), nil
}

// arrayIncludesAll is TRUE for no search values; a NULL search value is
// never found.
func arrayIncludesAll(a []types.Value, _ *types.Type) (types.Value, error) {
	for _, v := range a[1].Elems() {
		found := false
		for _, e := range a[0].Elems() {
			if found = arrayElemEq(e, v); found {
				break
			}
		}
		if !found {
			return types.BoolValue(false), nil
		}
	}
	return types.BoolValue(true), nil
}

// arrayOffset is the offset of the first (or, with find mode 'LAST', the
// last) element equal to the target, or NULL.
func arrayOffset(a []types.Value, _ *types.Type) (types.Value, error) {
	elems := a[0].Elems()
	last := false
	if len(a) == 3 {
		switch strings.ToUpper(a[2].Str()) {
		case "FIRST":
		case "LAST":
			last = true
		default:
			return types.Value{}, sqlerr.New(sqlerr.InvalidArgument,
				"ARRAY_OFFSET: find mode must be 'FIRST' or 'LAST', got %q", a[2].Str())
		}
	}
	for k := range elems {
		i := k
		if last {
			i = len(elems) - 1 - k
		}
		if arrayElemEq(elems[i], a[1]) {
			return types.Int64Value(int64(i)), nil
		}
	}
	return types.NullOf(types.Int64), nil
}

func arrayOffsets(a []types.Value, ret *types.Type) (types.Value, error) {
	var out []types.Value
	for i, e := range a[0].Elems() {
		if arrayElemEq(e, a[1]) {
			out = append(out, types.Int64Value(int64(i)))
		}
	}
	return types.ArrayValue(ret, out), nil
}

// arraySeqCount is the number of elements of start, start+step, ... up to end
// (inclusive), without overflow; step is not 0.
func arraySeqCount(start, end, step int64) uint64 {
	if step > 0 && start > end || step < 0 && start < end {
		return 0
	}
	if step > 0 {
		return (uint64(end)-uint64(start))/uint64(step) + 1
	}
	return (uint64(start)-uint64(end))/(-uint64(step)) + 1
}

func generateInts(a []types.Value, ret *types.Type) (types.Value, error) {
	start, end, step := a[0].Int64(), a[1].Int64(), int64(1)
	if len(a) == 3 {
		step = a[2].Int64()
	}
	if step == 0 {
		return types.Value{}, sqlerr.New(sqlerr.OutOfRange, "GENERATE_ARRAY: the step cannot be 0")
	}
	n := arraySeqCount(start, end, step)
	if n > arrayMaxGenerated {
		return types.Value{}, arrayTooLong("GENERATE_ARRAY")
	}
	out := make([]types.Value, n)
	for i := range out {
		out[i] = types.Int64Value(start + int64(i)*step)
	}
	return types.ArrayValue(ret, out), nil
}

func generateFloats(a []types.Value, ret *types.Type) (types.Value, error) {
	start, end, step := a[0].Float64(), a[1].Float64(), 1.0
	if len(a) == 3 {
		step = a[2].Float64()
	}
	switch {
	case math.IsNaN(start) || math.IsNaN(end) || math.IsNaN(step):
		return types.Value{}, sqlerr.New(sqlerr.OutOfRange, "GENERATE_ARRAY: arguments cannot be NaN")
	case step == 0 || math.IsInf(step, 0):
		return types.Value{}, sqlerr.New(sqlerr.OutOfRange, "GENERATE_ARRAY: the step cannot be %v", step)
	}
	if n := math.Floor((end-start)/step) + 1; n > arrayMaxGenerated {
		return types.Value{}, arrayTooLong("GENERATE_ARRAY")
	}
	var out []types.Value
	for v := start; step > 0 && v <= end || step < 0 && v >= end; v += step {
		if len(out) == arrayMaxGenerated {
			return types.Value{}, arrayTooLong("GENERATE_ARRAY")
		}
		out = append(out, types.Float64Value(v))
	}
	return types.ArrayValue(ret, out), nil
}

func arrayTooLong(fn string) error {
	return sqlerr.New(sqlerr.OutOfRange, "%s cannot produce more than %d elements", fn, arrayMaxGenerated)
}

// generateDates steps from the first date to the second by n DAY, WEEK,
// MONTH, QUARTER or YEAR (default 1 DAY). Month steps count from the first
// date and clamp to the end of a shorter month (Jan 31 + 1 MONTH is Feb 29
// or 28).
func generateDates(a []types.Value, ret *types.Type) (types.Value, error) {
	start, end, n, part := a[0].Int64(), a[1].Int64(), int64(1), "DAY"
	if len(a) == 4 {
		n, part = a[2].Int64(), strings.ToUpper(a[3].Str())
	}
	months := int64(0)
	switch part {
	case "DAY":
	case "WEEK":
		if n > math.MaxInt64/7 || n < math.MinInt64/7 {
			return types.Value{}, sqlerr.New(sqlerr.OutOfRange, "GENERATE_DATE_ARRAY: step %d WEEK is out of range", n)
		}
		n *= 7
	case "MONTH", "QUARTER", "YEAR":
		months = map[string]int64{"MONTH": 1, "QUARTER": 3, "YEAR": 12}[part]
	default:
		return types.Value{}, sqlerr.New(sqlerr.InvalidArgument,
			"GENERATE_DATE_ARRAY: the step must be in DAY, WEEK, MONTH, QUARTER or YEAR, got %s", part)
	}
	if n == 0 {
		return types.Value{}, sqlerr.New(sqlerr.OutOfRange, "GENERATE_DATE_ARRAY: the step cannot be 0")
	}
	if months == 0 {
		c := arraySeqCount(start, end, n)
		if c > arrayMaxGenerated {
			return types.Value{}, arrayTooLong("GENERATE_DATE_ARRAY")
		}
		out := make([]types.Value, c)
		for i := range out {
			out[i] = types.DateValue(start + int64(i)*n)
		}
		return types.ArrayValue(ret, out), nil
	}
	var out []types.Value
	for i := int64(0); ; i++ {
		d, ok := arrayAddMonths(start, i, n*months)
		if !ok || n > 0 && d > end || n < 0 && d < end {
			break
		}
		out = append(out, types.DateValue(d))
	}
	return types.ArrayValue(ret, out), nil
}

// timestampSteps are the microseconds of GENERATE_TIMESTAMP_ARRAY's step
// parts.
var timestampSteps = map[string]int64{"MICROSECOND": 1, "MILLISECOND": 1000, "SECOND": 1_000_000,
	"MINUTE": 60_000_000, "HOUR": 3_600_000_000, "DAY": 86_400_000_000}

// generateTimestamps steps from the first timestamp to the second by
// INTERVAL n part (n and the part name).
func generateTimestamps(a []types.Value, ret *types.Type) (types.Value, error) {
	start, end, n, part := a[0].Int64(), a[1].Int64(), a[2].Int64(), strings.ToUpper(a[3].Str())
	unit, ok := timestampSteps[part]
	if !ok {
		return types.Value{}, sqlerr.New(sqlerr.InvalidArgument,
			"GENERATE_TIMESTAMP_ARRAY: the step must be in MICROSECOND, MILLISECOND, SECOND, MINUTE, HOUR or DAY, got %s", part)
	}
	if n == 0 {
		return types.Value{}, sqlerr.New(sqlerr.OutOfRange, "GENERATE_TIMESTAMP_ARRAY: the step cannot be 0")
	}
	if n > math.MaxInt64/unit || n < math.MinInt64/unit {
		return types.Value{}, sqlerr.New(sqlerr.OutOfRange, "GENERATE_TIMESTAMP_ARRAY: step %d %s is out of range", n, part)
	}
	step := n * unit
	c := arraySeqCount(start, end, step)
	if c > arrayMaxGenerated {
		return types.Value{}, arrayTooLong("GENERATE_TIMESTAMP_ARRAY")
	}
	out := make([]types.Value, c)
	for i := range out {
		out[i] = types.TimestampValue(start + int64(i)*step)
	}
	return types.ArrayValue(ret, out), nil
}

// arrayAddMonths adds i*step months to a date (days since the epoch),
// clamping the day to the month's length; ok is false outside years
// 1..9999.
func arrayAddMonths(days, i, step int64) (int64, bool) {
	if i != 0 && (step > 120000 || step < -120000 || i > 120000) {
		return 0, false
	}
	y, m, d := time.Unix(days*86400, 0).UTC().Date()
	total := int64(y)*12 + int64(m-1) + i*step
	if total < 12 || total >= 10000*12 {
		return 0, false
	}
	ny, nm := int(total/12), time.Month(total%12+1)
	if last := time.Date(ny, nm+1, 0, 0, 0, 0, 0, time.UTC).Day(); d > last {
		d = last
	}
	return time.Date(ny, nm, d, 0, 0, 0, 0, time.UTC).Unix() / 86400, true
}
