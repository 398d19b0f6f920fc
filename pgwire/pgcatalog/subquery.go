package pgcatalog

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// bindSubLink binds EXISTS, scalar, ARRAY and IN/ANY/ALL subqueries. The
// subquery's scope has sc as parent, so it may be correlated; it is
// evaluated afresh for each row of the enclosing query.
func (b *binder) bindSubLink(x *pg_query.SubLink, sc *scope) (*cexpr, error) {
	q, err := b.bindQuery(x.Subselect.GetSelectStmt(), sc, nil)
	if err != nil {
		return nil, err
	}
	switch x.SubLinkType {
	case pg_query.SubLinkType_EXISTS_SUBLINK:
		return &cexpr{typ: tBool, name: "exists", fn: func(ev *evaluator, e *env) (Value, error) {
			rows, err := q.run(ev, e)
			if err != nil {
				return null, err
			}
			return boolV(len(rows) > 0), nil
		}}, nil
	case pg_query.SubLinkType_EXPR_SUBLINK:
		if len(q.cols) != 1 {
			return nil, errorf(CodeSyntax, x.Location, "subquery must return only one column")
		}
		return &cexpr{typ: q.cols[0].typ, name: q.cols[0].name, fields: rootFields(q), fn: func(ev *evaluator, e *env) (Value, error) {
			rows, err := q.run(ev, e)
			switch {
			case err != nil:
				return null, err
			case len(rows) == 0:
				return null, nil
			case len(rows) > 1:
				return null, errorf(CodeCardinality, x.Location, "more than one row returned by a subquery used as an expression")
			}
			return rows[0][0], nil
		}}, nil
	case pg_query.SubLinkType_ARRAY_SUBLINK:
		if len(q.cols) != 1 {
			return nil, errorf(CodeSyntax, x.Location, "subquery must return only one column")
		}
		if multiDim(q.cols[0].typ) {
			return nil, errMultiDim(x.Location)
		}
		return &cexpr{typ: arrayOf(q.cols[0].typ), name: "array", fn: func(ev *evaluator, e *env) (Value, error) {
			rows, err := q.run(ev, e)
			if err != nil {
				return null, err
			}
			out := make([]Value, len(rows))
			for i, r := range rows {
				out[i] = r[0]
			}
			return arrayV(out), nil
		}}, nil
	case pg_query.SubLinkType_ANY_SUBLINK, pg_query.SubLinkType_ALL_SUBLINK:
		return b.bindQuantifiedSubquery(x, q, sc)
	}
	return nil, errorf(CodeNotSupported, x.Location, "unsupported subquery type in catalog query")
}

func rootFields(q *queryPlan) []colDef {
	cols := q.root.columns()
	if len(cols) == 1 {
		return cols[0].fields
	}
	return nil
}

func (b *binder) bindQuantifiedSubquery(x *pg_query.SubLink, q *queryPlan, sc *scope) (*cexpr, error) {
	if len(q.cols) != 1 {
		return b.bindRowInSubquery(x, q, sc)
	}
	l, err := b.bindExpr(x.Testexpr, sc)
	if err != nil {
		return nil, err
	}
	op := "="
	if len(x.OperName) > 0 {
		op = lastName(x.OperName)
	}
	if l.untyped {
		l = b.coerce(l, q.cols[0].typ)
	}
	rt := q.cols[0].typ
	cmp, err := b.binaryOp(op, &cexpr{typ: l.typ, fn: func(_ *evaluator, e *env) (Value, error) { return e.row[0], nil }},
		&cexpr{typ: rt, fn: func(_ *evaluator, e *env) (Value, error) { return e.row[1], nil }}, x.Location)
	if err != nil {
		return nil, err
	}
	all := x.SubLinkType == pg_query.SubLinkType_ALL_SUBLINK
	return &cexpr{typ: tBool, name: "?column?", fn: func(ev *evaluator, e *env) (Value, error) {
		v, err := l.fn(ev, e)
		if err != nil {
			return null, err
		}
		rows, err := q.run(ev, e)
		if err != nil {
			return null, err
		}
		elems := make([]Value, len(rows))
		for i, r := range rows {
			elems[i] = r[0]
		}
		return quantify(ev, cmp, v, elems, all)
	}}, nil
}

// bindRowInSubquery binds (a, b) IN (SELECT x, y ...) and its negation,
// (a, b) <> ALL (...): a row equals a subquery row when every field does;
// a NULL field makes the comparison unknown unless another field differs.
func (b *binder) bindRowInSubquery(x *pg_query.SubLink, q *queryPlan, sc *scope) (*cexpr, error) {
	op := "="
	if len(x.OperName) > 0 {
		op = lastName(x.OperName)
	}
	all := x.SubLinkType == pg_query.SubLinkType_ALL_SUBLINK
	if row := x.Testexpr.GetRowExpr(); row == nil || len(row.Args) != len(q.cols) || (op == "=") == all || op != "=" && op != "<>" {
		return nil, errorf(CodeNotSupported, x.Location, "this row comparison with a subquery is not supported in catalog queries")
	}
	l, err := b.bindArgs(x.Testexpr.GetRowExpr().Args, sc)
	if err != nil {
		return nil, err
	}
	for i, a := range l {
		if a.untyped {
			l[i] = b.coerce(a, q.cols[i].typ)
		}
	}
	return &cexpr{typ: tBool, name: "?column?", fn: func(ev *evaluator, e *env) (Value, error) {
		vals, err := evalArgs(ev, e, l)
		if err != nil {
			return null, err
		}
		rows, err := q.run(ev, e)
		if err != nil {
			return null, err
		}
		unknown := false
		for _, r := range rows {
			switch rowsEqual(vals, r) {
			case 1:
				return boolV(!all), nil // IN found it; <> ALL fails
			case 0:
				unknown = true
			}
		}
		if unknown {
			return null, nil
		}
		return boolV(all), nil
	}}, nil
}

// rowsEqual compares two rows field by field: 1 equal, -1 different, 0
// unknown (a NULL field, and no field that differs).
func rowsEqual(a, b []Value) int {
	result := 1
	for i := range a {
		switch {
		case a[i].isNull() || b[i].isNull():
			result = 0
		case compare(a[i], b[i]) != 0:
			return -1
		}
	}
	return result
}
