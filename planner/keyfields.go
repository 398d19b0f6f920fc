package planner

import (
	"strings"

	"github.com/shale-db/shale/rowkeyschema"
	"github.com/shale-db/shale/sql"
	"github.com/shale-db/shale/sql/types"
)

// KeyFields is the keys of a table with a row-key schema whose leading
// fields equal Eq (per field, a list of alternatives: = or IN) and whose
// next field, when Lo or Hi is set, lies between them (spec §4.9 rule 7,
// §5.4). Its spans are a superset, so the predicates stay in the residual,
// except when every field is pinned (deriveKeyFields).
type KeyFields struct {
	Schema         *rowkeyschema.Schema
	Eq             [][]sql.Expr
	Lo, Hi         sql.Expr
	LoIncl, HiIncl bool
}

func (*KeyFields) keySet() {}

func (k *KeyFields) String() string {
	var parts []string
	for i, alts := range k.Eq {
		s := make([]string, len(alts))
		for j, a := range alts {
			s[j] = a.String()
		}
		if len(s) == 1 {
			parts = append(parts, k.Schema.Fields[i].Name+" = "+s[0])
		} else {
			parts = append(parts, k.Schema.Fields[i].Name+" IN ("+strings.Join(s, ", ")+")")
		}
	}
	if k.Lo != nil || k.Hi != nil {
		r := &KeyRange{Lo: k.Lo, Hi: k.Hi, LoIncl: k.LoIncl, HiIncl: k.HiIncl}
		parts = append(parts, k.Schema.Fields[len(k.Eq)].Name+" ∈ "+r.String())
	}
	return "fields(" + strings.Join(parts, ", ") + ")"
}

// maxKeyPrefixes bounds the cross product of IN lists on leading fields;
// past it the later fields are left to the residual.
const maxKeyPrefixes = 1024

// deriveKeyFields builds the KeyFields of the top-level conjuncts over a
// table whose key field i is row column firstCol+i: equality or a constant
// IN list on a leading run of fields, then a range on the next one. When
// every field is pinned by equality (or IN) the key set is exact: its keys
// are exactly those whose fields equal the values (encodings are canonical,
// so such a key decodes back to them), and exact reports the conjuncts
// that pinned them so the residual can drop them.
func deriveKeyFields(conj []sql.Expr, s *rowkeyschema.Schema, firstCol int) (ks KeySet, exact []sql.Expr) {
	n := len(s.Fields)
	eq := make([][]sql.Expr, n)
	by := make([]sql.Expr, n) // the top-level conjunct that set eq[i], if any
	var top sql.Expr
	type bound struct {
		e    sql.Expr
		incl bool
	}
	lo, hi := make([]bound, n), make([]bound, n)
	var visit func(e sql.Expr)
	visit = func(e sql.Expr) {
		switch e := e.(type) {
		case *sql.And:
			for _, a := range e.Args {
				visit(a)
			}
		case *sql.In:
			if i := fieldOf(e.X, s, firstCol); i >= 0 && !e.Neg && eq[i] == nil && allConst(e.List, s.Fields[i].Type) {
				eq[i], by[i] = e.List, top
			}
		case *sql.Call:
			i, op, r := fieldCompare(e, s, firstCol)
			switch {
			case i < 0:
			case op == "=":
				eq[i], by[i] = []sql.Expr{r}, top
			case (op == ">" || op == ">=") && lo[i].e == nil:
				lo[i] = bound{r, op == ">="}
			case (op == "<" || op == "<=") && hi[i].e == nil:
				hi[i] = bound{r, op == "<="}
			}
		}
	}
	for _, c := range conj {
		top = c
		visit(c)
		top = nil
	}
	k := &KeyFields{Schema: s}
	combos := 1
	for i := 0; i < n && eq[i] != nil && combos*len(eq[i]) <= maxKeyPrefixes; i++ {
		k.Eq = append(k.Eq, eq[i])
		combos *= len(eq[i])
	}
	if i := len(k.Eq); i < n {
		k.Lo, k.LoIncl = lo[i].e, lo[i].incl
		k.Hi, k.HiIncl = hi[i].e, hi[i].incl
	}
	if len(k.Eq) == 0 && k.Lo == nil && k.Hi == nil {
		return AllKeys{}, nil
	}
	if len(k.Eq) == n {
		for i := range by {
			if by[i] == nil || by[i] != conjunctOf(conj, by[i]) {
				return k, nil // pinned inside a nested AND: keep the residual
			}
			exact = append(exact, by[i])
		}
	}
	return k, exact
}

// conjunctOf returns c when it is one of conj (a top-level conjunct whose
// whole meaning is the field equality), else nil.
func conjunctOf(conj []sql.Expr, c sql.Expr) sql.Expr {
	for _, x := range conj {
		if x == c {
			switch c.(type) {
			case *sql.In, *sql.Call:
				return c
			}
		}
	}
	return nil
}

// fieldOf returns the key field e reads, or -1.
func fieldOf(e sql.Expr, s *rowkeyschema.Schema, firstCol int) int {
	c, ok := e.(*sql.ColRef)
	if !ok || c.Idx < firstCol || c.Idx >= firstCol+len(s.Fields) {
		return -1
	}
	i := c.Idx - firstCol
	if !c.T.Equal(s.Fields[i].Type) {
		return -1
	}
	return i
}

// fieldCompare matches `field op constant` (either way round) with a
// constant of the field's type.
func fieldCompare(e *sql.Call, s *rowkeyschema.Schema, firstCol int) (int, string, sql.Expr) {
	if len(e.Args) != 2 {
		return -1, "", nil
	}
	op, l, r := e.Fn.Name, e.Args[0], e.Args[1]
	f, ok := flipped[op]
	if !ok {
		return -1, "", nil
	}
	if fieldOf(l, s, firstCol) < 0 {
		op, l, r = f, r, l
	}
	i := fieldOf(l, s, firstCol)
	if i < 0 || !allConst([]sql.Expr{r}, s.Fields[i].Type) {
		return -1, "", nil
	}
	return i, op, r
}

func allConst(es []sql.Expr, t *types.Type) bool {
	for _, e := range es {
		if !sql.IsConstant(e) || !e.Type().Equal(t) {
			return false
		}
	}
	return true
}

// resolveKeyFields evaluates the leaves and asks the schema for the spans
// of every combination of the equality alternatives.
func resolveKeyFields(k *KeyFields, eval func(sql.Expr) (types.Value, error)) (Spans, error) {
	// vals holds every field's alternatives back to back; field i's are
	// vals[off[i]:off[i+1]].
	n := len(k.Eq)
	var valBuf [8]types.Value
	var offBuf [9]int
	vals, off := valBuf[:0], offBuf[:1]
	if n+1 > len(offBuf) {
		off = make([]int, 1, n+1)
	}
	for _, alts := range k.Eq {
		start := len(vals)
		for _, a := range alts {
			v, err := eval(a)
			if err != nil {
				return nil, err
			}
			if !v.IsNull() { // field = NULL selects nothing
				vals = append(vals, v)
			}
		}
		if len(vals) == start {
			return nil, nil
		}
		off = append(off, len(vals))
	}
	var lo, hi rowkeyschema.Bound
	for _, b := range [2]struct {
		e    sql.Expr
		incl bool
		dst  *rowkeyschema.Bound
	}{{k.Lo, k.LoIncl, &lo}, {k.Hi, k.HiIncl, &hi}} {
		if b.e == nil {
			continue
		}
		v, err := eval(b.e)
		if err != nil {
			return nil, err
		}
		if v.IsNull() {
			return nil, nil // a comparison with NULL selects nothing
		}
		*b.dst = rowkeyschema.Bound{Value: v, Inclusive: b.incl}
	}
	// Walk the cross product of the alternatives like an odometer.
	var eqBuf [8]types.Value
	eq := eqBuf[:0]
	if n > len(eqBuf) {
		eq = make([]types.Value, 0, n)
	}
	eq = eq[:n]
	var idxBuf [8]int
	idx := idxBuf[:0]
	if n > len(idxBuf) {
		idx = make([]int, 0, n)
	}
	idx = idx[:n]
	var out []rowkeyschema.Span
	for {
		for i := range eq {
			eq[i] = vals[off[i]+idx[i]]
		}
		var err error
		if out, err = k.Schema.Spans(out, eq, lo, hi); err != nil {
			return nil, err
		}
		i := n - 1
		for ; i >= 0; i-- {
			if idx[i]++; off[i]+idx[i] < off[i+1] {
				break
			}
			idx[i] = 0
		}
		if i < 0 {
			break
		}
	}
	spans := make(Spans, len(out))
	for i, sp := range out {
		spans[i] = Span{Start: sp.Start, End: sp.End}
	}
	if len(spans) == 1 {
		return spans, nil
	}
	return normalize(spans), nil
}
