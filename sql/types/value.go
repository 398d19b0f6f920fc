package types

import (
	"math"
	"time"
)

// Value is a SQL value. The zero Value is the untyped NULL.
//
// Representation by kind: BOOL, INT64, ENUM, DATE (days since 1970-01-01)
// and TIMESTAMP (microseconds since the epoch, UTC) use i; FLOAT32 and
// FLOAT64 use f; STRING, BYTES and PROTO (serialized message) use b; ARRAY
// elements and STRUCT fields use elems; a MAP stores alternating keys and
// values in elems, sorted by key (invariant T3).
type Value struct {
	t     *Type
	null  bool
	i     int64
	f     float64
	b     []byte
	elems []Value
}

// Null is the untyped NULL.
var Null = Value{}

// NullOf returns the NULL of type t.
func NullOf(t *Type) Value { return Value{t: t, null: true} }

// BoolValue, Int64Value... construct non-NULL scalars. Byte-slice
// constructors alias their argument.
func BoolValue(v bool) Value {
	if v {
		return Value{t: Bool, i: 1}
	}
	return Value{t: Bool}
}

// Int64Value returns an INT64.
func Int64Value(v int64) Value { return Value{t: Int64, i: v} }

// Float64Value returns a FLOAT64.
func Float64Value(v float64) Value { return Value{t: Float64, f: v} }

// Float32Value returns a FLOAT32.
func Float32Value(v float32) Value { return Value{t: Float32, f: float64(v)} }

// StringValue returns a STRING; s must be valid UTF-8 (T2).
func StringValue(s string) Value { return Value{t: String, b: []byte(s)} }

// StringBytesValue returns a STRING holding b (aliased); b must be UTF-8.
func StringBytesValue(b []byte) Value { return Value{t: String, b: b} }

// BytesValue returns a BYTES holding b (aliased). A nil b is the empty
// string of bytes, not NULL.
func BytesValue(b []byte) Value {
	if b == nil {
		b = []byte{}
	}
	return Value{t: Bytes, b: b}
}

// DateValue returns a DATE of days since 1970-01-01.
func DateValue(days int64) Value { return Value{t: Date, i: days} }

// TimestampValue returns a TIMESTAMP of microseconds since the epoch.
func TimestampValue(micros int64) Value { return Value{t: Timestamp, i: micros} }

// TimeValue returns the TIMESTAMP of tm, truncated to microseconds.
func TimeValue(tm time.Time) Value { return TimestampValue(tm.UnixMicro()) }

// ArrayValue returns an ARRAY of type t (t.Kind == KindArray) holding elems
// (aliased).
func ArrayValue(t *Type, elems []Value) Value {
	if elems == nil {
		elems = []Value{}
	}
	return Value{t: t, elems: elems}
}

// StructValue returns a STRUCT of type t holding fields (aliased).
func StructValue(t *Type, fields []Value) Value { return Value{t: t, elems: fields} }

// MapValue returns a MAP of type t; kv alternates keys and values, sorted
// by key with unique keys (the caller's duty, T3).
func MapValue(t *Type, kv []Value) Value {
	if kv == nil {
		kv = []Value{}
	}
	return Value{t: t, elems: kv}
}

// ProtoValue returns a PROTO of type t holding the serialized message b.
func ProtoValue(t *Type, b []byte) Value { return Value{t: t, b: b} }

// EnumValue returns an ENUM of type t with number n.
func EnumValue(t *Type, n int64) Value { return Value{t: t, i: n} }

// Type returns the value's type; nil for the untyped NULL.
func (v Value) Type() *Type { return v.t }

// IsNull reports whether v is NULL (typed or not).
func (v Value) IsNull() bool { return v.t == nil || v.null }

// Kind returns the kind of v's type (KindInvalid for the untyped NULL).
func (v Value) Kind() Kind {
	if v.t == nil {
		return KindInvalid
	}
	return v.t.Kind
}

// Bool returns a BOOL's value.
func (v Value) Bool() bool { return v.i != 0 }

// Int64 returns an INT64's or ENUM's value, a DATE's days or a TIMESTAMP's
// microseconds.
func (v Value) Int64() int64 { return v.i }

// Float64 returns a FLOAT32's or FLOAT64's value.
func (v Value) Float64() float64 { return v.f }

// Bytes returns the bytes of a BYTES, STRING or PROTO (aliased).
func (v Value) Bytes() []byte { return v.b }

// Str returns a STRING's value.
func (v Value) Str() string { return string(v.b) }

// Time returns a TIMESTAMP as a time.Time in UTC.
func (v Value) Time() time.Time { return time.UnixMicro(v.i).UTC() }

// Elems returns an ARRAY's elements or a STRUCT's fields (aliased).
func (v Value) Elems() []Value { return v.elems }

// Len returns the number of elements of an ARRAY, fields of a STRUCT or
// entries of a MAP.
func (v Value) Len() int {
	if v.Kind() == KindMap {
		return len(v.elems) / 2
	}
	return len(v.elems)
}

// MapEntry returns the i-th key and value of a MAP, in key order.
func (v Value) MapEntry(i int) (key, value Value) { return v.elems[2*i], v.elems[2*i+1] }

// MapGet returns the value under key, and whether it exists.
func (v Value) MapGet(key Value) (Value, bool) {
	lo, hi := 0, v.Len()
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch c := Compare(v.elems[2*m], key); {
		case c == 0:
			return v.elems[2*m+1], true
		case c < 0:
			lo = m + 1
		default:
			hi = m
		}
	}
	return Value{}, false
}

// IsNaN reports whether a float value is NaN.
func (v Value) IsNaN() bool {
	return (v.Kind() == KindFloat64 || v.Kind() == KindFloat32) && math.IsNaN(v.Float64())
}
