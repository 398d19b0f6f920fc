package planner

import (
	"github.com/shale-db/shale/sql"
	"github.com/shale-db/shale/sql/types"
)

// directCells turns each family that the query reads only as cf['literal']
// into cell columns appended after the table's columns: the scan puts the
// newest cell of each such qualifier straight into its column, and
// cf['q'] becomes a reference to that column. No per-row MAP is built and
// no map lookup runs, which is most of the cost of reading one field out
// of a wide scan (a proto field per row, issue #7). It returns the rewrite
// to apply to the expressions over the scan's row, or nil when no family
// qualifies. A scan with history keeps its maps: cf['q'] is then an array
// of versions.
func directCells(scan *Scan) func(sql.Expr) sql.Expr {
	if scan.History {
		return nil
	}
	type cell struct {
		col  int
		qual string
	}
	cols := map[cell]int{}
	for i := range scan.Reads {
		rd := &scan.Reads[i]
		if rd.Qualifiers == nil {
			continue
		}
		rd.CellCols = make([]int, len(rd.Qualifiers))
		for k, q := range rd.Qualifiers {
			rd.CellCols[k] = scan.Width
			cols[cell{rd.Col, string(q)}] = scan.Width
			scan.Width++
		}
	}
	if len(cols) == 0 {
		return nil
	}
	return func(e sql.Expr) sql.Expr {
		if e == nil {
			return nil
		}
		out, _ := sql.Rewrite(e, func(x sql.Expr) (sql.Expr, error) {
			g, ok := x.(*sql.MapGet)
			if !ok {
				return x, nil
			}
			m, isCol := g.Map.(*sql.ColRef)
			k, isConst := g.Key.(*sql.Const)
			if !isCol || !isConst || k.V.IsNull() || k.T.Kind != types.KindBytes {
				return x, nil
			}
			if c, ok := cols[cell{m.Idx, string(k.V.Bytes())}]; ok {
				return &sql.ColRef{Idx: c, Name: g.String(), T: g.Type(), Pos: -1}, nil
			}
			return x, nil
		})
		return out
	}
}

// rewriteAll applies rw to each expression, returning a new slice.
func rewriteAll(rw func(sql.Expr) sql.Expr, es []sql.Expr) []sql.Expr {
	out := make([]sql.Expr, len(es))
	for i, e := range es {
		out[i] = rw(e)
	}
	return out
}

// rewriteAggs returns copies of the aggregate calls with rw applied to
// their arguments and ORDER BY keys.
func rewriteAggs(rw func(sql.Expr) sql.Expr, as []*sql.AggCall) []*sql.AggCall {
	out := make([]*sql.AggCall, len(as))
	for i, a := range as {
		out[i] = a.Map(rw)
	}
	return out
}
