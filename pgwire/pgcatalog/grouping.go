package pgcatalog

import (
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// GROUP BY with grouping sets: GROUPING SETS, ROLLUP and CUBE expand into
// sets of the clause's distinct key expressions, and a plain key belongs
// to every set (items multiply, as in PostgreSQL). Rows are grouped once
// per set. In a group of a set that leaves a key out, the key reads as
// NULL: the columns only that key references are NULL in the group's row
// (so upper(k) and coalesce(k, 'all') read it as PostgreSQL's do), and
// GROUPING(k, ...) has the key's bit set.

// bindGroupBy binds the GROUP BY clause into p.groupKeys and, when it
// holds grouping sets, p.groupSets and p.groupRefs.
func (b *binder) bindGroupBy(clause, targets []*pg_query.Node, sc *scope, p *selectPlan) error {
	hasSets := false
	for _, g := range clause {
		if g.GetGroupingSet() != nil {
			hasSets = true
		}
	}
	addKey := func(n *pg_query.Node) (int, error) {
		if c := n.GetAConst(); c != nil && c.GetIval() != nil {
			k := int(c.GetIval().Ival)
			if k < 1 || k > len(targets) {
				return 0, errorf("42P10", c.Location, "GROUP BY position %d is not in select list", k)
			}
			n = targets[k-1].GetResTarget().Val
		} else if t := outputNamed(n, targets, sc); t != nil {
			n = t
		}
		id := nodeKey(n)
		if i := slices.Index(sc.groupKeys, id); i >= 0 {
			return i, nil
		}
		e, refs, err := b.bindTracked(sc, func() (*cexpr, error) { return b.bindExpr(n, sc) })
		if err != nil {
			return 0, err
		}
		cols := make([]int, 0, len(refs))
		for c := range refs {
			cols = append(cols, c)
		}
		p.groupKeys, p.groupRefs = append(p.groupKeys, e), append(p.groupRefs, cols)
		sc.groupKeys, sc.groupNodes = append(sc.groupKeys, id), append(sc.groupNodes, n)
		return len(p.groupKeys) - 1, nil
	}
	if !hasSets {
		for _, g := range clause {
			if _, ok, err := rowKeys(g, addKey); ok || err != nil {
				if err != nil {
					return err
				}
				continue
			}
			if _, err := addKey(g); err != nil {
				return err
			}
		}
		return nil
	}
	sets := [][]int{{}}
	for _, g := range clause {
		item, err := expandGrouping(g, addKey)
		if err != nil {
			return err
		}
		var product [][]int
		for _, s := range sets {
			for _, t := range item {
				product = append(product, union(s, t))
			}
		}
		sets = product
	}
	p.groupSets = sets
	return nil
}

// expandGrouping is the list of key sets one GROUP BY item stands for.
func expandGrouping(n *pg_query.Node, addKey func(*pg_query.Node) (int, error)) ([][]int, error) {
	gs := n.GetGroupingSet()
	if gs == nil {
		if ks, ok, err := rowKeys(n, addKey); ok {
			return [][]int{ks}, err
		}
		k, err := addKey(n)
		return [][]int{{k}}, err
	}
	// element is one item of ROLLUP or CUBE: an expression or a
	// parenthesized list of them.
	element := func(m *pg_query.Node) ([]int, error) {
		if ks, ok, err := rowKeys(m, addKey); ok {
			return ks, err
		}
		if inner := m.GetGroupingSet(); inner != nil && inner.Kind == pg_query.GroupingSetKind_GROUPING_SET_SIMPLE {
			var ks []int
			for _, c := range inner.Content {
				k, err := addKey(c)
				if err != nil {
					return nil, err
				}
				ks = append(ks, k)
			}
			return ks, nil
		}
		k, err := addKey(m)
		return []int{k}, err
	}
	switch gs.Kind {
	case pg_query.GroupingSetKind_GROUPING_SET_EMPTY:
		return [][]int{{}}, nil
	case pg_query.GroupingSetKind_GROUPING_SET_SIMPLE:
		ks, err := element(n)
		return [][]int{ks}, err
	case pg_query.GroupingSetKind_GROUPING_SET_ROLLUP, pg_query.GroupingSetKind_GROUPING_SET_CUBE:
		var elems [][]int
		for _, c := range gs.Content {
			ks, err := element(c)
			if err != nil {
				return nil, err
			}
			elems = append(elems, ks)
		}
		if len(elems) > 12 {
			return nil, errorf("54001", noPos, "too many grouping sets present (maximum 4096)")
		}
		var out [][]int
		if gs.Kind == pg_query.GroupingSetKind_GROUPING_SET_ROLLUP {
			for j := len(elems); j >= 0; j-- {
				var s []int
				for _, e := range elems[:j] {
					s = union(s, e)
				}
				out = append(out, s)
			}
			return out, nil
		}
		for mask := 1<<len(elems) - 1; mask >= 0; mask-- {
			var s []int
			for i, e := range elems {
				if mask&(1<<i) != 0 {
					s = union(s, e)
				}
			}
			out = append(out, s)
		}
		return out, nil
	}
	var out [][]int // GROUPING SETS: the sets of each of its items
	for _, c := range gs.Content {
		sets, err := expandGrouping(c, addKey)
		if err != nil {
			return nil, err
		}
		out = append(out, sets...)
	}
	return out, nil
}

// rowKeys is the keys of a parenthesized list written as a GROUP BY item
// ((a, b) in GROUPING SETS ((a, b), ())): each of its expressions, as
// PostgreSQL's flatten_grouping_sets reads it (ROW(a, b) stays one key).
func rowKeys(n *pg_query.Node, addKey func(*pg_query.Node) (int, error)) ([]int, bool, error) {
	r := n.GetRowExpr()
	if r == nil || r.RowFormat != pg_query.CoercionForm_COERCE_IMPLICIT_CAST {
		return nil, false, nil
	}
	var ks []int
	for _, a := range r.Args {
		k, err := addKey(a)
		if err != nil {
			return nil, true, err
		}
		ks = union(ks, []int{k})
	}
	return ks, true, nil
}

// union is a and b's keys, a's first.
func union(a, b []int) []int {
	out := slices.Clone(a)
	for _, k := range b {
		if !slices.Contains(out, k) {
			out = append(out, k)
		}
	}
	return out
}

// nodeKey identifies an expression's parse tree regardless of where it was
// written, so that a key written twice (GROUP BY ROLLUP(a), GROUPING(a))
// is one key.
func nodeKey(n *pg_query.Node) string {
	c := proto.Clone(n)
	clearLocations(c.ProtoReflect())
	b, _ := proto.MarshalOptions{Deterministic: true}.Marshal(c)
	return string(b)
}

// clearLocations zeroes every location field of m and the messages below
// it, so that equal expressions written at different places compare equal.
func clearLocations(m protoreflect.Message) {
	if fd := m.Descriptor().Fields().ByName("location"); fd != nil {
		m.Clear(fd)
	}
	eachMessage(m, clearLocations)
}

// bindGrouping binds GROUPING(k, ...): a bit per argument, the first the
// highest, set when the group's set leaves that key out.
func (b *binder) bindGrouping(g *pg_query.GroupingFunc, sc *scope) (*cexpr, error) {
	idx := make([]int, len(g.Args))
	for i, a := range g.Args {
		if idx[i] = slices.Index(sc.groupKeys, nodeKey(a)); idx[i] < 0 {
			return nil, errorf(CodeGrouping, location(a), "arguments to GROUPING must be grouping expressions of the associated query level")
		}
	}
	return &cexpr{typ: tInt4, name: "grouping", fn: func(_ *evaluator, e *env) (Value, error) {
		var bits int64
		for _, k := range idx {
			bits <<= 1
			if k < len(e.leftOut) && e.leftOut[k] {
				bits |= 1
			}
		}
		return intV(bits), nil
	}}, nil
}

// groupSetsRun groups envs once per grouping set (groupOnce does each).
func (p *selectPlan) groupSetsRun(ev *evaluator, envs []*env, outer *env) ([]*env, error) {
	var out []*env
	for _, set := range p.groupSets {
		leftOut := make([]bool, len(p.groupKeys))
		nulled := map[int]bool{}
		for k := range p.groupKeys {
			if !slices.Contains(set, k) {
				leftOut[k] = true
				for _, c := range p.groupRefs[k] {
					nulled[c] = true
				}
			}
		}
		for _, k := range set { // a column an included key reads stays
			for _, c := range p.groupRefs[k] {
				delete(nulled, c)
			}
		}
		keys := make([]*cexpr, len(set))
		for i, k := range set {
			keys[i] = p.groupKeys[k]
		}
		groups, err := p.groupOnce(ev, envs, outer, keys, func(g *env) {
			g.leftOut = leftOut
			if len(nulled) > 0 && g.row != nil {
				g.row = slices.Clone(g.row)
				for c := range nulled {
					if c < len(g.row) {
						g.row[c] = null
					}
				}
			}
		})
		if err != nil {
			return nil, err
		}
		out = append(out, groups...)
	}
	return out, nil
}
