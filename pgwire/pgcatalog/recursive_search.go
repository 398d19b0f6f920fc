package pgcatalog

import (
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// A recursive query's SEARCH and CYCLE clauses (PostgreSQL 14's): columns
// the recursion adds after the query's own. SEARCH DEPTH FIRST BY a SET s
// makes s the path of ROW(a) values from the first row down; BREADTH
// FIRST makes it ROW(depth, a). CYCLE a SET m USING p marks a row whose
// ROW(a) its path p already holds (m takes the TO value, else DEFAULT's)
// and recurses no further from it. The recursive term runs once per row
// of the working table, so that each row it makes extends the path of the
// row it came from: PostgreSQL's rewrite carries the path through the
// term instead, with the same rows.

// recursionExtras are a recursive query's SEARCH and CYCLE columns.
type recursionExtras struct {
	search       []int // the SEARCH BY columns
	breadthFirst bool
	cycle        []int // the CYCLE columns
	mark, noMark Value // the cycle mark's TO and DEFAULT values
	width        int   // the query's own columns
}

// bindRecursionExtras reads c's SEARCH and CYCLE clauses against the
// query's columns cols, and returns the columns they add.
func (b *binder) bindRecursionExtras(c *pg_query.CommonTableExpr, cols []scopeCol) (*recursionExtras, []scopeCol, error) {
	sc, cc := c.SearchClause, c.CycleClause
	if sc == nil && cc == nil {
		return nil, nil, nil
	}
	x := &recursionExtras{width: len(cols)}
	names := make([]string, len(cols))
	for i, col := range cols {
		names[i] = col.name
	}
	columns := func(list []*pg_query.Node, what string, pos int32) ([]int, error) {
		var out []int
		for _, n := range strs(list) {
			i := slices.Index(names, n)
			switch {
			case i < 0:
				return nil, errorf(CodeSyntax, pos, "%s column \"%s\" not in WITH query column list", what, n)
			case slices.Contains(out, i):
				return nil, errorf("42701", pos, "%s column \"%s\" specified more than once", what, n)
			}
			out = append(out, i)
		}
		return out, nil
	}
	var added []scopeCol
	var err error
	if sc != nil {
		if x.search, err = columns(sc.SearchColList, "search", sc.Location); err != nil {
			return nil, nil, err
		}
		if slices.Contains(names, sc.SearchSeqColumn) {
			return nil, nil, errorf("42701", sc.Location, "search sequence column name \"%s\" already used in WITH query column list", sc.SearchSeqColumn)
		}
		x.breadthFirst = sc.SearchBreadthFirst
		typ := uint32(tRecord)
		if !x.breadthFirst {
			typ = arrayOf(tRecord)
		}
		added = append(added, scopeCol{name: sc.SearchSeqColumn, typ: typ})
	}
	if cc != nil {
		if x.cycle, err = columns(cc.CycleColList, "cycle", cc.Location); err != nil {
			return nil, nil, err
		}
		for _, n := range []string{cc.CycleMarkColumn, cc.CyclePathColumn} {
			if slices.Contains(names, n) {
				what := map[bool]string{true: "mark", false: "path"}[n == cc.CycleMarkColumn]
				return nil, nil, errorf("42701", cc.Location, "cycle %s column name \"%s\" already used in WITH query column list", what, n)
			}
		}
		switch {
		case cc.CycleMarkColumn == cc.CyclePathColumn:
			return nil, nil, errorf(CodeSyntax, cc.Location, "cycle mark column name and cycle path column name are the same")
		case sc != nil && sc.SearchSeqColumn == cc.CycleMarkColumn:
			return nil, nil, errorf(CodeSyntax, cc.Location, "search sequence column name and cycle mark column name are the same")
		case sc != nil && sc.SearchSeqColumn == cc.CyclePathColumn:
			return nil, nil, errorf(CodeSyntax, cc.Location, "search sequence column name and cycle path column name are the same")
		}
		empty := &scope{}
		v, err := b.bindExpr(cc.CycleMarkValue, empty)
		if err != nil {
			return nil, nil, err
		}
		d, err := b.bindExpr(cc.CycleMarkDefault, empty)
		if err != nil {
			return nil, nil, err
		}
		typ := commonType([]*cexpr{v, d})
		if x.mark, err = b.coerce(v, typ).fn(nil, nil); err != nil {
			return nil, nil, err
		}
		if x.noMark, err = b.coerce(d, typ).fn(nil, nil); err != nil {
			return nil, nil, err
		}
		added = append(added, scopeCol{name: cc.CycleMarkColumn, typ: typ}, scopeCol{name: cc.CyclePathColumn, typ: arrayOf(tRecord)})
	}
	return x, added, nil
}

// key is ROW(the columns idx) of a row of the query.
func (x *recursionExtras) key(row []Value, idx []int) Value {
	vals := make([]Value, len(idx))
	names, types := make([]string, len(idx)), make([]uint32, len(idx))
	for i, j := range idx {
		vals[i], names[i] = row[j], "f"+itoa(int64(i+1))
	}
	return Value{k: kRecord, a: vals, names: names, types: types}
}

// first is a row of the non-recursive term with its added columns.
func (x *recursionExtras) first(row []Value) []Value {
	out := slices.Clone(row)
	if x.search != nil {
		if x.breadthFirst {
			out = append(out, x.depthRow(0, row))
		} else {
			out = append(out, arrayV([]Value{x.key(row, x.search)}))
		}
	}
	if x.cycle != nil {
		out = append(out, x.noMark, arrayV([]Value{x.key(row, x.cycle)}))
	}
	return out
}

// depthRow is BREADTH FIRST's ROW(depth, search columns).
func (x *recursionExtras) depthRow(depth int64, row []Value) Value {
	k := x.key(row, x.search)
	return Value{k: kRecord, a: append([]Value{intV(depth)}, k.a...),
		names: append([]string{"*DEPTH*"}, k.names...), types: append([]uint32{tInt8}, k.types...)}
}

// next is a row the recursive term made from the working row from, with
// its added columns.
func (x *recursionExtras) next(row, from []Value) []Value {
	out := slices.Clone(row)
	at := x.width
	if x.search != nil {
		if x.breadthFirst {
			out = append(out, x.depthRow(from[at].a[0].i+1, row))
		} else {
			out = append(out, arrayV(append(slices.Clone(from[at].a), x.key(row, x.search))))
		}
		at++
	}
	if x.cycle != nil {
		k := x.key(row, x.cycle)
		path := from[at+1].a
		mark := x.noMark
		if slices.ContainsFunc(path, func(p Value) bool { return compare(p, k) == 0 }) {
			mark = x.mark
		}
		out = append(out, mark, arrayV(append(slices.Clone(path), k)))
	}
	return out
}

// recurses reports whether the recursive term runs on a working row: not
// on one CYCLE marked.
func (x *recursionExtras) recurses(row []Value) bool {
	if x.cycle == nil {
		return true
	}
	at := x.width
	if x.search != nil {
		at++
	}
	return compare(row[at], x.mark) != 0
}
