package sql

import (
	"github.com/cloudspannerecosystem/memefish/ast"

	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

// aggCtx collects the aggregate calls of a grouped query.
type aggCtx struct{ aggs []*AggCall }

// aggMarker stands for aggregate I until postAgg turns it into a column of
// the aggregated row. It never leaves the binder.
type aggMarker struct {
	I int
	T *types.Type
}

func (*aggMarker) exprNode()           {}
func (m *aggMarker) Type() *types.Type { return m.T }
func (m *aggMarker) String() string    { return "$agg" + itoa(m.I+1) }

func (b *binder) bindAggregate(n ast.Node, name string, as []ast.Arg, distinct bool, ec *exprCtx) (Expr, error) {
	if ec.agg == nil {
		where := ec.noAgg
		if where == "" {
			where = "this context"
		}
		return nil, b.errAt(n, sqlerr.InvalidArgument, "aggregate function %s is not allowed in %s", name, where)
	}
	fn := Lookup(name)
	inner := &exprCtx{scope: ec.scope, noAgg: "an aggregate argument"}
	args, err := b.bindArgs(name, as, inner)
	if err != nil {
		return nil, err
	}
	ts := make([]*types.Type, len(args))
	for i, a := range args {
		ts[i] = a.Type()
	}
	var t *types.Type
	if len(args) == 0 && fn.Agg.CountStar {
		t = types.Int64
	} else if t, err = fn.Agg.Result(ts); err != nil {
		return nil, b.errAt(n, sqlerr.TypeMismatch, "%v", err)
	}
	if distinct && len(args) != 1 {
		return nil, b.errAt(n, sqlerr.InvalidArgument, "DISTINCT takes exactly one argument")
	}
	for i, a := range ec.agg.aggs { // reuse an identical aggregate
		if a.Fn == fn && a.Distinct == distinct && len(a.Args) == len(args) && equalAll(a.Args, args) {
			return &aggMarker{I: i, T: t}, nil
		}
	}
	ec.agg.aggs = append(ec.agg.aggs, &AggCall{Fn: fn, Args: args, Distinct: distinct, T: t})
	return &aggMarker{I: len(ec.agg.aggs) - 1, T: t}, nil
}

// postAgg rewrites an expression bound over the FROM row into one over the
// aggregated row [GroupBy..., Aggs...]: subtrees equal to a GROUP BY item
// and aggregate markers become column references; any other column
// reference is an error.
func (b *binder) postAgg(e Expr, q *Query) (Expr, error) {
	for i, g := range q.GroupBy {
		if Equal(e, g) {
			return &ColRef{Idx: i, Name: e.String(), T: e.Type(), Pos: -1}, nil
		}
	}
	switch x := e.(type) {
	case *aggMarker:
		return &ColRef{Idx: len(q.GroupBy) + x.I, Name: "$agg" + itoa(x.I+1), T: x.T, Pos: -1}, nil
	case *ColRef:
		return nil, sqlerr.At(b.p.text, x.Pos, sqlerr.InvalidArgument,
			"column %s must appear in GROUP BY or be used in an aggregate function", x.Name)
	}
	kids := Children(e)
	if len(kids) == 0 {
		return e, nil
	}
	nk := make([]Expr, len(kids))
	for i, k := range kids {
		n, err := b.postAgg(k, q)
		if err != nil {
			return nil, err
		}
		nk[i] = n
	}
	return withChildren(e, nk), nil
}

func equalAll(a, b []Expr) bool {
	for i := range a {
		if !Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}
