package sql

import (
	"fmt"
	"math"

	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

// Vector functions (GoogleSQL "Distance" functions, used for KNN search in
// Bigtable): COSINE_DISTANCE, EUCLIDEAN_DISTANCE and DOT_PRODUCT over
// ARRAY<FLOAT64>, ARRAY<FLOAT32> or ARRAY<INT64> vectors (TO_VECTOR32 and
// TO_VECTOR64 decode them from bytes). A NULL vector gives NULL; vectors of
// different lengths, a NULL element, and a zero vector in COSINE_DISTANCE
// are errors. The result is FLOAT64, computed in float64.
func init() {
	for name, eval := range map[string]func([]types.Value, *types.Type) (types.Value, error){
		"COSINE_DISTANCE": cosineDistance, "EUCLIDEAN_DISTANCE": euclideanDistance, "DOT_PRODUCT": dotProduct,
	} {
		ov := generic(2, vectorResult(name), eval)
		ov.ArgTypes = vectorArgTypes
		Register(name, ov)
	}
}

// vectorArgTypes coerces an INT64 argument (the NULL literal's type) to
// ARRAY<FLOAT64>; any other INT64 then fails to coerce.
func vectorArgTypes(args []*types.Type) []*types.Type {
	out := make([]*types.Type, len(args))
	for i, a := range args {
		if a.Kind == types.KindInt64 {
			out[i] = types.ArrayOf(types.Float64)
		}
	}
	return out
}

func vectorResult(name string) func([]*types.Type) (*types.Type, error) {
	return func(a []*types.Type) (*types.Type, error) {
		for i := range a {
			if a[i].Kind != types.KindArray || !a[i].Elem.IsNumeric() {
				return nil, fmt.Errorf("%s expects ARRAY<FLOAT64>, ARRAY<FLOAT32> or ARRAY<INT64> vectors, got %s", name, a[i])
			}
		}
		return types.Float64, nil
	}
}

// vectors returns the elements of two vectors after checking that they
// have the same length and no NULL element.
func vectors(name string, a []types.Value) (x, y []types.Value, err error) {
	x, y = a[0].Elems(), a[1].Elems()
	if len(x) != len(y) {
		return nil, nil, sqlerr.New(sqlerr.OutOfRange,
			"%s: vectors have different lengths %d and %d", name, len(x), len(y))
	}
	for i := range x {
		if x[i].IsNull() || y[i].IsNull() {
			return nil, nil, sqlerr.New(sqlerr.OutOfRange, "%s: a vector has a NULL element at offset %d", name, i)
		}
	}
	return x, y, nil
}

func cosineDistance(a []types.Value, _ *types.Type) (types.Value, error) {
	x, y, err := vectors("COSINE_DISTANCE", a)
	if err != nil {
		return types.Value{}, err
	}
	var dot, nx, ny float64
	for i := range x {
		xf, yf := num(x[i]), num(y[i])
		dot += xf * yf
		nx += xf * xf
		ny += yf * yf
	}
	if nx == 0 || ny == 0 {
		return types.Value{}, sqlerr.New(sqlerr.OutOfRange, "COSINE_DISTANCE: cannot compute the distance to a zero vector")
	}
	norm := math.Sqrt(nx * ny) // one rounding: parallel vectors give exactly 0 or 2
	if math.IsInf(nx*ny, 0) {
		norm = math.Sqrt(nx) * math.Sqrt(ny)
	}
	return types.Float64Value(1 - dot/norm), nil
}

func euclideanDistance(a []types.Value, _ *types.Type) (types.Value, error) {
	x, y, err := vectors("EUCLIDEAN_DISTANCE", a)
	if err != nil {
		return types.Value{}, err
	}
	var sum float64
	for i := range x {
		d := num(x[i]) - num(y[i])
		sum += d * d
	}
	return types.Float64Value(math.Sqrt(sum)), nil
}

func dotProduct(a []types.Value, _ *types.Type) (types.Value, error) {
	x, y, err := vectors("DOT_PRODUCT", a)
	if err != nil {
		return types.Value{}, err
	}
	var dot float64
	for i := range x {
		dot += num(x[i]) * num(y[i])
	}
	return types.Float64Value(dot), nil
}
