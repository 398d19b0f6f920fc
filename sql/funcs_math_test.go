package sql

import (
	"testing"

	"github.com/shale-db/shale/sql/types"
)

// mathCall builds the bound call name(row[0], extra...) for the overload
// whose parameters are exactly the argument types, as the binder would.
func mathCall(t testing.TB, name string, row types.Value, extra ...types.Value) *Call {
	t.Helper()
	args := []Expr{&ColRef{Idx: 0, T: row.Type()}}
	for _, v := range extra {
		args = append(args, NewConst(v))
	}
	fn := Lookup(name)
	for _, ov := range fn.Overloads {
		if len(ov.Args) != len(args) {
			continue
		}
		match := true
		for i, a := range args {
			match = match && ov.Args[i] != nil && ov.Args[i].Equal(a.Type())
		}
		if match {
			return &Call{Fn: fn, Ov: ov, Args: args, T: ov.Ret}
		}
	}
	t.Fatalf("no %s overload for %s", name, row.Type())
	return nil
}

var mathCalls = []struct {
	name  string
	row   types.Value
	extra []types.Value
}{
	{"ABS", types.Int64Value(-42), nil},
	{"ABS", types.Float64Value(-4.2), nil},
	{"ROUND", types.Float64Value(2.5), nil},
	{"ROUND", types.Float64Value(1.235), []types.Value{types.Int64Value(2)}},
	{"SQRT", types.Float64Value(2), nil},
	{"SAFE_DIVIDE", types.Float64Value(1), []types.Value{types.Float64Value(0)}},
}

// TestMathNoAllocs checks that the functions themselves (Overload.Eval) do
// not allocate for fixed-width results.
func TestMathNoAllocs(t *testing.T) {
	for _, m := range mathCalls {
		c := mathCall(t, m.name, m.row, m.extra...)
		args := append([]types.Value{m.row}, m.extra...)
		allocs := testing.AllocsPerRun(100, func() {
			if _, err := c.Ov.Eval(args, c.T); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%s(%s): %v allocs per call, want 0", m.name, m.row.Type(), allocs)
		}
	}
}

// BenchmarkMath evaluates bound calls through Eval, as the executor does.
func BenchmarkMath(b *testing.B) {
	for _, m := range mathCalls {
		name := m.name + "_" + m.row.Type().String()
		for _, v := range m.extra {
			name += "_" + v.Type().String()
		}
		b.Run(name, func(b *testing.B) {
			c := mathCall(b, m.name, m.row, m.extra...)
			env := &Env{Row: []types.Value{m.row}}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Eval(c, env); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
