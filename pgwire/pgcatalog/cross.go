package pgcatalog

import "sort"

// crossPlan is a comma-separated FROM list with the WHERE conjuncts. At run
// time it filters each item by its own conjuncts, then joins items
// greedily: next comes the smallest item linked to those already joined by
// an equality (hash join), else the smallest linked by any conjunct, else
// the smallest (cross product). Rows keep the FROM order's column layout
// throughout, so bound column indexes stay valid.
type crossPlan struct {
	items []plan
	offs  []int
	cols  []scopeCol
	conds []*conj
}

func (p *crossPlan) columns() []scopeCol { return p.cols }

func (p *crossPlan) itemOf(col int) int {
	return sort.Search(len(p.offs), func(i int) bool { return p.offs[i] > col }) - 1
}

func (p *crossPlan) itemsOf(refs map[int]bool) map[int]bool {
	out := map[int]bool{}
	for c := range refs {
		out[p.itemOf(c)] = true
	}
	return out
}

func (p *crossPlan) run(ev *evaluator, outer *env) ([][]Value, error) {
	width := len(p.cols)
	sets := make([][][]Value, len(p.items))
	for i, it := range p.items {
		rows, err := it.run(ev, outer)
		if err != nil {
			return nil, err
		}
		wide := make([][]Value, len(rows))
		for j, r := range rows {
			wide[j] = make([]Value, width)
			copy(wide[j][p.offs[i]:], r)
		}
		sets[i] = wide
	}
	applied := make([]bool, len(p.conds))
	condItems := make([]map[int]bool, len(p.conds))
	for ci, c := range p.conds {
		condItems[ci] = p.itemsOf(c.refs)
		if len(condItems[ci]) > 1 {
			continue
		}
		target := 0
		for it := range condItems[ci] {
			target = it
		}
		var kept [][]Value
		for _, r := range sets[target] {
			if err := ev.check(); err != nil {
				return nil, err
			}
			ok, err := holds(ev, outer, r, []*conj{c})
			if err != nil {
				return nil, err
			}
			if ok {
				kept = append(kept, r)
			}
		}
		sets[target], applied[ci] = kept, true
	}
	joined := map[int]bool{}
	first := 0
	for i := range sets {
		if len(sets[i]) < len(sets[first]) {
			first = i
		}
	}
	joined[first] = true
	cur := sets[first]
	for len(joined) < len(p.items) {
		next, eq, eqSwap := p.pickNext(sets, joined, condItems, applied)
		joined[next] = true
		var conds []*conj
		for ci, c := range p.conds {
			if !applied[ci] && subset(condItems[ci], joined) {
				conds, applied[ci] = append(conds, c), true
			}
		}
		lo, hi := p.offs[next], p.offs[next]+len(p.items[next].columns())
		merge := func(l, r []Value) []Value {
			row := make([]Value, width)
			copy(row, l)
			if r != nil {
				copy(row[lo:hi], r[lo:hi])
			}
			return row
		}
		var err error
		if cur, err = joinRows(ev, outer, cur, sets[next], merge, conds, eq, eqSwap, joinInner); err != nil {
			return nil, err
		}
	}
	return cur, nil
}

// pickNext chooses the next item to join and, when it has one, the
// equality to hash on.
func (p *crossPlan) pickNext(sets [][][]Value, joined map[int]bool, condItems []map[int]bool, applied []bool) (int, *conj, bool) {
	best, bestEq, bestSwap, bestRank := -1, (*conj)(nil), false, 3
	for i := range p.items {
		if joined[i] {
			continue
		}
		rank, eq, swap := 2, (*conj)(nil), false
		for ci, c := range p.conds {
			if applied[ci] || !condItems[ci][i] {
				continue
			}
			others := true
			for it := range condItems[ci] {
				if it != i && !joined[it] {
					others = false
				}
			}
			if !others {
				continue
			}
			if rank > 1 {
				rank = 1
			}
			if c.eqL != nil {
				li, ri := p.itemsOf(c.refL), p.itemsOf(c.refR)
				switch {
				case subset(li, joined) && len(ri) == 1 && ri[i]:
					rank, eq, swap = 0, c, false
				case subset(ri, joined) && len(li) == 1 && li[i]:
					rank, eq, swap = 0, c, true
				}
			}
		}
		if rank < bestRank || rank == bestRank && len(sets[i]) < len(sets[best]) {
			best, bestEq, bestSwap, bestRank = i, eq, swap, rank
		}
	}
	return best, bestEq, bestSwap
}

func subset(a, b map[int]bool) bool {
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}
