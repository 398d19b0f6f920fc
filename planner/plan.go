package planner

import (
	"strconv"

	"github.com/shale-db/shale/sql"
	"github.com/shale-db/shale/sql/types"
)

// New plans an analyzed statement. It is pure: no I/O, deterministic.
func New(st *sql.Statement) (*Plan, error) {
	root, err := planQuery(st.Query)
	if err != nil {
		return nil, err
	}
	return &Plan{Root: root, Columns: st.Query.Columns, Params: st.Params, Explain: st.Explain, Analyze: st.Analyze}, nil
}

func planQuery(q *sql.Query) (Node, error) {
	src, scan, err := planSource(q.From, q.Where)
	if err != nil {
		return nil, err
	}
	groupBy, aggs, sel := q.GroupBy, q.Aggs, q.Select
	if scan != nil {
		prune(scan, q)
		if _, direct := q.From.(*sql.TableScan); direct {
			if rw := directCells(scan); rw != nil {
				scan.Residual = rw(scan.Residual)
				groupBy, aggs = rewriteAll(rw, groupBy), rewriteAggs(rw, aggs)
				if !q.Grouped {
					sel = rewriteAll(rw, sel)
				}
				markTransient(scan, append(append([]sql.Expr{scan.Residual}, groupBy...), aggInputs(aggs, sel, q.Grouped)...))
			}
		}
	}
	n := src
	if q.Grouped {
		n = &Aggregate{Input: n, GroupBy: groupBy, Aggs: aggs}
		if q.Having != nil {
			n = &Filter{Input: n, Pred: q.Having}
		}
	}
	names := make([]string, len(q.Select))
	for i := range names {
		if i < len(q.Columns) {
			names[i] = q.Columns[i].Name
		} else {
			names[i] = "$sort" + strconv.Itoa(i-len(q.Columns)+1)
		}
	}
	n = &Project{Input: n, Exprs: sel, Names: names}
	if q.Distinct {
		n = &Distinct{Input: n}
	}
	ordered := len(q.OrderBy) == 0
	if !ordered && scan != nil && !q.Grouped && scanOrdered(q, scan) {
		scan.Reverse = q.OrderBy[0].Desc
		ordered = true
	}
	switch {
	case !ordered:
		n = &Sort{Input: n, Keys: q.OrderBy, Limit: q.Limit, Offset: q.Offset}
	case q.Limit != nil || q.Offset != nil:
		if scan != nil && scan.Residual == nil && src == Node(scan) && !q.Grouped && !q.Distinct && q.Limit != nil {
			scan.Limit, scan.Offset = q.Limit, q.Offset
		}
	}
	if q.Limit != nil || q.Offset != nil {
		n = &Limit{Input: n, Count: q.Limit, Offset: q.Offset}
	}
	if len(q.Select) > len(q.Columns) {
		trim := make([]sql.Expr, len(q.Columns))
		for i, c := range q.Columns {
			trim[i] = &sql.ColRef{Idx: i, Name: c.Name, T: c.Type, Pos: -1}
		}
		n = &Project{Input: n, Exprs: trim, Names: names[:len(trim)]}
	}
	return n, nil
}

// scanOrdered reports whether scan order (forward or reverse) satisfies
// ORDER BY: one item on `_key`, or leading key fields in schema order, all
// in one direction, whose encoding preserves order (spec §4.9). UNNEST
// keeps its input's order.
func scanOrdered(q *sql.Query, scan *Scan) bool {
	if len(q.OrderBy) == 0 {
		return false
	}
	col := func(i int) int {
		c, ok := q.Select[q.OrderBy[i].Col].(*sql.ColRef)
		if !ok {
			return -1
		}
		return c.Idx
	}
	if len(q.OrderBy) == 1 && col(0) == 0 {
		c := q.Select[q.OrderBy[0].Col].(*sql.ColRef)
		return c.T.Kind == types.KindBytes && c.Name == "_key"
	}
	t := scan.Table
	if len(q.OrderBy) > t.NumKeyFields() {
		return false
	}
	for i, o := range q.OrderBy {
		if col(i) != t.KeyFieldCol(i) || o.Desc != q.OrderBy[0].Desc || !t.KeySchema.OrderPreserving(i) {
			return false
		}
	}
	return true
}

// planSource plans the FROM clause and the WHERE clause over it; it
// returns the table scan, if any, for pruning and pushdown.
func planSource(src sql.Source, where sql.Expr) (Node, *Scan, error) {
	switch s := src.(type) {
	case nil:
		n := Node(&Values{})
		if where != nil {
			n = &Filter{Input: n, Pred: where}
		}
		return n, nil, nil
	case *sql.TableScan:
		scan := newScan(s)
		scan.Keys, scan.Residual = Derive(where, 0, s.Table.KeySchema)
		return scan, scan, nil
	case *sql.UnnestJoin:
		return planUnnest(s, where)
	case *sql.Unpack:
		in, err := planQuery(s.Input)
		if err != nil {
			return nil, nil, err
		}
		n := Node(&Unpack{Input: in, Kinds: s.Kinds})
		if where != nil {
			n = &Filter{Input: n, Pred: where}
		}
		return n, nil, nil
	}
	return nil, nil, nil
}

// planUnnest pushes the WHERE conjuncts over the leftmost table's columns
// into its scan and filters the rest above the UNNEST.
func planUnnest(s *sql.UnnestJoin, where sql.Expr) (Node, *Scan, error) {
	width := 0
	if ts := leftmostTable(s); ts != nil {
		width = ts.Width()
	}
	var below, above []sql.Expr
	for _, c := range conjuncts(where) {
		if width > 0 && maxCol(c) < width {
			below = append(below, c)
		} else {
			above = append(above, c)
		}
	}
	var left Node = &Values{}
	var scan *Scan
	if s.Left != nil {
		var err error
		if left, scan, err = planSource(s.Left, and(below)); err != nil {
			return nil, nil, err
		}
	}
	n := Node(&Unnest{Input: left, Array: s.Array, WithOffset: s.WithOffset})
	if p := and(above); p != nil {
		n = &Filter{Input: n, Pred: p}
	}
	return n, scan, nil
}

func leftmostTable(s sql.Source) *sql.TableScan {
	switch s := s.(type) {
	case *sql.TableScan:
		return s
	case *sql.UnnestJoin:
		return leftmostTable(s.Left)
	}
	return nil
}

func conjuncts(e sql.Expr) []sql.Expr {
	if e == nil {
		return nil
	}
	if a, ok := e.(*sql.And); ok {
		return a.Args
	}
	return []sql.Expr{e}
}

func and(es []sql.Expr) sql.Expr {
	switch len(es) {
	case 0:
		return nil
	case 1:
		return es[0]
	}
	return &sql.And{Args: es}
}

// maxCol returns the largest column index e reads, or -1.
func maxCol(e sql.Expr) int {
	m := -1
	sql.Walk(e, func(x sql.Expr) bool {
		if c, ok := x.(*sql.ColRef); ok && c.Idx > m {
			m = c.Idx
		}
		return true
	})
	return m
}

func newScan(s *sql.TableScan) *Scan {
	return &Scan{Table: s.Table, Width: len(s.Cols), History: s.History, AsOf: s.AsOf, After: s.After,
		AfterOrEqual: s.AfterOrEqual, Before: s.Before, BeforeOrEqual: s.BeforeOrEqual, LatestN: s.LatestN}
}
