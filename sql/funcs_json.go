package sql

import (
	"bytes"

	"github.com/shale-db/shale/sql/types"
)

// JSON functions over STRING (Shale has no JSON type): the standard
// extractors JSON_QUERY, JSON_VALUE, JSON_QUERY_ARRAY and JSON_VALUE_ARRAY,
// and the legacy JSON_EXTRACT, JSON_EXTRACT_SCALAR, JSON_EXTRACT_ARRAY and
// JSON_EXTRACT_STRING_ARRAY, which quote names as ['a.b'] instead of
// ."a.b". The path defaults to '$' except for JSON_QUERY and JSON_EXTRACT.
// A JSON null, a path that matches nothing and malformed JSON give NULL; a
// malformed path is an error. Paths and scanning are in jsonpath.go.
func init() {
	str, arr := types.String, types.ArrayOf(types.String)
	for _, f := range []struct {
		name     string
		standard bool
		ret      *types.Type
		extract  jsonExtract
		optional bool
	}{
		{"JSON_QUERY", true, str, extractQuery, false},
		{"JSON_EXTRACT", false, str, extractQuery, false},
		{"JSON_VALUE", true, str, extractValue, true},
		{"JSON_EXTRACT_SCALAR", false, str, extractValue, true},
		{"JSON_QUERY_ARRAY", true, arr, extractQueryArray, true},
		{"JSON_EXTRACT_ARRAY", false, arr, extractQueryArray, true},
		{"JSON_VALUE_ARRAY", true, arr, extractValueArray, true},
		{"JSON_EXTRACT_STRING_ARRAY", false, arr, extractValueArray, true},
	} {
		eval := jsonExtractor(f.standard, f.extract)
		Register(f.name, fixed(f.ret, eval, str, str))
		if f.optional {
			Register(f.name, fixed(f.ret, eval, str))
		}
	}
}

// jsonExtract says what a JSON function returns of the value it finds.
type jsonExtract uint8

const (
	extractQuery jsonExtract = iota
	extractValue
	extractQueryArray
	extractValueArray
)

// jsonExtractor returns the Eval of a JSON function: it finds the value at
// the path and extracts the result from it. (A switch rather than a
// function value keeps the scanner on the stack.)
func jsonExtractor(standard bool, extract jsonExtract) func([]types.Value, *types.Type) (types.Value, error) {
	return func(a []types.Value, ret *types.Type) (types.Value, error) {
		var path []jsonStep
		if len(a) > 1 {
			var err error
			if path, err = cachedJSONPath(a[1].Bytes(), standard); err != nil {
				return types.Value{}, err
			}
		}
		sc := jsonScanner{s: a[0].Bytes()}
		found, ok := sc.seek(path)
		v := types.NullOf(ret)
		if found && ok {
			switch extract {
			case extractQuery:
				v = jsonQuery(&sc, ret)
			case extractValue:
				v = jsonValue(&sc, ret)
			case extractQueryArray:
				v = jsonQueryArray(&sc, ret)
			case extractValueArray:
				v = jsonValueArray(&sc, ret)
			}
		}
		if sc.err != nil {
			return types.Value{}, sc.err
		}
		return v, nil
	}
}

// jsonQuery returns the value as compact JSON text; a JSON null is NULL.
func jsonQuery(sc *jsonScanner, ret *types.Type) types.Value {
	if _, kind := sc.peekScalar(); kind == jsonNull {
		return types.NullOf(ret)
	}
	out, ok := sc.value(nil, true)
	if !ok {
		return types.NullOf(ret)
	}
	return types.StringBytesValue(out)
}

// jsonValue returns a scalar as a STRING (strings unquoted and unescaped,
// numbers as written); null, arrays and objects are NULL.
func jsonValue(sc *jsonScanner, ret *types.Type) types.Value {
	s, ok := sc.scalarText()
	if !ok || s == nil {
		return types.NullOf(ret)
	}
	return types.StringBytesValue(s)
}

// jsonQueryArray returns the elements of an array as JSON text.
func jsonQueryArray(sc *jsonScanner, ret *types.Type) types.Value {
	if sc.peek() != '[' {
		return types.NullOf(ret)
	}
	var elems []types.Value
	ok := sc.elements(func() bool {
		out, ok := sc.value(nil, true)
		elems = append(elems, types.StringBytesValue(out))
		return ok
	})
	if !ok {
		return types.NullOf(ret)
	}
	return types.ArrayValue(ret, elems)
}

// jsonValueArray returns the elements of an array of scalars as STRINGs, a
// JSON null as NULL; an array holding an array or object is NULL.
func jsonValueArray(sc *jsonScanner, ret *types.Type) types.Value {
	if sc.peek() != '[' {
		return types.NullOf(ret)
	}
	var elems []types.Value
	ok := sc.elements(func() bool {
		s, ok := sc.scalarText()
		if s == nil {
			elems = append(elems, types.NullOf(types.String))
		} else {
			elems = append(elems, types.StringBytesValue(s))
		}
		return ok
	})
	if !ok {
		return types.NullOf(ret)
	}
	return types.ArrayValue(ret, elems)
}

// elements calls each once per element of the array at the scanner.
func (sc *jsonScanner) elements(each func() bool) bool {
	if !sc.enter() {
		return false
	}
	if sc.peek() == ']' {
		sc.i++
		sc.depth--
		return true
	}
	for more := true; more; {
		if !each() {
			return false
		}
		var ok bool
		if more, ok = sc.sep(']'); !ok {
			return false
		}
	}
	sc.depth--
	return true
}

// peekScalar is scalar without consuming the value.
func (sc *jsonScanner) peekScalar() ([]byte, byte) {
	i := sc.i
	v, kind := sc.scalar()
	sc.i = i
	return v, kind
}

// scalarText scans a scalar and returns its text as a new buffer: a
// string decoded, a number as written, true or false; nil for null. It
// fails on an array or object, which it does not consume.
func (sc *jsonScanner) scalarText() ([]byte, bool) {
	switch sc.peek() {
	case '{', '[':
		return nil, false
	case '"', '\'':
		s, ok := sc.str()
		return append([]byte{}, s...), ok
	}
	v, kind := sc.scalar()
	if kind == jsonNull {
		return nil, true
	}
	return bytes.Clone(v), kind != jsonBad
}
