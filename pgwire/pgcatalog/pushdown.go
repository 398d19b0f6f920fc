package pgcatalog

import (
	"slices"
	"time"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// Predicate pushdown. The WHERE conjuncts of a SELECT (and the ON
// conditions of its inner joins) that compare a key column of a Shale
// table it reads with a constant or a parameter are handed to that table's
// Source.Scan as its filter (Cond), so that the Source reads only the key
// ranges they allow; the whole WHERE is still evaluated over the rows
// read. In a join, each table gets the conditions on its own columns, and
// those a key equality between two tables carries over (pushdown). A
// conjunct is pushed only when the rows it selects are certainly within
// its Cond:
//
//   - col op v for = < <= > >= (either way round), col BETWEEN a AND b, col
//     IN (list), an OR of equalities and IN lists on one column (an IN
//     list), and col LIKE v on a text or bytea column, pushed as the range
//     of v's literal prefix (likePrefixConds); nothing else (NOT, <>,
//     ILIKE, LIKE … ESCAPE, functions, casts of the column, a comparison
//     with another column or an outer query's) is pushed;
//   - v is a literal or parameter, possibly cast, whose type is the
//     column's (an untyped literal or parameter takes it, as the comparison
//     does; int2/int4 also for int8);
//   - the column is a primary-key column of type bytea, text, int8 or
//     timestamptz, and v's value, evaluated when the scan starts, is in
//     the type's canonical text form (Cond), where comparing texts (or
//     numbers) as the statement does agrees with comparing the values.
//     A value that is NULL, fails to evaluate or is not canonical (a
//     timestamp the scan cannot read back) drops its Cond: the statement
//     then reads more, never less.

// scanLeaves returns the Shale table scans a FROM plan reads at its own
// query level: itself, or the tables of its joins.
func scanLeaves(p plan) []*tableScanPlan {
	switch p := p.(type) {
	case *tableScanPlan:
		return []*tableScanPlan{p}
	case *crossPlan:
		var out []*tableScanPlan
		for _, it := range p.items {
			out = append(out, scanLeaves(it)...)
		}
		return out
	case *joinPlan:
		return append(scanLeaves(p.left), scanLeaves(p.right)...)
	case *lateralPlan:
		return scanLeaves(p.left)
	}
	return nil
}

// pushCond is a pushable conjunct, bound: the table column it restricts
// and the value expressions (of the column's type) it compares with.
type pushCond struct {
	col  int
	op   string
	vals []*cexpr
}

var pushTypes = []uint32{tBytea, tText, tInt8, tTimestamptz}

// pushdown sets the conditions of every Shale table scan the FROM plan
// from reads at this query level (ts.push) from the pushable conjuncts of
// where, a WHERE already bound in sc (so that parameter types are
// settled), and of the ON conditions of the inner joins reached through
// inner joins and cross products only: the FROM yields no row those fail.
// A scan may be one of several joined tables, on either side of an outer
// join: every pushable conjunct is strict (false or NULL when its column
// is NULL), so a row of the table it rejects could only have led to rows
// the WHERE rejects too, matched or NULL-extended. A condition on a key
// column also holds for the columns such conjuncts equate it with
// (a._key = b._key), and is pushed to theirs.
func (b *binder) pushdown(where *pg_query.Node, sc *scope, from plan) {
	scans := scanLeaves(from)
	if len(scans) == 0 {
		return
	}
	conds := innerConds(from)
	if where != nil {
		conds = append(conds, scopedCond{where, sc})
	}
	var conjs []scopedCond
	for _, c := range conds {
		for _, n := range splitAnd(c.n) {
			conjs = append(conjs, scopedCond{n, c.sc})
		}
	}
	for _, ts := range scans {
		ts.push = nil
		for _, c := range conjs {
			ts.push = append(ts.push, b.pushConjunct(c.n, c.sc, ts)...)
		}
	}
	if len(scans) > 1 {
		propagate(b.keyEqualities(conjs, scans))
	}
}

// scopedCond is a condition and the scope its column references resolve
// in: the SELECT's for WHERE, the join's inputs for ON (where a name may
// mean an outer query's column that the SELECT's own FROM shadows).
type scopedCond struct {
	n  *pg_query.Node
	sc *scope
}

// innerConds returns the ON conditions of the inner joins p reaches
// through inner joins and cross products.
func innerConds(p plan) []scopedCond {
	switch p := p.(type) {
	case *crossPlan:
		var out []scopedCond
		for _, it := range p.items {
			out = append(out, innerConds(it)...)
		}
		return out
	case *joinPlan:
		if p.kind != joinInner {
			return nil
		}
		out := append(innerConds(p.left), innerConds(p.right)...)
		if p.on != nil {
			out = append(out, scopedCond{p.on, p.onScope})
		}
		return out
	case *lateralPlan:
		return innerConds(p.left)
	}
	return nil
}

// keyEq is a conjunct a.col = b.col between key columns of the same type
// of two scans.
type keyEq struct {
	a, b       *tableScanPlan
	colA, colB int
}

// keyEqualities finds the conjuncts that equate key columns of two scans.
func (b *binder) keyEqualities(conjs []scopedCond, scans []*tableScanPlan) []keyEq {
	owner := func(n *pg_query.Node, sc *scope) (*tableScanPlan, int) {
		for _, ts := range scans {
			if col := b.pushColumn(n, sc, ts); col >= 0 {
				return ts, col
			}
		}
		return nil, -1
	}
	var out []keyEq
	for _, c := range conjs {
		a := c.n.GetAExpr()
		if a == nil || a.Kind != pg_query.A_Expr_Kind_AEXPR_OP || lastName(a.Name) != "=" {
			continue
		}
		ta, ca := owner(a.Lexpr, c.sc)
		tb, cb := owner(a.Rexpr, c.sc)
		if ta == nil || tb == nil || ta.table.Columns[ca].TypeOID != tb.table.Columns[cb].TypeOID {
			continue
		}
		out = append(out, keyEq{a: ta, b: tb, colA: ca, colB: cb})
	}
	return out
}

// propagate copies the conditions on each side of an equality to the
// other, until no equality adds one.
func propagate(eqs []keyEq) {
	for changed := true; changed; {
		changed = false
		for _, e := range eqs {
			changed = copyConds(e.a, e.colA, e.b, e.colB) || changed
			changed = copyConds(e.b, e.colB, e.a, e.colA) || changed
		}
	}
}

// copyConds gives dst's column dcol the conditions src has on scol that it
// lacks, and reports whether it added any.
func copyConds(src *tableScanPlan, scol int, dst *tableScanPlan, dcol int) bool {
	added := false
	for _, c := range src.push {
		if c.col != scol {
			continue
		}
		dup := false
		for _, d := range dst.push {
			if d.col == dcol && d.op == c.op && len(d.vals) == len(c.vals) && &d.vals[0] == &c.vals[0] {
				dup = true
				break
			}
		}
		if !dup {
			dst.push = append(dst.push, pushCond{col: dcol, op: c.op, vals: c.vals})
			added = true
		}
	}
	return added
}

// pushConjunct returns the pushable conditions of one conjunct.
func (b *binder) pushConjunct(n *pg_query.Node, sc *scope, ts *tableScanPlan) []pushCond {
	if be := n.GetBoolExpr(); be != nil {
		if be.Boolop != pg_query.BoolExprType_OR_EXPR {
			return nil
		}
		// An OR of equalities on one column is an IN list.
		in := pushCond{col: -1, op: "IN"}
		for _, a := range be.Args {
			cs := b.pushConjunct(a, sc, ts)
			if len(cs) != 1 || cs[0].op != "=" && cs[0].op != "IN" || in.col >= 0 && cs[0].col != in.col {
				return nil
			}
			in.col = cs[0].col
			in.vals = append(in.vals, cs[0].vals...)
		}
		if in.col < 0 {
			return nil
		}
		return []pushCond{in}
	}
	a := n.GetAExpr()
	if a == nil {
		return nil
	}
	op := lastName(a.Name)
	switch a.Kind {
	case pg_query.A_Expr_Kind_AEXPR_OP:
		flip := map[string]string{"=": "=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
		if _, ok := flip[op]; !ok || a.Lexpr == nil || a.Rexpr == nil {
			return nil
		}
		l, r := a.Lexpr, a.Rexpr
		col := b.pushColumn(l, sc, ts)
		if col < 0 {
			l, r, op = r, l, flip[op]
			if col = b.pushColumn(l, sc, ts); col < 0 {
				return nil
			}
		}
		v := b.pushValue(r, sc, ts.table.Columns[col].TypeOID)
		if v == nil {
			return nil
		}
		return []pushCond{{col: col, op: op, vals: []*cexpr{v}}}
	case pg_query.A_Expr_Kind_AEXPR_BETWEEN:
		items := a.Rexpr.GetList().GetItems()
		col := b.pushColumn(a.Lexpr, sc, ts)
		if col < 0 || len(items) != 2 {
			return nil
		}
		var out []pushCond
		for i, op := range []string{">=", "<="} {
			if v := b.pushValue(items[i], sc, ts.table.Columns[col].TypeOID); v != nil {
				out = append(out, pushCond{col: col, op: op, vals: []*cexpr{v}})
			}
		}
		return out
	case pg_query.A_Expr_Kind_AEXPR_LIKE:
		col := b.pushColumn(a.Lexpr, sc, ts)
		if op != "~~" || col < 0 {
			return nil
		}
		typ := ts.table.Columns[col].TypeOID
		if typ != tText && typ != tBytea {
			return nil
		}
		v := b.pushValue(a.Rexpr, sc, typ)
		if v == nil {
			return nil
		}
		return []pushCond{{col: col, op: "LIKE", vals: []*cexpr{v}}}
	case pg_query.A_Expr_Kind_AEXPR_IN:
		col := b.pushColumn(a.Lexpr, sc, ts)
		items := a.Rexpr.GetList().GetItems()
		if op != "=" || col < 0 || len(items) == 0 {
			return nil
		}
		in := pushCond{col: col, op: "IN"}
		for _, it := range items {
			v := b.pushValue(it, sc, ts.table.Columns[col].TypeOID)
			if v == nil {
				return nil
			}
			in.vals = append(in.vals, v)
		}
		return []pushCond{in}
	}
	return nil
}

// pushColumn returns the index of the table column n names, when it is a
// key column of a pushable type read at this query level; else -1.
func (b *binder) pushColumn(n *pg_query.Node, sc *scope, ts *tableScanPlan) int {
	cr := n.GetColumnRef()
	if cr == nil {
		return -1
	}
	f := strs(cr.Fields)
	if len(f) == 0 || len(f) != len(cr.Fields) || f[len(f)-1] == "*" || len(f) > 3 {
		return -1
	}
	schema, qual, name := splitColumnRef(f)
	levels, _, col, err := sc.resolve(schema, qual, name, cr.Location)
	if err != nil || levels != 0 || col.use == nil {
		return -1
	}
	idx := ts.column(col.use)
	if idx < 0 {
		return -1
	}
	c := ts.table.Columns[idx]
	if !slices.Contains(pushTypes, c.TypeOID) || !slices.Contains(ts.table.PrimaryKey, c.Name) {
		return -1
	}
	return idx
}

// pushValue binds n, a literal or parameter (possibly cast), as the value
// a column of type typ is compared with; nil when it is anything else or
// of another type.
func (b *binder) pushValue(n *pg_query.Node, sc *scope, typ uint32) *cexpr {
	if !isValueNode(n, 0) {
		return nil
	}
	e, err := b.bindExpr(n, sc)
	if err != nil {
		return nil
	}
	switch {
	case e.untyped:
		return coerce(e, typ)
	case e.typ == typ, typ == tInt8 && (e.typ == tInt2 || e.typ == tInt4):
		return e
	}
	return nil
}

// isValueNode reports whether n is a literal (NULL too) or a parameter,
// possibly cast.
func isValueNode(n *pg_query.Node, depth int) bool {
	if n == nil || depth > 8 {
		return false
	}
	switch {
	case n.GetParamRef() != nil:
		return true
	case n.GetAConst() != nil:
		return true
	case n.GetTypeCast() != nil:
		return n.GetTypeCast().TypeName != nil && isValueNode(n.GetTypeCast().Arg, depth+1)
	}
	return false
}

// filter evaluates the scan's pushed conditions for this run; a condition
// whose values do not all evaluate to canonical text is left out.
func (p *tableScanPlan) filter(ev *evaluator) []Cond {
	var out []Cond
	for _, pc := range p.push {
		c := p.table.Columns[pc.col]
		cond := Cond{Column: c.Name, Type: c.TypeOID, Op: pc.op}
		ok := true
		for _, e := range pc.vals {
			v, err := e.fn(ev, &env{})
			if err != nil {
				ok = false
				break
			}
			if v.isNull() {
				if pc.op == "IN" {
					continue // x IN (a, NULL) selects what x IN (a) does
				}
				ok = false
				break
			}
			s, canon := canonicalText(v, c.TypeOID)
			if !canon {
				ok = false
				break
			}
			cond.Values = append(cond.Values, s)
		}
		switch {
		case !ok || len(cond.Values) == 0:
		case pc.op == "LIKE":
			out = append(out, likePrefixConds(cond)...)
		default:
			out = append(out, cond)
		}
	}
	return out
}

// canonicalText is v's text when it is in the canonical form of typ
// (Cond): then comparing it with scanned values as the statement does
// agrees with comparing the values themselves.
func canonicalText(v Value, typ uint32) (string, bool) {
	switch typ {
	case tInt8:
		if v.k == kInt {
			return itoa(v.i), true
		}
	case tText:
		if v.k == kText {
			return v.s, true
		}
	case tBytea:
		if v.k != kText || !isCanonicalBytea(v.s) {
			return "", false
		}
		return v.s, true
	case tTimestamptz:
		if v.k != kText {
			return "", false
		}
		t, err := time.Parse(timestampLayout, v.s)
		if err != nil || t.Year() < 1 || t.Year() > 9999 || t.UTC().Format(timestampLayout) != v.s {
			return "", false
		}
		return v.s, true
	}
	return "", false
}

// likePrefixConds turns col LIKE pattern (cond, on a text or bytea column)
// into the range of the pattern's literal prefix: prefix <= col < the
// prefix's successor. Every value the pattern matches starts with the
// prefix, so the range holds them all. The prefix ends at the first % or _
// not escaped by a backslash (LIKE's default escape). No range is pushed
// for an empty prefix, and no upper bound when the successor would not be
// UTF-8 text (the prefix ends in a non-ASCII character) or when there is
// none (bytes all 0xff).
func likePrefixConds(cond Cond) []Cond {
	pattern := cond.Values[0]
	if cond.Type == tBytea {
		pattern = string(byteaBytes(textV(pattern)))
	}
	var prefix []byte
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		if c == '%' || c == '_' {
			break
		}
		if c == '\\' {
			if i++; i == len(pattern) {
				return nil // a trailing escape: an error when LIKE runs
			}
			c = pattern[i]
		}
		prefix = append(prefix, c)
	}
	if len(prefix) == 0 {
		return nil
	}
	if cond.Type == tBytea {
		lower := Cond{Column: cond.Column, Type: cond.Type, Op: ">=", Values: []string{byteaV(prefix).s}}
		for len(prefix) > 0 && prefix[len(prefix)-1] == 0xff {
			prefix = prefix[:len(prefix)-1]
		}
		if len(prefix) == 0 {
			return []Cond{lower}
		}
		prefix[len(prefix)-1]++
		return []Cond{lower, {Column: cond.Column, Type: cond.Type, Op: "<", Values: []string{byteaV(prefix).s}}}
	}
	lower := Cond{Column: cond.Column, Type: cond.Type, Op: ">=", Values: []string{string(prefix)}}
	last := prefix[len(prefix)-1]
	if last >= 0x7f {
		return []Cond{lower}
	}
	succ := string(prefix[:len(prefix)-1]) + string(rune(last+1))
	return []Cond{lower, {Column: cond.Column, Type: cond.Type, Op: "<", Values: []string{succ}}}
}
