package pgcatalog

import (
	"errors"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// A correlated subquery whose correlation is equalities between its own
// columns and the enclosing query's, EXISTS (SELECT 1 FROM x WHERE x.a =
// t.a AND x.b > 0) or (SELECT count(*) FROM x WHERE x.a = t.a), would run
// once per row of the enclosing query. It is run instead once per
// statement, without those equalities and selecting their inner sides,
// and each row looks its outer sides up in the hashed result: for EXISTS,
// PostgreSQL's hashed semi-join; for a scalar subquery, the join against
// the subquery grouped by its correlation that PostgreSQL leaves to the
// query's author.
//
// Run once, the subquery evaluates its WHERE and value over inner rows that
// no row of the enclosing query would reach. When that fails (1/0 in a
// row no lookup asks for), the statement goes on with the subquery run
// per row, which fails only where PostgreSQL does.

// decorrelated is such a subquery: inner selects the inner sides of the
// equalities, then a scalar subquery's value (grouped by the inner sides
// when the value aggregates); outer are the outer sides, bound in the
// enclosing scope.
type decorrelated struct {
	inner *queryPlan
	outer []*cexpr
	types []uint32
	// empty is a scalar aggregate's value over no rows, the value of a row
	// that finds no group (count(*) is 0 there, not NULL); nil otherwise.
	empty *queryPlan
	// in marks x IN (subquery): the table also holds each value under its
	// key joined to the value's (inKey).
	in bool
}

// lookupTable is a decorrelated subquery's inner rows hashed by their
// sides' keys (a row with a NULL side matches nothing, as = with NULL is
// never true): the value of the first row with the key, and how many
// rows have it.
type lookupTable map[string]lookupRow

type lookupRow struct {
	val     Value
	n       int
	sawNull bool // in: a row with the key has a NULL value
}

// bindSemiJoin decorrelates x, an EXISTS subquery, when it has that form;
// ok is false otherwise (the subquery then runs per row).
func (b *binder) bindSemiJoin(x *pg_query.SubLink, sc *scope, perRow *cexpr) (e *cexpr, ok bool) {
	sel := x.Subselect.GetSelectStmt()
	if sel == nil || !plainSelect(sel) {
		return nil, false
	}
	d, ok := b.decorrelate(sel, nil, false, sc)
	if !ok {
		return nil, false
	}
	return &cexpr{typ: tBool, name: "exists", fn: func(ev *evaluator, e *env) (Value, error) {
		_, found, table, err := d.lookup(ev, e)
		if table == nil && err == nil {
			return perRow.fn(ev, e)
		}
		return boolV(found), err
	}}, true
}

// bindScalarJoin decorrelates x, a scalar subquery, when it has that form;
// ok is false otherwise.
func (b *binder) bindScalarJoin(x *pg_query.SubLink, sc *scope, perRow *cexpr) (e *cexpr, ok bool) {
	sel := x.Subselect.GetSelectStmt()
	if sel == nil || !scalarSelect(sel) {
		return nil, false
	}
	target := sel.TargetList[0].GetResTarget().Val
	agg := hasAggregate(target)
	d, ok := b.decorrelate(sel, target, agg, sc)
	if !ok {
		return nil, false
	}
	if agg {
		q := &pg_query.SelectStmt{FromClause: sel.FromClause, TargetList: sel.TargetList,
			WhereClause: &pg_query.Node{Node: &pg_query.Node_AConst{AConst: &pg_query.A_Const{
				Val: &pg_query.A_Const_Boolval{Boolval: &pg_query.Boolean{Boolval: false}}}}}}
		empty, err := b.bindQuery(q, sc, nil)
		if err != nil {
			return nil, false
		}
		d.empty = &queryPlan{root: &subPlan{q: empty}, cols: empty.cols}
	}
	if d.inner.cols[len(d.types)].typ != perRow.typ {
		return nil, false
	}
	return &cexpr{typ: perRow.typ, name: perRow.name, fields: perRow.fields, fn: func(ev *evaluator, e *env) (Value, error) {
		r, found, table, err := d.lookup(ev, e)
		switch {
		case err != nil:
			return null, err
		case table == nil:
			return perRow.fn(ev, e)
		case found && r.n > 1:
			return null, errMultipleRows
		case found:
			return r.val, nil
		case d.empty == nil:
			return null, nil
		}
		rows, err := d.empty.run(ev, nil)
		if err != nil {
			return null, err
		}
		return rows[0][0], nil
	}}, true
}

// bindInJoin decorrelates x IN (subquery), l being x, when the subquery
// has that form and its value does not aggregate; ok is false otherwise.
func (b *binder) bindInJoin(x *pg_query.SubLink, l *cexpr, sc *scope, perRow *cexpr) (e *cexpr, ok bool) {
	sel := x.Subselect.GetSelectStmt()
	if sel == nil || !scalarSelect(sel) {
		return nil, false
	}
	target := sel.TargetList[0].GetResTarget().Val
	if hasAggregate(target) {
		return nil, false
	}
	d, ok := b.decorrelate(sel, target, false, sc)
	if !ok || d.inner.cols[len(d.types)].typ != l.typ {
		return nil, false
	}
	d.in = true
	return &cexpr{typ: tBool, name: "?column?", fn: func(ev *evaluator, e *env) (Value, error) {
		table, err := ev.lookupTableOf(d)
		if table == nil || err != nil {
			if err != nil {
				return null, err
			}
			return perRow.fn(ev, e)
		}
		v, err := l.fn(ev, e)
		if err != nil {
			return null, err
		}
		k, ok, err := d.envKey(ev, e)
		if err != nil || !ok {
			return boolV(false), err // no row: x IN () is false
		}
		r, found := table[k]
		return inLookup(l.typ, v, !found, r.sawNull, func(vk string) bool { return table[inKey(k, vk)].n > 0 })
	}}, true
}

// inKey is the lookup key of a value whose hashKey is vk among the rows of
// key k.
func inKey(k, vk string) string {
	var sb strings.Builder
	sb.WriteString(k)
	sb.WriteByte('|')
	writeKeyPart(&sb, vk)
	return sb.String()
}

// decorrelate binds sel, whose WHERE holds the equalities, as a
// decorrelated subquery selecting value (nil: nothing) after the inner
// sides, grouped by them when group is set. ok is false when sel has no
// such equality or is correlated otherwise too.
func (b *binder) decorrelate(sel *pg_query.SelectStmt, value *pg_query.Node, group bool, sc *scope) (*decorrelated, bool) {
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
	if value != nil {
		q.TargetList = append(q.TargetList, pg_query.MakeResTargetNodeWithVal(value, -1))
	}
	if group {
		q.GroupClause = innerSides
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
	d := &decorrelated{inner: plan}
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
		d.outer, d.types = append(d.outer, o), append(d.types, t)
	}
	return d, true
}

// lookup finds the row of the enclosing query's env: found is false when
// no inner row has its key (or one of its sides is NULL). A nil table
// (and no error) means the subquery could not run once: it must run per
// row.
func (d *decorrelated) lookup(ev *evaluator, e *env) (r lookupRow, found bool, table lookupTable, err error) {
	if table, err = ev.lookupTableOf(d); table == nil || err != nil {
		return r, false, table, err
	}
	k, ok, err := d.envKey(ev, e)
	if err != nil || !ok {
		return r, false, table, err
	}
	r, found = table[k]
	return r, found, table, nil
}

// envKey is the key of the enclosing query's env: its outer sides'.
func (d *decorrelated) envKey(ev *evaluator, e *env) (string, bool, error) {
	vals, err := evalArgs(ev, e, d.outer)
	if err != nil {
		return "", false, err
	}
	return d.key(vals)
}

// key joins the keys of a row's sides; ok is false when one is NULL.
func (d *decorrelated) key(vals []Value) (string, bool, error) {
	var sb strings.Builder
	for i, v := range vals {
		if v.isNull() {
			return "", false, nil
		}
		k, err := hashKey(d.types[i], v)
		if err != nil {
			return "", false, err
		}
		writeKeyPart(&sb, k)
	}
	return sb.String(), true, nil
}

// writeKeyPart writes one hashKey of a joined key, length first, so that
// no two lists of parts join alike.
func writeKeyPart(sb *strings.Builder, k string) {
	sb.WriteString(itoa(int64(len(k))))
	sb.WriteByte(':')
	sb.WriteString(k)
}

// lookupTableOf runs d once per statement; nil (and no error) when that
// failed in a way running it per row may not (runsPerRow).
func (ev *evaluator) lookupTableOf(d *decorrelated) (lookupTable, error) {
	if t, ok := ev.lookups[d]; ok {
		return t, nil
	}
	failed := func(err error) (lookupTable, error) {
		if runsPerRow(err) {
			ev.lookups[d] = nil
			return nil, nil
		}
		return nil, err
	}
	rows, err := d.inner.run(ev, nil)
	if err != nil {
		return failed(err)
	}
	t := make(lookupTable, len(rows))
	for _, r := range rows {
		if err := ev.check(); err != nil {
			return nil, err
		}
		k, ok, err := d.key(r[:len(d.types)])
		if err != nil {
			return failed(err)
		}
		if !ok {
			continue
		}
		lr, seen := t[k]
		if !seen && len(r) > len(d.types) {
			lr.val = r[len(d.types)]
		}
		lr.n++
		if d.in {
			if v := r[len(d.types)]; v.isNull() {
				lr.sawNull = true
			} else {
				vk, err := hashKey(d.inner.cols[len(d.types)].typ, v)
				if err != nil {
					return failed(err)
				}
				t[inKey(k, vk)] = lookupRow{n: 1}
			}
		}
		t[k] = lr
	}
	ev.lookups[d] = t
	return t, nil
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

// runsPerRow reports whether a decorrelated subquery that failed with err
// may still run per row: any error but a cancel or a statement bound.
func runsPerRow(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Code != CodeCanceled && !strings.HasPrefix(e.Code, "54")
}

// scalarSelect reports whether sel is one SELECT expr FROM ... WHERE whose
// value per row of the enclosing query its WHERE alone decides: what
// plainSelect asks, except that the one target may be any expression
// (an aggregate too), with no window function or subquery in it.
func scalarSelect(sel *pg_query.SelectStmt) bool {
	if sel.Op != pg_query.SetOperation_SETOP_NONE || len(sel.ValuesLists) > 0 || sel.WithClause != nil ||
		len(sel.GroupClause) > 0 || sel.HavingClause != nil || sel.LimitCount != nil || sel.LimitOffset != nil ||
		len(sel.WindowClause) > 0 || len(sel.FromClause) == 0 || sel.WhereClause == nil || sel.IntoClause != nil ||
		len(sel.LockingClause) > 0 || len(sel.DistinctClause) > 0 || len(sel.TargetList) != 1 {
		return false
	}
	rt := sel.TargetList[0].GetResTarget()
	if rt == nil || rt.Val == nil {
		return false
	}
	if cr := rt.Val.GetColumnRef(); cr != nil && cr.Fields[len(cr.Fields)-1].GetAStar() != nil {
		return false
	}
	ok := true
	var walk func(n *pg_query.Node)
	walk = func(n *pg_query.Node) {
		if n.GetSubLink() != nil || n.GetFuncCall() != nil && n.GetFuncCall().Over != nil {
			ok = false
			return
		}
		eachChild(n.ProtoReflect(), walk)
	}
	walk(rt.Val)
	return ok
}

// hasAggregate reports whether n calls an aggregate.
func hasAggregate(n *pg_query.Node) bool {
	found := false
	var walk func(n *pg_query.Node)
	walk = func(n *pg_query.Node) {
		if fc := n.GetFuncCall(); fc != nil && isAggregateCall(fc) {
			found = true
			return
		}
		eachChild(n.ProtoReflect(), walk)
	}
	walk(n)
	return found
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
