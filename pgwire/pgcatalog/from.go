package pgcatalog

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"
	"slices"
)

// bindFrom binds the FROM list; items separated by commas are cross-joined.
// Items see the items before them only when LATERAL (a subquery marked
// so, or a function that reads them); all may reference enclosing queries
// through sc.parent.
func (b *binder) bindFrom(items []*pg_query.Node, sc *scope) (plan, error) {
	if len(items) == 0 {
		return oneRowPlan{}, nil
	}
	if err := checkFromNames(items); err != nil {
		return nil, err
	}
	if len(items) == 1 {
		return b.bindFromItem(items[0], sc)
	}
	p := &crossPlan{}
	for i, it := range items {
		if i > 0 {
			right, err := b.bindLateralItem(it, p.cols, sc)
			if err != nil {
				return nil, err
			}
			if right != nil {
				var left plan = p
				if len(p.items) == 1 {
					left = p.items[0]
				}
				lp := &lateralPlan{left: left, right: right, cols: concatCols(p.cols, right.columns())}
				p = &crossPlan{items: []plan{lp}, offs: []int{0}, cols: lp.cols}
				continue
			}
		}
		q, err := b.bindFromItem(it, sc)
		if err != nil {
			return nil, err
		}
		p.items = append(p.items, q)
		p.offs = append(p.offs, len(p.cols))
		p.cols = append(p.cols, q.columns()...)
	}
	if len(p.items) == 1 {
		return p.items[0], nil
	}
	return p, nil
}

// sameCategory reports whether values of types a and b can be matched
// (PostgreSQL's select_common_type needs one type category; unknown
// matches any).
func sameCategory(a, b uint32) bool {
	ta, tb := typeByOID[a], typeByOID[b]
	return a == b || a == tUnknown || b == tUnknown || ta == nil || tb == nil || ta.category == tb.category
}

// starColumns are the indexes of p's columns an unqualified * lists, in
// its order: a join's USING columns first, in the USING list's order,
// then each input's other columns; hidden copies of USING columns not at
// all.
func starColumns(p plan) []int {
	var out []int
	switch x := p.(type) {
	case *joinPlan:
		nl := len(x.left.columns())
		out = slices.Clone(x.usingCols)
		for _, i := range append(starColumns(x.left), offset(starColumns(x.right), nl)...) {
			if !slices.Contains(x.usingCols, i) && !x.cols[i].usingDup {
				out = append(out, i)
			}
		}
	case *crossPlan:
		for i, it := range x.items {
			out = append(out, offset(starColumns(it), x.offs[i])...)
		}
	case *lateralPlan:
		out = append(starColumns(x.left), offset(starColumns(x.right), len(x.left.columns()))...)
	default:
		for i, c := range p.columns() {
			if !c.usingDup {
				out = append(out, i)
			}
		}
	}
	return out
}

// offset is indexes moved by n.
func offset(idx []int, n int) []int {
	for i := range idx {
		idx[i] += n
	}
	return idx
}

// checkFromNames reports PostgreSQL's 42712 for a FROM list that names two
// of its items alike (FROM t, t; a JOIN b a), as checkNameSpaceConflicts
// does: two relations written without aliases conflict only when they are
// the same relation; an aliased join hides the items it joins.
func checkFromNames(items []*pg_query.Node) error {
	type entry struct {
		name, schema string
		plain        bool // a relation without an alias
	}
	var seen []entry
	var add func(n *pg_query.Node) error
	add = func(n *pg_query.Node) error {
		var e entry
		switch {
		case n.GetRangeVar() != nil:
			rv := n.GetRangeVar()
			e = entry{name: rv.Relname, schema: rv.Schemaname, plain: rv.Alias == nil}
			if rv.Alias != nil {
				e.name = rv.Alias.Aliasname
			}
		case n.GetRangeSubselect() != nil:
			e.name = n.GetRangeSubselect().GetAlias().GetAliasname()
		case n.GetRangeFunction() != nil:
			rf := n.GetRangeFunction()
			if e.name = rf.GetAlias().GetAliasname(); e.name == "" && len(rf.Functions) == 1 {
				if fc := rf.Functions[0].GetList().GetItems()[0].GetFuncCall(); fc != nil {
					e.name = lastName(fc.Funcname)
				}
			}
		case n.GetJoinExpr() != nil:
			j := n.GetJoinExpr()
			if j.Alias != nil {
				e.name = j.Alias.Aliasname
				break
			}
			if err := add(j.Larg); err != nil {
				return err
			}
			return add(j.Rarg)
		}
		if e.name == "" {
			return nil
		}
		for _, o := range seen {
			if o.name == e.name && !(o.plain && e.plain && o.schema != "" && e.schema != "" && o.schema != e.schema) {
				return errorf("42712", noPos, "table name \"%s\" specified more than once", e.name)
			}
		}
		seen = append(seen, e)
		return nil
	}
	for _, it := range items {
		if err := add(it); err != nil {
			return err
		}
	}
	return nil
}

// bindLateralItem binds a FROM item that reads the columns of the items
// before it (leftCols): a LATERAL subquery, or a function that reads them,
// as PostgreSQL lets a function do (an implicit LATERAL: jsonb_each(t.cf)
// next to t). It returns nil for any other item.
func (b *binder) bindLateralItem(n *pg_query.Node, leftCols []scopeCol, sc *scope) (plan, error) {
	reads := false
	lat := &scope{cols: leftCols, parent: sc.parent, refHook: func(int) { reads = true }}
	if rs := n.GetRangeSubselect(); rs != nil && rs.Lateral {
		p, err := b.bindSubselect(rs, lat, sc)
		if err != nil || !reads {
			return nil, err // one that reads nothing before it is an ordinary item
		}
		return p, nil
	}
	if rf := n.GetRangeFunction(); rf != nil {
		fp, err := b.bindRangeFunction(rf, &scope{parent: lat, cteOuter: sc.cteOuter, ctes: sc.ctes, clause: "functions in FROM"})
		if err != nil || !reads {
			return nil, nil // bound again as an ordinary item, which reports any error
		}
		return fp, nil
	}
	return nil, nil
}

// lateralPlan joins each row of left with the rows right returns for it
// (right runs with the left row as its outer row). on, when set, is a
// JOIN's condition over the joined row; a LEFT JOIN keeps a left row that
// joins nothing, NULL-extended.
type lateralPlan struct {
	left, right plan
	cols        []scopeCol
	on          *cexpr
	leftJoin    bool
}

func (p *lateralPlan) columns() []scopeCol { return p.cols }

func (p *lateralPlan) run(ev *evaluator, outer *env) ([][]Value, error) {
	lrows, err := p.left.run(ev, outer)
	if err != nil {
		return nil, err
	}
	width := len(p.right.columns())
	var out [][]Value
	for _, l := range lrows {
		rrows, err := p.right.run(ev, &env{row: l, outer: outer})
		if err != nil {
			return nil, err
		}
		joined := false
		for _, r := range rrows {
			row := concatValues(l, r)
			if p.on != nil {
				v, err := p.on.fn(ev, &env{row: row, outer: outer})
				if err != nil {
					return nil, err
				}
				if !v.truthy() {
					continue
				}
			}
			out, joined = append(out, row), true
		}
		if !joined && p.leftJoin {
			out = append(out, concatValues(l, make([]Value, width)))
		}
	}
	return out, nil
}

func concatValues(a, b []Value) []Value {
	return append(append(make([]Value, 0, len(a)+len(b)), a...), b...)
}

func concatCols(a, b []scopeCol) []scopeCol {
	return append(append([]scopeCol(nil), a...), b...)
}

func (b *binder) bindFromItem(n *pg_query.Node, sc *scope) (plan, error) {
	switch {
	case n.GetRangeVar() != nil:
		p, err := b.bindRangeVar(n.GetRangeVar(), sc)
		if err != nil {
			return nil, err
		}
		return p, aliasColumns(n.GetRangeVar().Alias, len(p.columns()))
	case n.GetJoinExpr() != nil:
		return b.bindJoin(n.GetJoinExpr(), sc)
	case n.GetRangeSubselect() != nil:
		// A LATERAL subquery first in FROM has nothing before it to read.
		return b.bindSubselect(n.GetRangeSubselect(), sc.parent, sc)
	case n.GetRangeFunction() != nil:
		return b.bindRangeFunction(n.GetRangeFunction(), &scope{parent: sc.parent, cteOuter: sc.cteOuter, ctes: sc.ctes, clause: "functions in FROM"})
	}
	return nil, errorf(CodeNotSupported, location(n), "unsupported FROM item in catalog query")
}

// bindRangeVar resolves a relation name: a WITH query, an emulated
// pg_catalog or information_schema relation (pg_catalog is searched first
// for unqualified names), or a Shale table in public (usertable.go).
func (b *binder) bindRangeVar(rv *pg_query.RangeVar, sc *scope) (plan, error) {
	alias := rv.Relname
	if rv.Alias != nil {
		alias = rv.Alias.Aliasname
	}
	var colnames []string
	if rv.Alias != nil {
		colnames = strs(rv.Alias.Colnames)
	}
	// The schema qualifies column references (public.t.c) only while the
	// relation has no alias, as in PostgreSQL.
	relSchema := ""
	var src *relRef // a table's or catalog relation's, for tableoid
	rename := func(cols []scopeCol) []scopeCol {
		out := make([]scopeCol, len(cols))
		for i, c := range cols {
			c.rel, c.usingDup, c.src = alias, false, src
			if rv.Alias == nil {
				c.schema = relSchema
			}
			if i < len(colnames) {
				c.name = colnames[i]
			}
			out[i] = c
		}
		return out
	}
	if rv.Schemaname == "" {
		if c := sc.lookupCTE(rv.Relname); c != nil {
			cols := make([]scopeCol, len(c.q.cols))
			for i, oc := range c.q.cols {
				cols[i] = scopeCol{name: oc.name, typ: oc.typ}
			}
			return &ctePlan{cte: c, cols: rename(cols)}, nil
		}
	}
	schema := rv.Schemaname
	if schema == "" {
		schema = "pg_catalog"
	}
	if d, ok := relDefs[schema+"."+rv.Relname]; ok {
		cols := make([]scopeCol, len(d.cols))
		for i, c := range d.cols {
			cols[i] = scopeCol{name: c.name, typ: c.typ}
		}
		relSchema, src = schema, &relRef{schema, rv.Relname}
		return &scanPlan{def: d, cols: rename(cols)}, nil
	}
	if rv.Schemaname == "" || rv.Schemaname == "public" {
		if b.src == nil {
			return nil, errorf(CodeNotSupported, rv.Location, "relation \"%s\" is not a catalog relation: Shale tables are queried in GoogleSQL", rv.Relname)
		}
		t, err := b.table(rv.Relname)
		if err != nil {
			return nil, err
		}
		if t != nil {
			relSchema, src = "public", &relRef{"public", t.Name}
			p := newTableScan(t)
			p.cols = rename(p.cols)
			return p, nil
		}
	}
	name := rv.Relname
	if rv.Schemaname != "" {
		name = rv.Schemaname + "." + name
	}
	return nil, errorf(CodeUndefinedTable, rv.Location, "relation \"%s\" does not exist", name)
}

// bindSubselect binds a subquery in FROM, whose references resolve in
// parent (the enclosing query's scope, or for a LATERAL one the FROM items
// before it).
func (b *binder) bindSubselect(rs *pg_query.RangeSubselect, parent, sc *scope) (plan, error) {
	s := rs.Subquery.GetSelectStmt()
	k := len(b.subqueries)
	b.subqueries = append(b.subqueries, nil)
	plain := s != nil && s.WithClause == nil && len(s.ValuesLists) == 0 &&
		(s.Op == pg_query.SetOperation_SETOP_NONE || s.Op == pg_query.SetOperation_SET_OPERATION_UNDEFINED)
	if plain {
		b.pruneNext = b.prune[k] // taken by the bindSelect of s
	}
	q, err := b.bindQuery(s, parent, sc)
	b.pruneNext = nil
	if err != nil {
		return nil, err
	}
	alias := ""
	var colnames []string
	if rs.Alias != nil {
		alias, colnames = rs.Alias.Aliasname, strs(rs.Alias.Colnames)
	}
	cols := q.root.columns()
	if err := aliasColumns(rs.Alias, len(cols)); err != nil {
		return nil, err
	}
	sp := &subqueryPlan{q: q, cols: make([]scopeCol, len(cols)), refs: make([]int, len(cols)), plain: plain}
	for i, c := range cols {
		c.rel = alias
		if i < len(colnames) {
			c.name = colnames[i]
		}
		c.refs = &sp.refs[i]
		sp.cols[i] = c
	}
	b.subqueries[k] = sp
	return sp, nil
}

func (b *binder) bindJoin(j *pg_query.JoinExpr, sc *scope) (plan, error) {
	l, err := b.bindFromItem(j.Larg, sc)
	if err != nil {
		return nil, err
	}
	if lr, err := b.bindLateralItem(j.Rarg, l.columns(), sc); err != nil || lr != nil {
		if err != nil {
			return nil, err
		}
		return b.bindLateralJoin(j, l, lr, sc)
	}
	r, err := b.bindFromItem(j.Rarg, sc)
	if err != nil {
		return nil, err
	}
	p := &joinPlan{left: l, right: r, on: j.Quals, cols: concatCols(l.columns(), r.columns())}
	switch j.Jointype {
	case pg_query.JoinType_JOIN_LEFT:
		p.kind = joinLeft
	case pg_query.JoinType_JOIN_RIGHT:
		p.kind = joinRight
	case pg_query.JoinType_JOIN_FULL:
		p.kind = joinFull
	}
	js := &scope{cols: p.cols, parent: sc.parent, cteOuter: sc.cteOuter, ctes: sc.ctes}
	p.onScope = js
	nl := len(l.columns())
	using := strs(j.UsingClause)
	if j.IsNatural {
		using = commonColumns(l.columns(), r.columns())
	}
	if len(using) > 0 {
		if p.conds, err = b.bindUsing(using, p, nl); err != nil {
			return nil, err
		}
	} else if j.Quals != nil {
		if p.conds, err = b.bindConjuncts(j.Quals, js, "JOIN/ON"); err != nil {
			return nil, err
		}
	}
	p.eq, p.eqSwap = pickEq(p.conds, nl, len(p.cols))
	return p, nil
}

// bindLateralJoin binds l JOIN LATERAL r: an inner (or CROSS) join or a
// LEFT JOIN, with ON evaluated per joined row.
func (b *binder) bindLateralJoin(j *pg_query.JoinExpr, l, r plan, sc *scope) (plan, error) {
	p := &lateralPlan{left: l, right: r, cols: concatCols(l.columns(), r.columns())}
	switch j.Jointype {
	case pg_query.JoinType_JOIN_INNER:
	case pg_query.JoinType_JOIN_LEFT:
		p.leftJoin = true
	default:
		e := errorf("42P10", noPos, "invalid reference to FROM-clause entry")
		e.Detail = "The combining JOIN type must be INNER or LEFT for a LATERAL reference."
		return nil, e
	}
	if len(j.UsingClause) > 0 {
		return nil, errorf(CodeNotSupported, noPos, "JOIN LATERAL ... USING is not supported in catalog queries")
	}
	if j.Quals != nil {
		js := &scope{cols: p.cols, parent: sc.parent, cteOuter: sc.cteOuter, ctes: sc.ctes}
		on, err := b.bindBool(j.Quals, js, "JOIN/ON")
		if err != nil {
			return nil, err
		}
		p.on = on
	}
	return p, nil
}

// commonColumns is what NATURAL JOIN joins on: the names of the left
// input's columns that the right one has too, in the left one's order.
func commonColumns(left, right []scopeCol) []string {
	var names []string
	for _, l := range left {
		if l.usingDup || slices.Contains(names, l.name) {
			continue
		}
		for _, r := range right {
			if r.name == l.name && !r.usingDup {
				names = append(names, l.name)
				break
			}
		}
	}
	return names
}

// bindUsing turns USING (a, b) into equality of the left and right
// columns. An unqualified reference names PostgreSQL's merged column: the
// copy that is never NULL-extended (the left one, or the right one in a
// RIGHT JOIN), or in a FULL JOIN a column of its own, the COALESCE of both
// (joinPlan.merged), added after the inputs' columns. The copies it stands
// for are hidden from unqualified references.
func (b *binder) bindUsing(names []string, p *joinPlan, nl int) ([]*conj, error) {
	var conds []*conj
	var merged []scopeCol
	for _, name := range names {
		li, ri := -1, -1
		for i, c := range p.cols {
			if c.name != name || c.usingDup {
				continue
			}
			side, at := "left", &li
			if i >= nl {
				side, at = "right", &ri
			}
			if *at >= 0 {
				return nil, errorf(CodeAmbiguousColumn, noPos, "common column name \"%s\" appears more than once in %s table", name, side)
			}
			*at = i
		}
		switch {
		case li < 0:
			return nil, errorf(CodeUndefinedColumn, noPos, "column \"%s\" specified in USING clause does not exist in left table", name)
		case ri < 0:
			return nil, errorf(CodeUndefinedColumn, noPos, "column \"%s\" specified in USING clause does not exist in right table", name)
		case !sameCategory(p.cols[li].typ, p.cols[ri].typ):
			return nil, errorf(CodeDatatypeMismatch, noPos, "JOIN/USING types %s and %s cannot be matched", formatType(p.cols[li].typ, -1), formatType(p.cols[ri].typ, -1))
		}
		common := unifyTypes(p.cols[li].typ, p.cols[ri].typ)
		// An inner join's merged column is an input's, the one already of
		// the common type if the left one is not (buildMergedJoinVar).
		rightKeeps := p.kind == joinInner && p.cols[li].typ != common && p.cols[ri].typ == common
		switch {
		case p.kind == joinRight || rightKeeps:
			p.cols[li].usingDup = true
			p.usingCols = append(p.usingCols, ri)
		case p.kind == joinFull:
			p.cols[li].usingDup, p.cols[ri].usingDup = true, true
			p.merged = append(p.merged, [2]int{li, ri})
			p.usingCols = append(p.usingCols, len(p.cols)+len(merged))
			merged = append(merged, scopeCol{name: name, typ: common})
		default:
			p.cols[ri].usingDup = true
			p.usingCols = append(p.usingCols, li)
		}
		l, r := colRef(0, li, p.cols[li]), colRef(0, ri, p.cols[ri])
		e, err := b.binaryOp("=", l, r, noPos)
		if err != nil {
			return nil, err
		}
		c := &conj{e: e, refs: map[int]bool{li: true, ri: true}}
		if kindOf(l.typ) == kindOf(r.typ) { // hashable alike (an integer and a numeric are not), as bindConjuncts
			c.eqL, c.eqR, c.refL, c.refR = l, r, map[int]bool{li: true}, map[int]bool{ri: true}
		}
		conds = append(conds, c)
	}
	p.cols = append(p.cols, merged...)
	return conds, nil
}

// bindRangeFunction binds a set-returning function in FROM, with optional
// WITH ORDINALITY and column aliases. Its arguments are bound in argScope,
// a level without columns above which their references resolve: the
// enclosing query's, or for a lateral call, the FROM items before it.
func (b *binder) bindRangeFunction(rf *pg_query.RangeFunction, argScope *scope) (*funcScanPlan, error) {
	if rf.IsRowsfrom && len(rf.Functions) > 1 && len(rf.Coldeflist) > 0 {
		e := errorf(CodeSyntax, coldefListPos(rf.Coldeflist), "ROWS FROM() with multiple functions cannot have a column definition list")
		e.Hint = "Put a separate column definition list for each function inside ROWS FROM()."
		return nil, e
	}
	var calls []*fromCall
	for _, fn := range rf.Functions {
		items := fn.GetList().GetItems()
		fc := items[0].GetFuncCall()
		if fc == nil {
			return nil, errorf(CodeNotSupported, noPos, "unsupported function in FROM")
		}
		coldefs := rf.Coldeflist
		if rf.IsRowsfrom && len(items) > 1 {
			coldefs = items[1].GetList().GetItems() // ROWS FROM (f() AS (a int))
		}
		c, err := b.bindFromCall(fc, coldefs, rf.Ordinality && !rf.IsRowsfrom, argScope)
		if err != nil {
			return nil, err
		}
		calls = append(calls, c)
	}
	c := calls[0]
	alias := c.name
	if len(calls) > 1 {
		c, alias = rowsFrom(calls), "rows_from"
	}
	p := &funcScanPlan{srf: c.def, args: c.args, ordinality: rf.Ordinality}
	var colnames []string
	if rf.Alias != nil {
		alias, colnames = rf.Alias.Aliasname, strs(rf.Alias.Colnames)
	}
	for _, col := range c.columns() {
		if c.def.fields == nil && rf.Alias != nil && c.def.outName == "" {
			col.name = alias // a scalar function's column takes the alias
		}
		p.cols = append(p.cols, scopeCol{rel: alias, name: col.name, typ: col.typ, scalar: c.def.fields == nil && !rf.Ordinality})
	}
	if rf.Ordinality {
		p.cols = append(p.cols, scopeCol{rel: alias, name: "ordinality", typ: tInt8})
	}
	for i := range p.cols {
		if i < len(colnames) {
			p.cols[i].name = colnames[i]
		}
	}
	return p, aliasColumns(rf.Alias, len(p.cols))
}

// aliasColumns reports PostgreSQL's 42P10 for an alias that names more
// columns (t(a, b, c)) than its FROM item has, n.
func aliasColumns(a *pg_query.Alias, n int) error {
	if a != nil && len(a.Colnames) > n {
		return errorf("42P10", noPos, "table \"%s\" has %d columns available but %d columns specified", a.Aliasname, n, len(a.Colnames))
	}
	return nil
}

// fromCall is a function call in FROM, bound: its set-returning form and
// its arguments.
type fromCall struct {
	name string
	def  *srfDef
	args []*cexpr
}

// columns are the call's result columns: a record's fields, or one column
// named after the function.
func (c *fromCall) columns() []colDef {
	if c.def.fields != nil {
		return c.def.fields
	}
	if c.def.outName != "" {
		return []colDef{{c.def.outName, c.def.ret(argTypes(c.args))}}
	}
	return []colDef{{c.name, c.def.ret(argTypes(c.args))}}
}

// bindFromCall binds one function of FROM, with its column definition
// list (required for a function returning record, refused for others).
func (b *binder) bindFromCall(fc *pg_query.FuncCall, coldefs []*pg_query.Node, ordinality bool, argScope *scope) (*fromCall, error) {
	name := lastName(fc.Funcname)
	def, ok := srfs[name]
	if build, isRecord := recordSRFs[name]; isRecord {
		if len(coldefs) == 0 {
			return nil, errorf(CodeSyntax, fc.Location, "a column definition list is required for functions returning \"record\"")
		}
		if ordinality {
			e := errorf(CodeSyntax, coldefListPos(coldefs), "WITH ORDINALITY cannot be used with a column definition list")
			e.Hint = "Put the column definition list inside ROWS FROM()."
			return nil, e
		}
		cols, err := columnDefinitions(coldefs)
		if err != nil {
			return nil, err
		}
		def, ok = build(cols), true
	}
	if !ok {
		// A scalar function in FROM yields one row.
		f, ok := funcs[name]
		if !ok {
			args, err := b.bindArgs(fc.Args, argScope)
			if err != nil {
				return nil, err
			}
			return nil, noFunction(fc.Location, name, typeList(args))
		}
		def = scalarAsSRF(f)
	}
	if _, isRecord := recordSRFs[name]; !isRecord && len(coldefs) > 0 {
		if def.fields != nil {
			return nil, errorf(CodeSyntax, coldefListPos(coldefs), "a column definition list is redundant for a function with OUT parameters")
		}
		return nil, errorf(CodeSyntax, coldefListPos(coldefs), "a column definition list is only allowed for functions returning \"record\"")
	}
	args, err := b.bindArgs(fc.Args, argScope)
	if err != nil {
		return nil, err
	}
	if name == "unnest" && len(args) > 1 {
		if def, err = zippedUnnest(args, fc.Location); err != nil {
			return nil, err
		}
	}
	if err := def.checkArity(name, args, fc.Location); err != nil {
		return nil, err
	}
	def.coerceUntyped(b, args, 0)
	return &fromCall{name: name, def: def, args: args}, nil
}

// rowsFrom is ROWS FROM (f(...), g(...)): the functions' rows side by
// side, as many as the longest gives, the shorter ones' columns NULL.
func rowsFrom(calls []*fromCall) *fromCall {
	var fields []colDef
	var args []*cexpr
	for _, c := range calls {
		fields = append(fields, c.columns()...)
		args = append(args, c.args...)
	}
	def := &srfDef{min: len(args), max: len(args), retType: tRecord, ret: constType(tRecord), fields: fields,
		call: func(ev *evaluator, a []Value, t []uint32) ([]Value, error) {
			results := make([][]Value, len(calls))
			n, off := 0, 0
			for i, c := range calls {
				k := len(c.args)
				vals, err := c.def.call(ev, a[off:off+k], t[off:off+k])
				if err != nil {
					return nil, err
				}
				off += k
				results[i], n = vals, max(n, len(vals))
			}
			out := make([]Value, n)
			for r := range out {
				row := make([]Value, 0, len(fields))
				for i, c := range calls {
					switch {
					case r >= len(results[i]):
						row = append(row, make([]Value, len(c.columns()))...)
					case c.def.fields != nil:
						row = append(row, results[i][r].a...)
					default:
						row = append(row, results[i][r])
					}
				}
				out[r] = Value{k: kRecord, a: row}
			}
			return out, nil
		}}
	return &fromCall{name: "rows_from", def: def, args: args}
}
