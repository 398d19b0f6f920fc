package pgcatalog

import (
	"sort"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// Window functions: the ranking functions (row_number, rank, dense_rank,
// percent_rank, cume_dist, ntile), the value functions (lag, lead,
// first_value, last_value, nth_value) and every aggregate over a window.
// A window is written inline or names one of the query's WINDOW clause
// (OVER w, OVER (w ORDER BY x)); frames are in winframe.go.

// winSlot is a window function call.
type winSlot struct {
	name      string
	agg       *aggSlot // an aggregate over the frame
	args      []*cexpr // a value or ranking function's arguments
	partition []*cexpr
	order     []*cexpr
	keys      []sortKey
	frame     winFrame
}

// winFuncs are the window functions that are not aggregates, with their
// result types (0: the first argument's) and arities.
var winFuncs = map[string]struct {
	ret      uint32
	min, max int
}{
	"row_number": {tInt8, 0, 0}, "rank": {tInt8, 0, 0}, "dense_rank": {tInt8, 0, 0},
	"percent_rank": {tFloat8, 0, 0}, "cume_dist": {tFloat8, 0, 0}, "ntile": {tInt4, 1, 1},
	"lag": {0, 1, 3}, "lead": {0, 1, 3}, "first_value": {0, 1, 1}, "last_value": {0, 1, 1}, "nth_value": {0, 2, 2},
}

func (b *binder) bindWindow(fc *pg_query.FuncCall, name string, sc *scope) (*cexpr, error) {
	if sc.wins == nil {
		return nil, errorf(CodeGrouping, fc.Location, "window functions are not allowed here")
	}
	def, err := sc.windowDef(fc.Over, fc.Over.Location)
	if err != nil {
		return nil, err
	}
	inner := *sc
	inner.wins, inner.srfs = nil, nil
	slot := &winSlot{name: name}
	var typ uint32
	if wf, ok := winFuncs[name]; ok {
		if slot.args, err = b.bindArgs(fc.Args, &inner); err != nil {
			return nil, err
		}
		if len(slot.args) < wf.min || len(slot.args) > wf.max {
			return nil, noFunction(fc.Location, name, typeList(slot.args))
		}
		typ = wf.ret
		for i, a := range slot.args {
			switch {
			case i == 0 && typ == 0 && a.untyped:
				slot.args[i] = b.coerce(a, tText)
			case i > 0 || typ != 0:
				if i == 2 { // lag's value and default take their common type (anycompatible)
					t := commonType([]*cexpr{slot.args[0], a})
					slot.args[0], slot.args[i] = b.coerce(slot.args[0], t), b.coerce(a, t)
				} else {
					slot.args[i] = b.coerce(a, tInt8)
				}
			}
		}
		if typ == 0 {
			typ = slot.args[0].typ
		}
	} else {
		def, ok := aggregates[name]
		if !ok {
			return nil, errorf(CodeUndefinedFunc, fc.Location, "window function %s does not exist", name)
		}
		if def.ordered {
			return nil, errorf(CodeNotSupported, fc.Location, "OVER is not supported for ordered-set aggregate %s", name)
		}
		aggs := []*aggSlot{}
		aggScope := inner
		aggScope.aggs, aggScope.argAggs = &aggs, sc.aggs
		e, err := b.bindAggregate(fc, name, def, &aggScope)
		if err != nil {
			return nil, err
		}
		slot.agg, typ = aggs[0], e.typ
	}
	if slot.partition, err = b.bindArgs(def.PartitionClause, &inner); err != nil {
		return nil, err
	}
	for i, o := range def.OrderClause {
		sb := o.GetSortBy()
		e, err := b.bindExpr(sb.Node, &inner)
		if err != nil {
			return nil, err
		}
		k := newSortKey(sb)
		k.idx, k.typ = i, e.typ
		slot.order, slot.keys = append(slot.order, e), append(slot.keys, k)
	}
	if slot.frame, err = b.bindFrame(def, slot, &inner); err != nil {
		return nil, err
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

// windowDef resolves a call's OVER clause against the query's named
// windows: OVER w is w; OVER (w ORDER BY x) is w's partitioning with its
// own ordering and frame.
func (sc *scope) windowDef(over *pg_query.WindowDef, pos int32) (*pg_query.WindowDef, error) {
	ref := over.Refname
	if ref == "" && over.Name != "" && len(over.PartitionClause) == 0 && len(over.OrderClause) == 0 {
		ref = over.Name
	}
	if ref == "" {
		return over, nil
	}
	base, ok := sc.windows[ref]
	if !ok {
		return nil, errorf(CodeUndefinedObject, pos, "window \"%s\" does not exist", ref)
	}
	if ref == over.Name { // OVER w
		return base, nil
	}
	out := &pg_query.WindowDef{PartitionClause: base.PartitionClause, OrderClause: base.OrderClause,
		FrameOptions: base.FrameOptions, StartOffset: base.StartOffset, EndOffset: base.EndOffset}
	if len(over.OrderClause) > 0 {
		out.OrderClause = over.OrderClause
	}
	if over.FrameOptions&frameNonDefault != 0 {
		out.FrameOptions, out.StartOffset, out.EndOffset = over.FrameOptions, over.StartOffset, over.EndOffset
	}
	return out, nil
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
		if err := s.frame.evalOffsets(ev); err != nil {
			return err
		}
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
	n := len(rows)
	// peerEnd[i] is one past the last peer of row i (all rows are peers
	// without ORDER BY).
	peerStart, peerEnd := make([]int, n), make([]int, n)
	for i := range rows {
		if i > 0 && (len(s.keys) == 0 || peers(rows[i-1].order, rows[i].order)) {
			peerStart[i] = peerStart[i-1]
		} else {
			peerStart[i] = i
		}
	}
	for i := n - 1; i >= 0; i-- {
		if i < n-1 && peerStart[i+1] == peerStart[i] {
			peerEnd[i] = peerEnd[i+1]
		} else {
			peerEnd[i] = i + 1
		}
	}
	pp := newWinPeers(rows, peerStart, peerEnd, s.frame.key)
	dense := 0
	var lastFrame [2]int
	var lastVal Value
	// A frame that keeps its start and only grows (the default frame with
	// ORDER BY: a running total) folds the rows it gains into the previous
	// frame's accumulator, rather than every member again: linear, not
	// quadratic, in the partition's size.
	var grow *aggAcc
	var growFrame [2]int
	for i, r := range rows {
		if ev != nil {
			if err := ev.check(); err != nil {
				return err
			}
		}
		if peerStart[i] == i {
			dense++
		}
		var v Value
		var err error
		switch s.name {
		case "row_number":
			v = intV(int64(i + 1))
		case "rank":
			v = intV(int64(peerStart[i] + 1))
		case "dense_rank":
			v = intV(int64(dense))
		case "percent_rank":
			v = floatV(0)
			if n > 1 {
				v = floatV(float64(peerStart[i]) / float64(n-1))
			}
		case "cume_dist":
			v = floatV(float64(peerEnd[i]) / float64(n))
		case "ntile":
			v, err = s.ntile(ev, r.e, i, n)
		case "lag", "lead":
			v, err = s.shifted(ev, rows, i)
		default:
			var start, end int
			if start, end, err = s.frame.bounds(ev, rows, i, pp); err != nil {
				return err
			}
			if i > 0 && s.agg != nil && lastFrame == [2]int{start, end} && s.frame.options&frameExclusions == 0 {
				v = lastVal // the same frame as the row before (its peers)
				break
			}
			if s.agg != nil && s.frame.options&frameExclusions == 0 {
				if grow == nil || start != growFrame[0] || end < growFrame[1] {
					grow, growFrame = s.agg.newAcc(), [2]int{start, start}
				}
				v, err = growFrameTo(ev, grow, rows, growFrame[1], end)
				growFrame[1] = max(growFrame[1], end)
			} else {
				v, err = s.framed(ev, rows, s.frame.members(i, start, end, pp))
			}
			lastFrame, lastVal = [2]int{start, end}, v
		}
		if err != nil {
			return err
		}
		r.e.win[si] = v
	}
	return nil
}

// growFrameTo adds rows[from:to] to the accumulator of a growing frame
// and returns the aggregate over all it holds.
func growFrameTo(ev *evaluator, a *aggAcc, rows []winRow, from, to int) (Value, error) {
	for j := from; j < to; j++ {
		if err := ev.check(); err != nil {
			return null, err
		}
		if err := a.add(ev, rows[j].e); err != nil {
			return null, err
		}
	}
	return a.result(ev)
}

// ntile is the bucket of row i of n when the partition is split into as
// equal buckets as it can be, the larger ones first.
func (s *winSlot) ntile(ev *evaluator, e *env, i, n int) (Value, error) {
	bv, err := s.args[0].fn(ev, e)
	if err != nil || bv.isNull() {
		return null, err
	}
	buckets := bv.i
	if buckets <= 0 {
		return null, errorf("22014", noPos, "argument of ntile must be greater than zero")
	}
	per, extra := int64(n)/buckets, int64(n)%buckets
	// The first extra buckets hold per+1 rows.
	pos, big := int64(i), extra*(per+1)
	if pos < big {
		return intV(pos/(per+1) + 1), nil
	}
	return intV(extra + (pos-big)/max(per, 1) + 1), nil
}

// shifted is lag (the row offset before) or lead (after), or the default
// when there is no such row.
func (s *winSlot) shifted(ev *evaluator, rows []winRow, i int) (Value, error) {
	e := rows[i].e
	offset := int64(1)
	if len(s.args) > 1 {
		o, err := s.args[1].fn(ev, e)
		if err != nil || o.isNull() {
			return null, err
		}
		offset = o.i
	}
	if s.name == "lag" {
		offset = -offset
	}
	j := int64(i) + offset
	if j < 0 || j >= int64(len(rows)) {
		if len(s.args) > 2 {
			return s.args[2].fn(ev, e)
		}
		return null, nil
	}
	return s.args[0].fn(ev, rows[j].e)
}

// framed computes an aggregate, first_value, last_value or nth_value over
// the rows of a frame (indexes into rows, in order).
func (s *winSlot) framed(ev *evaluator, rows []winRow, frame []int) (Value, error) {
	if s.agg != nil {
		envs := make([]*env, len(frame))
		for k, j := range frame {
			envs[k] = rows[j].e
		}
		return s.agg.compute(ev, envs)
	}
	if len(frame) == 0 {
		return null, nil
	}
	pick := 0
	switch s.name {
	case "last_value":
		pick = len(frame) - 1
	case "nth_value":
		nv, err := s.args[1].fn(ev, rows[frame[0]].e)
		if err != nil || nv.isNull() {
			return null, err
		}
		if nv.i <= 0 {
			return null, errorf("22016", noPos, "argument of nth_value must be greater than zero")
		}
		if pick = int(nv.i) - 1; pick >= len(frame) {
			return null, nil
		}
	}
	return s.args[0].fn(ev, rows[frame[pick]].e)
}

func peers(a, b []Value) bool {
	for i := range a {
		if compareNullsLast(a[i], b[i]) != 0 {
			return false
		}
	}
	return true
}
