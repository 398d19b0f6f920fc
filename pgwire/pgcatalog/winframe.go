package pgcatalog

import (
	"sort"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// Window frames, as PostgreSQL 15 computes them: the default (RANGE
// UNBOUNDED PRECEDING to CURRENT ROW, the whole partition without ORDER
// BY); ROWS, RANGE and GROUPS frames between UNBOUNDED, CURRENT ROW, and n
// PRECEDING or FOLLOWING; and EXCLUDE CURRENT ROW, GROUP or TIES. A RANGE
// offset is a distance in the values of the window's one ORDER BY column
// (an interval for dates and times), computed with the binder's + and -
// as in_range computes it; ROWS counts rows and GROUPS peer groups.

// winFrame is a window's frame: PostgreSQL's FRAMEOPTION bits and its
// offsets.
type winFrame struct {
	options int32
	// offsets are the n of n PRECEDING and n FOLLOWING (start, end);
	// ROWS and GROUPS read them as counts (counts).
	offsets [2]*cexpr
	counts  [2]int64
	// rangeEnds, for RANGE, compute a row's bound value from its ORDER BY
	// value, v - n or v + n; rangeKey is that value as the bounds compare
	// with it (a date as a timestamp, as in_range(date, date, interval)
	// compares), key its ordering.
	rangeEnds [2]*cexpr
	rangeKey  *cexpr
	key       sortKey
	// rangeUp says whether each bound adds the offset (v + n), for a
	// bound past the type's range.
	rangeUp [2]bool
}

// The FRAMEOPTION bits of PostgreSQL's nodes/parsenodes.h.
const (
	frameNonDefault         = 0x1
	frameRange              = 0x2
	frameRows               = 0x4
	frameGroups             = 0x8
	frameStartUnboundedPrec = 0x20
	frameEndUnboundedFoll   = 0x100
	frameStartCurrentRow    = 0x200
	frameEndCurrentRow      = 0x400
	frameStartOffsetPrec    = 0x800
	frameEndOffsetPrec      = 0x1000
	frameStartOffsetFoll    = 0x2000
	frameEndOffsetFoll      = 0x4000
	frameExcludeCurrentRow  = 0x8000
	frameExcludeGroup       = 0x10000
	frameExcludeTies        = 0x20000
	frameExclusions         = frameExcludeCurrentRow | frameExcludeGroup | frameExcludeTies
	frameOffsets            = frameStartOffsetPrec | frameEndOffsetPrec | frameStartOffsetFoll | frameEndOffsetFoll
	frameDefault            = frameRange | frameStartUnboundedPrec | frameEndCurrentRow
)

// bindFrame binds a window's frame; slot holds its ORDER BY already.
func (b *binder) bindFrame(def *pg_query.WindowDef, slot *winSlot, sc *scope) (winFrame, error) {
	f := winFrame{options: def.FrameOptions}
	if f.options&frameNonDefault == 0 {
		f.options = frameDefault
		return f, nil
	}
	mode := "ROWS"
	switch {
	case f.options&frameGroups != 0:
		mode = "GROUPS"
		if len(slot.order) == 0 {
			return f, errorf("42P20", def.Location, "GROUPS mode requires an ORDER BY clause")
		}
	case f.options&frameRange != 0:
		mode = "RANGE"
		if f.options&frameOffsets != 0 && len(slot.order) != 1 {
			return f, errorf("42P20", def.Location, "RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column")
		}
	}
	preceding := [2]bool{f.options&frameStartOffsetPrec != 0, f.options&frameEndOffsetPrec != 0}
	for k, n := range []*pg_query.Node{def.StartOffset, def.EndOffset} {
		if n == nil {
			continue
		}
		e, refs, err := b.bindTracked(sc, func() (*cexpr, error) { return b.bindExpr(n, sc) })
		if err != nil {
			return f, err
		}
		noVars := func() error {
			if len(refs) > 0 {
				return errorf("42P10", location(n), "argument of %s must not contain variables", mode)
			}
			return nil
		}
		if mode != "RANGE" {
			f.offsets[k] = b.coerce(e, tInt8)
			if err := noVars(); err != nil {
				return f, err
			}
			continue
		}
		col, key := slot.order[0], slot.keys[0]
		want, ok := rangeOffsetType(col.typ)
		if !ok {
			return f, errorf(CodeNotSupported, location(n), "RANGE with offset PRECEDING/FOLLOWING is not supported for column type %s", formatType(col.typ, -1))
		}
		if e.typ == tUnknown || rangeOffsetCasts(e.typ, want) {
			e = b.coerce(e, want)
		}
		if e.typ != want {
			err := errorf(CodeNotSupported, location(n), "RANGE with offset PRECEDING/FOLLOWING is not supported for column type %s and offset type %s",
				formatType(col.typ, -1), formatType(e.typ, -1))
			err.Hint = "Cast the offset value to an appropriate type."
			return f, err
		}
		if err := noVars(); err != nil {
			return f, err
		}
		op := "+"
		if preceding[k] != key.desc { // before the row: smaller values ascending, larger descending
			op = "-"
		}
		f.rangeKey, f.key = col, key
		if col.typ == tDate {
			f.rangeKey, f.key.typ = b.coerce(col, tTimestamp), tTimestamp
		}
		if f.rangeEnds[k], err = b.binaryOp(op, f.rangeKey, e, noPos); err != nil {
			return f, err
		}
		f.rangeUp[k] = op == "+"
		f.offsets[k] = e
	}
	return f, nil
}

// rangeOffsetType is the offset type a RANGE over a column of type typ
// takes (PostgreSQL's in_range functions), and whether there is one.
func rangeOffsetType(typ uint32) (uint32, bool) {
	switch typ {
	case tInt2, tInt4, tInt8:
		return tInt8, true
	case tFloat4, tFloat8:
		return tFloat8, true
	case tNumeric:
		return tNumeric, true
	case tDate, tTimestamp, tTimestamptz, tTime, tInterval:
		return tInterval, true
	}
	return 0, false
}

// rangeOffsetCasts reports whether an offset of type typ converts
// implicitly to want, the offset type of the column's in_range: integers
// to any number, numeric and real to double precision.
func rangeOffsetCasts(typ, want uint32) bool {
	switch want {
	case tInt8:
		return typ == tInt2 || typ == tInt4
	case tNumeric:
		return typ == tInt2 || typ == tInt4 || typ == tInt8
	case tFloat8:
		return isNumericType(typ)
	}
	return false
}

// evalOffsets computes the frame's offsets (constants, as PostgreSQL
// requires), with PostgreSQL's errors for NULL and negative ones.
func (f *winFrame) evalOffsets(ev *evaluator) error {
	for k, e := range f.offsets {
		if e == nil {
			continue
		}
		v, err := e.fn(ev, &env{})
		if err != nil {
			return err
		}
		which := [2]string{"starting", "ending"}[k]
		switch {
		case f.rangeEnds[k] != nil && (v.isNull() || negative(v)):
			return errorf("22013", noPos, "invalid preceding or following size in window function")
		case v.isNull():
			return errorf(CodeNullValue, noPos, "frame %s offset must not be null", which)
		case v.i < 0:
			return errorf("22013", noPos, "frame %s offset must not be negative", which)
		}
		f.counts[k] = v.i
	}
	return nil
}

// negative reports whether a number or interval is below zero.
func negative(v Value) bool {
	switch v.k {
	case kInt:
		return v.i < 0
	case kFloat:
		return v.f < 0
	case kNumeric:
		n, err := numericOf(v)
		return err == nil && n.unscaled.Sign() < 0
	}
	iv, err := parseInterval(v.s)
	// in floating point: a long interval's microseconds overflow int64
	return err == nil && (float64(iv.months)*30+float64(iv.days))*float64(microsPerDay)+float64(iv.micros) < 0
}

// winPeers describes a sorted partition's peer groups: the first and
// one-past-last index of each row's peers, each row's group, the groups'
// first rows (and n after the last), and the rows whose ORDER BY value
// is not NULL, [valued[0], valued[1]).
type winPeers struct {
	start, end  []int
	group       []int
	groupStarts []int
	valued      [2]int
}

func newWinPeers(rows []winRow, start, end []int, key sortKey) *winPeers {
	p := &winPeers{start: start, end: end, group: make([]int, len(rows))}
	for i := range rows {
		if start[i] == i {
			p.groupStarts = append(p.groupStarts, i)
		}
		p.group[i] = len(p.groupStarts) - 1
	}
	p.groupStarts = append(p.groupStarts, len(rows))
	p.valued = [2]int{0, len(rows)}
	if len(rows) > 0 && len(rows[0].order) > key.idx {
		for p.valued[0] < len(rows) && rows[p.valued[0]].order[key.idx].isNull() {
			p.valued[0]++
		}
		for p.valued[1] > p.valued[0] && rows[p.valued[1]-1].order[key.idx].isNull() {
			p.valued[1]--
		}
	}
	return p
}

// bounds returns the frame of row i: rows [start, end) before exclusions.
func (f *winFrame) bounds(ev *evaluator, rows []winRow, i int, p *winPeers) (start, end int, err error) {
	n := len(rows)
	start, end = 0, n
	groups := len(p.groupStarts) - 1
	switch {
	case f.options&frameStartUnboundedPrec != 0:
	case f.options&frameStartCurrentRow != 0 && f.options&frameRows != 0:
		start = i
	case f.options&frameStartCurrentRow != 0:
		start = p.start[i]
	case f.options&frameRows != 0:
		start = i + offsetSign(f.options&frameStartOffsetPrec != 0)*int(min(f.counts[0], int64(n)))
	case f.options&frameGroups != 0:
		g := p.group[i] + offsetSign(f.options&frameStartOffsetPrec != 0)*int(min(f.counts[0], int64(groups)))
		start = p.groupStarts[min(max(g, 0), groups)]
	default:
		if start, err = f.rangeBound(ev, rows, i, p, 0); err != nil {
			return 0, 0, err
		}
	}
	switch {
	case f.options&frameEndUnboundedFoll != 0:
	case f.options&frameEndCurrentRow != 0 && f.options&frameRows != 0:
		end = i + 1
	case f.options&frameEndCurrentRow != 0:
		end = p.end[i]
	case f.options&frameRows != 0:
		end = i + offsetSign(f.options&frameEndOffsetPrec != 0)*int(min(f.counts[1], int64(n))) + 1
	case f.options&frameGroups != 0:
		g := p.group[i] + offsetSign(f.options&frameEndOffsetPrec != 0)*int(min(f.counts[1], int64(groups)))
		end = 0
		if g >= 0 {
			end = p.groupStarts[min(g+1, groups)]
		}
	default:
		if end, err = f.rangeBound(ev, rows, i, p, 1); err != nil {
			return 0, 0, err
		}
	}
	return max(start, 0), min(end, n), nil
}

func offsetSign(preceding bool) int {
	if preceding {
		return -1
	}
	return 1
}

// rangeBound is a RANGE offset frame's start (k = 0) or end (k = 1) for
// row i: the first row whose value reaches the row's bound value (for the
// end, passes it). Rows whose value is NULL frame their NULL peers.
func (f *winFrame) rangeBound(ev *evaluator, rows []winRow, i int, p *winPeers, k int) (int, error) {
	v := rows[i].order[f.key.idx]
	if v.isNull() {
		return [2]int{p.start[i], p.end[i]}[k], nil
	}
	lo, hi := p.valued[0], p.valued[1]
	bound, err := f.rangeEnds[k].fn(ev, rows[i].e)
	if e, ok := err.(*Error); ok && e.Code == CodeOutOfRange {
		// v ± n past the type's range is beyond every value, as in_range
		// takes it: the frame reaches the end the offset goes toward.
		if f.rangeUp[k] != f.key.desc {
			return hi, nil
		}
		return lo, nil
	}
	if err != nil {
		return 0, err
	}
	var searchErr error
	at := lo + sort.Search(hi-lo, func(j int) bool {
		x, err := f.rangeKey.fn(ev, rows[lo+j].e)
		if err != nil {
			searchErr = err
		}
		c := compareAs(x, bound, f.key.typ)
		if f.key.desc {
			c = -c
		}
		return c > 0 || c == 0 && k == 0
	})
	return at, searchErr
}

// members are the rows of row i's frame [start, end) that its EXCLUDE
// clause leaves.
func (f *winFrame) members(i, start, end int, p *winPeers) []int {
	out := make([]int, 0, max(end-start, 0))
	for j := start; j < end; j++ {
		switch {
		case f.options&frameExcludeCurrentRow != 0 && j == i,
			f.options&frameExcludeGroup != 0 && p.start[j] == p.start[i],
			f.options&frameExcludeTies != 0 && j != i && p.start[j] == p.start[i]:
			continue
		}
		out = append(out, j)
	}
	return out
}
