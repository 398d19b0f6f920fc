package pgcatalog

import pg_query "github.com/pganalyze/pg_query_go/v6"

// setOpPlan is UNION, INTERSECT or EXCEPT, with or without ALL.
type setOpPlan struct {
	op          pg_query.SetOperation
	all         bool
	left, right *queryPlan
	cols        []scopeCol
}

func (p *setOpPlan) columns() []scopeCol { return p.cols }

func (p *setOpPlan) run(ev *evaluator, outer *env) ([][]Value, error) {
	l, err := p.left.run(ev, outer)
	if err != nil {
		return nil, err
	}
	r, err := p.right.run(ev, outer)
	if err != nil {
		return nil, err
	}
	if l, err = castRows(ev, l, p.left.cols, p.cols); err != nil {
		return nil, err
	}
	if r, err = castRows(ev, r, p.right.cols, p.cols); err != nil {
		return nil, err
	}
	counts := map[string]int{}
	switch p.op {
	case pg_query.SetOperation_SETOP_UNION:
		out := append(append([][]Value{}, l...), r...)
		if !p.all {
			out = distinctRows(out, allIdx(len(p.cols)))
		}
		return out, nil
	case pg_query.SetOperation_SETOP_INTERSECT:
		for _, row := range r {
			counts[key(row)]++
		}
		var out [][]Value
		for _, row := range l {
			if k := key(row); counts[k] > 0 {
				out = append(out, row)
				counts[k]--
			}
		}
		if !p.all {
			out = distinctRows(out, allIdx(len(p.cols)))
		}
		return out, nil
	default: // EXCEPT
		for _, row := range r {
			counts[key(row)]++
		}
		var out [][]Value
		for _, row := range l {
			k := key(row)
			if counts[k] > 0 {
				if p.all {
					counts[k]--
				}
				continue
			}
			out = append(out, row)
		}
		if !p.all {
			out = distinctRows(out, allIdx(len(p.cols)))
		}
		return out, nil
	}
}

// castRows converts a branch's values to the set operation's column types.
func castRows(ev *evaluator, rows [][]Value, from []outCol, to []scopeCol) ([][]Value, error) {
	for i := range to {
		if from[i].typ == to[i].typ {
			continue
		}
		for _, r := range rows {
			v, err := ev.cast(r[i], from[i].typ, to[i].typ)
			if err != nil {
				return nil, err
			}
			r[i] = v
		}
	}
	return rows, nil
}

func allIdx(n int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	return idx
}

func (b *binder) bindSetOp(s *pg_query.SelectStmt, sc *scope) (*queryPlan, error) {
	l, err := b.bindQuery(s.Larg, sc.parent, sc)
	if err != nil {
		return nil, err
	}
	r, err := b.bindQuery(s.Rarg, sc.parent, sc)
	if err != nil {
		return nil, err
	}
	if len(l.cols) != len(r.cols) {
		return nil, errorf(CodeSyntax, noPos, "each UNION query must have the same number of columns")
	}
	p := &setOpPlan{op: s.Op, all: s.All, left: l, right: r}
	for i, c := range l.cols {
		t := c.typ
		if t == tText && r.cols[i].typ != tText && r.cols[i].typ != tUnknown && isLiteralText(l, i) {
			t = r.cols[i].typ
		} else if !isLiteralText(r, i) {
			t = unifyTypes(t, r.cols[i].typ)
		}
		p.cols = append(p.cols, scopeCol{name: c.name, typ: t})
	}
	q := &queryPlan{root: p, cols: outCols(p.cols)}
	return b.bindOuterSortLimit(q, s, sc)
}

// isLiteralText reports whether a branch's column came from a NULL or
// untyped literal, whose type the other branch decides.
func isLiteralText(q *queryPlan, i int) bool {
	if sp, ok := q.root.(*selectPlan); ok && i < len(sp.targets) {
		return sp.targets[i].untyped
	}
	return false
}

// sortLimitPlan orders and limits a set operation or VALUES by its output
// columns.
type sortLimitPlan struct {
	input         *queryPlan
	sort          []sortKey
	limit, offset *cexpr
	withTies      bool
}

func (p *sortLimitPlan) columns() []scopeCol { return p.input.root.columns() }
func (p *sortLimitPlan) run(ev *evaluator, outer *env) ([][]Value, error) {
	rows, err := p.input.run(ev, outer)
	if err != nil {
		return nil, err
	}
	sortRows(rows, p.sort)
	var ties []sortKey
	if p.withTies {
		ties = p.sort
	}
	return applyLimit(ev, rows, p.limit, p.offset, ties, outer)
}

func (b *binder) bindOuterSortLimit(q *queryPlan, s *pg_query.SelectStmt, sc *scope) (*queryPlan, error) {
	if len(s.SortClause) == 0 && s.LimitCount == nil && s.LimitOffset == nil {
		return q, nil
	}
	p := &sortLimitPlan{input: q}
	for _, n := range s.SortClause {
		sb := n.GetSortBy()
		k := newSortKey(sb)
		k.idx = -1
		if c := sb.Node.GetAConst(); c != nil && c.GetIval() != nil {
			k.idx = int(c.GetIval().Ival) - 1
		} else if cr := sb.Node.GetColumnRef(); cr != nil {
			name := lastName(cr.Fields)
			for i, c := range q.cols {
				if c.name == name {
					k.idx = i
					break
				}
			}
		}
		if k.idx < 0 || k.idx >= len(q.cols) {
			return nil, errorf(CodeUndefinedColumn, sb.Location, "invalid ORDER BY item for a set operation: use an output column name or position")
		}
		k.typ = q.cols[k.idx].typ
		p.sort = append(p.sort, k)
	}
	var err error
	if p.limit, p.offset, err = b.bindLimit(s, sc); err != nil {
		return nil, err
	}
	p.withTies = s.LimitOption == pg_query.LimitOption_LIMIT_OPTION_WITH_TIES
	return &queryPlan{root: p, cols: q.cols}, nil
}
