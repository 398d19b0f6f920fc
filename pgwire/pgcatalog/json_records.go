package pgcatalog

import (
	"fmt"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// json_to_record, json_to_recordset and their jsonb twins: functions
// returning record, whose columns the query declares in a column
// definition list — FROM json_to_recordset(doc) AS x(a int, b text). Each
// column takes the value of the object's key of that name, converted as
// PostgreSQL's populate_record converts it: a string's text, or any other
// value's JSON text, read by the column type's input function; a JSON array
// for an array column; the value itself for a json or jsonb column; NULL
// for a missing key or a JSON null. Type modifiers in the list are not
// applied.

// recordSRFs build the set-returning function for a column definition
// list.
var recordSRFs = map[string]func(cols []colDef) *srfDef{}

func init() {
	for _, f := range []struct {
		name        string
		jsonb, many bool
	}{
		{"json_to_record", false, false}, {"json_to_recordset", false, true},
		{"jsonb_to_record", true, false}, {"jsonb_to_recordset", true, true},
	} {
		argType := uint32(tJSON)
		if f.jsonb {
			argType = tJSONB
		}
		recordSRFs[f.name] = func(cols []colDef) *srfDef {
			return &srfDef{min: 1, max: 1, retType: tRecord, ret: constType(tRecord), fields: cols,
				argTypes: func([]*cexpr) []uint32 { return []uint32{argType} },
				call: func(ev *evaluator, a []Value, _ []uint32) ([]Value, error) {
					return jsonToRecords(ev, f.name, a[0], f.jsonb, f.many, cols)
				}}
		}
	}
}

// columnDefinitions binds a column definition list.
func columnDefinitions(list []*pg_query.Node) ([]colDef, error) {
	cols := make([]colDef, 0, len(list))
	seen := map[string]bool{}
	for _, n := range list {
		cd := n.GetColumnDef()
		if cd == nil || cd.TypeName == nil {
			return nil, errorf(CodeSyntax, noPos, "invalid column definition list")
		}
		if seen[cd.Colname] {
			return nil, errorf(CodeDuplicateColumn, noPos, "column name \"%s\" specified more than once", cd.Colname)
		}
		seen[cd.Colname] = true
		typ, _, err := typeFromName(cd.TypeName)
		if err != nil {
			return nil, err
		}
		cols = append(cols, colDef{cd.Colname, typ})
	}
	return cols, nil
}

// coldefListPos is where a column definition list starts, for errors
// about it.
func coldefListPos(list []*pg_query.Node) int32 {
	if cd := list[0].GetColumnDef(); cd != nil {
		return cd.Location
	}
	return noPos
}

func jsonToRecords(ev *evaluator, name string, doc Value, jsonb, many bool, cols []colDef) ([]Value, error) {
	n, err := parseJSON(doc.s, jsonb)
	if err != nil {
		return nil, err
	}
	objects := []*jsonNode{n}
	if many {
		switch n.kind {
		case jsonArray:
			objects = n.elems
		case jsonObject:
			return nil, errorf(CodeInvalidParameter, noPos, "cannot call %s on an object", name)
		default:
			return nil, errorf(CodeInvalidParameter, noPos, "cannot call %s on a scalar", name)
		}
	}
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.name
	}
	out := make([]Value, 0, len(objects))
	for _, o := range objects {
		switch {
		case o.kind == jsonObject:
		case many:
			return nil, errorf(CodeInvalidParameter, noPos, "argument of %s must be an array of objects", name)
		case o.kind == jsonArray:
			return nil, errorf(CodeInvalidParameter, noPos, "cannot call populate_composite on an array")
		default:
			return nil, errorf(CodeInvalidParameter, noPos, "cannot call populate_composite on a scalar")
		}
		row := make([]Value, len(cols))
		for i, c := range cols {
			if row[i], err = ev.populateValue(o.field(c.name), jsonb, c.typ, c.name); err != nil {
				return nil, err
			}
		}
		out = append(out, Value{k: kRecord, a: row, names: names})
	}
	return out, nil
}

// populateValue converts one JSON value to a column of type typ, as
// populate_record does.
func (ev *evaluator) populateValue(n *jsonNode, jsonb bool, typ uint32, key string) (Value, error) {
	if n == nil || n.kind == jsonNull {
		return null, nil
	}
	switch {
	case typ == tJSON:
		return textV(n.text(jsonb)), nil
	case typ == tJSONB:
		if !jsonb {
			n.normalize()
		}
		return textV(n.text(true)), nil
	case isArrayType(typ) && n.kind != jsonString:
		if n.kind != jsonArray {
			e := errorf(CodeInvalidText, noPos, "expected JSON array")
			e.Hint = fmt.Sprintf("See the value of key \"%s\".", key)
			return null, e
		}
		elems := make([]Value, len(n.elems))
		for i, el := range n.elems {
			if el.kind == jsonArray {
				return null, errorf(CodeNotSupported, noPos, "multidimensional arrays are not supported")
			}
			v, err := ev.populateValue(el, jsonb, elemType(typ), key)
			if err != nil {
				return null, err
			}
			elems[i] = v
		}
		return arrayV(elems), nil
	}
	s := n.str
	if n.kind != jsonString {
		s = n.text(jsonb)
	}
	return ev.cast(textV(s), tUnknown, typ)
}
