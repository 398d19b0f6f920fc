package pgcatalog

import (
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// A correlated EXISTS whose correlation is equalities between its own
// columns and the enclosing query's, EXISTS (SELECT 1 FROM x WHERE x.a =
// t.a AND x.b > 0), would run once per row of the enclosing query. It is
// run instead as PostgreSQL plans it, a hashed semi-join: the subquery
// without those equalities, selecting their inner sides, runs once per
// statement, and each row looks its outer sides up in the hashed result.

// semiJoin is a decorrelated EXISTS: inner selects the inner sides of the
// equalities; outer are their outer sides, bound in the enclosing scope.
type semiJoin struct {
	inner *queryPlan
	outer []*cexpr
	types []uint32
}

// semiSet is the hashed keys of a semiJoin's inner rows (a row with a
// NULL side matches nothing, as = with NULL is never true).
type semiSet map[string]bool

// bindSemiJoin decorrelates x, an EXISTS subquery, when it has that form;
// ok is false otherwise (the subquery then runs per row).
func (b *binder) bindSemiJoin(x *pg_query.SubLink, sc *scope) (e *cexpr, ok bool) {
	sel := x.Subselect.GetSelectStmt()
	if sel == nil || !plainSelect(sel) {
		return nil, false
	}
	inner, ok := fromNames(sel.FromClause)
	if !ok {
		return nil, false
	}
	var innerSides, outerSides, rest []*pg_query.Node
	for _, c := range splitAnd(sel.WhereClause) {
		in, out, isPair := correlationPair(c, inner)
		if !isPair {
			rest = append(rest, c)
			continue
		}
		innerSides, outerSides = append(innerSides, in), append(outerSides, out)
	}
	if len(innerSides) == 0 {
		return nil, false
	}
	q := &pg_query.SelectStmt{FromClause: sel.FromClause}
	for _, n := range innerSides {
		q.TargetList = append(q.TargetList, pg_query.MakeResTargetNodeWithVal(n, -1))
	}
	switch len(rest) {
	case 0:
	case 1:
		q.WhereClause = rest[0]
	default:
		q.WhereClause = pg_query.MakeBoolExprNode(pg_query.BoolExprType_AND_EXPR, rest, -1)
	}
	correlated := false
	unwatch := watchReferences(sc, func() { correlated = true })
	plan, err := b.bindQuery(q, sc, nil)
	unwatch()
	if err != nil || correlated {
		return nil, false
	}
	sj := &semiJoin{inner: plan}
	for i, n := range outerSides {
		o, err := b.bindExpr(n, sc)
		if err != nil {
			return nil, false
		}
		t := plan.cols[i].typ
		if o.untyped {
			o = b.coerce(o, t)
		}
		if o.typ != t || !hashKeyed(t) {
			return nil, false
		}
		sj.outer, sj.types = append(sj.outer, o), append(sj.types, t)
	}
	return &cexpr{typ: tBool, name: "exists", fn: sj.exists}, true
}

func (sj *semiJoin) exists(ev *evaluator, e *env) (Value, error) {
	set, err := ev.semiSetOf(sj)
	if err != nil {
		return null, err
	}
	vals, err := evalArgs(ev, e, sj.outer)
	if err != nil {
		return null, err
	}
	k, ok, err := sj.key(vals)
	if err != nil || !ok {
		return boolV(false), err
	}
	return boolV(set[k]), nil
}

// key joins the keys of a row's sides; ok is false when one is NULL.
func (sj *semiJoin) key(vals []Value) (string, bool, error) {
	var sb strings.Builder
	for i, v := range vals {
		if v.isNull() {
			return "", false, nil
		}
		k, err := hashKey(sj.types[i], v)
		if err != nil {
			return "", false, err
		}
		sb.WriteString(itoa(int64(len(k))))
		sb.WriteByte(':')
		sb.WriteString(k)
	}
	return sb.String(), true, nil
}

func (ev *evaluator) semiSetOf(sj *semiJoin) (semiSet, error) {
	if s, ok := ev.semiSets[sj]; ok {
		return s, nil
	}
	rows, err := sj.inner.run(ev, nil)
	if err != nil {
		return nil, err
	}
	s := make(semiSet, len(rows))
	for _, r := range rows {
		if err := ev.check(); err != nil {
			return nil, err
		}
		k, ok, err := sj.key(r[:len(sj.types)])
		if err != nil {
			return nil, err
		}
		if ok {
			s[k] = true
		}
	}
	ev.semiSets[sj] = s
	return s, nil
}

// plainSelect reports whether sel is one SELECT ... FROM ... WHERE whose
// rows' existence its WHERE alone decides: no grouping or aggregate (which
// make a row of no rows), no LIMIT, no set-returning or window function,
// no WITH, and a target list of constants and columns.
func plainSelect(sel *pg_query.SelectStmt) bool {
	if sel.Op != pg_query.SetOperation_SETOP_NONE || len(sel.ValuesLists) > 0 || sel.WithClause != nil ||
		len(sel.GroupClause) > 0 || sel.HavingClause != nil || sel.LimitCount != nil || sel.LimitOffset != nil ||
		len(sel.WindowClause) > 0 || len(sel.FromClause) == 0 || sel.WhereClause == nil || sel.IntoClause != nil ||
		len(sel.LockingClause) > 0 {
		return false
	}
	for _, t := range sel.TargetList {
		rt := t.GetResTarget()
		if rt == nil || rt.Val == nil || rt.Val.GetAConst() == nil && rt.Val.GetColumnRef() == nil {
			return false
		}
	}
	return true
}

// fromNames lists the names a FROM clause's items take (a table's alias,
// else its name; a subquery's or function's alias); ok is false for any
// other FROM item (a function without an alias is named after it).
func fromNames(from []*pg_query.Node) (map[string]bool, bool) {
	names := map[string]bool{}
	var walk func(n *pg_query.Node) bool
	walk = func(n *pg_query.Node) bool {
		switch {
		case n.GetRangeVar() != nil:
			rv := n.GetRangeVar()
			if rv.Alias != nil {
				names[rv.Alias.Aliasname] = true
			} else {
				names[rv.Relname] = true
			}
			return true
		case n.GetJoinExpr() != nil:
			j := n.GetJoinExpr()
			return j.Alias == nil && walk(j.Larg) && walk(j.Rarg)
		case n.GetRangeSubselect() != nil && n.GetRangeSubselect().Alias != nil:
			names[n.GetRangeSubselect().Alias.Aliasname] = true
			return true
		case n.GetRangeFunction() != nil && n.GetRangeFunction().Alias != nil:
			names[n.GetRangeFunction().Alias.Aliasname] = true
			return true
		}
		return false
	}
	for _, n := range from {
		if !walk(n) {
			return nil, false
		}
	}
	return names, true
}

// correlationPair reads c as inner = outer: one side reads only columns
// qualified by names the subquery's FROM does not have (so the enclosing
// query's), the other side anything else, which must then turn out to
// read the subquery's tables only.
func correlationPair(c *pg_query.Node, inner map[string]bool) (in, out *pg_query.Node, ok bool) {
	ae := c.GetAExpr()
	if ae == nil || ae.Kind != pg_query.A_Expr_Kind_AEXPR_OP || len(ae.Name) != 1 || ae.Name[0].GetString_().GetSval() != "=" {
		return nil, nil, false
	}
	outerSide := func(n *pg_query.Node) bool {
		only, refs := outerOnly(n, inner)
		return only && refs
	}
	switch l, r := outerSide(ae.Lexpr), outerSide(ae.Rexpr); {
	case r && !l:
		return ae.Lexpr, ae.Rexpr, true
	case l && !r:
		return ae.Rexpr, ae.Lexpr, true
	}
	return nil, nil, false
}

// outerOnly reports whether n is built of constants, operators, casts and
// plain function calls over columns qualified by names not in inner; refs
// is whether it reads any column.
func outerOnly(n *pg_query.Node, inner map[string]bool) (only, refs bool) {
	if n == nil {
		return true, false
	}
	switch {
	case n.GetAConst() != nil:
		return true, false
	case n.GetColumnRef() != nil:
		f := n.GetColumnRef().Fields
		if len(f) != 2 || f[0].GetString_() == nil || f[1].GetString_() == nil || inner[f[0].GetString_().Sval] {
			return false, true
		}
		return true, true
	case n.GetTypeCast() != nil:
		return outerOnly(n.GetTypeCast().Arg, inner)
	case n.GetAExpr() != nil && n.GetAExpr().Kind == pg_query.A_Expr_Kind_AEXPR_OP:
		lo, lr := outerOnly(n.GetAExpr().Lexpr, inner)
		ro, rr := outerOnly(n.GetAExpr().Rexpr, inner)
		return lo && ro, lr || rr
	case n.GetFuncCall() != nil:
		fc := n.GetFuncCall()
		if fc.Over != nil || fc.AggStar || fc.AggDistinct || len(fc.AggOrder) > 0 || fc.AggFilter != nil {
			return false, false
		}
		only, refs := true, false
		for _, a := range fc.Args {
			o, r := outerOnly(a, inner)
			only, refs = only && o, refs || r
		}
		return only, refs
	}
	return false, false
}
