package pgcatalog

import pg_query "github.com/pganalyze/pg_query_go/v6"

// rowComparison binds a comparison of two row constructors, (a, b) < (c, d),
// as PostgreSQL reads it: pairwise, each pair typed as its own comparison
// (so an untyped literal takes its column's type). = needs every pair
// equal and <> any unequal; the ordering operators decide at the first
// pair that differs, and are NULL when a pair before it is NULL.
func (b *binder) rowComparison(op string, left, right []*pg_query.Node, sc *scope, pos int32) (*cexpr, error) {
	if len(left) != len(right) {
		return nil, errorf(CodeSyntax, pos, "unequal number of entries in row expressions")
	}
	strict := map[string]string{"=": "=", "<>": "<>", "!=": "<>", "<": "<", "<=": "<", ">": ">", ">=": ">"}[op]
	if strict == "" {
		return nil, errorf(CodeNotSupported, pos, "operator %s is not supported for row expressions", op)
	}
	eqs := make([]*cexpr, len(left))
	cmps := make([]*cexpr, len(left))
	for i := range left {
		l, err := b.bindExpr(left[i], sc)
		if err != nil {
			return nil, err
		}
		r, err := b.bindExpr(right[i], sc)
		if err != nil {
			return nil, err
		}
		if eqs[i], err = b.binaryOp("=", l, r, pos); err != nil {
			return nil, err
		}
		if cmps[i], err = b.binaryOp(strict, l, r, pos); err != nil {
			return nil, err
		}
	}
	return &cexpr{typ: tBool, name: "?column?", fn: rowCompare(op, strict, eqs, cmps)}, nil
}

// rowSubqueryComparison binds (a, b) op (subquery), PostgreSQL's
// ROWCOMPARE sublink: the row compared with the subquery's one row, NULL
// when it has none, 21000 when it has more.
func (b *binder) rowSubqueryComparison(op string, left []*pg_query.Node, x *pg_query.SubLink, sc *scope, pos int32) (*cexpr, error) {
	q, _, err := b.bindSubquery(x, sc)
	if err != nil {
		return nil, err
	}
	ls, compare, err := b.rowWithSubquery(op, left, q, sc, pos)
	if err != nil {
		return nil, err
	}
	return &cexpr{typ: tBool, name: "?column?", fn: func(ev *evaluator, e *env) (Value, error) {
		row, err := evalArgs(ev, e, ls)
		if err != nil {
			return null, err
		}
		sub, err := singleRow(ev, q, e)
		if err != nil || sub == nil {
			return null, err
		}
		return compare(ev, &env{row: append(row, sub...), outer: e})
	}}, nil
}

// rowWithSubquery binds the row left for comparing (op) with the rows of
// subquery q: the row's fields, and the comparison, which reads an env
// whose row is the left values followed by a subquery row's.
func (b *binder) rowWithSubquery(op string, left []*pg_query.Node, q *queryPlan, sc *scope, pos int32) ([]*cexpr, func(*evaluator, *env) (Value, error), error) {
	strict := map[string]string{"=": "=", "<>": "<>", "!=": "<>", "<": "<", "<=": "<", ">": ">", ">=": ">"}[op]
	if strict == "" {
		return nil, nil, errorf(CodeNotSupported, pos, "operator %s is not supported for row expressions", op)
	}
	ls, err := b.bindArgs(left, sc)
	switch {
	case err != nil:
		return nil, nil, err
	case len(q.cols) > len(ls):
		return nil, nil, errorf(CodeSyntax, pos, "subquery has too many columns")
	case len(q.cols) < len(ls):
		return nil, nil, errorf(CodeSyntax, pos, "subquery has too few columns")
	}
	n := len(ls)
	eqs, cmps := make([]*cexpr, n), make([]*cexpr, n)
	for i, l := range ls {
		if l.untyped {
			ls[i] = b.coerce(l, q.cols[i].typ)
		}
		lc := colRef(0, i, scopeCol{typ: ls[i].typ})
		rc := colRef(0, n+i, scopeCol{typ: q.cols[i].typ})
		if eqs[i], err = b.binaryOp("=", lc, rc, pos); err != nil {
			return nil, nil, err
		}
		if cmps[i], err = b.binaryOp(strict, lc, rc, pos); err != nil {
			return nil, nil, err
		}
	}
	return ls, rowCompare(op, strict, eqs, cmps), nil
}

// rowCompare evaluates a row comparison from its pairs' = and strict
// (<, >, = or <>) comparisons.
func rowCompare(op, strict string, eqs, cmps []*cexpr) func(ev *evaluator, e *env) (Value, error) {
	return func(ev *evaluator, e *env) (Value, error) {
		sawNull := false
		for i, eq := range eqs {
			v, err := eq.fn(ev, e)
			if err != nil {
				return null, err
			}
			switch {
			case v.isNull() && (strict == "=" || strict == "<>"):
				sawNull = true
			case v.isNull():
				return null, nil
			case !v.truthy() && strict == "=":
				return boolV(false), nil
			case !v.truthy():
				return cmps[i].fn(ev, e)
			}
		}
		if sawNull {
			return null, nil
		}
		return boolV(op == "=" || op == "<=" || op == ">="), nil
	}
}
