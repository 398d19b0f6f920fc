package sql

import (
	"encoding/binary"
	"testing"

	"github.com/shale-db/shale/sql/types"
)

// benchCall resolves fn over args as the binder does.
func benchCall(tb testing.TB, name string, args ...Expr) Expr {
	fn := Lookup(name)
	for _, ov := range fn.Overloads {
		if c, _, _ := tryOverload(fn, ov, args); c != nil && c.Ov.Ret != nil {
			c.Pos = -1
			return c
		}
	}
	tb.Fatalf("no overload of %s", name)
	return nil
}

// BenchmarkEvalCalls evaluates the projection of engine's
// BenchmarkFunctions (five function calls over one BYTES column) on a
// batch of rows, as the project operator does; with -benchmem it also
// checks that nothing allocates.
func BenchmarkEvalCalls(b *testing.B) {
	col := &ColRef{Idx: 0, Name: "a", T: types.Bytes}
	exprs := []Expr{
		benchCall(b, "ABS", benchCall(b, "TO_INT64", col)),
		benchCall(b, "LENGTH", col),
		benchCall(b, "STARTS_WITH", col, &Const{V: types.BytesValue([]byte("1")), T: types.Bytes}),
		benchCall(b, "FARM_FINGERPRINT", col),
	}
	const n = 1024
	rows := make([][]types.Value, n)
	for i := range rows {
		rows[i] = []types.Value{types.BytesValue(binary.BigEndian.AppendUint64(nil, uint64(i)*7919))}
	}
	out := make([]types.Value, len(exprs))
	env := &Env{}
	b.ReportAllocs()
	for b.Loop() {
		for _, r := range rows {
			env.Row = r
			for j, e := range exprs {
				if err := EvalInto(&out[j], e, env); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/row")
}

// TestEvalCallsNoAllocs checks that the calls of BenchmarkEvalCalls, whose
// results are fixed-width, allocate nothing once the argument stack has
// grown.
func TestEvalCallsNoAllocs(t *testing.T) {
	col := &ColRef{Idx: 0, Name: "a", T: types.Bytes}
	exprs := []Expr{
		benchCall(t, "ABS", benchCall(t, "TO_INT64", col)),
		benchCall(t, "LENGTH", col),
		benchCall(t, "STARTS_WITH", col, &Const{V: types.BytesValue([]byte("1")), T: types.Bytes}),
		benchCall(t, "FARM_FINGERPRINT", col),
		benchCall(t, "+", benchCall(t, "LENGTH", col), &Const{V: types.Int64Value(1), T: types.Int64}),
	}
	env := &Env{Row: []types.Value{types.BytesValue([]byte("12345678"))}}
	var out types.Value
	allocs := testing.AllocsPerRun(100, func() {
		for _, e := range exprs {
			if err := EvalInto(&out, e, env); err != nil {
				t.Fatal(err)
			}
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per row, want 0", allocs)
	}
}

// TestEvalCallStackGrowth evaluates calls nested deeper and wider than the
// argument stack's first size, so that inner calls move it while outer
// frames are still being filled.
func TestEvalCallStackGrowth(t *testing.T) {
	col := &ColRef{Idx: 0, Name: "s", T: types.String}
	e := Expr(col)
	for range 40 {
		// CONCAT(LOWER(e), 'x', UPPER('y'), ...): each level stacks 6
		// arguments, two of them calls, before evaluating the next level.
		args := []Expr{benchCall(t, "LOWER", e), &Const{V: types.StringValue("x"), T: types.String},
			benchCall(t, "UPPER", &Const{V: types.StringValue("y"), T: types.String})}
		for range 3 {
			args = append(args, &Const{V: types.StringValue(""), T: types.String})
		}
		e = benchCall(t, "CONCAT", args...)
	}
	// LOWER lowers what the levels inside added too: only the outermost
	// UPPER('y') stays upper-case.
	want := "s"
	for range 39 {
		want += "xy"
	}
	want += "xY"
	for _, env := range []*Env{{}, {args: make([]types.Value, 0, 1)}} {
		env.Row = []types.Value{types.StringValue("S")}
		v, err := Eval(e, env)
		if err != nil || v.Str() != want {
			t.Fatalf("got %v, %v; want %q", v, err, want)
		}
	}
}
