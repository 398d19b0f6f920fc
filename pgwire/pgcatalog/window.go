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
	// spec identifies the window's PARTITION BY and ORDER BY.
	spec string
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
		return nil, notAllowed("window", sc, fc.Location)
	}
	def, err := sc.windowDef(fc.Over, fc.Over.Location)
	if err != nil {
		return nil, err
	}
	inner := *sc
	inner.wins, inner.srfs, inner.clause = nil, nil, clauseWinArgs
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
			// ntile's buckets and the offsets are integers: a bigint or a
			// numeric has no implicit cast to one.
			if (i == 1 || typ != 0) && i < 2 && !a.untyped && a.typ != tInt2 && a.typ != tInt4 {
				return nil, noFunction(fc.Location, name, typeList(slot.args))
			}
		}
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
		if err := windowModifiers(fc, false); err != nil {
			return nil, err
		}
	} else {
		def, ok := aggregates[name]
		if !ok {
			return nil, errorf(CodeUndefinedFunc, fc.Location, "window function %s does not exist", name)
		}
		if def.ordered {
			return nil, errorf(CodeNotSupported, fc.Location, "OVER is not supported for ordered-set aggregate %s", name)
		}
		if err := windowModifiers(fc, true); err != nil {
			return nil, err
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
	inner.clause = "window definitions"
	slot.spec = nodeKey(&pg_query.Node{Node: &pg_query.Node_List{List: &pg_query.List{Items: []*pg_query.Node{
		{Node: &pg_query.Node_List{List: &pg_query.List{Items: def.PartitionClause}}},
		{Node: &pg_query.Node_List{List: &pg_query.List{Items: def.OrderClause}}},
	}}}})
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

// windowModifiers refuses what a call over a window may not have, as
// PostgreSQL does: DISTINCT and an aggregate's ORDER BY, and FILTER but
// for an aggregate (agg).
func windowModifiers(fc *pg_query.FuncCall, agg bool) error {
	switch {
	case fc.AggDistinct:
		return errorf(CodeNotSupported, fc.Location, "DISTINCT is not implemented for window functions")
	case len(fc.AggOrder) > 0:
		return errorf(CodeNotSupported, fc.Location, "aggregate ORDER BY is not implemented for window functions")
	case fc.AggFilter != nil && !agg:
		return errorf(CodeNotSupported, fc.Location, "FILTER is not implemented for non-aggregate window functions")
	}
	return nil
}

// bindWindowClause reads the query's WINDOW clause into sc.windows, each
// definition resolved against the earlier one it names, as PostgreSQL's
// transformWindowDefinitions does.
func (b *binder) bindWindowClause(defs []*pg_query.Node, sc *scope) error {
	if len(defs) == 0 {
		return nil
	}
	sc.windows = map[string]*pg_query.WindowDef{}
	for _, n := range defs {
		def := n.GetWindowDef()
		if def == nil {
			continue
		}
		if _, dup := sc.windows[def.Name]; dup {
			return errorf(CodeWindowing, def.Location, "window \"%s\" is already defined", def.Name)
		}
		resolved, err := sc.inheritWindow(def, false)
		if err != nil {
			return err
		}
		sc.windows[def.Name] = resolved
	}
	return nil
}

// windowDef resolves a call's OVER clause against the query's named
// windows: OVER w is w; OVER (w ORDER BY x) is w's partitioning with its
// own ordering and frame.
func (sc *scope) windowDef(over *pg_query.WindowDef, pos int32) (*pg_query.WindowDef, error) {
	if over.Refname != "" || over.Name == "" {
		return sc.inheritWindow(over, true)
	}
	base, ok := sc.windows[over.Name]
	if !ok {
		return nil, errorf(CodeUndefinedObject, pos, "window \"%s\" does not exist", over.Name)
	}
	return base, nil
}

// inheritWindow is the window def, which may name another (w in
// (w ORDER BY x)) to take its partitioning and ordering from: it may add
// an ordering and a frame, not replace them, and the window it names may
// not have a frame. over says def is an OVER clause's.
func (sc *scope) inheritWindow(def *pg_query.WindowDef, over bool) (*pg_query.WindowDef, error) {
	ref := def.Refname
	if ref == "" {
		return def, nil
	}
	base, ok := sc.windows[ref]
	switch {
	case !ok:
		return nil, errorf(CodeUndefinedObject, def.Location, "window \"%s\" does not exist", ref)
	case len(def.PartitionClause) > 0:
		return nil, errorf(CodeWindowing, def.Location, "cannot override PARTITION BY clause of window \"%s\"", ref)
	case len(def.OrderClause) > 0 && len(base.OrderClause) > 0:
		return nil, errorf(CodeWindowing, def.Location, "cannot override ORDER BY clause of window \"%s\"", ref)
	case base.FrameOptions&frameNonDefault != 0:
		err := errorf(CodeWindowing, def.Location, "cannot copy window \"%s\" because it has a frame clause", ref)
		if over && len(def.OrderClause) == 0 && def.FrameOptions&frameNonDefault == 0 { // just OVER (w)
			err.Hint = "Omit the parentheses in this OVER clause."
		}
		return nil, err
	}
	out := &pg_query.WindowDef{Name: def.Name, PartitionClause: base.PartitionClause, OrderClause: base.OrderClause,
		FrameOptions: def.FrameOptions, StartOffset: def.StartOffset, EndOffset: def.EndOffset, Location: def.Location}
	if len(def.OrderClause) > 0 {
		out.OrderClause = def.OrderClause
	}
	return out, nil
}

type winRow struct {
	e     *env
	order []Value
}

// computeWindows sets env.win for every env, partition by partition. It
// returns the envs in the order PostgreSQL's WindowAgg would emit them
// when every call shares one PARTITION BY and ORDER BY: sorted by the
// partition keys, then each partition by the ORDER BY (nil when the calls
// differ or do not sort).
func computeWindows(ev *evaluator, slots []*winSlot, envs []*env) ([]*env, error) {
	for _, e := range envs {
		e.win = make([]Value, len(slots))
	}
	var emitted []*env
	for si, s := range slots {
		if err := s.frame.evalOffsets(ev); err != nil {
			return nil, err
		}
		parts := map[string][]winRow{}
		var order []string
		partKeys := map[string][]Value{}
		for _, e := range envs {
			pk, err := evalArgs(ev, e, s.partition)
			if err != nil {
				return nil, err
			}
			ov, err := evalArgs(ev, e, s.order)
			if err != nil {
				return nil, err
			}
			k := key(pk)
			if _, ok := parts[k]; !ok {
				order, partKeys[k] = append(order, k), pk
			}
			parts[k] = append(parts[k], winRow{e: e, order: ov})
		}
		keys := make([]sortKey, len(s.partition))
		for i, p := range s.partition {
			keys[i] = sortKey{idx: i, typ: p.typ}
		}
		sort.SliceStable(order, func(a, b int) bool { return lessRow(partKeys[order[a]], partKeys[order[b]], keys) })
		emitted = emitted[:0]
		for _, k := range order {
			if err := s.fill(ev, si, parts[k]); err != nil {
				return nil, err
			}
			for _, r := range parts[k] {
				emitted = append(emitted, r.e)
			}
		}
	}
	for _, s := range slots {
		if s.spec != slots[0].spec || len(s.partition)+len(s.order) == 0 {
			return nil, nil
		}
	}
	return emitted, nil
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
	var buckets [2]int64 // ntile's count and first row, once a row gave it
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
			v, err = s.ntile(ev, r.e, i, n, &buckets)
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
// equal buckets as it can be, the larger ones first. As in PostgreSQL,
// the number of buckets is the argument's value at the partition's first
// row where it is not NULL (buckets: that count and row, 0 before); the
// rows before it get NULL, and the buckets count rows from it.
func (s *winSlot) ntile(ev *evaluator, e *env, i, n int, buckets *[2]int64) (Value, error) {
	if buckets[0] == 0 {
		bv, err := s.args[0].fn(ev, e)
		if err != nil || bv.isNull() {
			return null, err
		}
		if bv.i <= 0 {
			return null, errorf("22014", noPos, "argument of ntile must be greater than zero")
		}
		*buckets = [2]int64{bv.i, int64(i)}
	}
	per, extra := int64(n)/buckets[0], int64(n)%buckets[0]
	// The first extra buckets hold per+1 rows.
	pos, big := int64(i)-buckets[1], extra*(per+1)
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
