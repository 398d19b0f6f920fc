package types

import (
	"bytes"
	"cmp"
	"math"
)

// Compare orders two non-NULL values of the same (or numeric-compatible)
// type as GoogleSQL orders them: NULLs first, NaN before every other float,
// INT64 and floats compared numerically, bytes and strings by bytes, arrays
// and structs element by element. It is the order of ORDER BY ASC NULLS
// FIRST and of MAP keys.
func Compare(a, b Value) int {
	an, bn := a.IsNull(), b.IsNull()
	switch {
	case an && bn:
		return 0
	case an:
		return -1
	case bn:
		return 1
	}
	ak, bk := a.Kind(), b.Kind()
	if ak != bk && isNum(ak) && isNum(bk) {
		return compareFloat(toFloat(a), toFloat(b))
	}
	switch ak {
	case KindFloat32, KindFloat64:
		return compareFloat(a.Float64(), b.Float64())
	case KindString, KindBytes, KindProto:
		return bytes.Compare(a.b, b.b)
	case KindArray, KindStruct, KindMap:
		for i := 0; i < len(a.elems) && i < len(b.elems); i++ {
			if c := Compare(a.elems[i], b.elems[i]); c != 0 {
				return c
			}
		}
		return cmp.Compare(len(a.elems), len(b.elems))
	}
	return cmp.Compare(a.i, b.i)
}

func isNum(k Kind) bool { return k == KindInt64 || k == KindFloat32 || k == KindFloat64 }

func toFloat(v Value) float64 {
	if v.Kind() == KindInt64 {
		return float64(v.i)
	}
	return v.Float64()
}

// compareFloat orders NaN first, as GoogleSQL does.
func compareFloat(a, b float64) int {
	an, bn := math.IsNaN(a), math.IsNaN(b)
	switch {
	case an && bn:
		return 0
	case an:
		return -1
	case bn:
		return 1
	}
	return cmp.Compare(a, b)
}

// Equal reports whether two values are equal for grouping and DISTINCT:
// NULL equals NULL and NaN equals NaN (unlike the = operator).
func Equal(a, b Value) bool { return Compare(a, b) == 0 }
