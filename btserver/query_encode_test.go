package btserver

import (
	"math"
	"testing"
	"time"

	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
	"google.golang.org/genproto/googleapis/type/date"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/shale-db/shale/sql/types"
)

// refValue is the reference conversion through the generated messages.
func refValue(v types.Value) *btpb.Value {
	if v.IsNull() {
		return &btpb.Value{}
	}
	switch v.Kind() {
	case types.KindBool:
		return &btpb.Value{Kind: &btpb.Value_BoolValue{BoolValue: v.Bool()}}
	case types.KindInt64, types.KindEnum:
		return &btpb.Value{Kind: &btpb.Value_IntValue{IntValue: v.Int64()}}
	case types.KindFloat32, types.KindFloat64:
		return &btpb.Value{Kind: &btpb.Value_FloatValue{FloatValue: v.Float64()}}
	case types.KindString:
		return &btpb.Value{Kind: &btpb.Value_StringValue{StringValue: v.Str()}}
	case types.KindBytes, types.KindProto:
		return &btpb.Value{Kind: &btpb.Value_BytesValue{BytesValue: append([]byte{}, v.Bytes()...)}}
	case types.KindTimestamp:
		return &btpb.Value{Kind: &btpb.Value_TimestampValue{TimestampValue: timestamppb.New(v.Time())}}
	case types.KindDate:
		y, m, d := time.Unix(v.Int64()*86400, 0).UTC().Date()
		return &btpb.Value{Kind: &btpb.Value_DateValue{DateValue: &date.Date{Year: int32(y), Month: int32(m), Day: int32(d)}}}
	case types.KindMap:
		var pairs []*btpb.Value
		for i := 0; i < v.Len(); i++ {
			k, val := v.MapEntry(i)
			pairs = append(pairs, &btpb.Value{Kind: &btpb.Value_ArrayValue{ArrayValue: &btpb.ArrayValue{Values: []*btpb.Value{refValue(k), refValue(val)}}}})
		}
		return &btpb.Value{Kind: &btpb.Value_ArrayValue{ArrayValue: &btpb.ArrayValue{Values: pairs}}}
	}
	var elems []*btpb.Value
	for _, e := range v.Elems() {
		elems = append(elems, refValue(e))
	}
	return &btpb.Value{Kind: &btpb.Value_ArrayValue{ArrayValue: &btpb.ArrayValue{Values: elems}}}
}

func TestEncodeValueMatchesMessages(t *testing.T) {
	b := func(s string) types.Value { return types.BytesValue([]byte(s)) }
	st := types.StructOf(types.Field{Name: "a", Type: types.Int64}, types.Field{Name: "b", Type: types.Bytes})
	m := types.MapOf(types.Bytes, types.ArrayOf(st))
	vals := []types.Value{
		types.Null, types.NullOf(types.Int64), types.BoolValue(false), types.BoolValue(true),
		types.Int64Value(0), types.Int64Value(-1), types.Int64Value(math.MaxInt64), types.Int64Value(math.MinInt64),
		types.Float64Value(0), types.Float64Value(-2.5), types.Float32Value(1e30), types.Float64Value(math.SmallestNonzeroFloat64),
		types.StringValue(""), types.StringValue("héllo"), b(""), b("\x00\xff"), types.BytesValue(make([]byte, 300)),
		types.TimestampValue(0), types.TimestampValue(1), types.TimestampValue(-1), types.TimestampValue(-1_500_000),
		types.TimestampValue(minTimestampMicros), types.TimestampValue(maxTimestampMicros),
		types.DateValue(0), types.DateValue(-1), types.DateValue(2932896), types.DateValue(-719162),
		types.ProtoValue(types.ProtoOf("a.B"), []byte{8, 1}), types.EnumValue(types.EnumOf("a.E"), -3),
		types.ArrayValue(types.ArrayOf(types.Int64), nil),
		types.ArrayValue(types.ArrayOf(types.Int64), []types.Value{types.Int64Value(1), types.NullOf(types.Int64)}),
		types.StructValue(st, []types.Value{types.Int64Value(1), types.NullOf(types.Bytes)}),
		types.MapValue(m, nil),
		types.MapValue(m, []types.Value{
			b("k1"), types.ArrayValue(types.ArrayOf(st), []types.Value{types.StructValue(st, []types.Value{types.Int64Value(5), b("v")})}),
			b("k2"), types.NullOf(types.ArrayOf(st)),
		}),
	}
	for _, v := range vals {
		n, err := valueSize(v)
		if err != nil {
			t.Errorf("%v: %v", v, err)
			continue
		}
		enc := appendValue(nil, v)
		if len(enc) != n {
			t.Errorf("%v: size %d, wrote %d bytes", v, n, len(enc))
		}
		var got btpb.Value
		if err := proto.Unmarshal(enc, &got); err != nil {
			t.Errorf("%v: %x does not parse: %v", v, enc, err)
			continue
		}
		if want := refValue(v); !proto.Equal(&got, want) {
			t.Errorf("%v: decoded %v, want %v", v, &got, want)
		}
		// As a ProtoRows entry, as the writer frames it.
		row := protowire.AppendBytes(protowire.AppendTag(nil, protoRowsValues, protowire.BytesType), enc)
		var rows btpb.ProtoRows
		if err := proto.Unmarshal(row, &rows); err != nil || len(rows.GetValues()) != 1 {
			t.Errorf("%v: framed row does not parse: %v", v, err)
		}
	}
}

func TestEncodeValueErrors(t *testing.T) {
	arr := types.ArrayOf(types.Float64)
	for _, v := range []types.Value{
		types.Float64Value(math.NaN()), types.Float64Value(math.Inf(-1)), types.Float32Value(float32(math.Inf(1))),
		types.ArrayValue(arr, []types.Value{types.Float64Value(math.NaN())}),
		types.TimestampValue(maxTimestampMicros + 1), types.DateValue(2932897), types.DateValue(-719163),
	} {
		_, err := valueSize(v)
		if status.Code(err) != codes.OutOfRange {
			t.Errorf("%v: got %v, want OUT_OF_RANGE", v, err)
		}
	}
	if _, err := valueSize(types.StringBytesValue([]byte{0xff})); status.Code(err) != codes.Internal {
		t.Errorf("invalid UTF-8: got %v, want INTERNAL", err)
	}
}
