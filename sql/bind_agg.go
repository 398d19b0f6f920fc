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

// The aggregate call modifiers GoogleSQL allows, by function.
var (
	// aggNullHandling: the aggregates that take {IGNORE | RESPECT} NULLS.
	aggNullHandling = map[string]bool{"ARRAY_AGG": true, "APPROX_QUANTILES": true}
	// aggIgnoresNulls: the aggregates that, with neither written, drop
	// rows whose first argument is NULL before DISTINCT, ORDER BY and
	// LIMIT (the others see NULLs, and most ignore them themselves).
	aggIgnoresNulls = map[string]bool{"STRING_AGG": true, "ARRAY_CONCAT_AGG": true, "APPROX_QUANTILES": true}
	// aggOrdered: the aggregates that take ORDER BY and LIMIT.
	aggOrdered = map[string]bool{"ARRAY_AGG": true, "STRING_AGG": true, "ARRAY_CONCAT_AGG": true}
	// aggDistinctFirst: the aggregates of several arguments whose DISTINCT
	// applies to the first (STRING_AGG's delimiter, APPROX_QUANTILES'
	// number).
	aggDistinctFirst = map[string]bool{"STRING_AGG": true, "APPROX_QUANTILES": true}
	// aggConstArg: an argument that must be a literal or a parameter.
	aggConstArg = map[string]int{"APPROX_QUANTILES": 1, "APPROX_TOP_COUNT": 1, "APPROX_TOP_SUM": 2}
)

// isAggregate reports whether name is a registered aggregate function.
func isAggregate(name string) bool {
	fn := Lookup(name)
	return fn != nil && fn.Agg != nil
}

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
	if distinct && len(args) != 1 && !aggDistinctFirst[name] {
		return nil, b.errAt(n, sqlerr.InvalidArgument, "DISTINCT takes exactly one argument")
	}
	if i, ok := aggConstArg[name]; ok && i < len(args) && !isConstExpr(args[i]) {
		return nil, b.errAt(as[i], sqlerr.InvalidArgument, "argument %d of %s must be a literal or a query parameter", i+1, name)
	}
	call := &AggCall{Fn: fn, Args: args, Distinct: distinct, T: t}
	if c, ok := n.(*ast.CallExpr); ok {
		if err := b.bindAggModifiers(c, name, call, inner); err != nil {
			return nil, err
		}
	}
	for i, a := range ec.agg.aggs { // reuse an identical aggregate
		if sameAggCall(a, call) {
			return &aggMarker{I: i, T: t}, nil
		}
	}
	ec.agg.aggs = append(ec.agg.aggs, call)
	return &aggMarker{I: len(ec.agg.aggs) - 1, T: t}, nil
}

// bindAggModifiers binds an aggregate call's {IGNORE | RESPECT} NULLS,
// ORDER BY and LIMIT into call. ORDER BY keys are bound like the
// arguments; with DISTINCT each must be the (first) argument.
func (b *binder) bindAggModifiers(n *ast.CallExpr, name string, call *AggCall, ec *exprCtx) error {
	if n.NullHandling != nil {
		if !aggNullHandling[name] {
			return b.errAt(n.NullHandling, sqlerr.InvalidArgument, "IGNORE NULLS and RESPECT NULLS are not allowed in %s", name)
		}
		call.Nulls = RespectNulls
		if _, ok := n.NullHandling.(*ast.IgnoreNulls); ok {
			call.Nulls = IgnoreNulls
		}
	}
	if (n.OrderBy != nil || n.Limit != nil) && !aggOrdered[name] {
		return b.errAt(n, sqlerr.InvalidArgument, "ORDER BY and LIMIT are not allowed in %s", name)
	}
	if n.OrderBy != nil {
		end := int(n.Rparen)
		if n.Limit != nil {
			end = int(n.Limit.Pos())
		}
		for i, it := range n.OrderBy.Items {
			k, err := b.bindExpr(it.Expr, ec)
			if err != nil {
				return err
			}
			if !k.Type().IsScalar() {
				return b.errAt(it.Expr, sqlerr.TypeMismatch, "cannot ORDER BY a value of type %s", k.Type())
			}
			if call.Distinct && !Equal(k, call.Args[0]) {
				return b.errAt(it.Expr, sqlerr.InvalidArgument,
					"%s with DISTINCT can only ORDER BY the aggregated expression", name)
			}
			o := AggOrder{Key: k, Desc: it.Dir == ast.DirectionDesc}
			o.NullsFirst = !o.Desc
			next := end
			if i+1 < len(n.OrderBy.Items) {
				next = int(n.OrderBy.Items[i+1].Pos())
			}
			for off, first := range b.p.nulls {
				if off >= int(it.End()) && off < next {
					o.NullsFirst = first
				}
			}
			call.OrderBy = append(call.OrderBy, o)
		}
	}
	if n.Limit != nil {
		if n.Limit.Offset != nil {
			return b.errAt(n.Limit.Offset, sqlerr.InvalidArgument, "OFFSET is not allowed in an aggregate's LIMIT")
		}
		lim, err := b.bindIntValue(n.Limit.Count)
		if err != nil {
			return err
		}
		call.Limit = lim
	}
	return nil
}

// isConstExpr reports whether e reads no column (a literal, a parameter,
// or an expression of them).
func isConstExpr(e Expr) bool {
	ok := true
	Walk(e, func(x Expr) bool {
		switch x.(type) {
		case *ColRef, *aggMarker:
			ok = false
		}
		return ok
	})
	return ok
}

func sameAggCall(a, c *AggCall) bool {
	if a.Fn != c.Fn || a.Distinct != c.Distinct || a.Nulls != c.Nulls || len(a.Args) != len(c.Args) ||
		!equalAll(a.Args, c.Args) || len(a.OrderBy) != len(c.OrderBy) || (a.Limit == nil) != (c.Limit == nil) ||
		a.Limit != nil && !Equal(a.Limit, c.Limit) {
		return false
	}
	for i, o := range a.OrderBy {
		p := c.OrderBy[i]
		if o.Desc != p.Desc || o.NullsFirst != p.NullsFirst || !Equal(o.Key, p.Key) {
			return false
		}
	}
	return true
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
