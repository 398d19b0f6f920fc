package sql

import (
	"github.com/shale-db/shale/sql/types"
)

// Expr is a bound, typed expression. It is a sealed sum type: only this
// package defines expressions. Positions are byte offsets into the query
// text (-1 when synthesized).
type Expr interface {
	// Type is the expression's SQL type; never nil.
	Type() *types.Type
	// String renders the expression in SQL-like syntax (EXPLAIN, tests).
	String() string
	exprNode()
}

// Const is a constant. Lit marks a literal that still coerces (a string
// literal to BYTES, DATE or TIMESTAMP; the NULL literal to any type).
type Const struct {
	V   types.Value
	T   *types.Type
	Lit bool
}

// Param is a query parameter @Name of a declared type.
type Param struct {
	Name string
	T    *types.Type
	Pos  int
	// Lit marks a parameter standing for a literal (LiteralParamPrefix):
	// it coerces as that literal would.
	Lit bool
}

// ColRef reads column Idx of the input row.
type ColRef struct {
	Idx  int
	Name string
	T    *types.Type
	Pos  int
}

// Call applies a scalar function or operator (Fn) resolved to an overload.
type Call struct {
	Fn   *Function
	Ov   *Overload
	Args []Expr
	T    *types.Type
	Pos  int
	// Safe is the SAFE. prefix: an error raised by the function itself
	// (not by its arguments) yields NULL.
	Safe bool
}

// And is the three-valued conjunction of its arguments.
type And struct{ Args []Expr }

// Or is the three-valued disjunction of its arguments.
type Or struct{ Args []Expr }

// Not is three-valued negation.
type Not struct{ X Expr }

// IsNull is X IS [NOT] NULL.
type IsNull struct {
	X   Expr
	Neg bool
}

// IsBool is X IS [NOT] TRUE|FALSE.
type IsBool struct {
	X   Expr
	Val bool
	Neg bool
}

// In is X [NOT] IN (List...).
type In struct {
	X    Expr
	List []Expr
	Neg  bool
}

// InArray is X [NOT] IN UNNEST(Array).
type InArray struct {
	X     Expr
	Array Expr
	Neg   bool
}

// When is one WHEN cond THEN result arm of a Case.
type When struct{ Cond, Then Expr }

// Case is a searched CASE (simple CASE and IF are rewritten into it).
type Case struct {
	Whens []When
	Else  Expr // nil: NULL
	T     *types.Type
}

// Coalesce returns its first non-NULL argument (COALESCE, IFNULL).
type Coalesce struct {
	Args []Expr
	T    *types.Type
}

// Cast converts X to T (spec §4.5); Safe yields NULL instead of an error.
type Cast struct {
	X    Expr
	T    *types.Type
	Safe bool
	Pos  int
}

// MapGet is m[key] on a MAP (cf['q']); a missing key is NULL.
type MapGet struct {
	Map, Key Expr
}

// IndexMode says how an array subscript counts.
type IndexMode uint8

const (
	// Offset is 0-based and errors when out of range.
	Offset IndexMode = iota
	// SafeOffset is 0-based and NULL when out of range.
	SafeOffset
	// Ordinal is 1-based and errors when out of range.
	Ordinal
	// SafeOrdinal is 1-based and NULL when out of range.
	SafeOrdinal
)

// Index is arr[OFFSET(i)] and friends.
type Index struct {
	Arr, Idx Expr
	Mode     IndexMode
	Pos      int
}

// Field reads field Idx of a STRUCT.
type Field struct {
	X    Expr
	Idx  int
	Name string
}

// MakeArray builds an ARRAY from its elements.
type MakeArray struct {
	Elems []Expr
	T     *types.Type
}

// MakeStruct builds a STRUCT from its fields.
type MakeStruct struct {
	Fields []Expr
	T      *types.Type
}

func (*Const) exprNode()      {}
func (*Param) exprNode()      {}
func (*ColRef) exprNode()     {}
func (*Call) exprNode()       {}
func (*And) exprNode()        {}
func (*Or) exprNode()         {}
func (*Not) exprNode()        {}
func (*IsNull) exprNode()     {}
func (*IsBool) exprNode()     {}
func (*In) exprNode()         {}
func (*InArray) exprNode()    {}
func (*Case) exprNode()       {}
func (*Coalesce) exprNode()   {}
func (*Cast) exprNode()       {}
func (*MapGet) exprNode()     {}
func (*Index) exprNode()      {}
func (*Field) exprNode()      {}
func (*MakeArray) exprNode()  {}
func (*MakeStruct) exprNode() {}

func (e *Const) Type() *types.Type      { return e.T }
func (e *Param) Type() *types.Type      { return e.T }
func (e *ColRef) Type() *types.Type     { return e.T }
func (e *Call) Type() *types.Type       { return e.T }
func (*And) Type() *types.Type          { return types.Bool }
func (*Or) Type() *types.Type           { return types.Bool }
func (*Not) Type() *types.Type          { return types.Bool }
func (*IsNull) Type() *types.Type       { return types.Bool }
func (*IsBool) Type() *types.Type       { return types.Bool }
func (*In) Type() *types.Type           { return types.Bool }
func (*InArray) Type() *types.Type      { return types.Bool }
func (e *Case) Type() *types.Type       { return e.T }
func (e *Coalesce) Type() *types.Type   { return e.T }
func (e *Cast) Type() *types.Type       { return e.T }
func (e *MapGet) Type() *types.Type     { return e.Map.Type().Elem }
func (e *Index) Type() *types.Type      { return e.Arr.Type().Elem }
func (e *Field) Type() *types.Type      { return e.X.Type().Fields[e.Idx].Type }
func (e *MakeArray) Type() *types.Type  { return e.T }
func (e *MakeStruct) Type() *types.Type { return e.T }

// NewConst returns a non-literal constant of v's type.
func NewConst(v types.Value) *Const {
	t := v.Type()
	if t == nil {
		t = types.Int64
	}
	return &Const{V: v, T: t}
}

// IsConstant reports whether e depends on no row: constants and parameters
// combined by functions and casts. Such an expression can be evaluated
// once per execution (row-range bounds, LIMIT, temporal arguments).
func IsConstant(e Expr) bool {
	switch e := e.(type) {
	case *Const, *Param:
		return true
	case *ColRef, *LambdaVar:
		return false
	case *Call:
		if e.Fn.Volatile {
			return false
		}
		for _, c := range e.Args {
			if !IsConstant(c) {
				return false
			}
		}
		return true
	default:
		for _, c := range Children(e) {
			if !IsConstant(c) {
				return false
			}
		}
		return true
	}
}
