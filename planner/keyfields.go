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
// §5.4). Its spans are a superset: the predicates stay in the residual.
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
// IN list on a leading run of fields, then a range on the next one.
func deriveKeyFields(conj []sql.Expr, s *rowkeyschema.Schema, firstCol int) KeySet {
	n := len(s.Fields)
	eq := make([][]sql.Expr, n)
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
				eq[i] = e.List
			}
		case *sql.Call:
			i, op, r := fieldCompare(e, s, firstCol)
			switch {
			case i < 0:
			case op == "=":
				eq[i] = []sql.Expr{r}
			case (op == ">" || op == ">=") && lo[i].e == nil:
				lo[i] = bound{r, op == ">="}
			case (op == "<" || op == "<=") && hi[i].e == nil:
				hi[i] = bound{r, op == "<="}
			}
		}
	}
	for _, c := range conj {
		visit(c)
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
		return AllKeys{}
	}
	return k
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
	vals := make([][]types.Value, len(k.Eq))
	for i, alts := range k.Eq {
		for _, a := range alts {
			v, err := eval(a)
			if err != nil {
				return nil, err
			}
			vals[i] = append(vals[i], v)
		}
	}
	var lo, hi rowkeyschema.Bound
	for _, b := range []struct {
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
	var out []rowkeyschema.Span
	eq := make([]types.Value, len(vals))
	var walk func(i int) error
	walk = func(i int) error {
		if i == len(vals) {
			var err error
			out, err = k.Schema.Spans(out, eq, lo, hi)
			return err
		}
		for _, v := range vals[i] {
			eq[i] = v
			if err := walk(i + 1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(0); err != nil {
		return nil, err
	}
	spans := make(Spans, len(out))
	for i, sp := range out {
		spans[i] = Span{Start: sp.Start, End: sp.End}
	}
	return normalize(spans), nil
}
