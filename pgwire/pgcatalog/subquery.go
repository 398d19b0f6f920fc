package pgcatalog

import (
	"slices"
	"strconv"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// bindSubLink binds EXISTS, scalar, ARRAY and IN/ANY/ALL subqueries. The
// subquery's scope has sc as parent, so it may be correlated; it is then
// evaluated afresh for each row of the enclosing query, and otherwise once
// per statement (subPlan).
func (b *binder) bindSubLink(x *pg_query.SubLink, sc *scope) (*cexpr, error) {
	q, correlated, err := b.bindSubquery(x, sc)
	if err != nil {
		return nil, err
	}
	switch x.SubLinkType {
	case pg_query.SubLinkType_EXISTS_SUBLINK:
		perRow := &cexpr{typ: tBool, name: "exists", fn: func(ev *evaluator, e *env) (Value, error) {
			rows, err := q.run(ev, e)
			if err != nil {
				return null, err
			}
			return boolV(len(rows) > 0), nil
		}}
		if correlated {
			if e, ok := b.bindSemiJoin(x, sc, perRow); ok {
				return e, nil
			}
		}
		return perRow, nil
	case pg_query.SubLinkType_EXPR_SUBLINK:
		if len(q.cols) != 1 {
			return nil, errorf(CodeSyntax, x.Location, "subquery must return only one column")
		}
		perRow := &cexpr{typ: q.cols[0].typ, name: q.cols[0].name, fields: rootFields(q), fn: func(ev *evaluator, e *env) (Value, error) {
			row, err := singleRow(ev, q, e)
			if err != nil || row == nil {
				return null, err
			}
			return row[0], nil
		}}
		if correlated {
			if e, ok := b.bindScalarJoin(x, sc, perRow); ok {
				return e, nil
			}
		}
		return perRow, nil
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
		return b.bindQuantifiedSubquery(x, q, sc, !correlated)
	}
	return nil, errorf(CodeNotSupported, x.Location, "unsupported subquery type in catalog query")
}

// bindSubquery binds a subquery of an expression in sc; an uncorrelated
// one runs once per statement.
func (b *binder) bindSubquery(x *pg_query.SubLink, sc *scope) (q *queryPlan, correlated bool, err error) {
	unwatch := watchReferences(sc, func() { correlated = true })
	inner, err := b.bindQuery(x.Subselect.GetSelectStmt(), sc, nil)
	unwatch()
	if err != nil {
		return nil, false, err
	}
	if correlated {
		return inner, true, nil
	}
	return &queryPlan{root: &subPlan{q: inner}, cols: inner.cols}, false, nil
}

// errMultipleRows is a scalar subquery's error for a row of the enclosing
// query that finds more than one row; PostgreSQL gives it no position.
var errMultipleRows = errorf(CodeCardinality, noPos, "more than one row returned by a subquery used as an expression")

func rootFields(q *queryPlan) []colDef {
	cols := q.root.columns()
	if len(cols) == 1 {
		return cols[0].fields
	}
	return nil
}

func (b *binder) bindQuantifiedSubquery(x *pg_query.SubLink, q *queryPlan, sc *scope, once bool) (*cexpr, error) {
	if len(q.cols) != 1 || x.Testexpr.GetRowExpr() != nil {
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
	hashed := op == "=" && !all && l.typ == rt && hashKeyed(rt)
	if once && hashed {
		return &cexpr{typ: tBool, name: "?column?", fn: func(ev *evaluator, e *env) (Value, error) {
			v, err := l.fn(ev, e)
			if err != nil {
				return null, err
			}
			set, err := ev.inSetOf(q, e)
			if err != nil {
				return null, err
			}
			return set.contains(v)
		}}, nil
	}
	perRow := &cexpr{typ: tBool, name: "?column?", fn: func(ev *evaluator, e *env) (Value, error) {
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
	}}
	if !once && hashed {
		if e, ok := b.bindInJoin(x, l, sc, perRow); ok {
			return e, nil
		}
	}
	return perRow, nil
}

// bindRowInSubquery binds (a, b) op ANY (SELECT x, y ...) (IN is = ANY)
// and op ALL: the row compared with each subquery row as a row
// comparison does; ANY is true when one comparison is, ALL false when one
// is, and otherwise a NULL comparison makes either NULL.
func (b *binder) bindRowInSubquery(x *pg_query.SubLink, q *queryPlan, sc *scope) (*cexpr, error) {
	op := "="
	if len(x.OperName) > 0 {
		op = lastName(x.OperName)
	}
	all := x.SubLinkType == pg_query.SubLinkType_ALL_SUBLINK
	row := x.Testexpr.GetRowExpr()
	if row == nil {
		return nil, errorf(CodeSyntax, x.Location, "subquery has too many columns")
	}
	l, compare, err := b.rowWithSubquery(op, row.Args, q, sc, x.Location)
	if err != nil {
		return nil, err
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
			v, err := compare(ev, &env{row: append(slices.Clone(vals), r...), outer: e})
			switch {
			case err != nil:
				return null, err
			case v.isNull():
				unknown = true
			case v.b != all:
				return boolV(!all), nil // ANY found one; ALL failed one
			}
		}
		if unknown {
			return null, nil
		}
		return boolV(all), nil
	}}, nil
}

// watchReferences calls mark whenever an expression bound from now on
// references a column of sc or of a scope enclosing it: a subquery that
// does is correlated. The returned function restores the scopes' hooks.
func watchReferences(sc *scope, mark func()) (unwatch func()) {
	var saved []func(int)
	for s := sc; s != nil; s = s.parent {
		old := s.refHook
		saved = append(saved, old)
		s.refHook = func(idx int) {
			mark()
			if old != nil {
				old(idx)
			}
		}
	}
	return func() {
		i := 0
		for s := sc; s != nil; s = s.parent {
			s.refHook = saved[i]
			i++
		}
	}
}

// subPlan is an uncorrelated subquery: it runs once per statement, like
// PostgreSQL's InitPlan, however many rows of the enclosing query ask.
type subPlan struct{ q *queryPlan }

func (p *subPlan) columns() []scopeCol { return p.q.root.columns() }

func (p *subPlan) run(ev *evaluator, outer *env) ([][]Value, error) {
	if rows, ok := ev.subRows[p.q]; ok {
		return rows, nil
	}
	rows, err := p.q.run(ev, outer)
	if err != nil {
		return nil, err
	}
	ev.subRows[p.q] = rows
	return rows, nil
}

// inSet is the hashed values of an uncorrelated x IN (subquery), as
// PostgreSQL hashes such a subplan: a lookup per row instead of a scan.
type inSet struct {
	typ     uint32
	vals    map[string]bool
	sawNull bool
}

// hashKeyed reports whether values of type t are equal exactly when their
// hashKeys are (bpchar ignores trailing blanks, floats have two zeros).
func hashKeyed(t uint32) bool {
	switch t {
	case tBool, tInt2, tInt4, tInt8, tOid, tText, tVarchar, tName, tBytea, tNumeric, tDate, tUUID:
		return true
	}
	return false
}

// hashKey is the text two equal values of type t (hashKeyed) share:
// integers and numerics by their value (1.50 = 1.5), the others by their
// text.
func hashKey(t uint32, v Value) (string, error) {
	switch t {
	case tInt2, tInt4, tInt8, tOid:
		n, _ := v.asInt()
		return strconv.FormatInt(n, 10), nil
	case tNumeric:
		n, err := numericOf(v)
		if err != nil {
			return "", err
		}
		return trimNumeric(n.String()), nil
	}
	return plainText(v), nil
}

func (ev *evaluator) inSetOf(q *queryPlan, outer *env) (*inSet, error) {
	if s, ok := ev.inSets[q]; ok {
		return s, nil
	}
	run := q.run
	if sp, ok := q.root.(*subPlan); ok {
		run = sp.q.run // the set is what is kept, not the rows too
	}
	rows, err := run(ev, outer)
	if err != nil {
		return nil, err
	}
	s := &inSet{typ: q.cols[0].typ, vals: make(map[string]bool, len(rows))}
	for _, r := range rows {
		if r[0].isNull() {
			s.sawNull = true
			continue
		}
		k, err := hashKey(s.typ, r[0])
		if err != nil {
			return nil, err
		}
		s.vals[k] = true
	}
	ev.inSets[q] = s
	return s, nil
}

// contains is x IN (the set).
func (s *inSet) contains(x Value) (Value, error) {
	return inLookup(s.typ, x, len(s.vals) == 0 && !s.sawNull, s.sawNull, func(k string) bool { return s.vals[k] })
}

// inLookup is x IN a set of values of type typ hashed by hashKey (has
// reports whether the set holds a key), with IN's NULL rules: false for
// an empty set; NULL when x is NULL, or when the set holds a NULL and not
// x.
func inLookup(typ uint32, x Value, empty, sawNull bool, has func(k string) bool) (Value, error) {
	switch {
	case empty:
		return boolV(false), nil
	case x.isNull():
		return null, nil
	}
	k, err := hashKey(typ, x)
	switch {
	case err != nil:
		return null, err
	case has(k):
		return boolV(true), nil
	case sawNull:
		return null, nil
	}
	return boolV(false), nil
}

// singleRow runs a scalar subquery: its one row, nil when it has none, and
// the cardinality error when it has more.
func singleRow(ev *evaluator, q *queryPlan, e *env) ([]Value, error) {
	rows, err := q.run(ev, e)
	switch {
	case err != nil:
		return nil, err
	case len(rows) == 0:
		return nil, nil
	case len(rows) > 1:
		return nil, errMultipleRows
	}
	return rows[0], nil
}
