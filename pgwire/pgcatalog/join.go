package pgcatalog

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// conj is one conjunct of a WHERE or ON condition, with the columns (of
// its query level) it references. An equality whose sides reference
// disjoint inputs can drive a hash join.
type conj struct {
	e          *cexpr
	refs       map[int]bool
	eqL, eqR   *cexpr
	refL, refR map[int]bool
}

// splitAnd flattens nested ANDs.
func splitAnd(n *pg_query.Node) []*pg_query.Node {
	if be := n.GetBoolExpr(); be != nil && be.Boolop == pg_query.BoolExprType_AND_EXPR {
		var out []*pg_query.Node
		for _, a := range be.Args {
			out = append(out, splitAnd(a)...)
		}
		return out
	}
	return []*pg_query.Node{n}
}

// bindConjuncts binds a condition as conjuncts over sc's columns.
func (b *binder) bindConjuncts(n *pg_query.Node, sc *scope, clause string) ([]*conj, error) {
	var out []*conj
	for _, part := range splitAnd(n) {
		c := &conj{}
		var err error
		if c.e, c.refs, err = b.bindTracked(sc, func() (*cexpr, error) { return b.bindBool(part, sc, clause) }); err != nil {
			return nil, err
		}
		if a := part.GetAExpr(); a != nil && a.Kind == pg_query.A_Expr_Kind_AEXPR_OP && lastName(a.Name) == "=" {
			l, lr, err := b.bindTracked(sc, func() (*cexpr, error) { return b.bindExpr(a.Lexpr, sc) })
			if err != nil {
				return nil, err
			}
			r, rr, err := b.bindTracked(sc, func() (*cexpr, error) { return b.bindExpr(a.Rexpr, sc) })
			if err != nil {
				return nil, err
			}
			if len(lr) > 0 && len(rr) > 0 && kindOf(l.typ) == kindOf(r.typ) && !l.untyped && !r.untyped {
				c.eqL, c.eqR, c.refL, c.refR = l, r, lr, rr
			}
		}
		out = append(out, c)
	}
	return out, nil
}

func (b *binder) bindTracked(sc *scope, bind func() (*cexpr, error)) (*cexpr, map[int]bool, error) {
	refs := map[int]bool{}
	prev := sc.refHook
	sc.refHook = func(i int) { refs[i] = true }
	e, err := bind()
	sc.refHook = prev
	return e, refs, err
}

func within(refs map[int]bool, lo, hi int) bool {
	for i := range refs {
		if i < lo || i >= hi {
			return false
		}
	}
	return true
}

// joinRows joins left and right rows: merge builds the candidate row,
// conds must all hold, and eq (optional) is an equality whose left side
// reads only left columns and right side only right columns, used to hash
// the right rows. Unmatched rows are kept per kind (LEFT/RIGHT/FULL).
func joinRows(ev *evaluator, outer *env, left, right [][]Value, merge func(l, r []Value) []Value,
	conds []*conj, eq *conj, eqSwap bool, kind joinKind) ([][]Value, error) {
	j, err := newJoiner(ev, outer, right, merge, conds, eq, eqSwap, kind)
	if err != nil {
		return nil, err
	}
	var out [][]Value
	for _, l := range left {
		if out, err = j.probe(l, out); err != nil {
			return nil, err
		}
	}
	return j.unmatchedRight(out), nil
}

// joiner joins left rows, one at a time, to the right rows it holds
// (hashed on eq's right side when there is one), so that the left side
// can stream (joinIter).
type joiner struct {
	ev           *evaluator
	outer        *env
	right        [][]Value
	merge        func(l, r []Value) []Value
	conds        []*conj
	kind         joinKind
	index        map[string][]int // eq's right-side value → right rows; nil without eq
	lkey         *cexpr
	all          []int
	rightMatched []bool
	probes       int
}

func newJoiner(ev *evaluator, outer *env, right [][]Value, merge func(l, r []Value) []Value,
	conds []*conj, eq *conj, eqSwap bool, kind joinKind) (*joiner, error) {
	j := &joiner{ev: ev, outer: outer, right: right, merge: merge, conds: conds, kind: kind,
		rightMatched: make([]bool, len(right))}
	if eq == nil {
		j.all = allRows(len(right))
		return j, nil
	}
	lkey, rkey := eq.eqL, eq.eqR
	if eqSwap {
		lkey, rkey = rkey, lkey
	}
	j.lkey, j.index = lkey, map[string][]int{}
	for i, r := range right {
		if err := ev.check(); err != nil {
			return nil, err
		}
		v, err := rkey.fn(ev, &env{row: merge(nil, r), outer: outer})
		if err != nil {
			return nil, err
		}
		if !v.isNull() {
			k := key([]Value{v})
			j.index[k] = append(j.index[k], i)
		}
	}
	return j, nil
}

// probe appends to out the joined rows of left row l: its matches, or for
// a LEFT or FULL join without one, l with NULLs. A nested loop counts
// each candidate against maxTicks (a cross product is the runaway case);
// a hash probe, whose rows stream, only watches for cancellation.
func (j *joiner) probe(l []Value, out [][]Value) ([][]Value, error) {
	candidates := j.all
	if j.index != nil {
		v, err := j.lkey.fn(j.ev, &env{row: j.merge(l, nil), outer: j.outer})
		if err != nil {
			return nil, err
		}
		candidates = nil
		if !v.isNull() {
			candidates = j.index[key([]Value{v})]
		}
	}
	matched := false
	for _, i := range candidates {
		j.probes++
		var err error
		if j.index != nil {
			err = j.ev.pulse(j.probes)
		} else {
			err = j.ev.check()
		}
		if err != nil {
			return nil, err
		}
		row := j.merge(l, j.right[i])
		ok, err := holds(j.ev, j.outer, row, j.conds)
		if err != nil {
			return nil, err
		}
		if ok {
			matched, j.rightMatched[i] = true, true
			out = append(out, row)
		}
	}
	if !matched && (j.kind == joinLeft || j.kind == joinFull) {
		out = append(out, j.merge(l, nil))
	}
	return out, nil
}

// unmatchedRight appends, for a RIGHT or FULL join, the right rows no left
// row matched, with NULLs for the left columns.
func (j *joiner) unmatchedRight(out [][]Value) [][]Value {
	if j.kind == joinRight || j.kind == joinFull {
		for i, r := range j.right {
			if !j.rightMatched[i] {
				out = append(out, j.merge(nil, r))
			}
		}
	}
	return out
}

// joinIter streams a join: left rows as they come, each joined by probe.
type joinIter struct {
	j    *joiner
	left rowIter
	buf  [][]Value
	at   int
	done bool
}

func (it *joinIter) next() ([]Value, error) {
	for {
		if it.at < len(it.buf) {
			r := it.buf[it.at]
			it.at++
			return r, nil
		}
		if it.done {
			return nil, nil
		}
		it.buf, it.at = it.buf[:0], 0
		l, err := it.left.next()
		if err != nil {
			return nil, err
		}
		if l == nil {
			it.done = true
			it.buf = it.j.unmatchedRight(it.buf)
			continue
		}
		if it.buf, err = it.j.probe(l, it.buf); err != nil {
			return nil, err
		}
	}
}

func (it *joinIter) close() { it.left.close() }

func allRows(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func holds(ev *evaluator, outer *env, row []Value, conds []*conj) (bool, error) {
	e := &env{row: row, outer: outer}
	for _, c := range conds {
		v, err := c.e.fn(ev, e)
		if err != nil {
			return false, err
		}
		if !v.truthy() {
			return false, nil
		}
	}
	return true, nil
}
