package sql

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/shale-db/shale/sql/types"
)

// String functions: each has a STRING and a BYTES overload where GoogleSQL
// has one.
func init() {
	both := func(name string, ret func(*types.Type) *types.Type, eval func([]types.Value, *types.Type) (types.Value, error), n int) {
		for _, t := range []*types.Type{types.String, types.Bytes} {
			args := make([]*types.Type, n)
			for i := range args {
				args[i] = t
			}
			Register(name, fixed(ret(t), eval, args...))
		}
	}
	same := func(t *types.Type) *types.Type { return t }
	boolRet := func(*types.Type) *types.Type { return types.Bool }
	intRet := func(*types.Type) *types.Type { return types.Int64 }
	both("STARTS_WITH", boolRet, func(a []types.Value, _ *types.Type) (types.Value, error) {
		return types.BoolValue(bytes.HasPrefix(a[0].Bytes(), a[1].Bytes())), nil
	}, 2)
	both("ENDS_WITH", boolRet, func(a []types.Value, _ *types.Type) (types.Value, error) {
		return types.BoolValue(bytes.HasSuffix(a[0].Bytes(), a[1].Bytes())), nil
	}, 2)
	both("LENGTH", intRet, func(a []types.Value, _ *types.Type) (types.Value, error) {
		if a[0].Kind() == types.KindString {
			return types.Int64Value(int64(utf8.RuneCount(a[0].Bytes()))), nil
		}
		return types.Int64Value(int64(len(a[0].Bytes()))), nil
	}, 1)
	both("BYTE_LENGTH", intRet, func(a []types.Value, _ *types.Type) (types.Value, error) {
		return types.Int64Value(int64(len(a[0].Bytes()))), nil
	}, 1)
	both("LOWER", same, caseMap(strings.ToLower, bytes.ToLower), 1)
	both("UPPER", same, caseMap(strings.ToUpper, bytes.ToUpper), 1)
	for _, t := range []*types.Type{types.String, types.Bytes} {
		Register("CONCAT", &Overload{Args: []*types.Type{t}, Variadic: true, Ret: t, Eval: concatValues})
		Register("SPLIT", fixed(types.ArrayOf(t), split, t, t))
	}
	Register("SPLIT", fixed(types.ArrayOf(types.String), split, types.String))
	Register("JSON_VALUE",
		fixed(types.String, jsonValue, types.String, types.String),
		fixed(types.String, jsonValue, types.String))
}

func caseMap(s func(string) string, b func([]byte) []byte) func([]types.Value, *types.Type) (types.Value, error) {
	return func(a []types.Value, ret *types.Type) (types.Value, error) {
		if ret.Kind == types.KindString {
			return types.StringValue(s(a[0].Str())), nil
		}
		return types.BytesValue(b(a[0].Bytes())), nil
	}
}

func split(a []types.Value, ret *types.Type) (types.Value, error) {
	delim := []byte(",")
	if len(a) > 1 {
		delim = a[1].Bytes()
	}
	s := a[0].Bytes()
	var parts [][]byte
	switch {
	case len(s) == 0:
		parts = [][]byte{{}}
	case len(delim) == 0 && ret.Elem.Kind == types.KindString:
		for _, r := range string(s) {
			parts = append(parts, []byte(string(r)))
		}
	case len(delim) == 0:
		for i := range s {
			parts = append(parts, s[i:i+1])
		}
	default:
		parts = bytes.Split(s, delim)
	}
	out := make([]types.Value, len(parts))
	for i, p := range parts {
		if ret.Elem.Kind == types.KindString {
			out[i] = types.StringBytesValue(p)
		} else {
			out[i] = types.BytesValue(p)
		}
	}
	return types.ArrayValue(ret, out), nil
}

// jsonValue implements JSON_VALUE(json, path) for the path subset
// $, .field, ['field'] and [index]; a non-scalar or missing result is NULL.
func jsonValue(a []types.Value, ret *types.Type) (types.Value, error) {
	path := "$"
	if len(a) > 1 {
		path = a[1].Str()
	}
	var doc any
	if err := json.Unmarshal(a[0].Bytes(), &doc); err != nil {
		return types.NullOf(ret), nil
	}
	v, ok := jsonPath(doc, path)
	if !ok {
		return types.NullOf(ret), nil
	}
	switch v := v.(type) {
	case string:
		return types.StringValue(v), nil
	case float64:
		return types.StringValue(strconv.FormatFloat(v, 'g', -1, 64)), nil
	case bool:
		return types.StringValue(strconv.FormatBool(v)), nil
	}
	return types.NullOf(ret), nil
}

func jsonPath(doc any, path string) (any, bool) {
	if !strings.HasPrefix(path, "$") {
		return nil, false
	}
	p := path[1:]
	for p != "" {
		switch {
		case p[0] == '.':
			end := strings.IndexAny(p[1:], ".[")
			if end < 0 {
				end = len(p) - 1
			}
			m, ok := doc.(map[string]any)
			if !ok {
				return nil, false
			}
			doc, p = m[p[1:1+end]], p[1+end:]
		case p[0] == '[':
			end := strings.IndexByte(p, ']')
			if end < 0 {
				return nil, false
			}
			key := p[1:end]
			p = p[end+1:]
			if n, err := strconv.Atoi(key); err == nil {
				arr, ok := doc.([]any)
				if !ok || n < 0 || n >= len(arr) {
					return nil, false
				}
				doc = arr[n]
				continue
			}
			m, ok := doc.(map[string]any)
			if !ok {
				return nil, false
			}
			doc = m[strings.Trim(key, `'"`)]
		default:
			return nil, false
		}
	}
	return doc, doc != nil
}
