package planner_test

import (
	"math/rand/v2"
	"testing"

	"github.com/shale-db/shale/planner"
	"github.com/shale-db/shale/sql"
	"github.com/shale-db/shale/sql/types"
)

// TestResolverReuse: a Resolver gives Resolve's spans while it reuses its
// memory from one call to the next, and after a Reset.
func TestResolverReuse(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	key := func() types.Value {
		if rng.IntN(8) == 0 {
			return types.NullOf(types.Bytes)
		}
		return types.BytesValue([]byte{'k', byte('a' + rng.IntN(6)), byte('a' + rng.IntN(3))}[:1+rng.IntN(3)])
	}
	lit := func(v types.Value) sql.Expr { return &sql.Const{V: v, T: types.Bytes} }
	eval := func(e sql.Expr) (types.Value, error) { return sql.Eval(e, &sql.Env{}) }
	var r planner.Resolver
	for i := range 2000 {
		var k planner.KeySet
		switch n := rng.IntN(40); i % 3 {
		case 0:
			p := &planner.KeyPoints{}
			for range n {
				p.Values = append(p.Values, lit(key()))
			}
			k = p
		case 1:
			var elems []types.Value
			for range n {
				elems = append(elems, key())
			}
			k = &planner.KeyArray{Array: &sql.Const{V: types.ArrayValue(types.ArrayOf(types.Bytes), elems), T: types.ArrayOf(types.Bytes)}}
		default:
			k = &planner.KeyOr{Sets: []planner.KeySet{&planner.KeyPoints{Values: []sql.Expr{lit(key())}},
				&planner.KeyRange{Lo: lit(key()), Hi: lit(key()), HiIncl: true}}}
		}
		got, err := r.Resolve(k, eval)
		if err != nil {
			t.Fatal(err)
		}
		want, err := planner.Resolve(k, eval)
		if err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Fatalf("%s: Resolver %s, Resolve %s", k, got, want)
		}
		if i%7 == 0 {
			r.Reset()
		}
	}
}
