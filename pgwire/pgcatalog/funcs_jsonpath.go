package pgcatalog

// The jsonpath functions and operators over jsonb: jsonb_path_exists,
// _match, _query, _query_array and _query_first (and their _tz twins,
// which differ only for .datetime(), not built), and jsonb @? jsonpath
// (exists) and jsonb @@ jsonpath (match), which evaluate silently. Each
// takes the target, the path, optionally an object of variables ($name)
// and silent: when true, the path's evaluation errors give NULL (or no
// rows) instead of failing.

func init() {
	for _, suffix := range []string{"", "_tz"} {
		register("jsonb_path_exists"+suffix, jsonPathFn(tBool, func(items []*jsonNode, _ bool) (Value, error) {
			return boolV(len(items) > 0), nil
		}))
		register("jsonb_path_match"+suffix, jsonPathFn(tBool, jsonPathMatch))
		register("jsonb_path_query_array"+suffix, jsonPathFn(tJSONB, func(items []*jsonNode, _ bool) (Value, error) {
			return jsonResult(&jsonNode{kind: jsonArray, elems: items}, tJSONB), nil
		}))
		register("jsonb_path_query_first"+suffix, jsonPathFn(tJSONB, func(items []*jsonNode, _ bool) (Value, error) {
			if len(items) == 0 {
				return null, nil
			}
			return jsonResult(items[0], tJSONB), nil
		}))
		srfs["jsonb_path_query"+suffix] = &srfDef{min: 2, max: 4, retType: tJSONB, ret: constType(tJSONB),
			argTypes: func([]*cexpr) []uint32 { return jsonPathArgs },
			call: func(ev *evaluator, a []Value, _ []uint32) ([]Value, error) {
				items, err := runJSONPath(ev, a)
				if err != nil || items == nil {
					return nil, err
				}
				out := make([]Value, len(items))
				for i, n := range items {
					out[i] = jsonResult(n, tJSONB)
				}
				return out, nil
			}}
	}
}

var jsonPathArgs = []uint32{tJSONB, tJSONPath, tJSONB, tBool}

// jsonPathFn builds a function of (target, path [, vars [, silent]]) that
// makes its result from the path's items; NULL when silent swallowed an
// error.
func jsonPathFn(ret uint32, result func(items []*jsonNode, silent bool) (Value, error)) *builtin {
	return &builtin{min: 2, max: 4, args: jsonPathArgs, ret: ret, fn: func(ev *evaluator, a []Value, _ []uint32) (Value, error) {
		items, err := runJSONPath(ev, a)
		if err != nil || items == nil {
			return null, err
		}
		return result(items, len(a) > 3 && a[3].truthy())
	}}
}

// jsonPathMatch is jsonb_path_match's result: the path's one boolean
// (NULL, when silent, for anything else).
func jsonPathMatch(items []*jsonNode, silent bool) (Value, error) {
	if len(items) == 1 {
		switch items[0].kind {
		case jsonBool:
			return boolV(items[0].b), nil
		case jsonNull:
			return null, nil
		}
	}
	if silent {
		return null, nil
	}
	return null, errorf("22038", noPos, "single boolean result is expected")
}

// runJSONPath evaluates a[1] over a[0] with the variables a[2]; nil items
// (not an empty slice) when silent (a[3]) swallowed an evaluation error.
func runJSONPath(ev *evaluator, a []Value) ([]*jsonNode, error) {
	target, err := jsonArg(a[0], tJSONB)
	if err != nil {
		return nil, err
	}
	path, err := ev.jsonPath(a[1].s)
	if err != nil {
		return nil, err
	}
	var vars *jsonNode
	if len(a) > 2 {
		if vars, err = jsonArg(a[2], tJSONB); err != nil {
			return nil, err
		}
		if vars.kind != jsonObject {
			e := errorf(CodeInvalidParameter, noPos, "\"vars\" argument is not an object")
			e.Detail = "Jsonpath parameters should be encoded as key-value pairs of \"vars\" object."
			return nil, e
		}
	}
	silent := len(a) > 3 && a[3].truthy()
	items, err := evalJSONPath(ev, path, target, vars)
	if jerr, ok := err.(*jpError); ok {
		if silent {
			return nil, nil
		}
		return nil, jerr.err
	}
	if err != nil {
		return nil, err
	}
	if items == nil {
		items = []*jsonNode{}
	}
	return items, nil
}

// jsonPathOp binds jsonb @? jsonpath and jsonb @@ jsonpath: exists and
// match, evaluated silently.
func (b *binder) jsonPathOp(op string, l, r *cexpr) (*cexpr, bool) {
	if l.typ != tJSONB || op != "@?" && op != "@@" || r.typ != tJSONPath && !r.untyped {
		return nil, false
	}
	r = b.coerce(r, tJSONPath)
	fn := funcs["jsonb_path_exists"].fn
	if op == "@@" {
		fn = funcs["jsonb_path_match"].fn
	}
	return &cexpr{typ: tBool, name: "?column?", fn: func(ev *evaluator, e *env) (Value, error) {
		x, y, err := eval2(ev, e, l, r)
		if err != nil || x.isNull() || y.isNull() {
			return null, err
		}
		return fn(ev, []Value{x, y, textV("{}"), boolV(true)}, nil)
	}}, true
}
