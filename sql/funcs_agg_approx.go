package sql

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"slices"

	farm "github.com/dgryski/go-farm"

	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

// Approximate aggregates (spec §4.6):
//   - APPROX_COUNT_DISTINCT(x) counts distinct fingerprints exactly up to
//     exactDistinct of them, then switches to a HyperLogLog sketch of
//     2^hllPrecision registers (about 0.8% standard error), so its memory
//     stays bounded.
//   - APPROX_QUANTILES(x, n), APPROX_TOP_COUNT(x, n) and
//     APPROX_TOP_SUM(x, weight, n) are computed exactly: the quantiles by
//     the nearest-rank method over the sorted inputs, the top lists from
//     exact counts and sums (ties keep first-seen order). Their memory
//     grows with the input and is accounted (Mem).
//
// n must be a literal or a query parameter (the binder checks) and
// positive. APPROX_QUANTILES ignores NULLs unless RESPECT NULLS is written
// (the executor drops them); the APPROX_TOP functions count NULL values.
func init() {
	RegisterAgg("APPROX_COUNT_DISTINCT", &AggFunc{Result: approxCountDistinctType,
		New: func(*types.Type, []*types.Type) Accumulator { return &hllAcc{exact: map[uint64]struct{}{}} }})
	RegisterAgg("APPROX_QUANTILES", &AggFunc{Result: approxQuantilesType,
		New: func(ret *types.Type, _ []*types.Type) Accumulator { return &quantilesAcc{ret: ret} }})
	RegisterAgg("APPROX_TOP_COUNT", &AggFunc{Result: approxTopType("APPROX_TOP_COUNT"),
		New: func(ret *types.Type, _ []*types.Type) Accumulator { return newTopAcc(ret, false) }})
	RegisterAgg("APPROX_TOP_SUM", &AggFunc{Result: approxTopType("APPROX_TOP_SUM"),
		New: func(ret *types.Type, _ []*types.Type) Accumulator { return newTopAcc(ret, true) }})
}

func approxCountDistinctType(a []*types.Type) (*types.Type, error) {
	if len(a) != 1 {
		return nil, fmt.Errorf("APPROX_COUNT_DISTINCT takes one argument")
	}
	switch a[0].Kind {
	case types.KindArray, types.KindStruct, types.KindProto, types.KindMap:
		return nil, fmt.Errorf("APPROX_COUNT_DISTINCT does not support an argument of type %s", a[0])
	}
	return types.Int64, nil
}

func approxQuantilesType(a []*types.Type) (*types.Type, error) {
	if len(a) != 2 || a[1].Kind != types.KindInt64 {
		return nil, fmt.Errorf("APPROX_QUANTILES expects (expression, INT64)")
	}
	if !a[0].IsScalar() {
		return nil, fmt.Errorf("APPROX_QUANTILES does not support an argument of type %s", a[0])
	}
	return types.ArrayOf(a[0]), nil
}

// approxTopType: APPROX_TOP_COUNT(x, INT64) gives
// ARRAY<STRUCT<value, count INT64>>; APPROX_TOP_SUM(x, weight, INT64)
// gives ARRAY<STRUCT<value, sum>>, sum of the weight's type.
func approxTopType(fn string) func([]*types.Type) (*types.Type, error) {
	sum := fn == "APPROX_TOP_SUM"
	return func(a []*types.Type) (*types.Type, error) {
		want := 2
		if sum {
			want = 3
		}
		if len(a) != want || a[want-1].Kind != types.KindInt64 {
			if sum {
				return nil, fmt.Errorf("APPROX_TOP_SUM expects (expression, weight, INT64)")
			}
			return nil, fmt.Errorf("APPROX_TOP_COUNT expects (expression, INT64)")
		}
		switch a[0].Kind {
		case types.KindArray, types.KindMap:
			return nil, fmt.Errorf("%s does not support an argument of type %s", fn, a[0])
		}
		second := types.Field{Name: "count", Type: types.Int64}
		if sum {
			switch a[1].Kind {
			case types.KindInt64:
				second = types.Field{Name: "sum", Type: types.Int64}
			case types.KindFloat32, types.KindFloat64:
				second = types.Field{Name: "sum", Type: types.Float64}
			default:
				return nil, fmt.Errorf("APPROX_TOP_SUM expects a numeric weight, got %s", a[1])
			}
		}
		return types.ArrayOf(types.StructOf(types.Field{Name: "value", Type: a[0]}, second)), nil
	}
}

// countArg reads the positive INT64 number argument n of fn.
func countArg(fn string, v types.Value) (int64, error) {
	if v.IsNull() || v.Int64() <= 0 {
		return 0, sqlerr.New(sqlerr.InvalidArgument, "%s: the number argument must be positive, got %s", fn, v)
	}
	return v.Int64(), nil
}

const (
	exactDistinct = 4096 // distinct fingerprints kept before switching to the sketch
	hllPrecision  = 14
	hllRegisters  = 1 << hllPrecision
)

// hllAcc counts the distinct fingerprints (FarmHash Fingerprint64 of a key
// encoding of the value) of the non-NULL inputs.
type hllAcc struct {
	exact map[uint64]struct{} // nil once the sketch is in use
	regs  []uint8
	key   []byte
}

func (x *hllAcc) Add(a []types.Value) error {
	if a[0].IsNull() {
		return nil
	}
	x.key = appendValueKey(x.key[:0], a[0])
	h := farm.Fingerprint64(x.key)
	if x.exact == nil {
		x.addHash(h)
		return nil
	}
	x.exact[h] = struct{}{}
	if len(x.exact) > exactDistinct {
		x.regs = make([]uint8, hllRegisters)
		for h := range x.exact {
			x.addHash(h)
		}
		x.exact = nil
	}
	return nil
}

func (x *hllAcc) addHash(h uint64) {
	i := h >> (64 - hllPrecision)
	rho := uint8(bits.LeadingZeros64(h<<hllPrecision|1<<(hllPrecision-1))) + 1
	x.regs[i] = max(x.regs[i], rho)
}

func (x *hllAcc) Result() (types.Value, error) {
	if x.exact != nil {
		return types.Int64Value(int64(len(x.exact))), nil
	}
	const m = float64(hllRegisters)
	sum, zeros := 0.0, 0
	for _, r := range x.regs {
		sum += math.Ldexp(1, -int(r))
		if r == 0 {
			zeros++
		}
	}
	if zeros > 0 { // linear counting while it is the better estimate
		if lc := m * math.Log(m/float64(zeros)); lc <= 5*m {
			return types.Int64Value(int64(math.Round(lc))), nil
		}
	}
	alpha := 0.7213 / (1 + 1.079/m)
	return types.Int64Value(int64(math.Round(alpha * m * m / sum))), nil
}

func (x *hllAcc) Mem() int64 {
	if x.exact != nil {
		return 64 + 24*int64(len(x.exact))
	}
	return 64 + hllRegisters
}

// quantilesAcc keeps every input (NULLs included: the executor drops them
// unless RESPECT NULLS) and picks the boundaries at the end.
type quantilesAcc struct {
	ret  *types.Type
	n    int64
	vals []types.Value
	mem  int64
}

func (x *quantilesAcc) Add(a []types.Value) error {
	if x.n == 0 {
		n, err := countArg("APPROX_QUANTILES", a[1])
		if err != nil {
			return err
		}
		x.n = n
	}
	v := CopyValue(a[0])
	x.vals = append(x.vals, v)
	x.mem += ValueSize(v)
	return nil
}

// Result returns n+1 values: for k = 0..n the input of nearest rank
// ceil(k*N/n) in ascending order (rank 1 for k = 0), so the first is the
// minimum and the last the maximum.
func (x *quantilesAcc) Result() (types.Value, error) {
	if len(x.vals) == 0 {
		return types.NullOf(x.ret), nil
	}
	slices.SortStableFunc(x.vals, types.Compare)
	out := make([]types.Value, x.n+1)
	N := uint64(len(x.vals))
	for k := range out {
		hi, lo := bits.Mul64(uint64(k), N)
		q, r := bits.Div64(hi, lo, uint64(x.n)) // k <= n, so hi < n
		if r > 0 {
			q++
		}
		out[k] = x.vals[max(q, 1)-1]
	}
	return types.ArrayValue(x.ret, out), nil
}

// Mem counts the inputs and, once n is known, the result array.
func (x *quantilesAcc) Mem() int64 {
	res := int64(0)
	if x.n > 0 {
		res = min(x.n, math.MaxInt64/128) * 64
	}
	return 64 + x.mem + res
}

// topAcc counts (or sums the weights of) each distinct value.
type topAcc struct {
	ret     *types.Type
	weights bool
	n       int64
	index   map[string]int
	entries []topEntry
	key     []byte
	mem     int64
}

type topEntry struct {
	v     types.Value
	count int64
	isum  int64
	fsum  float64
	set   bool // a non-NULL weight was added
}

func newTopAcc(ret *types.Type, weights bool) *topAcc {
	return &topAcc{ret: ret, weights: weights, index: map[string]int{}}
}

func (x *topAcc) fn() string {
	if x.weights {
		return "APPROX_TOP_SUM"
	}
	return "APPROX_TOP_COUNT"
}

func (x *topAcc) Add(a []types.Value) error {
	if x.n == 0 {
		n, err := countArg(x.fn(), a[len(a)-1])
		if err != nil {
			return err
		}
		x.n = n
	}
	x.key = appendValueKey(x.key[:0], a[0])
	i, ok := x.index[string(x.key)]
	if !ok {
		i = len(x.entries)
		x.index[string(x.key)] = i
		v := CopyValue(a[0])
		x.entries = append(x.entries, topEntry{v: v})
		x.mem += int64(len(x.key)) + ValueSize(v) + 96
	}
	e := &x.entries[i]
	if !x.weights {
		e.count++
		return nil
	}
	w := a[1]
	if w.IsNull() {
		return nil
	}
	if w.Kind() == types.KindInt64 {
		if w.Int64() < 0 {
			return sqlerr.New(sqlerr.InvalidArgument, "APPROX_TOP_SUM: weight must not be negative, got %d", w.Int64())
		}
		s, err := addInt(e.isum, w.Int64())
		if err != nil {
			return sqlerr.New(sqlerr.OutOfRange, "int64 overflow in APPROX_TOP_SUM")
		}
		e.isum, e.set = s, true
		return nil
	}
	f := w.Float64()
	if f < 0 || math.IsNaN(f) {
		return sqlerr.New(sqlerr.InvalidArgument, "APPROX_TOP_SUM: weight must not be negative or NaN, got %v", f)
	}
	e.fsum, e.set = e.fsum+f, true
	return nil
}

// Result lists the n values with the largest counts (sums; a NULL sum
// ranks last), ties in first-seen order.
func (x *topAcc) Result() (types.Value, error) {
	if len(x.entries) == 0 {
		return types.NullOf(x.ret), nil
	}
	es := slices.Clone(x.entries)
	slices.SortStableFunc(es, func(a, b topEntry) int {
		switch {
		case !x.weights:
			return cmp.Compare(b.count, a.count)
		case a.set != b.set:
			if a.set {
				return -1
			}
			return 1
		case x.sumType().Kind == types.KindInt64:
			return cmp.Compare(b.isum, a.isum)
		}
		return cmp.Compare(b.fsum, a.fsum)
	})
	es = es[:min(int64(len(es)), x.n)]
	st := x.ret.Elem
	out := make([]types.Value, len(es))
	for i, e := range es {
		second := types.Int64Value(e.count)
		if x.weights {
			switch {
			case !e.set:
				second = types.NullOf(x.sumType())
			case x.sumType().Kind == types.KindInt64:
				second = types.Int64Value(e.isum)
			default:
				second = types.Float64Value(e.fsum)
			}
		}
		out[i] = types.StructValue(st, []types.Value{e.v, second})
	}
	return types.ArrayValue(x.ret, out), nil
}

func (x *topAcc) sumType() *types.Type { return x.ret.Elem.Fields[1].Type }

func (x *topAcc) Mem() int64 { return 96 + x.mem }

// appendValueKey appends an injective encoding of v: equal values (as
// GROUP BY and DISTINCT compare them: NULL with NULL, -0 with 0) encode
// alike.
func appendValueKey(dst []byte, v types.Value) []byte {
	if v.IsNull() {
		return append(dst, 0)
	}
	dst = append(dst, byte(v.Kind())+1)
	switch v.Kind() {
	case types.KindFloat32, types.KindFloat64:
		f := v.Float64()
		switch {
		case f == 0:
			f = 0
		case math.IsNaN(f):
			f = math.NaN()
		}
		return binary.BigEndian.AppendUint64(dst, math.Float64bits(f))
	case types.KindString, types.KindBytes, types.KindProto:
		dst = binary.AppendUvarint(dst, uint64(len(v.Bytes())))
		return append(dst, v.Bytes()...)
	case types.KindArray, types.KindStruct:
		dst = binary.AppendUvarint(dst, uint64(len(v.Elems())))
		for _, e := range v.Elems() {
			dst = appendValueKey(dst, e)
		}
		return dst
	}
	return binary.BigEndian.AppendUint64(dst, uint64(v.Int64()))
}
