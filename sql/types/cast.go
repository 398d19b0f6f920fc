package types

import (
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shale-db/shale/sql/sqlerr"
)

// CanCast reports whether CAST(x AS to) is allowed for x of type from
// (spec §4.5, GoogleSQL conversion rules).
func CanCast(from, to *Type) bool {
	if from.Equal(to) {
		return true
	}
	switch from.Kind {
	case KindInt64:
		return to.Kind == KindBool || to.IsNumeric() || to.Kind == KindString || to.Kind == KindEnum
	case KindFloat32, KindFloat64:
		return to.IsNumeric() || to.Kind == KindString
	case KindBool:
		return to.Kind == KindInt64 || to.Kind == KindString
	case KindString:
		switch to.Kind {
		case KindBool, KindInt64, KindFloat32, KindFloat64, KindBytes, KindDate, KindTimestamp, KindEnum:
			return true
		}
	case KindBytes:
		return to.Kind == KindString || to.Kind == KindProto
	case KindDate, KindTimestamp:
		return to.Kind == KindString || to.Kind == KindDate || to.Kind == KindTimestamp
	case KindEnum:
		return to.Kind == KindInt64 || to.Kind == KindString
	case KindArray:
		return to.Kind == KindArray && CanCast(from.Elem, to.Elem)
	case KindMap:
		return to.Kind == KindMap && CanCast(from.Key, to.Key) && CanCast(from.Elem, to.Elem)
	case KindStruct:
		if to.Kind != KindStruct || len(to.Fields) != len(from.Fields) {
			return false
		}
		for i := range from.Fields {
			if !CanCast(from.Fields[i].Type, to.Fields[i].Type) {
				return false
			}
		}
		return true
	}
	return false
}

// Cast converts v to type to; CanCast(v.Type(), to) must hold. Errors are
// *sqlerr.Error without a position (InvalidValue or OutOfRange).
func Cast(v Value, to *Type) (Value, error) {
	if v.IsNull() {
		return NullOf(to), nil
	}
	from := v.Type()
	if from.Equal(to) {
		return v, nil
	}
	switch to.Kind {
	case KindBool:
		return castToBool(v)
	case KindInt64:
		return castToInt64(v)
	case KindFloat64, KindFloat32:
		return castToFloat(v, to)
	case KindString:
		return castToString(v)
	case KindBytes:
		return BytesValue(v.b), nil
	case KindDate:
		return castToDate(v)
	case KindTimestamp:
		return castToTimestamp(v)
	case KindArray:
		out := make([]Value, len(v.elems))
		for i, e := range v.elems {
			c, err := Cast(e, to.Elem)
			if err != nil {
				return Value{}, err
			}
			out[i] = c
		}
		return ArrayValue(to, out), nil
	case KindStruct:
		out := make([]Value, len(v.elems))
		for i, e := range v.elems {
			c, err := Cast(e, to.Fields[i].Type)
			if err != nil {
				return Value{}, err
			}
			out[i] = c
		}
		return StructValue(to, out), nil
	case KindEnum:
		if v.Kind() == KindString {
			return castToEnum(v, to)
		}
		return Value{t: to, i: v.i}, nil
	case KindProto:
		return Value{t: to, i: v.i, b: v.b}, nil
	}
	return Value{}, sqlerr.New(sqlerr.InvalidValue, "cannot cast %s to %s", from, to)
}

// castToEnum reads an enum value's name (or, without names, its number).
func castToEnum(v Value, to *Type) (Value, error) {
	if to.EnumNumber != nil {
		if n, ok := to.EnumNumber(string(v.b)); ok {
			return Value{t: to, i: n}, nil
		}
		return Value{}, sqlerr.New(sqlerr.InvalidValue, "%s is not a value of enum %s", v, to.Name)
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(v.b)), 10, 64)
	if err != nil {
		return Value{}, badCast(v, to)
	}
	return Value{t: to, i: n}, nil
}

func castToBool(v Value) (Value, error) {
	switch v.Kind() {
	case KindInt64:
		return BoolValue(v.i != 0), nil
	case KindString:
		switch strings.ToLower(string(v.b)) {
		case "true":
			return BoolValue(true), nil
		case "false":
			return BoolValue(false), nil
		}
	}
	return Value{}, badCast(v, Bool)
}

func castToInt64(v Value) (Value, error) {
	switch v.Kind() {
	case KindBool, KindEnum:
		return Int64Value(v.i), nil
	case KindFloat32, KindFloat64:
		f := math.Round(v.Float64())
		if math.IsNaN(f) || f < -9.223372036854775808e18 || f >= 9.223372036854775808e18 {
			return Value{}, sqlerr.New(sqlerr.OutOfRange, "int64 overflow: %s", v)
		}
		return Int64Value(int64(f)), nil
	case KindString:
		s := strings.TrimSpace(string(v.b))
		n, err := strconv.ParseInt(s, 0, 64)
		if err != nil {
			if u, err2 := strconv.ParseInt(strings.TrimPrefix(strings.ToLower(s), "0x"), 16, 64); err2 == nil && strings.HasPrefix(strings.ToLower(s), "0x") {
				return Int64Value(u), nil
			}
			return Value{}, badCast(v, Int64)
		}
		return Int64Value(n), nil
	}
	return Value{}, badCast(v, Int64)
}

func castToFloat(v Value, to *Type) (Value, error) {
	var f float64
	switch v.Kind() {
	case KindInt64:
		f = float64(v.i)
	case KindFloat32, KindFloat64:
		f = v.Float64()
	case KindString:
		var err error
		f, err = strconv.ParseFloat(strings.TrimSpace(string(v.b)), 64)
		if err != nil && !strings.Contains(err.Error(), "range") {
			return Value{}, badCast(v, to)
		}
	default:
		return Value{}, badCast(v, to)
	}
	if to.Kind == KindFloat32 {
		f32 := float32(f)
		if math.IsInf(float64(f32), 0) && !math.IsInf(f, 0) {
			return Value{}, sqlerr.New(sqlerr.OutOfRange, "float32 overflow: %s", v)
		}
		return Float32Value(f32), nil
	}
	return Float64Value(f), nil
}

func castToString(v Value) (Value, error) {
	switch v.Kind() {
	case KindBool:
		if v.Bool() {
			return StringValue("true"), nil
		}
		return StringValue("false"), nil
	case KindEnum:
		if v.t.EnumName != nil {
			if name, ok := v.t.EnumName(v.i); ok {
				return StringValue(name), nil
			}
		}
		return StringValue(strconv.FormatInt(v.i, 10)), nil
	case KindInt64:
		return StringValue(strconv.FormatInt(v.i, 10)), nil
	case KindFloat32:
		return StringValue(formatFloat(v.Float64(), 32)), nil
	case KindFloat64:
		return StringValue(formatFloat(v.Float64(), 64)), nil
	case KindBytes:
		if !utf8.Valid(v.b) {
			return Value{}, sqlerr.New(sqlerr.InvalidValue, "invalid UTF-8 in CAST(%s AS STRING)", v)
		}
		return StringBytesValue(v.b), nil
	case KindDate:
		return StringValue(time.Unix(v.i*86400, 0).UTC().Format("2006-01-02")), nil
	case KindTimestamp:
		return StringValue(v.Time().Format("2006-01-02 15:04:05.999999-07")), nil
	}
	return Value{}, badCast(v, String)
}

func formatFloat(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	// GoogleSQL prints the shortest of 15 (FLOAT32: 6) and 17 (9)
	// significant digits that reads back as the same number, in %g form:
	// 1234567 rather than 1.234567e+06, 0.1, 1e+20.
	short, long := 15, 17
	if bits == 32 {
		short, long = 6, 9
	}
	s := strconv.FormatFloat(f, 'g', short, bits)
	if back, err := strconv.ParseFloat(s, bits); err != nil || back != f {
		s = strconv.FormatFloat(f, 'g', long, bits)
	}
	return s
}

func castToDate(v Value) (Value, error) {
	switch v.Kind() {
	case KindTimestamp:
		return DateValue(floorDiv(v.i, 86400e6)), nil
	case KindString:
		tm, err := time.Parse("2006-01-02", strings.TrimSpace(string(v.b)))
		if err != nil {
			return Value{}, badCast(v, Date)
		}
		return DateValue(floorDiv(tm.Unix(), 86400)), nil
	}
	return Value{}, badCast(v, Date)
}

func castToTimestamp(v Value) (Value, error) {
	switch v.Kind() {
	case KindDate:
		return TimestampValue(v.i * 86400e6), nil
	case KindString:
		tm, ok := ParseTimestamp(string(v.b))
		if !ok {
			return Value{}, badCast(v, Timestamp)
		}
		return TimeValue(tm), nil
	}
	return Value{}, badCast(v, Timestamp)
}

var timestampLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999Z07",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02",
}

// ParseTimestamp parses a GoogleSQL timestamp string (RFC 3339, with a
// space or T separator, optional zone; no zone means UTC).
func ParseTimestamp(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	s = strings.TrimSuffix(strings.TrimSuffix(s, " UTC"), "+00")
	for _, l := range timestampLayouts {
		if tm, err := time.Parse(l, s); err == nil {
			return tm.UTC(), true
		}
	}
	return time.Time{}, false
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func badCast(v Value, to *Type) error {
	return sqlerr.New(sqlerr.InvalidValue, "bad %s value %s for CAST to %s", v.Type(), v, to)
}
