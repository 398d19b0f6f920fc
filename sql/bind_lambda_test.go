package sql

import (
	"testing"

	"github.com/shale-db/shale/sql/types"
)

// TestLambdaAllocs checks that applying a lambda allocates per array, not
// per element: the frame for the lambda's arguments, and the output array.
// (The bodies avoid function calls, whose own cost is not the lambda's.)
func TestLambdaAllocs(t *testing.T) {
	elems := make([]types.Value, 1000)
	for i := range elems {
		elems[i] = types.Int64Value(int64(i))
	}
	arrT := types.ArrayOf(types.Int64)
	row := []types.Value{types.ArrayValue(arrT, elems)}
	e := &LambdaVar{Slot: 0, Name: "e", T: types.Int64}
	i := &LambdaVar{Slot: 1, Name: "i", T: types.Int64}
	cases := []struct {
		l    *Lambda
		want float64
	}{
		{&Lambda{Mode: LambdaAny, Params: []string{"e"}, Body: &IsNull{X: e}, T: types.Bool}, 1},
		{&Lambda{Mode: LambdaFirstOffset, Params: []string{"e"}, Body: &IsNull{X: e}, T: types.Int64}, 1},
		{&Lambda{Mode: LambdaFilter, Params: []string{"e"}, Body: &IsNull{X: e}, T: arrT}, 1},
		{&Lambda{Mode: LambdaTransform, Params: []string{"e", "i"}, Body: i, T: arrT}, 2},
	}
	for _, c := range cases {
		c.l.Arr = &ColRef{Idx: 0, Name: "a", T: arrT}
		env := &Env{Row: row}
		allocs := testing.AllocsPerRun(50, func() {
			if _, err := Eval(c.l, env); err != nil {
				t.Fatal(err)
			}
		})
		if allocs > c.want {
			t.Errorf("%s: %v allocs per array of %d, want at most %v", c.l, allocs, len(elems), c.want)
		}
	}
}

// TestArrayFuncNoAllocs checks that the array functions with fixed-width
// results (Overload.Eval) do not allocate.
func TestArrayFuncNoAllocs(t *testing.T) {
	arrT := types.ArrayOf(types.Int64)
	arr := types.ArrayValue(arrT, []types.Value{types.Int64Value(3), types.NullOf(types.Int64), types.Int64Value(5)})
	five := types.Int64Value(5)
	search := types.ArrayValue(arrT, []types.Value{five})
	for _, c := range []struct {
		name string
		args []types.Value
	}{
		{"ARRAY_LENGTH", []types.Value{arr}},
		{"ARRAY_FIRST", []types.Value{arr}},
		{"ARRAY_LAST", []types.Value{arr}},
		{"ARRAY_INCLUDES", []types.Value{arr, five}},
		{"ARRAY_INCLUDES_ANY", []types.Value{arr, search}},
		{"ARRAY_INCLUDES_ALL", []types.Value{arr, search}},
		{"ARRAY_IS_DISTINCT", []types.Value{arr}},
		{"ARRAY_OFFSET", []types.Value{arr, five}},
		{"ARRAY_FIRST_N", []types.Value{arr, five}},
		{"ARRAY_SLICE", []types.Value{arr, five, five}},
	} {
		var ov *Overload
		for _, o := range Lookup(c.name).Overloads {
			if len(o.Args) == len(c.args) {
				ov = o
				break
			}
		}
		allocs := testing.AllocsPerRun(100, func() {
			if _, err := ov.Eval(c.args, arrT); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocs per call, want 0", c.name, allocs)
		}
	}
}
