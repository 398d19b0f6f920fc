package btserver

import (
	"fmt"
	"math"
	"time"
	"unicode/utf8"

	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"

	"github.com/shale-db/shale/sql/types"
	"github.com/shale-db/shale/storage"
)

// bindParams converts ExecuteQuery's params against the declared types
// (spec §4.7): every declared parameter must be bound and no other; a
// Value's type may be omitted but must match when present; a Value with no
// kind is a typed NULL.
func bindParams(vals map[string]*btpb.Value, declared map[string]*types.Type) (map[string]types.Value, error) {
	for _, name := range sortedKeys(declared) {
		if _, ok := vals[name]; !ok {
			return nil, fmt.Errorf("%w: parameter %q is declared but not bound", storage.ErrInvalidArgument, name)
		}
	}
	out := make(map[string]types.Value, len(vals))
	for _, name := range sortedKeys(vals) {
		t, ok := declared[name]
		if !ok {
			return nil, fmt.Errorf("%w: parameter %q is not declared in the prepared query", storage.ErrInvalidArgument, name)
		}
		pv := vals[name]
		if pv.GetType() != nil {
			vt, err := toParamType(pv.GetType())
			if err != nil || !vt.Equal(t) {
				return nil, fmt.Errorf("%w: parameter %q: value type does not match the declared type %s", storage.ErrInvalidArgument, name, t)
			}
		}
		v, err := fromProtoValue(pv, t)
		if err != nil {
			return nil, fmt.Errorf("%w: parameter %q: %v", storage.ErrInvalidArgument, name, err)
		}
		out[name] = v
	}
	return out, nil
}

// paramTypesOf takes the parameter types from the values themselves: the
// deprecated ExecuteQuery form with query text requires Value.type.
func paramTypesOf(vals map[string]*btpb.Value) (map[string]*btpb.Type, error) {
	out := make(map[string]*btpb.Type, len(vals))
	for name, v := range vals {
		if v.GetType() == nil {
			return nil, fmt.Errorf("%w: parameter %q: type is required when query is set", storage.ErrInvalidArgument, name)
		}
		out[name] = v.GetType()
	}
	return out, nil
}

// fromProtoValue converts a parameter value of type t (a scalar or an
// array of scalars).
func fromProtoValue(pv *btpb.Value, t *types.Type) (types.Value, error) {
	if pv.GetKind() == nil {
		return types.NullOf(t), nil
	}
	switch t.Kind {
	case types.KindBytes:
		if k, ok := pv.Kind.(*btpb.Value_BytesValue); ok {
			return types.BytesValue(k.BytesValue), nil
		}
	case types.KindString:
		if k, ok := pv.Kind.(*btpb.Value_StringValue); ok {
			if !utf8.ValidString(k.StringValue) {
				return types.Value{}, fmt.Errorf("invalid UTF-8")
			}
			return types.StringValue(k.StringValue), nil
		}
	case types.KindInt64:
		if k, ok := pv.Kind.(*btpb.Value_IntValue); ok {
			return types.Int64Value(k.IntValue), nil
		}
	case types.KindBool:
		if k, ok := pv.Kind.(*btpb.Value_BoolValue); ok {
			return types.BoolValue(k.BoolValue), nil
		}
	case types.KindFloat32, types.KindFloat64:
		if k, ok := pv.Kind.(*btpb.Value_FloatValue); ok {
			return floatParam(k.FloatValue, t)
		}
	case types.KindTimestamp:
		if k, ok := pv.Kind.(*btpb.Value_TimestampValue); ok {
			if err := k.TimestampValue.CheckValid(); err != nil {
				return types.Value{}, err
			}
			return types.TimeValue(k.TimestampValue.AsTime()), nil
		}
	case types.KindDate:
		if k, ok := pv.Kind.(*btpb.Value_DateValue); ok {
			return dateParam(k.DateValue.GetYear(), k.DateValue.GetMonth(), k.DateValue.GetDay())
		}
	case types.KindArray:
		if k, ok := pv.Kind.(*btpb.Value_ArrayValue); ok {
			return arrayParam(k.ArrayValue.GetValues(), t)
		}
	}
	return types.Value{}, fmt.Errorf("a %s value cannot be a %s", valueKindName(pv), t)
}

func floatParam(f float64, t *types.Type) (types.Value, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return types.Value{}, fmt.Errorf("NaN and infinities are not supported")
	}
	if t.Kind == types.KindFloat64 {
		return types.Float64Value(f), nil
	}
	if math.Abs(f) > math.MaxFloat32 {
		return types.Value{}, fmt.Errorf("%g is out of range for FLOAT32", f)
	}
	return types.Float32Value(float32(f)), nil
}

// dateParam checks a google.type.Date (all parts required) and converts it
// to days since 1970-01-01.
func dateParam(y, m, d int32) (types.Value, error) {
	tm := time.Date(int(y), time.Month(m), int(d), 0, 0, 0, 0, time.UTC)
	if y < 1 || y > 9999 || tm.Year() != int(y) || tm.Month() != time.Month(m) || tm.Day() != int(d) {
		return types.Value{}, fmt.Errorf("invalid date %04d-%02d-%02d", y, m, d)
	}
	return types.DateValue(tm.Unix() / 86400), nil
}

func arrayParam(elems []*btpb.Value, t *types.Type) (types.Value, error) {
	vals := make([]types.Value, len(elems))
	for i, e := range elems {
		if e.GetType() != nil {
			return types.Value{}, fmt.Errorf("element %d: nested values must not set type", i)
		}
		v, err := fromProtoValue(e, t.Elem)
		if err != nil {
			return types.Value{}, fmt.Errorf("element %d: %v", i, err)
		}
		vals[i] = v
	}
	return types.ArrayValue(t, vals), nil
}

// valueKindName names the oneof a Value sets, for error messages.
func valueKindName(pv *btpb.Value) string {
	switch pv.GetKind().(type) {
	case *btpb.Value_BytesValue:
		return "bytes_value"
	case *btpb.Value_StringValue:
		return "string_value"
	case *btpb.Value_IntValue:
		return "int_value"
	case *btpb.Value_BoolValue:
		return "bool_value"
	case *btpb.Value_FloatValue:
		return "float_value"
	case *btpb.Value_TimestampValue:
		return "timestamp_value"
	case *btpb.Value_DateValue:
		return "date_value"
	case *btpb.Value_ArrayValue:
		return "array_value"
	case *btpb.Value_RawValue:
		return "raw_value"
	case *btpb.Value_RawTimestampMicros:
		return "raw_timestamp_micros"
	}
	return fmt.Sprintf("%T", pv.GetKind())
}
