package pgcatalog

import (
	"container/heap"
	"sort"
)

// Streaming a select's input: a grouped select (without grouping sets)
// folds each row into its group's aggregates as the row is read
// (groupStream), a select that sorts and keeps LIMIT rows keeps only
// that many while it reads (topN), and SELECT DISTINCT keeps one row per
// distinct value (distinctStream). Either reads a Shale table as it scans
// it, so memory follows the groups or the limit, not the table: count(*)
// over a million-row table holds one counter.

// input starts reading the select's FROM clause (openPlan: a Shale table
// as it is scanned, a subquery or a join as it yields its rows); nothing when the
// select needs no input (LIMIT 0, WHERE false). A subquery (outer set),
// which may run once per outer row, reads its table through the
// evaluator's cache instead: scanned once, held.
func (p *selectPlan) input(ev *evaluator, outer *env) (rowIter, error) {
	skip, err := p.skipsInput(ev, outer)
	if err != nil || skip {
		return &sliceIter{}, err
	}
	if outer == nil {
		return openPlan(ev, p.from, nil)
	}
	rows, err := p.from.run(ev, outer)
	if err != nil {
		return nil, err
	}
	return &sliceIter{rows: rows}, nil
}

// filtered returns the next input row WHERE accepts, as an env; nil at the
// end. n counts the rows read, for cancellation.
func (p *selectPlan) filtered(ev *evaluator, src rowIter, outer *env, n *int) (*env, error) {
	for {
		r, err := src.next()
		if err != nil || r == nil {
			return nil, err
		}
		*n++
		if err := ev.pulse(*n); err != nil {
			return nil, err
		}
		e := &env{row: r, outer: outer}
		if p.where == nil {
			return e, nil
		}
		v, err := p.where.fn(ev, e)
		if err != nil {
			return nil, err
		}
		if v.truthy() {
			return e, nil
		}
	}
}

// groupStream groups the input by the GROUP BY keys (in first-seen order),
// folding each row into its group's aggregates, and keeps the groups
// HAVING accepts. A group's env keeps its first row, for the key columns.
// Without GROUP BY there is exactly one group, even over no rows.
func (p *selectPlan) groupStream(ev *evaluator, outer *env) ([]*env, error) {
	src, err := p.input(ev, outer)
	if err != nil {
		return nil, err
	}
	defer src.close()
	type group struct {
		env  *env
		accs []*aggAcc
	}
	newGroup := func(row []Value) *group {
		g := &group{env: &env{outer: outer, row: row, aggs: make([]Value, len(p.aggs))}, accs: make([]*aggAcc, len(p.aggs))}
		for i, s := range p.aggs {
			g.accs[i] = s.newAcc()
		}
		return g
	}
	groups := map[string]*group{}
	var order []*group
	var keyVals []Value
	n := 0
	for {
		e, err := p.filtered(ev, src, outer, &n)
		if err != nil {
			return nil, err
		}
		if e == nil {
			break
		}
		keyVals = keyVals[:0]
		for _, k := range p.groupKeys {
			v, err := k.fn(ev, e)
			if err != nil {
				return nil, err
			}
			keyVals = append(keyVals, v)
		}
		k := key(keyVals)
		g := groups[k]
		if g == nil {
			if len(groups) > 0 && len(groups)%256 == 0 {
				if err := ev.check(); err != nil { // groups are held: they count
					return nil, err
				}
			}
			g = newGroup(e.row)
			groups[k] = g
			order = append(order, g)
		}
		for _, a := range g.accs {
			if err := a.add(ev, e); err != nil {
				return nil, err
			}
		}
	}
	if len(p.groupKeys) == 0 && len(order) == 0 {
		order = append(order, newGroup(nil))
	}
	out := make([]*env, 0, len(order))
	for _, g := range order {
		for i, a := range g.accs {
			v, err := a.result(ev)
			if err != nil {
				return nil, err
			}
			g.env.aggs[i] = v
		}
		if p.having != nil {
			v, err := p.having.fn(ev, g.env)
			if err != nil {
				return nil, err
			}
			if !v.truthy() {
				continue
			}
		}
		out = append(out, g.env)
	}
	return out, nil
}

// topN returns the first k rows of the input in ORDER BY order, projected
// (hidden sort columns included), keeping no more than k while it reads.
// Rows that sort equal keep their input order, as the stable sort of the
// whole input would.
func (p *selectPlan) topN(ev *evaluator, outer *env, k int64) ([][]Value, error) {
	if k <= 0 {
		return nil, nil
	}
	h := &rowHeap{keys: p.sort}
	err := p.eachProjected(ev, outer, func(seq int, row []Value) error {
		item := heapRow{row: row, seq: seq}
		switch {
		case int64(h.Len()) < k:
			heap.Push(h, item)
		case h.less(item, h.rows[0]): // better than the worst kept
			h.rows[0] = item
			heap.Fix(h, 0)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(h.rows, func(i, j int) bool { return h.less(h.rows[i], h.rows[j]) })
	out := make([][]Value, len(h.rows))
	for i, r := range h.rows {
		out[i] = r.row
	}
	return out, nil
}

// distinctStream returns the rows of a SELECT DISTINCT [ON], projected and
// sorted, keeping one row per distinct value while it reads: for DISTINCT
// ON the first in ORDER BY order (then input order), as sorting the whole
// input and keeping each value's first row would.
func (p *selectPlan) distinctStream(ev *evaluator, outer *env) ([][]Value, error) {
	idx := p.distinctKey()
	kept := map[string]int{} // a value's row in out
	var out [][]Value
	vals := make([]Value, len(idx))
	err := p.eachProjected(ev, outer, func(_ int, row []Value) error {
		for i, j := range idx {
			vals[i] = row[j]
		}
		k := key(vals)
		at, seen := kept[k]
		switch {
		case !seen:
			if len(out)%256 == 255 {
				if err := ev.check(); err != nil { // distinct rows are held: they count
					return err
				}
			}
			kept[k] = len(out)
			out = append(out, row)
		case len(p.distinctOn) > 0 && lessRow(row, out[at], p.sort):
			out[at] = row
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(p.sort) > 0 {
		sortRows(out, p.sort)
	}
	return out, nil
}

// eachProjected calls fn with each input row WHERE accepts, projected
// (hidden sort columns included), and its place among them.
func (p *selectPlan) eachProjected(ev *evaluator, outer *env, fn func(seq int, row []Value) error) error {
	src, err := p.input(ev, outer)
	if err != nil {
		return err
	}
	defer src.close()
	n := 0
	for seq := 0; ; seq++ {
		e, err := p.filtered(ev, src, outer, &n)
		if err != nil || e == nil {
			return err
		}
		row, err := p.projectRow(ev, e)
		if err != nil {
			return err
		}
		if err := fn(seq, row); err != nil {
			return err
		}
	}
}

// heapRow is a projected row and its place in the input.
type heapRow struct {
	row []Value
	seq int
}

// rowHeap is a max-heap of rows by ORDER BY (then input order): its root
// is the worst row kept.
type rowHeap struct {
	keys []sortKey
	rows []heapRow
}

func (h *rowHeap) less(a, b heapRow) bool {
	if lessRow(a.row, b.row, h.keys) {
		return true
	}
	if lessRow(b.row, a.row, h.keys) {
		return false
	}
	return a.seq < b.seq
}

func (h *rowHeap) Len() int           { return len(h.rows) }
func (h *rowHeap) Less(i, j int) bool { return h.less(h.rows[j], h.rows[i]) }
func (h *rowHeap) Swap(i, j int)      { h.rows[i], h.rows[j] = h.rows[j], h.rows[i] }
func (h *rowHeap) Push(x any)         { h.rows = append(h.rows, x.(heapRow)) }
func (h *rowHeap) Pop() any {
	x := h.rows[len(h.rows)-1]
	h.rows = h.rows[:len(h.rows)-1]
	return x
}
