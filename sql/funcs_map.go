package sql

import (
	"github.com/shale-db/shale/sql/types"
)

// MAP functions (spec §4.6): results are in key order (invariant T3).
func init() {
	mapArg := func(fn string, ret func(m *types.Type) *types.Type) func([]*types.Type) (*types.Type, error) {
		return func(a []*types.Type) (*types.Type, error) {
			if err := needKind(fn, 0, types.KindMap, a); err != nil {
				return nil, err
			}
			return ret(a[0]), nil
		}
	}
	Register("MAP_KEYS", generic(1, mapArg("MAP_KEYS", func(m *types.Type) *types.Type {
		return types.ArrayOf(m.Key)
	}), mapPart(0)))
	Register("MAP_VALUES", generic(1, mapArg("MAP_VALUES", func(m *types.Type) *types.Type {
		return types.ArrayOf(m.Elem)
	}), mapPart(1)))
	Register("MAP_ENTRIES", generic(1, mapArg("MAP_ENTRIES", func(m *types.Type) *types.Type {
		return types.ArrayOf(types.StructOf(types.Field{Name: "key", Type: m.Key}, types.Field{Name: "value", Type: m.Elem}))
	}), mapEntries))
	Register("MAP_EMPTY", generic(1, mapArg("MAP_EMPTY", func(*types.Type) *types.Type { return types.Bool }),
		func(a []types.Value, _ *types.Type) (types.Value, error) {
			return types.BoolValue(a[0].Len() == 0), nil
		}))
	Register("MAP_CONTAINS_KEY", &Overload{
		Args:     []*types.Type{nil, nil},
		ArgTypes: func(a []*types.Type) []*types.Type { return []*types.Type{nil, mapKey(a[0])} },
		Result:   mapArg("MAP_CONTAINS_KEY", func(*types.Type) *types.Type { return types.Bool }),
		Eval: func(a []types.Value, _ *types.Type) (types.Value, error) {
			_, ok := a[0].MapGet(a[1])
			return types.BoolValue(ok), nil
		},
	})
}

func mapKey(t *types.Type) *types.Type {
	if t.Kind == types.KindMap {
		return t.Key
	}
	return nil
}

func mapPart(part int) func([]types.Value, *types.Type) (types.Value, error) {
	return func(a []types.Value, ret *types.Type) (types.Value, error) {
		m := a[0]
		out := make([]types.Value, m.Len())
		for i := range out {
			k, v := m.MapEntry(i)
			if part == 0 {
				out[i] = k
			} else {
				out[i] = v
			}
		}
		return types.ArrayValue(ret, out), nil
	}
}

func mapEntries(a []types.Value, ret *types.Type) (types.Value, error) {
	m := a[0]
	out := make([]types.Value, m.Len())
	for i := range out {
		k, v := m.MapEntry(i)
		out[i] = types.StructValue(ret.Elem, []types.Value{k, v})
	}
	return types.ArrayValue(ret, out), nil
}
