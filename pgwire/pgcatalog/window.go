package pgcatalog

import (
	"sort"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// winSlot is a window function call: row_number, rank, dense_rank, or an
// aggregate over the window (the whole partition without ORDER BY, else
// the rows up to the current row's last peer).
type winSlot struct {
	name      string
	agg       *aggSlot
	partition []*cexpr
	order     []*cexpr
	keys      []sortKey
}

func (b *binder) bindWindow(fc *pg_query.FuncCall, name string, sc *scope) (*cexpr, error) {
	if sc.wins == nil {
		return nil, errorf(CodeGrouping, fc.Location, "window functions are not allowed here")
	}
	if fc.Over.Name != "" || fc.Over.Refname != "" {
		return nil, errorf(CodeNotSupported, fc.Location, "named windows are not supported in catalog queries")
	}
	inner := *sc
	inner.wins, inner.srfs = nil, nil
	slot := &winSlot{name: name}
	var typ uint32 = tInt8
	switch name {
	case "row_number", "rank", "dense_rank":
	default:
		def, ok := aggregates[name]
		if !ok {
			return nil, errorf(CodeUndefinedFunc, fc.Location, "window function %s does not exist", name)
		}
		aggs := []*aggSlot{}
		aggScope := inner
		aggScope.aggs = &aggs
		e, err := b.bindAggregate(fc, name, def, &aggScope)
		if err != nil {
			return nil, err
		}
		slot.agg, typ = aggs[0], e.typ
	}
	var err error
	if slot.partition, err = b.bindArgs(fc.Over.PartitionClause, &inner); err != nil {
		return nil, err
	}
	for i, o := range fc.Over.OrderClause {
		sb := o.GetSortBy()
		e, err := b.bindExpr(sb.Node, &inner)
		if err != nil {
			return nil, err
		}
		k := newSortKey(sb)
		k.idx, k.typ = i, e.typ
		slot.order, slot.keys = append(slot.order, e), append(slot.keys, k)
	}
	*sc.wins = append(*sc.wins, slot)
	idx := len(*sc.wins) - 1
	return &cexpr{typ: typ, name: name, fn: func(_ *evaluator, e *env) (Value, error) {
		if idx < len(e.win) {
			return e.win[idx], nil
		}
		return null, nil
	}}, nil
}

type winRow struct {
	e     *env
	order []Value
}

// computeWindows sets env.win for every env, partition by partition.
func computeWindows(ev *evaluator, slots []*winSlot, envs []*env) error {
	for _, e := range envs {
		e.win = make([]Value, len(slots))
	}
	for si, s := range slots {
		parts := map[string][]winRow{}
		var order []string
		for _, e := range envs {
			pk, err := evalArgs(ev, e, s.partition)
			if err != nil {
				return err
			}
			ov, err := evalArgs(ev, e, s.order)
			if err != nil {
				return err
			}
			k := key(pk)
			if _, ok := parts[k]; !ok {
				order = append(order, k)
			}
			parts[k] = append(parts[k], winRow{e: e, order: ov})
		}
		for _, k := range order {
			if err := s.fill(ev, si, parts[k]); err != nil {
				return err
			}
		}
	}
	return nil
}

func (s *winSlot) fill(ev *evaluator, si int, rows []winRow) error {
	sort.SliceStable(rows, func(a, b int) bool { return lessRow(rows[a].order, rows[b].order, s.keys) })
	rank, dense := 0, 0
	for i, r := range rows {
		if i == 0 || !peers(rows[i-1].order, r.order) {
			rank, dense = i+1, dense+1
		}
		switch s.name {
		case "row_number":
			r.e.win[si] = intV(int64(i + 1))
		case "rank":
			r.e.win[si] = intV(int64(rank))
		case "dense_rank":
			r.e.win[si] = intV(int64(dense))
		default:
			end := len(rows)
			if len(s.keys) > 0 {
				for end = i + 1; end < len(rows) && peers(rows[end].order, r.order); end++ {
				}
			}
			frame := make([]*env, end)
			for j := range frame {
				frame[j] = rows[j].e
			}
			v, err := s.agg.compute(ev, frame)
			if err != nil {
				return err
			}
			r.e.win[si] = v
		}
	}
	return nil
}

func peers(a, b []Value) bool {
	for i := range a {
		if compareNullsLast(a[i], b[i]) != 0 {
			return false
		}
	}
	return true
}
