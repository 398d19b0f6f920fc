package pgcatalog

import (
	"slices"
	"strconv"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// Building and editing jsonb values: || - #- and subscripts, jsonb_set,
// jsonb_insert, jsonb_pretty, json[b]_strip_nulls, row_to_json and array_to_json, with
// PostgreSQL 15's results and errors. Edits copy the nodes they change;
// a parsed value is never modified in place.

// jsonEditOp binds jsonb || jsonb, jsonb - text, jsonb - text[], jsonb -
// integer and jsonb #- text[]; ok is false for other operators and types.
func (b *binder) jsonEditOp(op string, l, r *cexpr) (*cexpr, bool) {
	if l.typ != tJSONB {
		return nil, false
	}
	switch {
	case op == "||":
		return jsonbBinary(l, b.coerce(r, tJSONB), func(a *jsonNode, y Value) (*jsonNode, error) {
			c, err := jsonArg(y, tJSONB)
			if err != nil {
				return nil, err
			}
			return jsonbConcat(a, c), nil
		}), true
	case op == "-" && (r.typ == tInt2 || r.typ == tInt4 || r.typ == tInt8):
		return jsonbBinary(l, r, func(a *jsonNode, y Value) (*jsonNode, error) { return jsonbDeleteIndex(a, y.i) }), true
	case op == "-" && r.typ == tTextArray:
		return jsonbBinary(l, r, func(a *jsonNode, y Value) (*jsonNode, error) {
			for _, k := range y.a {
				if k.isNull() {
					continue
				}
				var err error
				if a, err = jsonbDeleteKey(a, k.s); err != nil {
					return nil, err
				}
			}
			return a, nil
		}), true
	case op == "-":
		return jsonbBinary(l, b.coerce(r, tText), func(a *jsonNode, y Value) (*jsonNode, error) { return jsonbDeleteKey(a, y.s) }), true
	case op == "#-":
		return jsonbBinary(l, b.coerce(r, tTextArray), func(a *jsonNode, y Value) (*jsonNode, error) {
			return jsonbDeletePath(a, y.a)
		}), true
	}
	return nil, false
}

// bindJSONBSubscript binds v[k] of a jsonb v: an object's member for a
// text k, an array's element for an integer (as -> reads them).
func (b *binder) bindJSONBSubscript(v *cexpr, sub *pg_query.Node, sc *scope) (*cexpr, error) {
	k, err := b.bindExpr(sub, sc)
	if err != nil {
		return nil, err
	}
	e, _ := b.jsonOp("->", v, k)
	e.name = v.name
	return e, nil
}

// jsonbBinary is a jsonb-valued operator over a jsonb l and r.
func jsonbBinary(l, r *cexpr, fn func(a *jsonNode, y Value) (*jsonNode, error)) *cexpr {
	return strictBinary(tJSONB, l, r, func(x, y Value) (Value, error) {
		a, err := jsonArg(x, tJSONB)
		if err != nil {
			return null, err
		}
		n, err := fn(a, y)
		if err != nil {
			return null, err
		}
		return jsonResult(n, tJSONB), nil
	})
}

// jsonbConcat is a || c: objects merge (c's keys win), arrays concatenate,
// and anything else is wrapped in an array first.
func jsonbConcat(a, c *jsonNode) *jsonNode {
	if a.kind == jsonObject && c.kind == jsonObject {
		out := &jsonNode{kind: jsonObject, keys: append(append([]string(nil), a.keys...), c.keys...),
			vals: append(append([]*jsonNode(nil), a.vals...), c.vals...)}
		out.normalize()
		return out
	}
	elems := func(n *jsonNode) []*jsonNode {
		if n.kind == jsonArray {
			return n.elems
		}
		return []*jsonNode{n}
	}
	return &jsonNode{kind: jsonArray, elems: append(append([]*jsonNode(nil), elems(a)...), elems(c)...)}
}

func jsonbDeleteKey(n *jsonNode, key string) (*jsonNode, error) {
	switch n.kind {
	case jsonObject:
		out := &jsonNode{kind: jsonObject}
		for i, k := range n.keys {
			if k != key {
				out.keys, out.vals = append(out.keys, k), append(out.vals, n.vals[i])
			}
		}
		return out, nil
	case jsonArray:
		out := &jsonNode{kind: jsonArray}
		for _, e := range n.elems {
			if e.kind != jsonString || e.str != key {
				out.elems = append(out.elems, e)
			}
		}
		return out, nil
	}
	return nil, errorf(CodeInvalidParameter, noPos, "cannot delete from scalar")
}

func jsonbDeleteIndex(n *jsonNode, i int64) (*jsonNode, error) {
	switch n.kind {
	case jsonObject:
		return nil, errorf(CodeInvalidParameter, noPos, "cannot delete from object using integer index")
	case jsonArray:
		if i < 0 {
			i += int64(len(n.elems))
		}
		if i < 0 || i >= int64(len(n.elems)) {
			return n, nil
		}
		out := &jsonNode{kind: jsonArray, elems: append(append([]*jsonNode(nil), n.elems[:i]...), n.elems[i+1:]...)}
		return out, nil
	}
	return nil, errorf(CodeInvalidParameter, noPos, "cannot delete from scalar")
}

// jsonbDeletePath is n #- path: n without the element path names (n
// unchanged when the path leads nowhere).
func jsonbDeletePath(n *jsonNode, path []Value) (*jsonNode, error) {
	if n.kind != jsonObject && n.kind != jsonArray {
		return nil, errorf(CodeInvalidParameter, noPos, "cannot delete path in scalar")
	}
	return jsonbEdit(n, path, func(parent *jsonNode, key string, idx int, found bool) (*jsonNode, error) {
		if !found {
			return parent, nil
		}
		if parent.kind == jsonObject {
			return jsonbDeleteKey(parent, key)
		}
		return jsonbDeleteIndex(parent, int64(idx))
	})
}

// jsonbEdit copies n along path and lets edit replace the container that
// holds path's last step (key for an object, idx for an array, found
// whether it exists). A path through a scalar or a missing step leaves n
// as it is; an array step that is not an integer is an error.
func jsonbEdit(n *jsonNode, path []Value, edit func(parent *jsonNode, key string, idx int, found bool) (*jsonNode, error)) (*jsonNode, error) {
	if len(path) == 0 {
		return n, nil
	}
	step := path[0]
	if step.isNull() {
		return nil, errorf(CodeNullValue, noPos, "path element at position %d is null", 1)
	}
	key, idx, found := step.s, -1, false
	switch n.kind {
	case jsonObject:
		for i, k := range n.keys {
			if k == key {
				idx, found = i, true
			}
		}
	case jsonArray:
		i, err := strconv.Atoi(strings.TrimSpace(key))
		if err != nil {
			return nil, errorf(CodeInvalidText, noPos, "path element at position 1 is not an integer: \"%s\"", key)
		}
		if i < 0 {
			i += len(n.elems)
		}
		idx, found = i, i >= 0 && i < len(n.elems)
	default:
		return n, nil
	}
	if len(path) == 1 {
		return edit(n, key, idx, found)
	}
	if !found {
		return n, nil
	}
	out := n.shallowCopy()
	child := out.childAt(idx)
	next, err := jsonbEdit(child, path[1:], edit)
	if err != nil {
		return nil, err
	}
	out.setChild(idx, next)
	return out, nil
}

func (n *jsonNode) shallowCopy() *jsonNode {
	out := *n
	out.keys = append([]string(nil), n.keys...)
	out.vals = append([]*jsonNode(nil), n.vals...)
	out.elems = append([]*jsonNode(nil), n.elems...)
	return &out
}

func (n *jsonNode) childAt(i int) *jsonNode {
	if n.kind == jsonObject {
		return n.vals[i]
	}
	return n.elems[i]
}

func (n *jsonNode) setChild(i int, c *jsonNode) {
	if n.kind == jsonObject {
		n.vals[i] = c
	} else {
		n.elems[i] = c
	}
}

// jsonbSet is jsonb_set(target, path, value[, create_missing]) and, with
// insert, jsonb_insert(target, path, value[, insert_after]).
func jsonbSet(insert bool) func(*evaluator, []Value, []uint32) (Value, error) {
	return func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		target, err := jsonArg(a[0], tJSONB)
		if err != nil {
			return null, err
		}
		value, err := jsonArg(a[2], tJSONB)
		if err != nil {
			return null, err
		}
		flag := !insert // create_missing defaults to true, insert_after to false
		if len(a) > 3 {
			flag = a[3].truthy()
		}
		if target.kind != jsonObject && target.kind != jsonArray {
			return null, errorf(CodeInvalidParameter, noPos, "cannot set path in scalar")
		}
		out, err := jsonbEdit(target, a[1].a, func(parent *jsonNode, key string, idx int, found bool) (*jsonNode, error) {
			out := parent.shallowCopy()
			switch {
			case parent.kind == jsonObject && found && insert:
				return nil, &Error{Code: CodeInvalidParameter, Message: "cannot replace existing key",
					Hint: "Try using the function jsonb_set to replace key value."}
			case parent.kind == jsonObject && found:
				out.vals[idx] = value
			case parent.kind == jsonObject && (flag || insert):
				out.keys, out.vals = append(out.keys, key), append(out.vals, value)
				out.normalize()
			case parent.kind == jsonArray && (found && !insert):
				out.elems[idx] = value
			case parent.kind == jsonArray && (flag || insert):
				pos := idx
				switch {
				case !found && idx < 0:
					pos = 0
				case !found:
					pos = len(out.elems)
				case insert && flag:
					pos = idx + 1
				}
				out.elems = append(out.elems[:pos], append([]*jsonNode{value}, out.elems[pos:]...)...)
			}
			return out, nil
		})
		if err != nil {
			return null, err
		}
		return jsonResult(out, tJSONB), nil
	}
}

// jsonPretty prints n as jsonb_pretty does: four spaces a level, every
// element and member on its own line.
func jsonPretty(b *strings.Builder, n *jsonNode, depth int) {
	indent := func(d int) { b.WriteString(strings.Repeat("    ", d)) }
	switch n.kind {
	case jsonArray, jsonObject:
		open, close := "[", "]"
		count := len(n.elems)
		if n.kind == jsonObject {
			open, close, count = "{", "}", len(n.keys)
		}
		b.WriteString(open + "\n")
		for i := range count {
			indent(depth + 1)
			if n.kind == jsonObject {
				writeJSONString(b, n.keys[i])
				b.WriteString(": ")
				jsonPretty(b, n.vals[i], depth+1)
			} else {
				jsonPretty(b, n.elems[i], depth+1)
			}
			if i < count-1 {
				b.WriteByte(',')
			}
			b.WriteByte('\n')
		}
		indent(depth)
		b.WriteString(close)
	default:
		n.writeJSONB(b)
	}
}

// stripNulls drops the object members whose value is null, at every depth
// (array elements stay).
func stripNulls(n *jsonNode) *jsonNode {
	switch n.kind {
	case jsonObject:
		out := &jsonNode{kind: jsonObject}
		for i, k := range n.keys {
			if n.vals[i].kind != jsonNull {
				out.keys, out.vals = append(out.keys, k), append(out.vals, stripNulls(n.vals[i]))
			}
		}
		return out
	case jsonArray:
		out := &jsonNode{kind: jsonArray}
		for _, e := range n.elems {
			out.elems = append(out.elems, stripNulls(e))
		}
		return out
	}
	return n
}

func init() {
	register("jsonb_set", &builtin{min: 3, max: 4, args: []uint32{tJSONB, tTextArray, tJSONB, tBool}, ret: tJSONB, fn: jsonbSet(false)})
	register("jsonb_insert", &builtin{min: 3, max: 4, args: []uint32{tJSONB, tTextArray, tJSONB, tBool}, ret: tJSONB, fn: jsonbSet(true)})
	register("jsonb_set_lax", &builtin{min: 3, max: 5, args: []uint32{tJSONB, tTextArray, tJSONB, tBool, tText}, ret: tJSONB,
		lenient: true, fn: jsonbSetLax})
	register("jsonb_pretty", &builtin{min: 1, args: []uint32{tJSONB}, ret: tText, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		n, err := jsonArg(a[0], tJSONB)
		if err != nil {
			return null, err
		}
		var b strings.Builder
		jsonPretty(&b, n, 0)
		return textV(b.String()), nil
	}})
	register("jsonb_strip_nulls", &builtin{min: 1, args: []uint32{tJSONB}, ret: tJSONB, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		n, err := jsonArg(a[0], tJSONB)
		if err != nil {
			return null, err
		}
		return jsonResult(stripNulls(n), tJSONB), nil
	}})
	register("json_strip_nulls", &builtin{min: 1, args: []uint32{tJSON}, ret: tJSON, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		n, err := jsonArg(a[0], tJSON)
		if err != nil {
			return null, err
		}
		var b strings.Builder
		stripNulls(n).write(&b, ",", ":")
		return textV(b.String()), nil
	}})
	// The second argument, pretty, puts a line break and a space between
	// the top-level elements.
	register("array_to_json", &builtin{min: 1, max: 2, args: []uint32{tText, tBool}, ret: tJSON, fn: arrayToJSON})
	register("row_to_json", &builtin{min: 1, max: 2, args: []uint32{tText, tBool}, ret: tJSON, fn: func(ev *evaluator, a []Value, t []uint32) (Value, error) {
		if a[0].k != kRecord {
			return null, errorf(CodeDatatypeMismatch, noPos, "argument of row_to_json must be a record")
		}
		sep := jsonTopSep(a)
		var b strings.Builder
		b.WriteByte('{')
		for i, v := range a[0].a {
			if i > 0 {
				b.WriteString(sep)
			}
			name := "f" + strconv.Itoa(i+1)
			if i < len(a[0].names) && a[0].names[i] != "" {
				name = a[0].names[i]
			}
			writeJSONString(&b, name)
			b.WriteByte(':')
			ev.writeJSON(&b, v, fieldType(a[0], i))
		}
		b.WriteByte('}')
		return textV(b.String()), nil
	}})
}

func arrayToJSON(ev *evaluator, a []Value, t []uint32) (Value, error) {
	if a[0].k != kArray {
		return null, errorf(CodeUndefinedFunc, noPos, "function array_to_json(%s) does not exist", formatType(t[0], -1))
	}
	var b strings.Builder
	if sep := jsonTopSep(a); sep != "," {
		b.WriteByte('[')
		for i, v := range a[0].a {
			if i > 0 {
				b.WriteString(sep)
			}
			ev.writeJSON(&b, v, elemType(t[0]))
		}
		b.WriteByte(']')
		return textV(b.String()), nil
	}
	ev.writeJSON(&b, a[0], t[0])
	return textV(b.String()), nil
}

// jsonTopSep separates the top-level elements of row_to_json and
// array_to_json: a comma, and a line break and a space when pretty.
func jsonTopSep(a []Value) string {
	if len(a) > 1 && a[1].k == kBool && a[1].b {
		return ",\n "
	}
	return ","
}

// fieldType is the type of field i of record rec: its static type when the
// record carries it, else one its value's kind suggests (numbers stay
// numbers in JSON, the rest is text).
func fieldType(rec Value, i int) uint32 {
	if i < len(rec.types) {
		return rec.types[i]
	}
	switch rec.a[i].k {
	case kBool:
		return tBool
	case kInt:
		return tInt8
	case kFloat:
		return tFloat8
	case kNumeric:
		return tNumeric
	}
	return tText
}

// jsonbSetLax is jsonb_set, except that an SQL NULL new value is treated as
// its fifth argument says: use_json_null (the default), delete_key,
// return_target or raise_exception.
func jsonbSetLax(ev *evaluator, a []Value, t []uint32) (Value, error) {
	if a[0].isNull() || a[1].isNull() || len(a) > 3 && a[3].isNull() {
		return null, nil
	}
	treatment := "use_json_null"
	if len(a) > 4 {
		if a[4].isNull() {
			return null, errorf(CodeNullValue, noPos, "null_value_treatment must be \"delete_key\", \"return_target\", \"use_json_null\", or \"raise_exception\"")
		}
		treatment = a[4].s
	}
	set := a[:min(len(a), 4)]
	if !a[2].isNull() {
		return jsonbSet(false)(ev, set, t)
	}
	switch treatment {
	case "use_json_null":
		set = slices.Clone(set)
		set[2] = textV("null")
		return jsonbSet(false)(ev, set, t)
	case "delete_key":
		n, err := jsonArg(a[0], tJSONB)
		if err != nil {
			return null, err
		}
		n, err = jsonbDeletePath(n, a[1].a)
		if err != nil {
			return null, err
		}
		return jsonResult(n, tJSONB), nil
	case "return_target":
		return a[0], nil
	case "raise_exception":
		e := errorf(CodeNullValue, noPos, "JSON value must not be null")
		e.Detail = "Exception was raised because null_value_treatment is \"raise_exception\"."
		e.Hint = "To avoid, either change the null_value_treatment argument or ensure that an SQL NULL is not passed."
		return null, e
	}
	return null, errorf(CodeInvalidParameter, noPos, "null_value_treatment must be \"delete_key\", \"return_target\", \"use_json_null\", or \"raise_exception\"")
}
