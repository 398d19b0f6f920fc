package sql

import (
	"github.com/shale-db/shale/sql/types"
)

// coerce converts e to type t where GoogleSQL coerces implicitly: a string
// literal to BYTES, DATE or TIMESTAMP (spec §4.5), the NULL literal to any
// type, INT64 and FLOAT32 to FLOAT64, array literals element-wise, STRUCT
// constructors field-wise, and other STRUCTs whose fields coerce
// (coercesTo) by a cast. The cost ranks overloads (0: exact).
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
	if p, ok := e.(*Param); ok && p.Lit && et.Kind == types.KindString && t.Kind == types.KindBytes {
		// As the literal would, when the query runs. (To DATE or TIMESTAMP
		// a bad literal is a bind-time error: the cache's caller then
		// prepares the text itself.)
		return &Cast{X: p, T: t, Pos: p.Pos}, 1, true
	}
	if t.Kind == types.KindFloat64 && (et.Kind == types.KindInt64 || et.Kind == types.KindFloat32) {
		return &Cast{X: e, T: t, Pos: -1}, 2, true
	}
	if s, ok := e.(*MakeStruct); ok && t.Kind == types.KindStruct && len(s.Fields) == len(t.Fields) {
		out := make([]Expr, len(s.Fields))
		cost := 0
		for i, x := range s.Fields {
			c, n, ok := coerce(x, t.Fields[i].Type)
			if !ok {
				return nil, 0, false
			}
			out[i], cost = c, max(cost, n)
		}
		return &MakeStruct{Fields: out, T: t}, cost, true
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
	if t.Kind == types.KindStruct && coercesTo(et, t) {
		return &Cast{X: e, T: t, Pos: -1}, 2, true
	}
	return nil, 0, false
}

// isLiteral reports whether e is a still-coercible literal.
func isLiteral(e Expr) bool {
	if c, ok := e.(*Const); ok {
		return c.Lit
	}
	if p, ok := e.(*Param); ok {
		return p.Lit
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

// operand is one input of supertype: an expression, or a field of a STRUCT
// expression that is not a STRUCT constructor (e nil, typed, non-literal).
type operand struct {
	e    Expr
	t    *types.Type
	lit  bool // a still-coercible literal
	null bool // the NULL literal, which coerces to anything
}

func operandOf(e Expr) operand {
	c, ok := e.(*Const)
	return operand{e: e, t: e.Type(), lit: isLiteral(e), null: ok && c.Lit && c.V.IsNull()}
}

// field returns field i of a STRUCT operand: the field's expression when
// the operand is a STRUCT constructor (so a literal field still coerces).
func (o operand) field(i int) operand {
	if s, ok := o.e.(*MakeStruct); ok {
		return operandOf(s.Fields[i])
	}
	return operand{t: o.t.Fields[i].Type}
}

// supertype returns the common type of exprs: the type of the non-literal
// ones (numeric types widen to FLOAT64), else of the literals; nil when
// there is none. STRUCTs have a supertype field by field.
func supertype(exprs []Expr) *types.Type {
	ops := make([]operand, len(exprs))
	for i, e := range exprs {
		ops[i] = operandOf(e)
	}
	return supertypeOf(ops)
}

func supertypeOf(ops []operand) *types.Type {
	for _, o := range ops {
		if !o.null && o.t.Kind == types.KindStruct {
			return structSupertype(ops)
		}
	}
	var t *types.Type
	pick := func(lit bool) bool {
		for _, o := range ops {
			if o.lit != lit || o.null {
				continue
			}
			switch {
			case t == nil:
				t = o.t
			case t.Equal(o.t):
			case t.IsNumeric() && o.t.IsNumeric():
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

// structSupertype is GoogleSQL's supertype of STRUCTs: they must all have
// the same number of fields, each field has the supertype of that field
// of every operand, and the field names are those of the first operand
// that is not the NULL literal. So [STRUCT(1 AS x, 'a' AS y), (2, 'b')] is
// ARRAY<STRUCT<x INT64, y STRING>>, and a NULL field takes the type of the
// field in the other STRUCTs.
func structSupertype(ops []operand) *types.Type {
	var first *types.Type
	for _, o := range ops {
		if o.null {
			continue
		}
		if o.t.Kind != types.KindStruct || first != nil && len(o.t.Fields) != len(first.Fields) {
			return nil
		}
		if first == nil {
			first = o.t
		}
	}
	fields := make([]types.Field, len(first.Fields))
	same := true
	for i := range fields {
		var fops []operand
		for _, o := range ops {
			if !o.null {
				fops = append(fops, o.field(i))
			}
		}
		ft := supertypeOf(fops)
		if ft == nil {
			return nil
		}
		fields[i] = types.Field{Name: first.Fields[i].Name, Type: ft}
		same = same && ft.Equal(first.Fields[i].Type)
	}
	if same {
		return first
	}
	return types.StructOf(fields...)
}

// coercesTo reports whether a value of type from converts implicitly to
// type to (not only as a literal): the same type, INT64 and FLOAT32 to
// FLOAT64, and STRUCTs whose fields do (field names aside). An ARRAY
// coerces only to its own type.
func coercesTo(from, to *types.Type) bool {
	switch {
	case from.Equal(to):
		return true
	case to.Kind == types.KindFloat64:
		return from.Kind == types.KindInt64 || from.Kind == types.KindFloat32
	case to.Kind == types.KindStruct:
		if from.Kind != types.KindStruct || len(from.Fields) != len(to.Fields) {
			return false
		}
		for i := range from.Fields {
			if !coercesTo(from.Fields[i].Type, to.Fields[i].Type) {
				return false
			}
		}
		return true
	}
	return false
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
