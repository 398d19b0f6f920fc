package sql

import (
	"fmt"

	"github.com/shale-db/shale/sql/types"
)

// Bitwise and array-concatenating aggregates (spec §4.6): BIT_AND, BIT_OR
// and BIT_XOR over INT64, and ARRAY_CONCAT_AGG. All ignore NULL inputs and
// give NULL when every input is NULL or there is none.
func init() {
	for _, f := range []struct {
		name string
		op   func(a, b int64) int64
	}{
		{"BIT_AND", func(a, b int64) int64 { return a & b }},
		{"BIT_OR", func(a, b int64) int64 { return a | b }},
		{"BIT_XOR", func(a, b int64) int64 { return a ^ b }},
	} {
		RegisterAgg(f.name, &AggFunc{Result: int64Arg(f.name),
			New: func(*types.Type, []*types.Type) Accumulator { return &bitAcc{op: f.op} }})
	}
	RegisterAgg("ARRAY_CONCAT_AGG", &AggFunc{Result: arrayConcatAggType,
		New: func(ret *types.Type, _ []*types.Type) Accumulator { return &arrayConcatAcc{ret: ret} }})
}

func int64Arg(fn string) func([]*types.Type) (*types.Type, error) {
	return func(a []*types.Type) (*types.Type, error) {
		if len(a) != 1 || a[0].Kind != types.KindInt64 {
			return nil, fmt.Errorf("%s expects one INT64 argument", fn)
		}
		return types.Int64, nil
	}
}

func arrayConcatAggType(a []*types.Type) (*types.Type, error) {
	if len(a) != 1 || a[0].Kind != types.KindArray {
		return nil, fmt.Errorf("ARRAY_CONCAT_AGG expects one ARRAY argument")
	}
	return a[0], nil
}

type bitAcc struct {
	op  func(a, b int64) int64
	v   int64
	set bool
}

func (x *bitAcc) Add(a []types.Value) error {
	switch {
	case a[0].IsNull():
	case !x.set:
		x.v, x.set = a[0].Int64(), true
	default:
		x.v = x.op(x.v, a[0].Int64())
	}
	return nil
}

func (x *bitAcc) Result() (types.Value, error) {
	if !x.set {
		return types.NullOf(types.Int64), nil
	}
	return types.Int64Value(x.v), nil
}

func (x *bitAcc) Mem() int64 { return 32 }

// arrayConcatAcc appends the elements of each non-NULL array, NULL
// elements included.
type arrayConcatAcc struct {
	ret   *types.Type
	elems []types.Value
	any   bool
	mem   int64
}

func (x *arrayConcatAcc) Add(a []types.Value) error {
	if a[0].IsNull() {
		return nil
	}
	x.any = true
	for _, e := range a[0].Elems() {
		e = CopyValue(e)
		x.elems = append(x.elems, e)
		x.mem += ValueSize(e)
	}
	return nil
}

func (x *arrayConcatAcc) Result() (types.Value, error) {
	if !x.any {
		return types.NullOf(x.ret), nil
	}
	return types.ArrayValue(x.ret, x.elems), nil
}

func (x *arrayConcatAcc) Mem() int64 { return 64 + x.mem }
