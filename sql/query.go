package sql

import (
	"github.com/shale-db/shale/catalog"
	"github.com/shale-db/shale/sql/types"
)

// Statement is an analyzed statement: a query, possibly under EXPLAIN.
type Statement struct {
	Text    string
	Explain bool
	Analyze bool // EXPLAIN ANALYZE
	Query   *Query
	// Params are the declared parameter types the query uses.
	Params map[string]*types.Type
}

// Query is a bound SELECT. Its evaluation order is: From → Where →
// (GroupBy, Aggs → Having) → Select → Distinct → OrderBy → Offset/Limit →
// the first len(Columns) select expressions.
type Query struct {
	From Source // nil: one row with no columns (SELECT without FROM)
	// Where is over the From row; nil is TRUE.
	Where Expr
	// Grouped marks an aggregating query; GroupBy and Aggs are over the
	// From row, and Having and Select over the aggregated row
	// [GroupBy..., Aggs...].
	Grouped bool
	GroupBy []Expr
	Aggs    []*AggCall
	Having  Expr
	// Select computes the output row; entries past len(Columns) are hidden
	// sort keys.
	Select  []Expr
	Columns []types.Field
	// Distinct (SELECT DISTINCT) drops duplicate output rows, NULLs equal;
	// Select then has no hidden sort keys (ORDER BY names select items).
	Distinct bool
	OrderBy  []OrderItem
	// Limit and Offset are constant INT64 expressions or nil.
	Limit, Offset Expr
}

// OrderItem sorts by output column Col.
type OrderItem struct {
	Col        int
	Desc       bool
	NullsFirst bool
}

// AggCall is one aggregate call over the From row.
type AggCall struct {
	Fn   *Function
	Args []Expr // empty for COUNT(*)
	// Distinct folds each distinct value of the first argument once.
	Distinct bool
	// Nulls is the {IGNORE | RESPECT} NULLS modifier as written.
	Nulls NullHandling
	// OrderBy sorts the group's rows before they are folded, and Limit
	// (a constant INT64 expression or nil) keeps only the first rows
	// (STRING_AGG, ARRAY_AGG, ARRAY_CONCAT_AGG).
	OrderBy []AggOrder
	Limit   Expr
	T       *types.Type
}

// NullHandling is an aggregate's {IGNORE | RESPECT} NULLS modifier.
type NullHandling uint8

// The NULL handling modifiers; NullsDefault is neither written.
const (
	NullsDefault NullHandling = iota
	IgnoreNulls
	RespectNulls
)

// AggOrder is one key of an aggregate's ORDER BY, over the From row.
type AggOrder struct {
	Key        Expr
	Desc       bool
	NullsFirst bool
}

// SkipsNulls reports whether rows whose first argument is NULL are dropped
// before DISTINCT, ORDER BY and LIMIT apply: under IGNORE NULLS, and by
// default for the aggregates that ignore NULL inputs.
func (a *AggCall) SkipsNulls() bool {
	if a.Nulls == NullsDefault {
		return len(a.Args) > 0 && aggIgnoresNulls[a.Fn.Name]
	}
	return a.Nulls == IgnoreNulls
}

// Inputs returns every expression the call reads from the From row: the
// arguments, then the ORDER BY keys.
func (a *AggCall) Inputs() []Expr {
	if len(a.OrderBy) == 0 {
		return a.Args
	}
	out := append([]Expr(nil), a.Args...)
	for _, o := range a.OrderBy {
		out = append(out, o.Key)
	}
	return out
}

// Map returns a copy of the call with fn applied to its arguments and
// ORDER BY keys (the expressions Inputs returns).
func (a *AggCall) Map(fn func(Expr) Expr) *AggCall {
	c := *a
	c.Args = make([]Expr, len(a.Args))
	for i, x := range a.Args {
		c.Args[i] = fn(x)
	}
	c.OrderBy = make([]AggOrder, len(a.OrderBy))
	for i, o := range a.OrderBy {
		c.OrderBy[i] = AggOrder{Key: fn(o.Key), Desc: o.Desc, NullsFirst: o.NullsFirst}
	}
	return &c
}

func (a *AggCall) String() string {
	if len(a.Args) == 0 && a.Fn.Name == "COUNT" {
		return "COUNT(*)"
	}
	d := ""
	if a.Distinct {
		d = "DISTINCT "
	}
	s := a.Fn.Name + "(" + d + joinExprs(a.Args)
	switch a.Nulls {
	case IgnoreNulls:
		s += " IGNORE NULLS"
	case RespectNulls:
		s += " RESPECT NULLS"
	}
	for i, o := range a.OrderBy {
		if i == 0 {
			s += " ORDER BY "
		} else {
			s += ", "
		}
		s += o.Key.String()
		if o.Desc {
			s += " DESC"
		}
		switch {
		case o.NullsFirst && o.Desc:
			s += " NULLS FIRST"
		case !o.NullsFirst && !o.Desc:
			s += " NULLS LAST"
		}
	}
	if a.Limit != nil {
		s += " LIMIT " + a.Limit.String()
	}
	return s + ")"
}

// Source is a FROM item; a sealed sum type.
type Source interface {
	// Width is the number of columns of the rows the source produces.
	Width() int
	sourceNode()
}

// TableScan reads a table. Its row is Cols (C1 of package catalog: `_key`,
// the row-key schema's fields, then the families).
type TableScan struct {
	Table *catalog.Table
	Cols  []catalog.Column
	// History: families are MAP<BYTES, ARRAY<STRUCT<timestamp, value>>>.
	History bool
	// Temporal arguments (spec §4.3), constant expressions or nil.
	AsOf, After, AfterOrEqual, Before, BeforeOrEqual Expr
	LatestN                                          Expr
}

// Unpack turns each input row of a with-history subquery into one row per
// distinct cell timestamp (spec §4.4). Its row is the input's columns
// (transformed) followed by `_timestamp`.
type Unpack struct {
	Input *Query
	// Kinds says per input column how it unpacks.
	Kinds []UnpackKind
	Cols  []types.Field
}

// UnpackKind says how one column of an UNPACK input is transformed.
type UnpackKind uint8

const (
	// UnpackCopy copies the value.
	UnpackCopy UnpackKind = iota
	// UnpackMap keeps the entries with a version at the row's timestamp.
	UnpackMap
	// UnpackArray keeps the value of the version at the row's timestamp.
	UnpackArray
)

// UnnestJoin is Left CROSS JOIN UNNEST(Array): for each Left row, one row
// per element, [left..., elem] or [left..., elem, offset].
type UnnestJoin struct {
	Left       Source // nil: one empty row
	Array      Expr   // over Left's row
	Alias      string
	WithOffset bool
}

func (s *TableScan) Width() int { return len(s.Cols) }
func (s *Unpack) Width() int    { return len(s.Cols) }
func (s *UnnestJoin) Width() int {
	n := 1
	if s.Left != nil {
		n += s.Left.Width()
	}
	if s.WithOffset {
		n++
	}
	return n
}

func (*TableScan) sourceNode()  {}
func (*Unpack) sourceNode()     {}
func (*UnnestJoin) sourceNode() {}
