package pgcatalog

import (
	"crypto/md5"
	"encoding/hex"
	"strings"
)

func registerArrayFuncs() {
	register("array_to_string", &builtin{min: 2, max: 3, ret: tText, lenient: true, fn: arrayToString})
	register("array_fill", &builtin{min: 2, max: 3, lenient: true, retFn: func(t []uint32) uint32 { return arrayOf(outputType(t[0])) },
		fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
			if a[1].isNull() || len(a) > 2 && a[2].isNull() {
				return null, errorf(CodeNullValue, noPos, "dimension array or low bound array cannot be null")
			}
			if len(a[1].a) != 1 || len(a) > 2 && (len(a[2].a) != 1 || a[2].a[0].i != 1) {
				return null, errorf(CodeNotSupported, noPos, "array_fill is supported for one dimension from 1 only")
			}
			n := a[1].a[0].i
			if n < 0 || n > maxRepeatBytes/16 {
				return null, errorf("54000", noPos, "array size exceeds the maximum allowed (%d)", maxRepeatBytes/16)
			}
			out := make([]Value, n)
			for i := range out {
				out[i] = a[0]
			}
			return arrayV(out), nil
		}})
	register("string_to_array", &builtin{min: 2, max: 3, ret: tTextArray, lenient: true, fn: stringToArray})
	register("array_lower", arrayDim(func(a []Value, base int64) Value { return intV(base) }))
	register("array_upper", arrayDim(func(a []Value, base int64) Value { return intV(base + int64(len(a)) - 1) }))
	register("array_length", arrayDim(func(a []Value, _ int64) Value { return intV(int64(len(a))) }))
	register("cardinality", &builtin{min: 1, ret: tInt4, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		return intV(int64(len(a[0].a))), nil
	}})
	// array_position and array_positions find NULL too (IS NOT DISTINCT
	// FROM), so they are not strict in the element.
	register("array_position", &builtin{min: 2, max: 3, ret: tInt4, lenient: true, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		if a[0].isNull() {
			return null, nil
		}
		from := int64(1)
		if len(a) > 2 {
			if a[2].isNull() {
				return null, errorf(CodeNullValue, noPos, "initial position must not be null")
			}
			from = max(a[2].i, 1)
		}
		for i := from - 1; i < int64(len(a[0].a)); i++ {
			if notDistinct(a[0].a[i], a[1]) {
				return intV(i + 1), nil
			}
		}
		return null, nil
	}})
	register("array_positions", &builtin{min: 2, ret: tInt4Array, lenient: true, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		if a[0].isNull() {
			return null, nil
		}
		out := []Value{}
		for i, v := range a[0].a {
			if notDistinct(v, a[1]) {
				out = append(out, intV(int64(i+1)))
			}
		}
		return arrayV(out), nil
	}})
	register("array_ndims", &builtin{min: 1, ret: tInt4, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		if len(a[0].a) == 0 {
			return null, nil // an empty array has no dimensions
		}
		return intV(1), nil
	}})
	register("trim_array", &builtin{min: 2, args: []uint32{tTextArray, tInt4}, retFn: sameAsFirst, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		n := a[1].i
		if n < 0 || n > int64(len(a[0].a)) {
			return null, errorf("2202E", noPos, "number of elements to trim must be between 0 and %d", len(a[0].a))
		}
		return arrayV(a[0].a[: int64(len(a[0].a))-n : int64(len(a[0].a))-n]), nil
	}})
	register("array_append", &builtin{min: 2, ret: 0, retFn: sameAsFirst, lenient: true, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		return arrayV(append(append([]Value(nil), a[0].a...), a[1])), nil
	}})
	register("array_remove", &builtin{min: 2, retFn: sameAsFirst, lenient: true, fn: arrayRemove})
	register("array_cat", &builtin{min: 2, retFn: sameAsFirst, lenient: true, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		if a[0].isNull() && a[1].isNull() {
			return null, nil
		}
		return arrayV(append(append([]Value(nil), a[0].a...), a[1].a...)), nil
	}})
}

// arrayRemove is array_remove(a, v): a without the elements not distinct
// from v (v NULL removes the NULLs); NULL for a NULL array.
func arrayRemove(_ *evaluator, a []Value, _ []uint32) (Value, error) {
	if a[0].isNull() {
		return null, nil
	}
	out := make([]Value, 0, len(a[0].a))
	for _, e := range a[0].a {
		same := e.isNull() && a[1].isNull() || !e.isNull() && !a[1].isNull() && compare(e, a[1]) == 0
		if !same {
			out = append(out, e)
		}
	}
	return arrayV(out), nil
}

// arrayDim builds array_lower/array_upper/array_length: one-dimensional
// arrays only; NULL for an empty array or another dimension. f gets the
// array's lower bound.
func arrayDim(f func(a []Value, base int64) Value) *builtin {
	return &builtin{min: 2, args: []uint32{tTextArray, tInt4}, ret: tInt4, fn: func(_ *evaluator, a []Value, t []uint32) (Value, error) {
		if a[0].k != kArray || len(a[0].a) == 0 || a[1].i != 1 {
			return null, nil
		}
		return f(a[0].a, arrayBase(t[0])), nil
	}}
}

// arrayBase is the lower bound of arrays of type typ: 0 for int2vector and
// oidvector (pg_index.indkey, pg_proc.proargtypes), else 1.
func arrayBase(typ uint32) int64 {
	if typ == tInt2Vector || typ == tOidVector {
		return 0
	}
	return 1
}

func arrayToString(ev *evaluator, a []Value, t []uint32) (Value, error) {
	if a[0].isNull() || a[1].isNull() {
		return null, nil
	}
	elem := elemType(t[0])
	var parts []string
	for _, v := range a[0].a {
		switch {
		case !v.isNull():
			parts = append(parts, ev.text(v, elem))
		case len(a) > 2 && !a[2].isNull():
			parts = append(parts, a[2].s)
		}
	}
	return textV(strings.Join(parts, a[1].s)), nil
}

func stringToArray(_ *evaluator, a []Value, _ []uint32) (Value, error) {
	if a[0].isNull() {
		return null, nil
	}
	var parts []string
	switch {
	case a[0].s == "":
		return arrayV(nil), nil
	case a[1].isNull():
		for _, r := range a[0].s {
			parts = append(parts, string(r))
		}
	case a[1].s == "":
		parts = []string{a[0].s}
	default:
		parts = strings.Split(a[0].s, a[1].s)
	}
	out := make([]Value, len(parts))
	for i, p := range parts {
		if len(a) > 2 && !a[2].isNull() && p == a[2].s {
			out[i] = null
		} else {
			out[i] = textV(p)
		}
	}
	return arrayV(out), nil
}

func md5Hex(s string) string {
	h := md5.Sum([]byte(s))
	return hex.EncodeToString(h[:])
}
