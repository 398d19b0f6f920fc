package sql

import (
	"fmt"
	"math"

	"github.com/shale-db/shale/sql/types"
)

// Statistical aggregates (spec §4.6): CORR, COVAR_POP, COVAR_SAMP,
// STDDEV_POP, STDDEV_SAMP (STDDEV), VAR_POP and VAR_SAMP (VARIANCE). They
// take numbers, return FLOAT64, and ignore NULL inputs (for the two-argument
// ones, any pair holding a NULL). Moments are folded with Welford's updates,
// so large values with a small spread keep their precision. A NaN or
// infinite input makes the result NaN. Too few inputs give NULL: none for
// the _POP functions, fewer than two for the others.
func init() {
	for _, f := range []struct {
		name       string
		samp, sqrt bool
	}{
		{"VAR_POP", false, false}, {"VAR_SAMP", true, false}, {"VARIANCE", true, false},
		{"STDDEV_POP", false, true}, {"STDDEV_SAMP", true, true}, {"STDDEV", true, true},
	} {
		RegisterAgg(f.name, &AggFunc{Result: numericArgs(f.name, 1),
			New: func(*types.Type, []*types.Type) Accumulator { return &varAcc{samp: f.samp, sqrt: f.sqrt} }})
	}
	for _, f := range []struct {
		name string
		kind covKind
	}{{"COVAR_POP", covPop}, {"COVAR_SAMP", covSamp}, {"CORR", corr}} {
		RegisterAgg(f.name, &AggFunc{Result: numericArgs(f.name, 2),
			New: func(*types.Type, []*types.Type) Accumulator { return &covAcc{kind: f.kind} }})
	}
}

// numericArgs checks for n numeric arguments; the result is FLOAT64.
func numericArgs(fn string, n int) func([]*types.Type) (*types.Type, error) {
	return func(a []*types.Type) (*types.Type, error) {
		if len(a) != n {
			return nil, fmt.Errorf("%s takes %d argument(s), got %d", fn, n, len(a))
		}
		for _, t := range a {
			if !t.IsNumeric() {
				return nil, fmt.Errorf("%s expects numeric arguments, got %s", fn, t)
			}
		}
		return types.Float64, nil
	}
}

// varAcc folds the count, mean and sum of squared deviations (m2):
// with d the distance of the n-th input from the mean of the first n-1,
// m2 grows by d²(n-1)/n.
type varAcc struct {
	n          int64
	mean, m2   float64
	samp, sqrt bool
	nonFinite  bool // an input was ±Inf or NaN: the result is NaN
}

func (x *varAcc) Add(a []types.Value) error {
	if a[0].IsNull() {
		return nil
	}
	v := num(a[0])
	x.nonFinite = x.nonFinite || math.IsInf(v, 0) || math.IsNaN(v)
	x.n++
	n := float64(x.n)
	d := v - x.mean
	x.m2 += d * d * (n - 1) / n
	x.mean += d / n
	return nil
}

func (x *varAcc) Result() (types.Value, error) {
	if x.n == 0 || x.samp && x.n < 2 {
		return types.NullOf(types.Float64), nil
	}
	if x.nonFinite {
		return types.Float64Value(math.NaN()), nil
	}
	d := float64(x.n)
	if x.samp {
		d--
	}
	r := x.m2 / d
	if x.sqrt {
		r = math.Sqrt(r)
	}
	return types.Float64Value(r), nil
}

func (x *varAcc) Mem() int64 { return 48 }

type covKind uint8

const (
	covPop covKind = iota
	covSamp
	corr
)

// covAcc folds the count, both means, the co-moment c and (for CORR) each
// variable's m2.
type covAcc struct {
	kind     covKind
	n        int64
	mx, my   float64
	c        float64
	m2x, m2y float64
	// nonFinite: an input was ±Inf or NaN, so the result is NaN.
	nonFinite bool
}

func (x *covAcc) Add(a []types.Value) error {
	if a[0].IsNull() || a[1].IsNull() {
		return nil
	}
	u, v := num(a[0]), num(a[1])
	x.nonFinite = x.nonFinite || math.IsInf(u, 0) || math.IsNaN(u) || math.IsInf(v, 0) || math.IsNaN(v)
	x.n++
	n := float64(x.n)
	du, dv := u-x.mx, v-x.my
	x.c += du * dv * (n - 1) / n
	x.m2x += du * du * (n - 1) / n
	x.m2y += dv * dv * (n - 1) / n
	x.mx += du / n
	x.my += dv / n
	return nil
}

func (x *covAcc) Result() (types.Value, error) {
	if x.n == 0 || x.kind != covPop && x.n < 2 {
		return types.NullOf(types.Float64), nil
	}
	if x.nonFinite {
		return types.Float64Value(math.NaN()), nil
	}
	switch x.kind {
	case covPop:
		return types.Float64Value(x.c / float64(x.n)), nil
	case covSamp:
		return types.Float64Value(x.c / float64(x.n-1)), nil
	}
	d := math.Sqrt(x.m2x * x.m2y)
	if math.IsInf(d, 0) { // the product overflowed
		d = math.Sqrt(x.m2x) * math.Sqrt(x.m2y)
	}
	r := x.c / d
	if r > 1 { // rounding; NaN passes through
		r = 1
	} else if r < -1 {
		r = -1
	}
	return types.Float64Value(r), nil
}

func (x *covAcc) Mem() int64 { return 64 }
