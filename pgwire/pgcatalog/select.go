package pgcatalog

import (
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// bindStatement binds a top-level statement.
func (b *binder) bindStatement(n *pg_query.Node) (*queryPlan, error) {
	switch {
	case n.GetSelectStmt() != nil:
		return b.bindQuery(n.GetSelectStmt(), nil, nil)
	case n.GetVariableShowStmt() != nil:
		return b.bindShow(n.GetVariableShowStmt().Name)
	case n.GetExplainStmt() != nil:
		return b.bindExplain(n.GetExplainStmt())
	}
	return nil, errorf(CodeNotSupported, noPos, "catalog queries support SELECT, VALUES, SHOW and EXPLAIN only")
}

// bindQuery binds a SELECT (simple, VALUES or set operation) whose
// correlated references resolve in parent. cteOuter, when set, is the scope
// whose WITH queries are visible without being an enclosing query level
// (set-operation branches and sibling WITH queries).
func (b *binder) bindQuery(s *pg_query.SelectStmt, parent, cteOuter *scope) (*queryPlan, error) {
	sc := &scope{parent: parent, cteOuter: cteOuter}
	if s.WithClause != nil {
		sc.ctes = map[string]*cteDef{}
		for _, n := range s.WithClause.Ctes {
			c := n.GetCommonTableExpr()
			var q *queryPlan
			var err error
			if _, dup := sc.ctes[c.Ctename]; dup {
				return nil, errorf("42712", c.Location, "WITH query name \"%s\" specified more than once", c.Ctename)
			}
			recursive := s.WithClause.Recursive && isRecursive(c)
			if (c.SearchClause != nil || c.CycleClause != nil) && !recursive {
				return nil, errorf(CodeSyntax, c.Location, "WITH query is not recursive")
			}
			if recursive {
				q, err = b.bindRecursiveCTE(c, parent, sc)
			} else {
				q, err = b.bindQuery(c.Ctequery.GetSelectStmt(), parent, sc)
			}
			if err == nil {
				q, err = cteColumns(c, q)
			}
			if err != nil {
				return nil, err
			}
			sc.ctes[c.Ctename] = &cteDef{name: c.Ctename, q: q}
		}
	}
	if s.Op != pg_query.SetOperation_SETOP_NONE && s.Op != pg_query.SetOperation_SET_OPERATION_UNDEFINED {
		return b.bindSetOp(s, sc)
	}
	if len(s.ValuesLists) > 0 {
		q, err := b.bindValues(s, sc)
		if err != nil {
			return nil, err
		}
		return b.bindOuterSortLimit(q, s, sc)
	}
	return b.bindSelect(s, sc)
}

// cteColumns is a WITH query's result under the column names its
// definition lists (WITH t(a, b) AS ...), which may not outnumber its
// columns.
func cteColumns(c *pg_query.CommonTableExpr, q *queryPlan) (*queryPlan, error) {
	names := strs(c.Aliascolnames)
	switch {
	case len(names) == 0:
		return q, nil
	case len(names) > len(q.cols):
		return nil, errorf("42P10", c.Location, "WITH query \"%s\" has %d columns available but %d columns specified", c.Ctename, len(q.cols), len(names))
	}
	return renameCols(q, names), nil
}

func renameCols(q *queryPlan, names []string) *queryPlan {
	cols := append([]outCol(nil), q.cols...)
	for i := range cols {
		if i < len(names) {
			cols[i].name = names[i]
		}
	}
	return &queryPlan{root: q.root, cols: cols}
}

// bindSelect binds a simple SELECT.
func (b *binder) bindSelect(s *pg_query.SelectStmt, sc *scope) (*queryPlan, error) {
	if s.IntoClause != nil || len(s.LockingClause) > 0 {
		return nil, errorf(CodeNotSupported, noPos, "SELECT INTO and locking clauses are not supported in catalog queries")
	}
	p := &selectPlan{prune: b.pruneNext}
	b.pruneNext = nil
	from, err := b.bindFrom(s.FromClause, sc)
	if err != nil {
		return nil, err
	}
	p.from = from
	sc.cols = from.columns()
	if s.WhereClause != nil {
		if cp, ok := from.(*crossPlan); ok {
			// The join planner places each conjunct where its inputs meet.
			if cp.conds, err = b.bindConjuncts(s.WhereClause, sc, "WHERE"); err != nil {
				return nil, err
			}
		} else {
			var refs map[int]bool
			p.where, refs, err = b.bindTracked(sc, func() (*cexpr, error) { return b.bindBool(s.WhereClause, sc, "WHERE") })
			if err != nil {
				return nil, err
			}
			p.whereConst = len(refs) == 0
		}
	}
	b.pushdown(s.WhereClause, sc, from)
	// The select list, HAVING and ORDER BY may hold aggregates, window
	// functions and (the select list) set-returning functions; GROUP BY
	// only the last.
	sc.srfs = &p.srfs
	if err := b.bindWindowClause(s.WindowClause, sc); err != nil {
		return nil, err
	}
	restore := sc.enter("GROUP BY")
	err = b.bindGroupBy(s.GroupClause, s.TargetList, sc, p)
	if restore(); err != nil {
		return nil, err
	}
	sc.aggs, sc.wins = &p.aggs, &p.wins
	// The columns subqueries of the select list, HAVING and ORDER BY read
	// from this level, which a grouped select must group (checkGrouped).
	var outerRefs []outerRef
	sc.outerRef = func(idx int, pos int32) { outerRefs = append(outerRefs, outerRef{idx, pos}) }
	if err := b.bindTargets(p, s.TargetList, sc); err != nil {
		return nil, err
	}
	srfs := p.srfs
	sc.srfs = nil
	if s.HavingClause != nil {
		sc.wins = nil
		p.having, err = b.bindBool(s.HavingClause, sc, "HAVING")
		if sc.wins = &p.wins; err != nil {
			return nil, err
		}
	}
	p.grouped = len(s.GroupClause) > 0 || len(p.aggs) > 0 || p.having != nil
	p.distinct = len(s.DistinctClause) > 0
	for _, d := range s.DistinctClause {
		if d != nil && d.Node != nil {
			e, err := b.bindOrderExpr(d, p, sc)
			if err != nil {
				return nil, err
			}
			p.distinctOn = append(p.distinctOn, e)
		}
	}
	for _, n := range s.SortClause {
		k, err := b.bindSortKey(n.GetSortBy(), p, sc)
		if err != nil {
			return nil, err
		}
		p.sort = append(p.sort, k)
	}
	sc.outerRef = nil
	if err := distinctOnMatchesSort(s, p); err != nil {
		return nil, err
	}
	p.srfs = srfs
	if len(p.srfs) != len(srfs) {
		return nil, errorf(CodeNotSupported, noPos, "set-returning functions are only supported in the select list")
	}
	if p.grouped {
		if err := b.checkGrouped(groupedExprs(s, p), outerRefs, sc); err != nil {
			return nil, err
		}
	}
	p.withTies = s.LimitOption == pg_query.LimitOption_LIMIT_OPTION_WITH_TIES
	if p.limit, p.offset, err = b.bindLimit(s, sc); err != nil {
		return nil, err
	}
	if ok, reverse := p.sortedByScan(); ok {
		p.sort = nil
		p.from.(*tableScanPlan).reverse = reverse
	}
	return &queryPlan{root: p, cols: p.cols}, nil
}

// sortedByScan reports whether ORDER BY asks for an order a scan yields
// rows in: FROM is one Shale table, read in key order or (reverse) in
// descending key order, and the sort keys are, in one direction, leading
// primary-key columns among its OrderedKeys (`_key`, or key fields whose
// encoding preserves order), skipping any WHERE fixes by an equality
// (tenant = 'a' ORDER BY seq) — all of them, or the whole primary key
// followed by anything (the key is unique, so later keys never decide).
// The sort is then left out, so that the select streams and a LIMIT stops
// the scan: Metabase and DBeaver page through a table by its primary key,
// and the newest rows of a time series are the last keys.
func (p *selectPlan) sortedByScan() (ok, reverse bool) {
	ts, isScan := p.from.(*tableScanPlan)
	if !isScan || len(p.sort) == 0 || p.grouped || len(p.wins) > 0 || len(p.srfs) > 0 || p.distinct || p.withTies {
		return false, false
	}
	fixed := map[string]bool{}
	for _, c := range ts.push {
		if c.op == "=" && len(c.vals) == 1 {
			fixed[ts.table.Columns[c.col].Name] = true
		}
	}
	pk := ts.table.PrimaryKey[:min(ts.table.OrderedKeys, len(ts.table.PrimaryKey))]
	i, matched := 0, 0
	for ; i < len(pk) && matched < len(p.sort); i++ {
		s := p.sort[matched]
		if tc := p.targets[s.idx].tableCol; tc != nil && tc.scan == ts && ts.table.Columns[tc.idx].Name == pk[i] && s.desc == p.sort[0].desc {
			matched++
			continue
		}
		if !fixed[pk[i]] {
			break
		}
	}
	for ; i < len(ts.table.PrimaryKey) && fixed[ts.table.PrimaryKey[i]]; i++ {
	}
	ok = matched == len(p.sort) || i == len(ts.table.PrimaryKey)
	return ok, p.sort[0].desc
}

// groupedExprs are the expressions of a grouped select that are computed
// per group: the select list, HAVING, and ORDER BY items other than output
// columns named or numbered.
func groupedExprs(s *pg_query.SelectStmt, p *selectPlan) []*pg_query.Node {
	var out []*pg_query.Node
	for _, t := range s.TargetList {
		out = append(out, t.GetResTarget().GetVal())
	}
	out = append(out, s.HavingClause)
	for _, n := range s.SortClause {
		e := n.GetSortBy().GetNode()
		if e.GetAConst() != nil {
			continue
		}
		if cr := e.GetColumnRef(); cr != nil && len(cr.Fields) == 1 && slices.ContainsFunc(p.cols[:p.nvisible], func(c outCol) bool {
			return c.name == cr.Fields[0].GetString_().GetSval()
		}) {
			continue
		}
		out = append(out, e)
	}
	return out
}

// bindTargets binds the select list, expanding * and t.*.
func (b *binder) bindTargets(p *selectPlan, targets []*pg_query.Node, sc *scope) error {
	for _, t := range targets {
		rt := t.GetResTarget()
		if cr := rt.Val.GetColumnRef(); cr != nil {
			if f := strs(cr.Fields); len(f) > 0 && f[len(f)-1] == "*" {
				schema, qual := "", ""
				if len(f) > 1 {
					qual = f[len(f)-2]
				}
				if len(f) > 2 {
					schema = f[len(f)-3]
				}
				n := 0
				// A pruned column (prune.go) is bound as NULL.
				add := func(i int, c scopeCol) {
					if p.pruned(len(p.targets)) {
						p.addTarget(constExpr(null, c.typ), c.name)
					} else {
						p.addTarget(colRef(0, i, c), c.name)
					}
					n++
				}
				if qual == "" {
					for _, i := range starColumns(p.from) {
						add(i, sc.cols[i])
					}
				}
				for i, c := range sc.cols {
					if qual != "" && c.rel == qual && (schema == "" || c.schema == schema) {
						add(i, c)
					}
				}
				if n == 0 && qual != "" {
					return errorf(CodeUndefinedTable, cr.Location, "missing FROM-clause entry for table \"%s\"", qual)
				}
				continue
			}
		}
		if j := len(p.targets); p.pruned(j) {
			p.addTarget(constExpr(null, p.prune.cols[j].typ), p.prune.cols[j].name)
			p.targetKeys[j] = nodeKey(rt.Val)
			continue
		}
		aggs, srfs := len(p.aggs), len(p.srfs)
		e, err := b.bindExpr(rt.Val, sc)
		if err != nil {
			return err
		}
		name := rt.Name
		if name == "" {
			name = e.name
		}
		p.addTarget(e, name)
		p.targetKeys[len(p.targets)-1] = nodeKey(rt.Val)
		if len(p.aggs) != aggs || len(p.srfs) != srfs {
			p.keep = append(p.keep, len(p.targets)-1)
		}
	}
	p.nvisible = len(p.targets)
	return nil
}

// bindSortKey resolves an ORDER BY item: a position or output column name
// refers to the select list; anything else is evaluated over the input and
// carried as a hidden column.
func (b *binder) bindSortKey(s *pg_query.SortBy, p *selectPlan, sc *scope) (sortKey, error) {
	k := newSortKey(s)
	idx, err := b.bindOrderExpr(s.Node, p, sc)
	if err != nil {
		return k, err
	}
	k.idx, k.typ = idx, p.targets[idx].typ
	return k, nil
}

func (b *binder) bindOrderExpr(n *pg_query.Node, p *selectPlan, sc *scope) (int, error) {
	if c := n.GetAConst(); c != nil && c.GetIval() != nil {
		k := int(c.GetIval().Ival)
		if k < 1 || k > p.nvisible {
			return 0, errorf("42P10", c.Location, "ORDER BY position %d is not in select list", k)
		}
		return k - 1, nil
	}
	if cr := n.GetColumnRef(); cr != nil && len(cr.Fields) == 1 {
		name := lastName(cr.Fields)
		found := -1
		for i := 0; i < p.nvisible; i++ {
			if p.cols[i].name != name {
				continue
			}
			// Two output columns of the name are ambiguous unless they are
			// the same expression (SELECT a, a ... ORDER BY a).
			if found >= 0 && (p.targetKeys[i] == "" || p.targetKeys[i] != p.targetKeys[found]) {
				return 0, errorf(CodeAmbiguousColumn, cr.Location, "ORDER BY \"%s\" is ambiguous", name)
			}
			if found < 0 {
				found = i
			}
		}
		if found >= 0 {
			return found, nil
		}
	}
	// An expression the select list, DISTINCT ON or ORDER BY holds already
	// is that entry, as findTargetlistEntrySQL99 finds it.
	key := nodeKey(n)
	for i, k := range p.targetKeys {
		if k == key {
			return i, nil
		}
	}
	e, err := b.bindExpr(n, sc)
	if err != nil {
		return 0, err
	}
	p.targets = append(p.targets, e)
	if len(p.targetKeys) == len(p.targets)-1 {
		p.targetKeys = append(p.targetKeys, key)
	}
	return len(p.targets) - 1, nil
}

// distinctOnMatchesSort is transformDistinctOnClause's check: with an
// ORDER BY, the DISTINCT ON expressions must be its leftmost ones (in any
// order); it may end among them. The error points at the DISTINCT ON
// expression out of place.
func distinctOnMatchesSort(s *pg_query.SelectStmt, p *selectPlan) error {
	if len(p.distinctOn) == 0 || len(p.sort) == 0 {
		return nil
	}
	misplaced := func(idx int) error {
		pos := int32(noPos)
		for i, d := range p.distinctOn {
			if d == idx && i < len(s.DistinctClause) {
				pos = location(s.DistinctClause[i])
				break
			}
		}
		return errorf("42P10", pos, "SELECT DISTINCT ON expressions must match initial ORDER BY expressions")
	}
	on := map[int]bool{}
	for _, d := range p.distinctOn {
		on[d] = true
	}
	sorted := map[int]bool{}
	skipped := false
	for _, k := range p.sort {
		switch {
		case !on[k.idx]:
			skipped = true
		case skipped:
			return misplaced(k.idx)
		default:
			sorted[k.idx] = true
		}
	}
	if skipped {
		for _, d := range p.distinctOn {
			if !sorted[d] {
				return misplaced(d)
			}
		}
	}
	return nil
}

func newSortKey(s *pg_query.SortBy) sortKey {
	k := sortKey{desc: s.SortbyDir == pg_query.SortByDir_SORTBY_DESC}
	if s.SortbyDir == pg_query.SortByDir_SORTBY_USING && len(s.UseOp) > 0 {
		k.desc = s.UseOp[len(s.UseOp)-1].GetString_().GetSval() == ">" // USING > sorts as DESC
	}
	k.nullsFirst = k.desc
	switch s.SortbyNulls {
	case pg_query.SortByNulls_SORTBY_NULLS_FIRST:
		k.nullsFirst = true
	case pg_query.SortByNulls_SORTBY_NULLS_LAST:
		k.nullsFirst = false
	}
	return k
}

func (b *binder) bindLimit(s *pg_query.SelectStmt, sc *scope) (limit, offset *cexpr, err error) {
	inner := &scope{parent: sc.parent, ctes: sc.ctes, clause: "LIMIT"}
	if s.LimitCount != nil && s.LimitCount.GetAConst().GetIsnull() == false {
		if limit, err = b.bindExpr(s.LimitCount, inner); err != nil {
			return nil, nil, err
		}
		if limit.untyped { // LIMIT $1 takes a bigint, as in PostgreSQL
			limit = b.coerce(limit, tInt8)
		}
		if limit, err = nonNegative(limit, "LIMIT", "2201W"); err != nil {
			return nil, nil, err
		}
	}
	if s.LimitOffset != nil {
		inner.clause = "OFFSET"
		if offset, err = b.bindExpr(s.LimitOffset, inner); err != nil {
			return nil, nil, err
		}
		if offset.untyped {
			offset = b.coerce(offset, tInt8)
		}
		if offset, err = nonNegative(offset, "OFFSET", "2201X"); err != nil {
			return nil, nil, err
		}
	}
	return limit, offset, nil
}

// nonNegative makes a LIMIT or OFFSET count (clause) fail as PostgreSQL's
// recompute_limits does when it is negative: a constant now, any other
// count when it is computed.
func nonNegative(e *cexpr, clause, code string) (*cexpr, error) {
	negative := func(v Value) error {
		if n, ok := v.asInt(); ok && !v.isNull() && n < 0 {
			return errorf(code, noPos, "%s must not be negative", clause)
		}
		return nil
	}
	if e.isConst {
		return e, negative(e.val)
	}
	out := *e
	out.tableCol = nil // no longer the bare column (byKey)
	out.fn = func(ev *evaluator, en *env) (Value, error) {
		v, err := e.fn(ev, en)
		if err == nil {
			err = negative(v)
		}
		return v, err
	}
	return &out, nil
}

func (b *binder) bindBool(n *pg_query.Node, sc *scope, clause string) (*cexpr, error) {
	if name, ok := clauseNames[clause]; ok {
		defer sc.enter(name)()
	}
	e, err := b.bindExpr(n, sc)
	if err != nil {
		return nil, err
	}
	if e.typ == tUnknown {
		e = coerce(e, tBool)
	}
	if e.typ != tBool {
		return nil, errorf(CodeDatatypeMismatch, location(n), "argument of %s must be type boolean, not type %s", clause, formatType(e.typ, -1))
	}
	return e, nil
}

// clauseNames are the clauses bindBool binds that refuse aggregates,
// window functions or set-returning functions, as their errors name them.
var clauseNames = map[string]string{"WHERE": "WHERE", "JOIN/ON": "JOIN conditions", "HAVING": "HAVING", "FILTER": "FILTER"}

// bindValues binds VALUES lists; unknown literals become text.
func (b *binder) bindValues(s *pg_query.SelectStmt, sc *scope) (*queryPlan, error) {
	p := &valuesPlan{}
	for _, l := range s.ValuesLists {
		var row []*cexpr
		for _, item := range l.GetList().Items {
			e, err := b.bindExpr(item, sc)
			if err != nil {
				return nil, err
			}
			row = append(row, e)
		}
		if len(p.rows) > 0 && len(row) != len(p.rows[0]) {
			return nil, errorf(CodeSyntax, noPos, "VALUES lists must all be the same length")
		}
		p.rows = append(p.rows, row)
	}
	for i := range p.rows[0] {
		t := uint32(tUnknown)
		for _, r := range p.rows {
			switch {
			case r[i].typ == tUnknown:
			case t == tUnknown:
				t = r[i].typ
			default:
				t = unifyTypes(t, r[i].typ)
			}
		}
		if t == tUnknown {
			t = tText
		}
		p.cols = append(p.cols, scopeCol{rel: "*VALUES*", name: "column" + itoa(int64(i+1)), typ: t})
	}
	return &queryPlan{root: p, cols: outCols(p.cols)}, nil
}

func outCols(cols []scopeCol) []outCol {
	out := make([]outCol, len(cols))
	for i, c := range cols {
		out[i] = outCol{name: c.name, typ: c.typ}
	}
	return out
}

// bindShow answers SHOW name (and SHOW ALL) from the session settings.
func (b *binder) bindShow(name string) (*queryPlan, error) {
	name = strings.ToLower(name)
	if name == "all" {
		e := &cexpr{typ: tText}
		_ = e
		return nil, errorf(CodeNotSupported, noPos, "SHOW ALL is not supported; query pg_settings")
	}
	e := &cexpr{typ: tText, fn: func(ev *evaluator, _ *env) (Value, error) {
		v, ok := lookupSetting(ev.sess, name)
		if !ok {
			return null, errorf(CodeUndefinedObject, noPos, "unrecognized configuration parameter \"%s\"", name)
		}
		return textV(v), nil
	}}
	p := &selectPlan{from: oneRowPlan{}}
	p.addTarget(e, name)
	p.nvisible = 1
	return &queryPlan{root: p, cols: p.cols}, nil
}
