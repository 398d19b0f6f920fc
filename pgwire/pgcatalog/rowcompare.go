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
	return &cexpr{typ: tBool, name: "?column?", fn: func(ev *evaluator, e *env) (Value, error) {
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
	}}, nil
}
