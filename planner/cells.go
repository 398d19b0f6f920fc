package planner

import (
	"github.com/shale-db/shale/protoschema"
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
			if p, ok := x.(*sql.ProtoGet); ok {
				return extractField(scan, p), nil
			}
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

// extractField has the scan extract a protobuf field read from a cell
// column (CAST(cf['q'] AS b.pkg.Msg).path) while it builds the row: the
// field gets a column of its own and p becomes a sql.Precomputed reading
// it. The same field read twice shares one column. Whole messages (no
// path) and messages not read straight from a cell are left to the
// expression evaluator.
func extractField(scan *Scan, p *sql.ProtoGet) sql.Expr {
	in, ok := p.X.(*sql.ColRef)
	if !ok || len(p.Path) == 0 || in.Idx < scan.Table.FamilyCol(len(scan.Table.Families)) {
		return p
	}
	var g *ExtractGroup
	for i := range scan.ExtractGroups {
		if scan.ExtractGroups[i].In != in.Idx {
			continue
		}
		g = &scan.ExtractGroups[i]
		for _, x := range g.Extracts {
			if sql.Equal(x.Get, p) {
				return &sql.Precomputed{Col: x.Col, X: p}
			}
		}
	}
	if g == nil {
		scan.ExtractGroups = append(scan.ExtractGroups, ExtractGroup{In: in.Idx})
		g = &scan.ExtractGroups[len(scan.ExtractGroups)-1]
	}
	g.Extracts = append(g.Extracts, Extract{Get: p, Col: scan.Width})
	scan.Width++
	return &sql.Precomputed{Col: scan.Width - 1, X: p}
}

// markTransient sets FamilyRead.Transient for the cell columns that no
// expression reads except through an extracted field: the scan then
// decodes their fields straight from storage's buffer and copies a cell
// only when a field fails to decode (the fallback needs its bytes). It
// then compiles each cell's extractor (compileExtracts).
func markTransient(scan *Scan, exprs []sql.Expr) {
	used := map[int]bool{}
	for _, e := range exprs {
		if e == nil {
			continue
		}
		sql.Walk(e, func(x sql.Expr) bool {
			switch x := x.(type) {
			case *sql.Precomputed:
				return false
			case *sql.ColRef:
				used[x.Idx] = true
			}
			return true
		})
	}
	// A field of a variable-width type would point into the cell's
	// bytes, so only cells whose extracted fields are all fixed-width
	// qualify.
	if scan.NeedKey && !used[0] && len(scan.ExtractGroups) > 0 {
		// `_key` is read only by the extracted fields' error messages.
		scan.NeedKey, scan.KeyOnError = false, true
	}
	extracted := map[int]bool{}
	for _, g := range scan.ExtractGroups {
		extracted[g.In] = true
		for _, x := range g.Extracts {
			extracted[g.In] = extracted[g.In] && fixedWidth(x.Get.Type())
		}
	}
	for i := range scan.Reads {
		rd := &scan.Reads[i]
		for k, c := range rd.CellCols {
			if extracted[c] && !used[c] {
				if rd.Transient == nil {
					rd.Transient = make([]bool, len(rd.CellCols))
				}
				rd.Transient[k] = true
			}
		}
	}
	compileExtracts(scan)
}

// compileExtracts gives each extract group its transience and the
// Extractor that decodes all of its paths in one pass.
func compileExtracts(scan *Scan) {
	for i := range scan.ExtractGroups {
		g := &scan.ExtractGroups[i]
		g.Transient = scan.TransientCol(g.In)
		paths := make([]protoschema.Path, len(g.Extracts))
		for k, x := range g.Extracts {
			paths[k] = x.Get.Path
		}
		// extractField takes only non-empty paths, all NewExtractor needs.
		x, err := protoschema.NewExtractor(paths)
		if err != nil {
			panic("planner: " + err.Error())
		}
		g.Extractor = x
	}
}

func fixedWidth(t *types.Type) bool {
	switch t.Kind {
	case types.KindBool, types.KindInt64, types.KindFloat32, types.KindFloat64, types.KindDate,
		types.KindTimestamp, types.KindEnum:
		return true
	}
	return false
}

// TransientCol reports whether row column c is a transient cell column.
func (n *Scan) TransientCol(c int) bool {
	for _, rd := range n.Reads {
		for k, cc := range rd.CellCols {
			if cc == c {
				return rd.Transient != nil && rd.Transient[k]
			}
		}
	}
	return false
}

// aggInputs returns the expressions of the aggregate calls and, for an
// ungrouped query, the select list.
func aggInputs(aggs []*sql.AggCall, sel []sql.Expr, grouped bool) []sql.Expr {
	var out []sql.Expr
	for _, a := range aggs {
		out = append(out, a.Inputs()...)
	}
	if !grouped {
		out = append(out, sel...)
	}
	return out
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
