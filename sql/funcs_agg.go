package sql

import (
	"fmt"
	"math"

	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

// Aggregates (spec §4.6): all ignore NULL inputs except COUNT(*) and
// ARRAY_AGG, which keeps them unless IGNORE NULLS is written.
func init() {
	RegisterAgg("COUNT", &AggFunc{CountStar: true, Result: nArgs("COUNT", 1, types.Int64),
		New: func(*types.Type, []*types.Type) Accumulator { return &countAcc{} }})
	RegisterAgg("COUNTIF", &AggFunc{Result: boolArg("COUNTIF", types.Int64),
		New: func(*types.Type, []*types.Type) Accumulator { return &countAcc{onlyTrue: true} }})
	RegisterAgg("SUM", &AggFunc{Result: numericArg("SUM", false),
		New: func(ret *types.Type, _ []*types.Type) Accumulator { return &sumAcc{ret: ret} }})
	RegisterAgg("AVG", &AggFunc{Result: numericArg("AVG", true),
		New: func(ret *types.Type, _ []*types.Type) Accumulator { return &sumAcc{ret: ret, avg: true} }})
	RegisterAgg("MIN", &AggFunc{Result: scalarArg("MIN"),
		New: func(ret *types.Type, _ []*types.Type) Accumulator { return &minMaxAcc{ret: ret, sign: -1} }})
	RegisterAgg("MAX", &AggFunc{Result: scalarArg("MAX"),
		New: func(ret *types.Type, _ []*types.Type) Accumulator { return &minMaxAcc{ret: ret, sign: 1} }})
	RegisterAgg("ANY_VALUE", &AggFunc{Result: anyArg("ANY_VALUE", func(t *types.Type) *types.Type { return t }),
		New: func(ret *types.Type, _ []*types.Type) Accumulator { return &anyAcc{v: types.NullOf(ret)} }})
	RegisterAgg("ARRAY_AGG", &AggFunc{Result: anyArg("ARRAY_AGG", types.ArrayOf),
		New: func(ret *types.Type, _ []*types.Type) Accumulator { return &arrayAcc{ret: ret} }})
	RegisterAgg("STRING_AGG", &AggFunc{Result: stringAggType,
		New: func(ret *types.Type, _ []*types.Type) Accumulator { return &stringAcc{ret: ret} }})
	RegisterAgg("LOGICAL_AND", &AggFunc{Result: boolArg("LOGICAL_AND", types.Bool),
		New: func(*types.Type, []*types.Type) Accumulator { return &logicAcc{and: true} }})
	RegisterAgg("LOGICAL_OR", &AggFunc{Result: boolArg("LOGICAL_OR", types.Bool),
		New: func(*types.Type, []*types.Type) Accumulator { return &logicAcc{} }})
}

func nArgs(fn string, n int, ret *types.Type) func([]*types.Type) (*types.Type, error) {
	return func(a []*types.Type) (*types.Type, error) {
		if len(a) != n {
			return nil, fmt.Errorf("%s takes %d argument(s), got %d", fn, n, len(a))
		}
		return ret, nil
	}
}

func boolArg(fn string, ret *types.Type) func([]*types.Type) (*types.Type, error) {
	return func(a []*types.Type) (*types.Type, error) {
		if len(a) != 1 || a[0].Kind != types.KindBool {
			return nil, fmt.Errorf("%s expects one BOOL argument", fn)
		}
		return ret, nil
	}
}

func numericArg(fn string, avg bool) func([]*types.Type) (*types.Type, error) {
	return func(a []*types.Type) (*types.Type, error) {
		if len(a) != 1 || !a[0].IsNumeric() {
			return nil, fmt.Errorf("%s expects one numeric argument", fn)
		}
		if a[0].Kind == types.KindInt64 && !avg {
			return types.Int64, nil
		}
		return types.Float64, nil
	}
}

func scalarArg(fn string) func([]*types.Type) (*types.Type, error) {
	return func(a []*types.Type) (*types.Type, error) {
		if len(a) != 1 || !a[0].IsScalar() {
			return nil, fmt.Errorf("%s expects one orderable argument", fn)
		}
		return a[0], nil
	}
}

func anyArg(fn string, ret func(*types.Type) *types.Type) func([]*types.Type) (*types.Type, error) {
	return func(a []*types.Type) (*types.Type, error) {
		if len(a) != 1 {
			return nil, fmt.Errorf("%s takes one argument", fn)
		}
		if fn == "ARRAY_AGG" && a[0].Kind == types.KindArray {
			return nil, fmt.Errorf("ARRAY_AGG of an ARRAY is not supported (no arrays of arrays)")
		}
		return ret(a[0]), nil
	}
}

func stringAggType(a []*types.Type) (*types.Type, error) {
	if len(a) < 1 || len(a) > 2 || (a[0].Kind != types.KindString && a[0].Kind != types.KindBytes) ||
		(len(a) == 2 && !a[1].Equal(a[0])) {
		return nil, fmt.Errorf("STRING_AGG expects (STRING[, STRING]) or (BYTES[, BYTES])")
	}
	return a[0], nil
}

type countAcc struct {
	n        int64
	onlyTrue bool
}

func (c *countAcc) Add(a []types.Value) error {
	if len(a) == 0 || (!a[0].IsNull() && (!c.onlyTrue || a[0].Bool())) {
		c.n++
	}
	return nil
}
func (c *countAcc) Result() (types.Value, error) { return types.Int64Value(c.n), nil }
func (c *countAcc) Mem() int64                   { return 16 }

type sumAcc struct {
	ret   *types.Type
	avg   bool
	n     int64
	i     int64
	f     float64
	isInt bool
}

func (s *sumAcc) Add(a []types.Value) error {
	v := a[0]
	if v.IsNull() {
		return nil
	}
	s.n++
	if v.Kind() == types.KindInt64 && !s.avg {
		r, err := addInt(s.i, v.Int64())
		if err != nil {
			return sqlerr.New(sqlerr.OutOfRange, "int64 overflow in SUM")
		}
		s.i, s.isInt = r, true
		return nil
	}
	s.f += num(v)
	return nil
}

func (s *sumAcc) Result() (types.Value, error) {
	switch {
	case s.n == 0:
		return types.NullOf(s.ret), nil
	case s.avg:
		return types.Float64Value(s.f / float64(s.n)), nil
	case s.isInt:
		return types.Int64Value(s.i), nil
	}
	if math.IsInf(s.f, 0) {
		return types.Value{}, sqlerr.New(sqlerr.OutOfRange, "float64 overflow in SUM")
	}
	return types.Float64Value(s.f), nil
}
func (s *sumAcc) Mem() int64 { return 48 }

type minMaxAcc struct {
	ret  *types.Type
	v    types.Value
	set  bool
	sign int
}

func (m *minMaxAcc) Add(a []types.Value) error {
	v := a[0]
	if v.IsNull() {
		return nil
	}
	if !m.set || types.Compare(v, m.v)*m.sign > 0 {
		m.v, m.set = CopyValue(v), true
	}
	return nil
}

func (m *minMaxAcc) Result() (types.Value, error) {
	if !m.set {
		return types.NullOf(m.ret), nil
	}
	return m.v, nil
}
func (m *minMaxAcc) Mem() int64 { return 64 + ValueSize(m.v) }

type anyAcc struct {
	v   types.Value
	set bool
}

func (x *anyAcc) Add(a []types.Value) error {
	if !x.set && !a[0].IsNull() {
		x.v, x.set = CopyValue(a[0]), true
	}
	return nil
}
func (x *anyAcc) Result() (types.Value, error) { return x.v, nil }
func (x *anyAcc) Mem() int64                   { return 64 + ValueSize(x.v) }

type arrayAcc struct {
	ret   *types.Type
	elems []types.Value
	mem   int64
}

// Add keeps NULL inputs (ARRAY_AGG respects NULLs unless IGNORE NULLS,
// which the executor applies, is written).
func (x *arrayAcc) Add(a []types.Value) error {
	v := CopyValue(a[0])
	x.elems = append(x.elems, v)
	x.mem += ValueSize(v)
	return nil
}

func (x *arrayAcc) Result() (types.Value, error) {
	if len(x.elems) == 0 {
		return types.NullOf(x.ret), nil
	}
	return types.ArrayValue(x.ret, x.elems), nil
}
func (x *arrayAcc) Mem() int64 { return 64 + x.mem }

type stringAcc struct {
	ret *types.Type
	b   []byte
	n   int
}

func (x *stringAcc) Add(a []types.Value) error {
	if a[0].IsNull() {
		return nil
	}
	if x.n > 0 {
		if len(a) > 1 {
			x.b = append(x.b, a[1].Bytes()...)
		} else {
			x.b = append(x.b, ',')
		}
	}
	x.b = append(x.b, a[0].Bytes()...)
	x.n++
	return nil
}

func (x *stringAcc) Result() (types.Value, error) {
	switch {
	case x.n == 0:
		return types.NullOf(x.ret), nil
	case x.ret.Kind == types.KindString:
		return types.StringBytesValue(x.b), nil
	}
	return types.BytesValue(x.b), nil
}
func (x *stringAcc) Mem() int64 { return 48 + int64(cap(x.b)) }

type logicAcc struct {
	and      bool
	sawValue bool
	val      bool
}

func (x *logicAcc) Add(a []types.Value) error {
	if a[0].IsNull() {
		return nil
	}
	if !x.sawValue {
		x.val, x.sawValue = a[0].Bool(), true
	} else if x.and {
		x.val = x.val && a[0].Bool()
	} else {
		x.val = x.val || a[0].Bool()
	}
	return nil
}

func (x *logicAcc) Result() (types.Value, error) {
	if !x.sawValue {
		return types.NullOf(types.Bool), nil
	}
	return types.BoolValue(x.val), nil
}
func (x *logicAcc) Mem() int64 { return 16 }
