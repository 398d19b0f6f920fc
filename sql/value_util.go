package sql

import (
	"slices"

	"github.com/shale-db/shale/sql/types"
)

// CopyValue deep-copies v so it no longer aliases row buffers.
func CopyValue(v types.Value) types.Value {
	if v.IsNull() {
		return v
	}
	switch v.Kind() {
	case types.KindString:
		return types.StringBytesValue(slices.Clone(v.Bytes()))
	case types.KindBytes:
		return types.BytesValue(slices.Clone(v.Bytes()))
	case types.KindProto:
		return types.ProtoValue(v.Type(), slices.Clone(v.Bytes()))
	case types.KindArray, types.KindStruct, types.KindMap:
		src := v.Elems()
		if v.Kind() == types.KindMap {
			src = mapElems(v)
		}
		out := make([]types.Value, len(src))
		for i, e := range src {
			out[i] = CopyValue(e)
		}
		switch v.Kind() {
		case types.KindArray:
			return types.ArrayValue(v.Type(), out)
		case types.KindStruct:
			return types.StructValue(v.Type(), out)
		}
		return types.MapValue(v.Type(), out)
	}
	return v
}

func mapElems(v types.Value) []types.Value {
	out := make([]types.Value, 0, 2*v.Len())
	for i := 0; i < v.Len(); i++ {
		k, val := v.MapEntry(i)
		out = append(out, k, val)
	}
	return out
}

// ValueSize estimates the memory a value holds, for memory caps.
func ValueSize(v types.Value) int64 {
	n := int64(64)
	switch v.Kind() {
	case types.KindString, types.KindBytes, types.KindProto:
		n += int64(len(v.Bytes()))
	case types.KindArray, types.KindStruct:
		for _, e := range v.Elems() {
			n += ValueSize(e)
		}
	case types.KindMap:
		for i := 0; i < v.Len(); i++ {
			k, val := v.MapEntry(i)
			n += ValueSize(k) + ValueSize(val)
		}
	}
	return n
}
