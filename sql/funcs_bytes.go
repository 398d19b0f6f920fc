package sql

import (
	"encoding/binary"
	"math"

	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

// Bigtable's byte decoders (spec §4.6): big-endian integers and floats.
func init() {
	Register("TO_INT64",
		fixedTo(types.Int64, func(dst *types.Value, a []types.Value, _ *types.Type) error {
			b, err := fixedLen("TO_INT64", a[0].Bytes(), 8)
			if err != nil {
				return err
			}
			*dst = types.Int64Value(int64(binary.BigEndian.Uint64(b)))
			return nil
		}, types.Bytes),
		fixed(types.Int64, identity, types.Int64))
	Register("TO_FLOAT64",
		fixedTo(types.Float64, func(dst *types.Value, a []types.Value, _ *types.Type) error {
			b, err := fixedLen("TO_FLOAT64", a[0].Bytes(), 8)
			if err != nil {
				return err
			}
			*dst = types.Float64Value(math.Float64frombits(binary.BigEndian.Uint64(b)))
			return nil
		}, types.Bytes),
		fixed(types.Float64, identity, types.Float64))
	Register("TO_FLOAT32", fixedTo(types.Float32, func(dst *types.Value, a []types.Value, _ *types.Type) error {
		b, err := fixedLen("TO_FLOAT32", a[0].Bytes(), 4)
		if err != nil {
			return err
		}
		*dst = types.Float32Value(math.Float32frombits(binary.BigEndian.Uint32(b)))
		return nil
	}, types.Bytes))
	Register("TO_VECTOR32", fixed(types.ArrayOf(types.Float32), toVector(4), types.Bytes))
	Register("TO_VECTOR64", fixed(types.ArrayOf(types.Float64), toVector(8), types.Bytes))
}

func identity(a []types.Value, _ *types.Type) (types.Value, error) { return a[0], nil }

func fixedLen(fn string, b []byte, n int) ([]byte, error) {
	if len(b) != n {
		return nil, sqlerr.New(sqlerr.InvalidValue, "%s expects %d bytes, got %d", fn, n, len(b))
	}
	return b, nil
}

func toVector(width int) func([]types.Value, *types.Type) (types.Value, error) {
	return func(a []types.Value, ret *types.Type) (types.Value, error) {
		b := a[0].Bytes()
		if len(b)%width != 0 {
			return types.Value{}, sqlerr.New(sqlerr.InvalidValue,
				"TO_VECTOR%d: %d bytes is not a multiple of %d", width*8, len(b), width)
		}
		out := make([]types.Value, len(b)/width)
		for i := range out {
			if width == 4 {
				out[i] = types.Float32Value(math.Float32frombits(binary.BigEndian.Uint32(b[4*i:])))
			} else {
				out[i] = types.Float64Value(math.Float64frombits(binary.BigEndian.Uint64(b[8*i:])))
			}
		}
		return types.ArrayValue(ret, out), nil
	}
}

// num reads an INT64 or float value as float64.
func num(v types.Value) float64 {
	if v.Kind() == types.KindInt64 {
		return float64(v.Int64())
	}
	return v.Float64()
}
