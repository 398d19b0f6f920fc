package exec

import (
	"context"
	"slices"

	"github.com/shale-db/shale/sql"
	"github.com/shale-db/shale/sql/types"
)

// unpackOp turns each input row into one row per distinct cell timestamp,
// newest first (spec §4.4): versioned maps keep the entries with a version
// at that timestamp, versioned arrays become that version's value (NULL
// when absent), other columns are copied; `_timestamp` is appended.
type unpackOp struct {
	in    Operator
	kinds []sql.UnpackKind
	size  int

	cur *Batch
	ri  int
	ts  []int64 // timestamps of the current row, descending
	ti  int
	out Batch
}

func (u *unpackOp) Open(ctx context.Context) error { return u.in.Open(ctx) }
func (u *unpackOp) Close() error                   { return u.in.Close() }
func (u *unpackOp) bind(map[string]types.Value)    {}

func (u *unpackOp) release() {
	u.cur, u.ri, u.ts, u.ti = nil, 0, nil, 0
	u.out.Rows = trim(u.out.Rows, maxPooledValues)
}

func (u *unpackOp) Next() (*Batch, error) {
	u.out.Rows = u.out.Rows[:0]
	for len(u.out.Rows) < u.size {
		if u.cur == nil || u.ri >= len(u.cur.Rows) {
			if len(u.out.Rows) > 0 {
				break
			}
			b, err := u.in.Next()
			if err != nil || b == nil {
				return nil, err
			}
			u.cur, u.ri, u.ts = b, 0, nil
		}
		row := u.cur.Rows[u.ri]
		if u.ts == nil {
			u.ts, u.ti = u.timestamps(row), 0
		}
		if u.ti >= len(u.ts) {
			u.ri++
			u.ts = nil
			continue
		}
		u.out.Rows = append(u.out.Rows, u.unpackRow(row, u.ts[u.ti]))
		u.ti++
	}
	if len(u.out.Rows) == 0 {
		return nil, nil
	}
	return &u.out, nil
}

func (u *unpackOp) timestamps(row []types.Value) []int64 {
	ts := []int64{}
	addVersions := func(arr types.Value) {
		for _, v := range arr.Elems() {
			ts = append(ts, v.Elems()[0].Int64())
		}
	}
	for i, k := range u.kinds {
		v := row[i]
		if v.IsNull() {
			continue
		}
		switch k {
		case sql.UnpackMap:
			for j := 0; j < v.Len(); j++ {
				_, arr := v.MapEntry(j)
				addVersions(arr)
			}
		case sql.UnpackArray:
			addVersions(v)
		}
	}
	slices.Sort(ts)
	ts = slices.Compact(ts)
	slices.Reverse(ts)
	return ts
}

func (u *unpackOp) unpackRow(row []types.Value, ts int64) []types.Value {
	out := make([]types.Value, len(u.kinds)+1)
	for i, k := range u.kinds {
		v := row[i]
		switch {
		case k == sql.UnpackCopy:
			out[i] = v
		case v.IsNull():
			out[i] = types.Value{}
		case k == sql.UnpackArray:
			out[i] = versionAt(v, ts, v.Type().Elem.Fields[1].Type)
		default:
			mt := v.Type()
			vt := mt.Elem.Elem.Fields[1].Type
			var kv []types.Value
			for j := 0; j < v.Len(); j++ {
				key, arr := v.MapEntry(j)
				if x := versionAt(arr, ts, vt); !x.IsNull() {
					kv = append(kv, key, x)
				}
			}
			out[i] = types.MapValue(types.MapOf(mt.Key, vt), kv)
		}
	}
	out[len(u.kinds)] = types.TimestampValue(ts)
	return out
}

func versionAt(arr types.Value, ts int64, t *types.Type) types.Value {
	for _, v := range arr.Elems() {
		if f := v.Elems(); f[0].Int64() == ts {
			return f[1]
		}
	}
	return types.NullOf(t)
}
