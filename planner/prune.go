package planner

import (
	"bytes"
	"sort"

	"github.com/shale-db/shale/sql"
	"github.com/shale-db/shale/sql/types"
)

// prune records in scan which columns the query reads: `_key`, whole
// families, or for a family used only as cf['literal'] just those
// qualifiers.
func prune(scan *Scan, q *sql.Query) {
	all := []sql.Expr{scan.Residual, q.Where}
	all = append(all, q.GroupBy...)
	for _, a := range q.Aggs {
		all = append(all, a.Inputs()...)
	}
	all = append(all, q.Select...)
	for s := q.From; s != nil; {
		j, ok := s.(*sql.UnnestJoin)
		if !ok {
			break
		}
		all = append(all, j.Array)
		s = j.Left
	}
	scan.Protos = protoReads(all)
	u := &usage{width: scan.Width, firstFam: scan.Table.FamilyCol(0), quals: map[int][][]byte{}, whole: map[int]bool{}}
	u.expr(scan.Residual)
	for s := q.From; s != nil; {
		j, ok := s.(*sql.UnnestJoin)
		if !ok {
			break
		}
		u.expr(j.Array)
		s = j.Left
	}
	if q.From != sql.Source(nil) {
		if _, direct := q.From.(*sql.TableScan); !direct {
			u.expr(q.Where) // conjuncts filtered above the UNNEST joins
		}
	}
	for _, g := range q.GroupBy {
		u.expr(g)
	}
	for _, a := range q.Aggs {
		for _, x := range a.Inputs() {
			u.expr(x)
		}
	}
	if !q.Grouped {
		for _, e := range q.Select {
			u.expr(e)
		}
	}
	scan.NeedKey = u.whole[0]
	for i := 0; i < scan.Table.NumKeyFields(); i++ {
		scan.DecodeKey = scan.DecodeKey || u.whole[scan.Table.KeyFieldCol(i)]
	}
	for i, f := range scan.Table.Families {
		col := scan.Table.FamilyCol(i)
		switch {
		case u.whole[col]:
			scan.Reads = append(scan.Reads, FamilyRead{Family: f, Col: col})
		case len(u.quals[col]) > 0:
			scan.Reads = append(scan.Reads, FamilyRead{Family: f, Col: col, Qualifiers: uniq(u.quals[col])})
		}
	}
}

type usage struct {
	width    int
	firstFam int // the first family column
	quals    map[int][][]byte
	whole    map[int]bool
}

func (u *usage) expr(e sql.Expr) {
	if e == nil {
		return
	}
	sql.Walk(e, func(x sql.Expr) bool {
		switch x := x.(type) {
		case *sql.MapGet:
			c, isCol := x.Map.(*sql.ColRef)
			k, isConst := x.Key.(*sql.Const)
			if isCol && isConst && c.Idx >= u.firstFam && c.Idx < u.width && !k.V.IsNull() && k.T.Kind == types.KindBytes {
				u.quals[c.Idx] = append(u.quals[c.Idx], k.V.Bytes())
				return false
			}
		case *sql.ColRef:
			if x.Idx < u.width {
				u.whole[x.Idx] = true
			}
		}
		return true
	})
}

func uniq(qs [][]byte) [][]byte {
	sort.Slice(qs, func(i, j int) bool { return bytes.Compare(qs[i], qs[j]) < 0 })
	out := qs[:0]
	for i, q := range qs {
		if i == 0 || !bytes.Equal(q, qs[i-1]) {
			out = append(out, q)
		}
	}
	return out
}
