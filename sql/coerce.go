package sql

import (
	"github.com/shale-db/shale/sql/types"
)

// coerce converts e to type t where GoogleSQL coerces implicitly: a string
// literal to BYTES, DATE or TIMESTAMP (spec §4.5), the NULL literal to any
// type, INT64 and FLOAT32 to FLOAT64, and array literals element-wise. The
// cost ranks overloads (0: exact).
func coerce(e Expr, t *types.Type) (Expr, int, bool) {
	et := e.Type()
	if et.Equal(t) {
		return e, 0, true
	}
	if c, ok := e.(*Const); ok && c.Lit {
		if c.V.IsNull() {
			return &Const{V: types.NullOf(t), T: t, Lit: true}, 1, true
		}
		if et.Kind == types.KindString && (t.Kind == types.KindBytes || t.Kind == types.KindDate || t.Kind == types.KindTimestamp) {
			v, err := types.Cast(c.V, t)
			if err != nil {
				return nil, 0, false
			}
			return &Const{V: v, T: t}, 1, true
		}
		if et.Kind == types.KindInt64 && t.Kind == types.KindFloat64 {
			return &Const{V: types.Float64Value(float64(c.V.Int64())), T: t, Lit: true}, 2, true
		}
	}
	if t.Kind == types.KindFloat64 && (et.Kind == types.KindInt64 || et.Kind == types.KindFloat32) {
		return &Cast{X: e, T: t, Pos: -1}, 2, true
	}
	if a, ok := e.(*MakeArray); ok && t.Kind == types.KindArray {
		out := make([]Expr, len(a.Elems))
		cost := 0
		for i, x := range a.Elems {
			c, n, ok := coerce(x, t.Elem)
			if !ok {
				return nil, 0, false
			}
			out[i], cost = c, max(cost, n)
		}
		return &MakeArray{Elems: out, T: t}, cost, true
	}
	return nil, 0, false
}

// isLiteral reports whether e is a still-coercible literal.
func isLiteral(e Expr) bool {
	if c, ok := e.(*Const); ok {
		return c.Lit
	}
	if a, ok := e.(*MakeArray); ok {
		for _, x := range a.Elems {
			if !isLiteral(x) {
				return false
			}
		}
		return true
	}
	return false
}

// supertype returns the common type of exprs: the type of the non-literal
// ones (numeric types widen to FLOAT64), else of the literals; nil when
// there is none.
func supertype(exprs []Expr) *types.Type {
	var t *types.Type
	pick := func(lit bool) bool {
		for _, e := range exprs {
			if isLiteral(e) != lit {
				continue
			}
			if c, ok := e.(*Const); ok && c.V.IsNull() && lit {
				continue
			}
			et := e.Type()
			switch {
			case t == nil:
				t = et
			case t.Equal(et):
			case t.IsNumeric() && et.IsNumeric():
				t = types.Float64
			default:
				if lit {
					continue
				}
				return false
			}
		}
		return true
	}
	if !pick(false) {
		return nil
	}
	if t == nil {
		pick(true)
	}
	if t == nil {
		return types.Int64
	}
	return t
}

// unify coerces exprs to their supertype; ok is false when they have none.
func unify(exprs []Expr) ([]Expr, *types.Type, int, bool) {
	t := supertype(exprs)
	if t == nil {
		return nil, nil, -1, false
	}
	out := make([]Expr, len(exprs))
	for i, e := range exprs {
		c, _, ok := coerce(e, t)
		if !ok {
			return nil, nil, i, false
		}
		out[i] = c
	}
	return out, t, 0, true
}
