package pgcatalog

import "strconv"

// The json and jsonb operators and functions PostgreSQL-dialect queries use
// on family columns: -> ->> #> #>> ? ?| ?& @> <@, jsonb_typeof,
// jsonb_extract_path[_text], jsonb_array_length, jsonb_object_keys,
// jsonb_each[_text], jsonb_array_elements[_text], to_jsonb, and their json
// twins. Results and errors are PostgreSQL 15's.

func isJSONType(t uint32) bool { return t == tJSON || t == tJSONB }

// jsonArg parses a json or jsonb value.
func jsonArg(v Value, typ uint32) (*jsonNode, error) {
	return parseJSON(v.s, typ == tJSONB)
}

// jsonResult is n as a value of type typ (json or jsonb), or NULL for nil.
func jsonResult(n *jsonNode, typ uint32) Value {
	if n == nil {
		return null
	}
	return textV(n.text(typ == tJSONB))
}

// jsonText is n as ->> gives it: a string's text, NULL for null, else the
// JSON text.
func jsonText(n *jsonNode, jsonb bool) Value {
	switch {
	case n == nil || n.kind == jsonNull:
		return null
	case n.kind == jsonString:
		return textV(n.str)
	}
	return textV(n.text(jsonb))
}

// jsonOp binds the json operators; ok is false when op is not one of them
// for these operand types.
func (b *binder) jsonOp(op string, l, r *cexpr) (*cexpr, bool) {
	if !isJSONType(l.typ) {
		return nil, false
	}
	jsonb := l.typ == tJSONB
	switch op {
	case "->", "->>":
		byIndex := r.typ == tInt2 || r.typ == tInt4 || r.typ == tInt8
		key := r
		if !byIndex {
			r = b.coerce(r, tText)
		}
		if jsonb && !byIndex {
			byKey(l, key)
			return jsonbFieldOp(l, r, op == "->>"), true
		}
		return jsonExtract(l, r, op == "->>", func(n *jsonNode, y Value) *jsonNode {
			if byIndex {
				return n.index(y.i)
			}
			return n.field(y.s)
		}), true
	case "#>", "#>>":
		r = b.coerce(r, tTextArray)
		if r.isConst && len(r.val.a) > 0 && !r.val.a[0].isNull() {
			byKey(l, constExpr(r.val.a[0], tText)) // the path's first step
		}
		return jsonExtract(l, r, op == "#>>", func(n *jsonNode, y Value) *jsonNode {
			return jsonPath(n, y.a)
		}), true
	case "?", "?|", "?&":
		if !jsonb {
			return nil, false
		}
		if op == "?" {
			byKey(l, r)
			r = b.coerce(r, tText)
		} else {
			r = b.coerce(r, tTextArray)
		}
		return strictBinary(tBool, l, r, func(x, y Value) (Value, error) {
			n, err := jsonArg(x, tJSONB)
			if err != nil {
				return null, err
			}
			if op == "?" {
				return boolV(jsonHasKey(n, y.s)), nil
			}
			for _, k := range y.a {
				has := !k.isNull() && jsonHasKey(n, k.s)
				if op == "?|" && has {
					return boolV(true), nil
				}
				if op == "?&" && !has {
					return boolV(false), nil
				}
			}
			return boolV(op == "?&"), nil
		}), true
	case "@>", "<@":
		if !jsonb {
			return nil, false
		}
		return strictBinary(tBool, l, b.coerce(r, tJSONB), func(x, y Value) (Value, error) {
			a, err := jsonArg(x, tJSONB)
			if err != nil {
				return null, err
			}
			c, err := jsonArg(y, tJSONB)
			if err != nil {
				return null, err
			}
			if op == "<@" {
				a, c = c, a
			}
			return boolV(jsonContains(a, c, true)), nil
		}), true
	}
	return nil, false
}

// jsonExtract is l -> r and its kin: the part of the json value l that get
// finds for r's value, as json (or jsonb, like l) or, with asText, as ->>
// gives it.
func jsonExtract(l, r *cexpr, asText bool, get func(n *jsonNode, y Value) *jsonNode) *cexpr {
	typ := l.typ
	if asText {
		typ = tText
	}
	return strictBinary(typ, l, r, func(x, y Value) (Value, error) {
		n, err := jsonArg(x, l.typ)
		if err != nil {
			return null, err
		}
		if asText {
			return jsonText(get(n, y), l.typ == tJSONB), nil
		}
		return jsonResult(get(n, y), l.typ), nil
	})
}

// jsonPath follows a #> path: object keys, or array indexes as text.
func jsonPath(n *jsonNode, path []Value) *jsonNode {
	for _, p := range path {
		if n == nil || p.isNull() {
			return nil
		}
		switch n.kind {
		case jsonObject:
			n = n.field(p.s)
		case jsonArray:
			i, err := strconv.ParseInt(p.s, 10, 64)
			if err != nil {
				return nil
			}
			n = n.index(i)
		default:
			return nil
		}
	}
	return n
}

// jsonHasKey is jsonb's ?: an object's key, or a string element of an
// array, or the string itself.
func jsonHasKey(n *jsonNode, key string) bool {
	switch n.kind {
	case jsonObject:
		return n.field(key) != nil
	case jsonArray:
		for _, e := range n.elems {
			if e.kind == jsonString && e.str == key {
				return true
			}
		}
	case jsonString:
		return n.str == key
	}
	return false
}

// jsonContains is jsonb's @>: every member of an object c is in a, with a
// value that contains c's; every element of an array c is contained in
// some element of a; scalars are equal. At the top level an array
// contains a scalar that is one of its elements.
func jsonContains(a, c *jsonNode, top bool) bool {
	switch {
	case c.kind == jsonObject:
		if a.kind != jsonObject {
			return false
		}
		for i, k := range c.keys {
			v := a.field(k)
			if v == nil || !jsonContains(v, c.vals[i], false) {
				return false
			}
		}
		return true
	case c.kind == jsonArray:
		if a.kind != jsonArray {
			return false
		}
		for _, ce := range c.elems {
			found := false
			for _, ae := range a.elems {
				if ae.kind == ce.kind && jsonContains(ae, ce, false) {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	case a.kind == jsonArray && top:
		for _, ae := range a.elems {
			if jsonScalarEqual(ae, c) {
				return true
			}
		}
		return false
	}
	return jsonScalarEqual(a, c)
}

func jsonScalarEqual(a, c *jsonNode) bool {
	if a.kind != c.kind {
		return false
	}
	switch a.kind {
	case jsonNull:
		return true
	case jsonBool:
		return a.b == c.b
	case jsonString:
		return a.str == c.str
	case jsonNumber:
		x, y := numericValue(a.str), numericValue(c.str)
		return x == y
	}
	return false
}

// numericValue reads a JSON number for comparison.
func numericValue(s string) float64 {
	f, _ := strconv.ParseFloat(s, 64)
	return f
}
