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
	var index map[string][]int
	lkey, rkey := (*cexpr)(nil), (*cexpr)(nil)
	if eq != nil {
		lkey, rkey = eq.eqL, eq.eqR
		if eqSwap {
			lkey, rkey = rkey, lkey
		}
		index = map[string][]int{}
		for j, r := range right {
			if err := ev.check(); err != nil {
				return nil, err
			}
			v, err := rkey.fn(ev, &env{row: merge(nil, r), outer: outer})
			if err != nil {
				return nil, err
			}
			if !v.isNull() {
				k := key([]Value{v})
				index[k] = append(index[k], j)
			}
		}
	}
	var out [][]Value
	rightMatched := make([]bool, len(right))
	all := allRows(len(right))
	for _, l := range left {
		candidates := all
		if index != nil {
			v, err := lkey.fn(ev, &env{row: merge(l, nil), outer: outer})
			if err != nil {
				return nil, err
			}
			candidates = nil
			if !v.isNull() {
				candidates = index[key([]Value{v})]
			}
		}
		matched := false
		for _, j := range candidates {
			if err := ev.check(); err != nil {
				return nil, err
			}
			row := merge(l, right[j])
			ok, err := holds(ev, outer, row, conds)
			if err != nil {
				return nil, err
			}
			if ok {
				matched, rightMatched[j] = true, true
				out = append(out, row)
			}
		}
		if !matched && (kind == joinLeft || kind == joinFull) {
			out = append(out, merge(l, nil))
		}
	}
	if kind == joinRight || kind == joinFull {
		for j, r := range right {
			if !rightMatched[j] {
				out = append(out, merge(nil, r))
			}
		}
	}
	return out, nil
}

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
