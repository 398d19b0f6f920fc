package pgcatalog

import (
	"fmt"
	"math"
	"strings"

	"github.com/shale-db/shale/internal/pgjson"
)

// json_build_object, json_build_array and their jsonb twins (and, below,
// the functions that read json values: jsonops.go has the operators): SQLAlchemy's
// column reflection (and so Superset's table browser) calls
// json_build_object. Values become JSON as PostgreSQL's to_json makes them:
// numbers and booleans as themselves, json as it is, arrays as JSON arrays,
// timestamps in ISO 8601, anything else as the JSON string of its text.
// json output keeps PostgreSQL's spacing ({"a" : 1, "b" : [1,2]}); jsonb
// output is normalized as jsonb stores it: keys sorted by length and then
// bytes, the last of duplicate keys kept, ", " and ": " between items.

func init() {
	register("json_build_object", jsonBuilder("json_build_object", tJSON, true))
	register("json_build_array", jsonBuilder("json_build_array", tJSON, false))
	register("jsonb_build_object", jsonBuilder("jsonb_build_object", tJSONB, true))
	register("jsonb_build_array", jsonBuilder("jsonb_build_array", tJSONB, false))
	// The functions behind the ? operators.
	register("jsonb_exists", &builtin{min: 2, args: []uint32{tJSONB, tText}, ret: tBool, fn: jsonFn(tJSONB, func(n *jsonNode, a []Value) (Value, error) {
		return boolV(jsonHasKey(n, a[0].s)), nil
	})})
	for name, isAny := range map[string]bool{"jsonb_exists_any": true, "jsonb_exists_all": false} {
		register(name, &builtin{min: 2, args: []uint32{tJSONB, tTextArray}, ret: tBool, fn: jsonFn(tJSONB, func(n *jsonNode, a []Value) (Value, error) {
			for _, k := range a[0].a {
				if has := !k.isNull() && jsonHasKey(n, k.s); has == isAny {
					return boolV(isAny), nil
				}
			}
			return boolV(!isAny), nil
		})})
	}
	for _, typ := range []uint32{tJSON, tJSONB} {
		prefix := jsonTypeName(typ)
		register(prefix+"_typeof", &builtin{min: 1, args: []uint32{typ}, ret: tText, fn: jsonFn(typ, func(n *jsonNode, _ []Value) (Value, error) {
			return textV(n.typeName()), nil
		})})
		register(prefix+"_array_length", &builtin{min: 1, args: []uint32{typ}, ret: tInt4, fn: jsonFn(typ, func(n *jsonNode, _ []Value) (Value, error) {
			switch n.kind {
			case jsonArray:
				return intV(int64(len(n.elems))), nil
			case jsonObject:
				return null, errorf(CodeInvalidParameter, noPos, "cannot get array length of a non-array")
			}
			return null, errorf(CodeInvalidParameter, noPos, "cannot get array length of a scalar")
		})})
		for _, asText := range []bool{false, true} {
			name, ret := prefix+"_extract_path", typ
			if asText {
				name, ret = name+"_text", tText
			}
			register(name, &builtin{min: 1, max: -1, args: []uint32{typ, tText}, ret: ret, pathArgs: true, fn: jsonFn(typ, func(n *jsonNode, a []Value) (Value, error) {
				got := jsonPath(n, a)
				if asText {
					return jsonText(got, typ == tJSONB), nil
				}
				return jsonResult(got, typ), nil
			})})
		}
		registerJSONSets(prefix, typ)
	}
	for _, typ := range []uint32{tJSON, tJSONB} {
		register("to_"+jsonTypeName(typ), &builtin{min: 1, ret: typ, lenient: true, fn: func(ev *evaluator, a []Value, t []uint32) (Value, error) {
			if a[0].isNull() {
				return null, nil
			}
			var b strings.Builder
			ev.writeJSON(&b, a[0], t[0])
			return jsonValue(b.String(), typ)
		}})
	}
}

// jsonTypeName is "json" or "jsonb" (formatType's tables are not built
// yet when functions register).
func jsonTypeName(typ uint32) string {
	if typ == tJSONB {
		return "jsonb"
	}
	return "json"
}

// jsonFn adapts a function of a parsed json or jsonb first argument (and
// the other arguments) to a builtin's fn.
func jsonFn(typ uint32, fn func(n *jsonNode, rest []Value) (Value, error)) func(*evaluator, []Value, []uint32) (Value, error) {
	return func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		n, err := jsonArg(a[0], typ)
		if err != nil {
			return null, err
		}
		return fn(n, a[1:])
	}
}

// registerJSONSets registers the set-returning functions of json or
// jsonb: _object_keys, _each, _each_text, _array_elements and
// _array_elements_text.
func registerJSONSets(prefix string, typ uint32) {
	jsonb := typ == tJSONB
	set := func(name string, ret uint32, fields []colDef, call func(n *jsonNode) ([]Value, error)) {
		srfs[prefix+name] = &srfDef{min: 1, max: 1, retType: ret, ret: constType(ret), fields: fields,
			call: func(_ *evaluator, a []Value, _ []uint32) ([]Value, error) {
				if a[0].isNull() {
					return nil, nil
				}
				n, err := jsonArg(a[0], typ)
				if err != nil {
					return nil, err
				}
				return call(n)
			}}
		if strings.HasPrefix(name, "_array_elements") { // its OUT parameter
			srfs[prefix+name].outName = "value"
		}
	}
	wrongKind := func(fn string, n *jsonNode) error {
		if n.kind == jsonArray {
			return errorf(CodeInvalidParameter, noPos, "cannot call %s on an array", fn)
		}
		return errorf(CodeInvalidParameter, noPos, "cannot call %s on a scalar", fn)
	}
	set("_object_keys", tText, nil, func(n *jsonNode) ([]Value, error) {
		if n.kind != jsonObject {
			return nil, wrongKind(prefix+"_object_keys", n)
		}
		out := make([]Value, len(n.keys))
		for i, k := range n.keys {
			out[i] = textV(k)
		}
		return out, nil
	})
	for _, asText := range []bool{false, true} {
		each, valType := "_each", typ
		if asText {
			each, valType = "_each_text", tText
		}
		set(each, tRecord, []colDef{{"key", tText}, {"value", valType}}, func(n *jsonNode) ([]Value, error) {
			if n.kind != jsonObject {
				return nil, errorf(CodeInvalidParameter, noPos, "cannot call %s on a non-object", prefix+each)
			}
			out := make([]Value, len(n.keys))
			for i, k := range n.keys {
				v := jsonResult(n.vals[i], typ)
				if asText {
					v = jsonText(n.vals[i], jsonb)
				}
				out[i] = Value{k: kRecord, a: []Value{textV(k), v}, names: []string{"key", "value"}}
			}
			return out, nil
		})
		elems, elemType := "_array_elements", typ
		if asText {
			elems, elemType = "_array_elements_text", tText
		}
		set(elems, elemType, nil, func(n *jsonNode) ([]Value, error) {
			if n.kind != jsonArray {
				if n.kind == jsonObject {
					return nil, errorf(CodeInvalidParameter, noPos, "cannot extract elements from an object")
				}
				return nil, errorf(CodeInvalidParameter, noPos, "cannot extract elements from a scalar")
			}
			out := make([]Value, len(n.elems))
			for i, e := range n.elems {
				out[i] = jsonResult(e, typ)
				if asText {
					out[i] = jsonText(e, jsonb)
				}
			}
			return out, nil
		})
	}
}

func jsonBuilder(name string, ret uint32, object bool) *builtin {
	return &builtin{min: 0, max: -1, ret: ret, lenient: true, fn: func(ev *evaluator, a []Value, t []uint32) (Value, error) {
		var b strings.Builder
		if !object {
			b.WriteByte('[')
			for i := range a {
				if i > 0 {
					b.WriteString(", ")
				}
				ev.writeJSON(&b, a[i], t[i])
			}
			b.WriteByte(']')
			return jsonValue(b.String(), ret)
		}
		if len(a)%2 != 0 {
			return null, &Error{Code: CodeInvalidParameter, Message: "argument list must have even number of elements",
				Hint: fmt.Sprintf("The arguments of %s() must consist of alternating keys and values.", name)}
		}
		b.WriteByte('{')
		for i := 0; i < len(a); i += 2 {
			if a[i].isNull() && name == "jsonb_build_object" { // PostgreSQL 15 words the two differently
				return null, errorf(CodeInvalidParameter, noPos, "argument %d: key must not be null", i+1)
			}
			if a[i].isNull() {
				return null, &Error{Code: CodeInvalidParameter, Message: fmt.Sprintf("argument %d cannot be null", i+1),
					Hint: "Object keys should be text."}
			}
			if i > 0 {
				b.WriteString(", ")
			}
			writeJSONString(&b, ev.text(a[i], t[i]))
			b.WriteString(" : ")
			ev.writeJSON(&b, a[i+1], t[i+1])
		}
		b.WriteByte('}')
		return jsonValue(b.String(), ret)
	}}
}

// jsonValue is text as a value of type ret: jsonb is normalized.
func jsonValue(text string, ret uint32) (Value, error) {
	if ret != tJSONB {
		return textV(text), nil
	}
	n, err := parseJSON(text, true)
	if err != nil {
		return null, err
	}
	return textV(n.text(true)), nil
}

// writeJSON writes v of type typ as JSON (arrays without spaces, as
// PostgreSQL's array_to_json writes them).
func (ev *evaluator) writeJSON(b *strings.Builder, v Value, typ uint32) {
	switch {
	case v.isNull():
		b.WriteString("null")
	case v.k == kArray:
		elem := elemType(typ)
		b.WriteByte('[')
		for i, e := range v.a {
			if i > 0 {
				b.WriteByte(',')
			}
			ev.writeJSON(b, e, elem)
		}
		b.WriteByte(']')
	case v.k == kRecord && len(v.names) == len(v.a): // a row: an object of its named fields
		b.WriteByte('{')
		for i, f := range v.a {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSONString(b, v.names[i])
			b.WriteByte(':')
			ev.writeJSON(b, f, fieldType(v, i))
		}
		b.WriteByte('}')
	case v.k == kBool:
		b.WriteString(map[bool]string{true: "true", false: "false"}[v.b])
	case v.k == kInt && !isRegType(typ) && typ != tOid:
		b.WriteString(ev.text(v, typ))
	case v.k == kFloat && !math.IsNaN(v.f) && !math.IsInf(v.f, 0), v.k == kNumeric && v.s != "NaN":
		b.WriteString(ev.text(v, typ))
	case typ == tJSON || typ == tJSONB:
		b.WriteString(v.s)
	case typ == tTimestamptz || typ == tTimestamp:
		writeJSONString(b, isoTimestamp(ev.text(v, typ)))
	default:
		writeJSONString(b, ev.text(v, typ))
	}
}

// isoTimestamp turns PostgreSQL's timestamp text (2024-01-02 03:04:05+00)
// into JSON's ISO 8601 form (2024-01-02T03:04:05+00:00).
func isoTimestamp(s string) string {
	s = strings.Replace(s, " ", "T", 1)
	if n := len(s); n >= 3 && (s[n-3] == '+' || s[n-3] == '-') && strings.IndexByte(s, 'T') < n-3 {
		s += ":00"
	}
	return s
}

// writeJSONString writes s as a JSON string literal, as PostgreSQL does.
func writeJSONString(b *strings.Builder, s string) {
	var buf [64]byte
	b.Write(pgjson.AppendString(buf[:0], s))
}
