package exec

import (
	"encoding/binary"
	"math"

	"github.com/shale-db/shale/sql/types"
)

// appendKey appends an injective encoding of v (grouping and DISTINCT:
// NULLs group together, numbers compare by value).
func appendKey(dst []byte, v types.Value) []byte {
	if v.IsNull() {
		return append(dst, 0)
	}
	dst = append(dst, byte(v.Kind()))
	switch v.Kind() {
	case types.KindFloat32, types.KindFloat64:
		f := v.Float64()
		if f == 0 {
			f = 0 // -0 groups with 0
		}
		dst = binary.BigEndian.AppendUint64(dst, math.Float64bits(f))
	case types.KindString, types.KindBytes, types.KindProto:
		dst = binary.AppendUvarint(dst, uint64(len(v.Bytes())))
		dst = append(dst, v.Bytes()...)
	case types.KindArray, types.KindStruct, types.KindMap:
		dst = binary.AppendUvarint(dst, uint64(len(v.Elems())))
		for _, e := range v.Elems() {
			dst = appendKey(dst, e)
		}
	default:
		dst = binary.BigEndian.AppendUint64(dst, uint64(v.Int64()))
	}
	return dst
}
