package btserver

import (
	"math"
	"time"
	"unicode/utf8"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/shale-db/shale/sql/types"
)

// Result values in ProtoRows (spec §4.8): NULL sets no kind; BYTES and
// PROTO bytes_value; STRING string_value; INT64 and ENUM int_value; BOOL
// bool_value; FLOAT32/64 float_value (finite only); TIMESTAMP
// timestamp_value; DATE date_value; ARRAY and STRUCT array_value (a struct
// holds its fields in order); MAP array_value of [key, value] pairs. Nested
// values never set type.
//
// Values are written straight into the wire form of google.bigtable.v2.Value
// (no message objects: this is the per-cell hot path). valueSize computes
// the size of a value's body and checks that it can be sent; appendValue
// then writes it and cannot fail. query_encode_test.go checks both against
// the generated messages.

// Field numbers of the messages written here.
const (
	valueBytes     = 2  // Value.bytes_value
	valueString    = 3  // Value.string_value
	valueArray     = 4  // Value.array_value
	valueInt       = 6  // Value.int_value
	valueBool      = 10 // Value.bool_value
	valueFloat     = 11 // Value.float_value
	valueTimestamp = 12 // Value.timestamp_value
	valueDate      = 13 // Value.date_value
	arrayValues    = 1  // ArrayValue.values
)

// valueSize returns the size of v's Value body, or an error if v has no
// wire form (NaN, infinities, out-of-range dates and timestamps).
func valueSize(v types.Value) (int, error) {
	if v.IsNull() {
		return 0, nil
	}
	switch v.Kind() {
	case types.KindBool:
		return 2, nil
	case types.KindInt64, types.KindEnum:
		return 1 + protowire.SizeVarint(uint64(v.Int64())), nil
	case types.KindFloat32, types.KindFloat64:
		if f := v.Float64(); math.IsNaN(f) || math.IsInf(f, 0) {
			return 0, status.Errorf(codes.OutOfRange,
				"a %s result is %v: the Bigtable API cannot transport NaN or infinities", v.Type(), f)
		}
		return 9, nil
	case types.KindString:
		// A client would reject the whole batch (invariant T2 of sql/types).
		if !utf8.Valid(v.Bytes()) {
			return 0, status.Error(codes.Internal, "a STRING result is not valid UTF-8")
		}
		return 1 + protowire.SizeBytes(len(v.Bytes())), nil
	case types.KindBytes, types.KindProto:
		return 1 + protowire.SizeBytes(len(v.Bytes())), nil
	case types.KindTimestamp:
		if v.Int64() < minTimestampMicros || v.Int64() > maxTimestampMicros {
			return 0, status.Errorf(codes.OutOfRange, "TIMESTAMP result out of range: %d µs since the epoch", v.Int64())
		}
		return 1 + protowire.SizeBytes(timestampSize(v.Int64())), nil
	case types.KindDate:
		y, m, d := civilDate(v.Int64())
		if y < 1 || y > 9999 {
			return 0, status.Errorf(codes.OutOfRange, "DATE result out of range: %d days since 1970-01-01", v.Int64())
		}
		return 1 + protowire.SizeBytes(dateSize(y, m, d)), nil
	case types.KindArray, types.KindStruct, types.KindMap:
		n, err := arraySize(v)
		if err != nil {
			return 0, err
		}
		return 1 + protowire.SizeBytes(n), nil
	}
	return 0, status.Errorf(codes.Internal, "cannot encode a %s result", v.Type())
}

// arraySize is the size of the ArrayValue body of an ARRAY, STRUCT or MAP.
func arraySize(v types.Value) (int, error) {
	n := 0
	if v.Kind() == types.KindMap {
		for i := 0; i < v.Len(); i++ {
			k, val := v.MapEntry(i)
			p, err := pairSize(k, val)
			if err != nil {
				return 0, err
			}
			n += 1 + protowire.SizeBytes(1+protowire.SizeBytes(p))
		}
		return n, nil
	}
	for _, e := range v.Elems() {
		s, err := valueSize(e)
		if err != nil {
			return 0, err
		}
		n += 1 + protowire.SizeBytes(s)
	}
	return n, nil
}

// pairSize is the size of the ArrayValue body of a map entry [k, v].
func pairSize(k, v types.Value) (int, error) {
	ks, err := valueSize(k)
	if err != nil {
		return 0, err
	}
	vs, err := valueSize(v)
	if err != nil {
		return 0, err
	}
	return 1 + protowire.SizeBytes(ks) + 1 + protowire.SizeBytes(vs), nil
}

// appendValue appends v's Value body, whose size valueSize returned
// without error.
func appendValue(b []byte, v types.Value) []byte {
	if v.IsNull() {
		return b
	}
	switch v.Kind() {
	case types.KindBool:
		b = protowire.AppendTag(b, valueBool, protowire.VarintType)
		return protowire.AppendVarint(b, protowire.EncodeBool(v.Bool()))
	case types.KindInt64, types.KindEnum:
		b = protowire.AppendTag(b, valueInt, protowire.VarintType)
		return protowire.AppendVarint(b, uint64(v.Int64()))
	case types.KindFloat32, types.KindFloat64:
		b = protowire.AppendTag(b, valueFloat, protowire.Fixed64Type)
		return protowire.AppendFixed64(b, math.Float64bits(v.Float64()))
	case types.KindString:
		b = protowire.AppendTag(b, valueString, protowire.BytesType)
		return protowire.AppendBytes(b, v.Bytes())
	case types.KindBytes, types.KindProto:
		b = protowire.AppendTag(b, valueBytes, protowire.BytesType)
		return protowire.AppendBytes(b, v.Bytes())
	case types.KindTimestamp:
		b = protowire.AppendTag(b, valueTimestamp, protowire.BytesType)
		return appendTimestamp(b, v.Int64())
	case types.KindDate:
		b = protowire.AppendTag(b, valueDate, protowire.BytesType)
		return appendDate(b, v.Int64())
	}
	// ARRAY, STRUCT, MAP (the sizes were checked by valueSize).
	n, _ := arraySize(v)
	b = protowire.AppendTag(b, valueArray, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(n))
	if v.Kind() == types.KindMap {
		for i := 0; i < v.Len(); i++ {
			k, val := v.MapEntry(i)
			p, _ := pairSize(k, val)
			b = protowire.AppendTag(b, arrayValues, protowire.BytesType)
			b = protowire.AppendVarint(b, uint64(1+protowire.SizeBytes(p)))
			b = protowire.AppendTag(b, valueArray, protowire.BytesType)
			b = protowire.AppendVarint(b, uint64(p))
			b = appendElem(b, k)
			b = appendElem(b, val)
		}
		return b
	}
	for _, e := range v.Elems() {
		b = appendElem(b, e)
	}
	return b
}

// appendElem appends v as one ArrayValue.values entry.
func appendElem(b []byte, v types.Value) []byte {
	n, _ := valueSize(v)
	b = protowire.AppendTag(b, arrayValues, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(n))
	return appendValue(b, v)
}

// The TIMESTAMP range of GoogleSQL and of google.protobuf.Timestamp:
// 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999Z.
const (
	minTimestampMicros = -62135596800 * 1e6
	maxTimestampMicros = 253402300800*1e6 - 1
)

// splitMicros returns the seconds and nanoseconds of a google.protobuf.Timestamp.
func splitMicros(us int64) (sec int64, nanos int32) {
	sec, rem := us/1e6, us%1e6
	if rem < 0 {
		sec, rem = sec-1, rem+1e6
	}
	return sec, int32(rem * 1000)
}

func timestampSize(us int64) int {
	sec, nanos := splitMicros(us)
	n := 0
	if sec != 0 {
		n += 1 + protowire.SizeVarint(uint64(sec))
	}
	if nanos != 0 {
		n += 1 + protowire.SizeVarint(uint64(nanos))
	}
	return n
}

func appendTimestamp(b []byte, us int64) []byte {
	sec, nanos := splitMicros(us)
	b = protowire.AppendVarint(b, uint64(timestampSize(us)))
	if sec != 0 {
		b = protowire.AppendTag(b, 1, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(sec))
	}
	if nanos != 0 {
		b = protowire.AppendTag(b, 2, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(nanos))
	}
	return b
}

// civilDate converts days since 1970-01-01 to a year, month and day.
func civilDate(days int64) (y, m, d int) {
	yy, mm, dd := time.Unix(days*86400, 0).UTC().Date()
	return yy, int(mm), dd
}

func dateSize(y, m, d int) int {
	return 3 + protowire.SizeVarint(uint64(y)) + protowire.SizeVarint(uint64(m)) + protowire.SizeVarint(uint64(d))
}

func appendDate(b []byte, days int64) []byte {
	y, m, d := civilDate(days)
	b = protowire.AppendVarint(b, uint64(dateSize(y, m, d)))
	for i, x := range [3]int{y, m, d} {
		b = protowire.AppendTag(b, protowire.Number(i+1), protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(x))
	}
	return b
}

// checkRow verifies that a row fits the result columns: one value per
// column, each NULL or of its column's kind.
func checkRow(row []types.Value, cols []types.Field) error {
	if len(row) != len(cols) {
		return status.Errorf(codes.Internal, "a result row has %d values for %d columns", len(row), len(cols))
	}
	for i, v := range row {
		if !v.IsNull() && v.Kind() != cols[i].Type.Kind {
			return status.Errorf(codes.Internal, "column %q: a %s value in a %s column", cols[i].Name, v.Type(), cols[i].Type)
		}
	}
	return nil
}
