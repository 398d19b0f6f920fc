package pgcatalog

import "sort"

// selectPlan evaluates one SELECT level: FROM rows, WHERE, grouping and
// aggregates, window functions, the select list (with set-returning
// functions expanded in lockstep), DISTINCT, ORDER BY and LIMIT/OFFSET.
//
// targets holds the visible select list followed by hidden ORDER BY /
// DISTINCT ON expressions; only the first nvisible reach the output.
type selectPlan struct {
	from  plan
	where *cexpr
	// whereConst marks a WHERE that reads no column of this level: it is
	// evaluated once, before the FROM clause is read, and a false one
	// skips reading it.
	whereConst bool
	grouped    bool
	groupKeys  []*cexpr
	groupRefs  [][]int // the columns each key reads
	groupSets  [][]int // the grouping sets, as key indexes; nil: all keys, once
	aggs       []*aggSlot
	having     *cexpr
	wins       []*winSlot
	srfs       []*srfSlot
	targets    []*cexpr
	nvisible   int
	distinct   bool
	distinctOn []int
	sort       []sortKey
	targetKeys []string // each select-list item's parse tree (nodeKey; "" for a * column)
	limit      *cexpr
	offset     *cexpr
	withTies   bool // FETCH FIRST n ROWS WITH TIES: rows equal to the last one on sort are kept
	cols       []outCol
	// keep lists the select-list items that hold an aggregate or a
	// set-returning function, which are never pruned; prune, in a binding
	// after the first, the items bound as NULL (prune.go).
	keep  []int
	prune *prunedOutputs
}

type sortKey struct {
	idx        int
	typ        uint32 // the key's type: intervals sort by their length
	desc       bool
	nullsFirst bool
}

func (p *selectPlan) addTarget(e *cexpr, name string) {
	p.targets = append(p.targets, e)
	p.cols = append(p.cols, outCol{name: name, typ: outputType(e.typ)})
	p.targetKeys = append(p.targetKeys, "")
}

// outputType is the type a client sees: unknown literals are text.
func outputType(t uint32) uint32 {
	if t == tUnknown {
		return tText
	}
	return t
}

func (p *selectPlan) columns() []scopeCol {
	out := make([]scopeCol, p.nvisible)
	for i := range out {
		out[i] = scopeCol{name: p.cols[i].name, typ: p.cols[i].typ, fields: p.targets[i].fields}
	}
	return out
}

func (p *selectPlan) run(ev *evaluator, outer *env) ([][]Value, error) {
	if p.streams() {
		it, err := p.open(ev, outer, false)
		if err != nil {
			return nil, err
		}
		defer it.close()
		var out [][]Value
		for {
			r, err := it.next()
			if err != nil || r == nil {
				return out, err
			}
			out = append(out, r)
		}
	}
	if p.sortsForLimit() {
		limit, offset, err := p.limits(ev, outer)
		if err != nil {
			return nil, err
		}
		if limit >= 0 && limit <= 1<<20 && offset <= 1<<20 {
			out, err := p.topN(ev, outer, limit+offset)
			if err != nil {
				return nil, err
			}
			return p.finish(ev, out, outer)
		}
	}
	if p.distinct && !p.grouped && len(p.wins) == 0 && len(p.srfs) == 0 {
		out, err := p.distinctStream(ev, outer)
		if err != nil {
			return nil, err
		}
		return p.finish(ev, out, outer)
	}
	var envs []*env
	var err error
	if p.grouped && p.groupSets == nil {
		if envs, err = p.groupStream(ev, outer); err != nil {
			return nil, err
		}
	} else {
		if envs, err = p.inputEnvs(ev, outer); err != nil {
			return nil, err
		}
		if p.grouped {
			if envs, err = p.group(ev, envs, outer); err != nil {
				return nil, err
			}
		}
	}
	if len(p.wins) > 0 {
		emitted, err := computeWindows(ev, p.wins, envs)
		if err != nil {
			return nil, err
		}
		if emitted != nil && len(p.sort) == 0 && !p.distinct && len(p.srfs) == 0 {
			envs = emitted // without ORDER BY, rows come out as the window sorted them
		}
	}
	out, err := p.project(ev, envs)
	if err != nil {
		return nil, err
	}
	// Sorting first makes DISTINCT ON keep the first row of each group in
	// the ORDER BY's order, as PostgreSQL does.
	if len(p.sort) > 0 {
		sortRows(out, p.sort)
	}
	if p.distinct {
		out = distinctRows(out, p.distinctKey())
	}
	return p.finish(ev, out, outer)
}

// finish applies LIMIT and OFFSET to sorted rows and drops their hidden
// columns.
func (p *selectPlan) finish(ev *evaluator, out [][]Value, outer *env) ([][]Value, error) {
	out, err := applyLimit(ev, out, p.limit, p.offset, p.ties(), outer)
	if err != nil {
		return nil, err
	}
	for i, r := range out {
		out[i] = r[:p.nvisible]
	}
	return out, nil
}

// sortsForLimit reports whether the select only filters, projects, sorts
// and limits, so that topN can keep LIMIT rows instead of the input.
func (p *selectPlan) sortsForLimit() bool {
	return !p.grouped && len(p.wins) == 0 && len(p.srfs) == 0 && !p.distinct && len(p.sort) > 0 &&
		p.limit != nil && !p.withTies
}

// inputEnvs reads the whole input WHERE accepts, each row counted against
// maxTicks (they are held).
func (p *selectPlan) inputEnvs(ev *evaluator, outer *env) ([]*env, error) {
	src, err := p.input(ev, outer)
	if err != nil {
		return nil, err
	}
	defer src.close()
	var envs []*env
	for {
		r, err := src.next()
		if err != nil {
			return nil, err
		}
		if r == nil {
			return envs, nil
		}
		if err := ev.check(); err != nil {
			return nil, err
		}
		e := &env{row: r, outer: outer}
		if p.where != nil {
			v, err := p.where.fn(ev, e)
			if err != nil {
				return nil, err
			}
			if !v.truthy() {
				continue
			}
		}
		envs = append(envs, e)
	}
}

// streams reports whether the select can compute its rows one at a time,
// in the order its FROM clause yields them.
func (p *selectPlan) streams() bool {
	return !p.grouped && len(p.wins) == 0 && len(p.srfs) == 0 && !p.distinct && len(p.sort) == 0
}

// scanLimit is how many rows a streaming select over a table scan reads
// for LIMIT limit OFFSET offset (limits): all of them (-1) when WHERE
// may reject rows.
func (p *selectPlan) scanLimit(limit, offset int64) int64 {
	if limit >= 0 && (p.where == nil || p.whereConst) && offset <= 1<<62 && limit <= 1<<62 {
		return limit + offset
	}
	return -1
}

// explainScanLimit is the scanLimit open would give p's table scan, or -1
// when p does not stream its rows from one.
func (p *selectPlan) explainScanLimit(ev *evaluator) (int64, error) {
	if _, ok := p.from.(*tableScanPlan); !ok {
		return -1, nil
	}
	limit, offset, err := p.limits(ev, nil)
	if err != nil {
		return 0, err
	}
	if p.sortOnly() && (limit < 0 || limit > 1<<20 || offset > 1<<20) || !p.streams() {
		return -1, nil
	}
	return p.scanLimit(limit, offset), nil
}

// limits evaluates LIMIT and OFFSET as applyLimit applies them: limit < 0
// means none.
func (p *selectPlan) limits(ev *evaluator, outer *env) (limit, offset int64, err error) {
	e := &env{outer: outer}
	limit = -1
	if p.offset != nil {
		v, err := p.offset.fn(ev, e)
		if err != nil {
			return 0, 0, err
		}
		if n, ok := v.asInt(); ok && n > 0 {
			offset = n
		}
	}
	if p.limit != nil {
		v, err := p.limit.fn(ev, e)
		if err != nil {
			return 0, 0, err
		}
		if n, ok := v.asInt(); ok && !v.isNull() && n >= 0 {
			limit = n
		}
	}
	return limit, offset, nil
}

// skipsInput reports whether the result is empty whatever the FROM clause
// holds: LIMIT 0, or a WHERE that is false without reading a row (then
// grouping still sees no rows: count(*) is 0).
func (p *selectPlan) skipsInput(ev *evaluator, outer *env) (bool, error) {
	if p.limit != nil {
		if limit, _, err := p.limits(ev, outer); err != nil || limit == 0 {
			return err == nil, err
		}
	}
	if p.where != nil && p.whereConst {
		v, err := p.where.fn(ev, &env{outer: outer})
		if err != nil || !v.truthy() {
			return err == nil, err
		}
	}
	return false, nil
}

// open starts the select as a row stream. When it streams, rows are
// filtered, projected and counted against OFFSET and LIMIT one at a time,
// and a Shale table in FROM is read only as far as needed: with no WHERE
// (or a constant true one) the scan itself is limited to LIMIT + OFFSET
// rows. top marks the statement's own result, whose rows are not counted
// against maxTicks (they are not held).
func (p *selectPlan) open(ev *evaluator, outer *env, top bool) (rowIter, error) {
	if p.sortOnly() && outer == nil {
		limit, offset, err := p.limits(ev, outer)
		if err != nil {
			return nil, err
		}
		if limit < 0 || limit > 1<<20 || offset > 1<<20 { // else run keeps the top rows (topN)
			return p.openSorted(ev, outer, limit, offset)
		}
	}
	if !p.streams() {
		rows, err := p.run(ev, outer)
		if err != nil {
			return nil, err
		}
		return &sliceIter{rows: rows}, nil
	}
	skip, err := p.skipsInput(ev, outer)
	if err != nil || skip {
		return &sliceIter{}, err
	}
	limit, offset, err := p.limits(ev, outer)
	if err != nil {
		return nil, err
	}
	it := &selectIter{p: p, ev: ev, outer: outer, limit: limit, offset: offset, top: top}
	if ts, ok := p.from.(*tableScanPlan); ok {
		if it.src, err = ts.open(ev, p.scanLimit(limit, offset)); err != nil {
			return nil, err
		}
		return it, nil
	}
	if outer == nil {
		if it.src, err = openPlan(ev, p.from, nil); err != nil {
			return nil, err
		}
		return it, nil
	}
	rows, err := p.from.run(ev, outer)
	if err != nil {
		return nil, err
	}
	it.src = &sliceIter{rows: rows}
	return it, nil
}

// selectIter is a streaming select's rows.
type selectIter struct {
	p              *selectPlan
	ev             *evaluator
	outer          *env
	src            rowIter
	limit, offset  int64
	skipped, rowsN int64
	seen           int
	top            bool
	// reuse: the consumer is done with a row before it asks for the next
	// (reuseRows), so each row reuses the last one's slice and env.
	reuse bool
	row   []Value
	env   env
}

// reuseRows tells a row stream that its consumer is done with each row
// before it asks for the next, as the statement's result (Rows) and
// EXPLAIN ANALYZE are: a streaming select, and the select or table scan it
// reads (which it is done with the same way), then reuse one row's memory
// for the next instead of allocating each.
func reuseRows(it rowIter) {
	switch x := it.(type) {
	case *selectIter:
		x.reuse = true
		reuseRows(x.src)
	case *scanIter:
		x.reuse = true
	}
}

func (it *selectIter) next() ([]Value, error) {
	p, ev := it.p, it.ev
	for {
		if it.limit >= 0 && it.rowsN >= it.limit {
			it.close()
			return nil, nil
		}
		r, err := it.src.next()
		if err != nil || r == nil {
			return nil, err
		}
		it.seen++
		if it.top {
			err = ev.pulse(it.seen)
		} else {
			err = ev.check()
		}
		if err != nil {
			return nil, err
		}
		var e *env
		if it.reuse {
			it.env = env{row: r, outer: it.outer}
			e = &it.env
		} else {
			e = &env{row: r, outer: it.outer}
		}
		if p.where != nil && !p.whereConst {
			v, err := p.where.fn(ev, e)
			if err != nil {
				return nil, err
			}
			if !v.truthy() {
				continue
			}
		}
		if it.skipped < it.offset {
			it.skipped++
			continue
		}
		row := it.row
		if row == nil {
			row = make([]Value, p.nvisible)
		}
		if it.reuse {
			it.row = row
		}
		for j := range row {
			v, err := p.targets[j].fn(ev, e)
			if err != nil {
				return nil, err
			}
			row[j] = v
		}
		it.rowsN++
		return row, nil
	}
}

func (it *selectIter) close() {
	if it.src != nil {
		it.src.close()
	}
}

func (p *selectPlan) distinctKey() []int {
	if len(p.distinctOn) > 0 {
		return p.distinctOn
	}
	idx := make([]int, p.nvisible)
	for i := range idx {
		idx[i] = i
	}
	return idx
}

// project evaluates the select list for each env. With set-returning
// functions, each input row yields as many rows as the longest function
// result; shorter results are padded with NULL (PostgreSQL 10+ semantics).
func (p *selectPlan) project(ev *evaluator, envs []*env) ([][]Value, error) {
	out := make([][]Value, 0, len(envs))
	for _, e := range envs {
		if err := ev.check(); err != nil {
			return nil, err
		}
		n, sets := 1, [][]Value(nil)
		if len(p.srfs) > 0 {
			var err error
			if n, sets, err = evalSRFs(ev, p.srfs, e); err != nil {
				return nil, err
			}
		}
		for i := 0; i < n; i++ {
			if err := ev.check(); err != nil {
				return nil, err
			}
			if sets != nil {
				e.srf = make([]Value, len(sets))
				for j, s := range sets {
					if i < len(s) {
						e.srf[j] = s[i]
					}
				}
			}
			row, err := p.projectRow(ev, e)
			if err != nil {
				return nil, err
			}
			out = append(out, row)
		}
	}
	return out, nil
}

// projectRow evaluates the select list, hidden sort columns included, for
// one env.
func (p *selectPlan) projectRow(ev *evaluator, e *env) ([]Value, error) {
	row := make([]Value, len(p.targets))
	for j, t := range p.targets {
		v, err := t.fn(ev, e)
		if err != nil {
			return nil, err
		}
		row[j] = v
	}
	return row, nil
}

func distinctRows(rows [][]Value, idx []int) [][]Value {
	seen := map[string]bool{}
	out := rows[:0]
	vals := make([]Value, len(idx))
	for _, r := range rows {
		for i, j := range idx {
			vals[i] = r[j]
		}
		k := key(vals)
		if !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
	}
	return out
}

func sortRows(rows [][]Value, keys []sortKey) {
	sort.SliceStable(rows, func(a, b int) bool { return lessRow(rows[a], rows[b], keys) })
}

// lessRow orders two rows by sort keys (NULLs last ascending, first
// descending, unless NULLS FIRST/LAST says otherwise).
func lessRow(x, y []Value, keys []sortKey) bool {
	for _, k := range keys {
		a, b := x[k.idx], y[k.idx]
		var c int
		switch {
		case a.isNull() && b.isNull():
			c = 0
		case a.isNull() || b.isNull():
			c = 1
			if a.isNull() == k.nullsFirst {
				c = -1
			}
		default:
			c = compareAs(a, b, k.typ)
			if k.desc {
				c = -c
			}
		}
		if c != 0 {
			return c < 0
		}
	}
	return false
}

// ties is the sort keys of a FETCH … WITH TIES, nil otherwise.
func (p *selectPlan) ties() []sortKey {
	if p.withTies {
		return p.sort
	}
	return nil
}

// applyLimit applies OFFSET and LIMIT to sorted rows. With ties (the sort
// keys of FETCH FIRST … WITH TIES), the rows that sort equal to the last
// one kept are kept too.
func applyLimit(ev *evaluator, rows [][]Value, limit, offset *cexpr, ties []sortKey, outer *env) ([][]Value, error) {
	e := &env{outer: outer}
	if offset != nil {
		v, err := offset.fn(ev, e)
		if err != nil {
			return nil, err
		}
		if n, ok := v.asInt(); ok && n > 0 {
			if n > int64(len(rows)) {
				n = int64(len(rows))
			}
			rows = rows[n:]
		}
	}
	if limit != nil {
		v, err := limit.fn(ev, e)
		if err != nil {
			return nil, err
		}
		if n, ok := v.asInt(); ok && !v.isNull() && n >= 0 && n < int64(len(rows)) {
			if ties != nil && n > 0 {
				for n < int64(len(rows)) && !lessRow(rows[n-1], rows[n], ties) {
					n++
				}
			}
			rows = rows[:n]
		}
	}
	return rows, nil
}
