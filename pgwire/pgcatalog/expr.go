package pgcatalog

import (
	"strconv"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// evalFn evaluates a bound expression in an env.
type evalFn func(ev *evaluator, e *env) (Value, error)

// cexpr is a bound expression: its evaluator, static type and the column
// name PostgreSQL would give it in a select list.
type cexpr struct {
	fn   evalFn
	typ  uint32
	name string
	// untyped marks NULL, string literals and parameters without a type:
	// their type comes from context (coerce), as in PostgreSQL.
	untyped bool
	param   int      // n for a bare $n
	fields  []colDef // a record's fields
	isConst bool
	val     Value
	pos     int32 // a string literal's offset, for the errors of its input
	// weak marks a name PostgreSQL would override with an enclosing cast's
	// type name (FigureColname's strength <= 1).
	weak bool
	// tableCol is set on a bare reference to a Shale table's column.
	tableCol *tableColumn
}

func constExpr(v Value, typ uint32) *cexpr {
	return &cexpr{typ: typ, name: "?column?", isConst: true, val: v,
		fn: func(*evaluator, *env) (Value, error) { return v, nil }}
}

// colRef reads column idx of the env levels up. Every column reference is
// built here, so marking a Shale table's column as used here is complete.
func colRef(levels, idx int, c scopeCol) *cexpr {
	var tc *tableColumn
	if c.use != nil {
		*c.use = true
	}
	if c.refs != nil {
		*c.refs++
	}
	if c.scan != nil {
		if i := c.scan.column(c.use); i >= 0 {
			c.scan.refs[i]++
			tc = &tableColumn{scan: c.scan, idx: i}
		}
	}
	return &cexpr{typ: c.typ, name: c.name, fields: c.fields, tableCol: tc, fn: func(_ *evaluator, e *env) (Value, error) {
		for i := 0; i < levels; i++ {
			e = e.outer
		}
		if e == nil || idx >= len(e.row) {
			return null, nil
		}
		return e.row[idx], nil
	}}
}

// coerce converts e to type to. An untyped parameter takes to as its type;
// a string literal that cannot be read as to fails the statement
// (literalIn).
func (b *binder) coerce(e *cexpr, to uint32) *cexpr {
	if e.param > 0 && e.untyped && to != tUnknown {
		if b.params[e.param-1] == 0 || b.params[e.param-1] == tUnknown {
			b.params[e.param-1] = to
		}
	}
	out, err := coerceLiteral(e, to)
	if err != nil && b.err == nil {
		b.err = err
	}
	return out
}

// coerce converts e to type to; a string literal that cannot be read as to
// fails where it is evaluated.
func coerce(e *cexpr, to uint32) *cexpr {
	out, _ := coerceLiteral(e, to)
	return out
}

// coerceLiteral is coerce that also returns a bad literal's error.
func coerceLiteral(e *cexpr, to uint32) (*cexpr, error) {
	if e.typ == to || to == tUnknown || to == 0 {
		return e, nil
	}
	if out, ok, err := literalIn(e, to); ok {
		if err != nil {
			return &cexpr{typ: to, name: e.name, fn: func(*evaluator, *env) (Value, error) { return null, err }}, err
		}
		return out, nil
	}
	from, inner := e.typ, e.fn
	litPos := int32(noPos) // a string literal's input errors point at it
	if e.isConst && e.untyped {
		litPos = e.pos
	}
	out := &cexpr{typ: to, name: e.name, fields: e.fields, param: e.param, fn: func(ev *evaluator, en *env) (Value, error) {
		v, err := inner(ev, en)
		if err != nil {
			return null, err
		}
		v, err = ev.cast(v, from, to)
		if pe, ok := err.(*Error); ok && pe.Position == 0 && litPos >= 0 {
			pe.Position = int(litPos) + 1
		}
		return v, err
	}}
	return out, nil
}

func location(n *pg_query.Node) int32 {
	if n == nil {
		return noPos
	}
	switch {
	case n.GetColumnRef() != nil:
		return n.GetColumnRef().Location
	case n.GetAExpr() != nil:
		return n.GetAExpr().Location
	case n.GetFuncCall() != nil:
		return n.GetFuncCall().Location
	case n.GetAConst() != nil:
		return n.GetAConst().Location
	case n.GetTypeCast() != nil: // the leftmost of x::t, CAST(x AS t) and t 'x', as exprLocation
		tc := n.GetTypeCast()
		return leftmost(leftmost(tc.Location, tc.GetTypeName().GetLocation()), location(tc.Arg))
	}
	return noPos
}

// leftmost is the earlier of two locations, either of which may be
// unknown.
func leftmost(a, b int32) int32 {
	if a < 0 || b >= 0 && b < a {
		return b
	}
	return a
}

// bindExpr binds a scalar expression in scope sc.
func (b *binder) bindExpr(n *pg_query.Node, sc *scope) (*cexpr, error) {
	if n == nil || n.Node == nil {
		return nil, errorf(CodeSyntax, noPos, "missing expression")
	}
	switch x := n.Node.(type) {
	case *pg_query.Node_ColumnRef:
		return b.bindColumnRef(x.ColumnRef, sc)
	case *pg_query.Node_AConst:
		return bindConst(x.AConst)
	case *pg_query.Node_ParamRef:
		return b.bindParam(x.ParamRef)
	case *pg_query.Node_TypeCast:
		return b.bindTypeCast(x.TypeCast, sc)
	case *pg_query.Node_GroupingFunc:
		return b.bindGrouping(x.GroupingFunc, sc)
	case *pg_query.Node_AExpr:
		return b.bindAExpr(x.AExpr, sc)
	case *pg_query.Node_BoolExpr:
		return b.bindBoolExpr(x.BoolExpr, sc)
	case *pg_query.Node_NullTest:
		return b.bindNullTest(x.NullTest, sc)
	case *pg_query.Node_BooleanTest:
		return b.bindBooleanTest(x.BooleanTest, sc)
	case *pg_query.Node_FuncCall:
		return b.bindFuncCall(x.FuncCall, sc)
	case *pg_query.Node_SqlvalueFunction:
		return bindSQLValueFunction(x.SqlvalueFunction)
	case *pg_query.Node_CaseExpr:
		return b.bindCase(x.CaseExpr, sc.refusingSRFs("CASE"))
	case *pg_query.Node_SubLink:
		return b.bindSubLink(x.SubLink, sc)
	case *pg_query.Node_AArrayExpr:
		return b.bindArrayExpr(x.AArrayExpr.Elements, x.AArrayExpr.Location, sc)
	case *pg_query.Node_AIndirection:
		return b.bindIndirection(x.AIndirection, sc)
	case *pg_query.Node_CollateClause:
		return b.bindExpr(x.CollateClause.Arg, sc)
	case *pg_query.Node_CoalesceExpr:
		return b.bindCoalesce(x.CoalesceExpr.Args, sc.refusingSRFs("COALESCE"), "coalesce", nil)
	case *pg_query.Node_MinMaxExpr:
		return b.bindMinMax(x.MinMaxExpr, sc)
	case *pg_query.Node_RowExpr:
		return b.bindRow(x.RowExpr.Args, sc)
	}
	return nil, errorf(CodeNotSupported, location(n), "unsupported expression in catalog query: %T", n.Node)
}

// splitColumnRef splits a column reference's names (schema.table.column,
// table.column or column) into its parts; f is not empty.
func splitColumnRef(f []string) (schema, qual, name string) {
	if len(f) > 1 {
		qual = f[len(f)-2]
	}
	if len(f) > 2 {
		schema = f[len(f)-3]
	}
	return schema, qual, f[len(f)-1]
}

func (b *binder) bindColumnRef(cr *pg_query.ColumnRef, sc *scope) (*cexpr, error) {
	f := strs(cr.Fields)
	if len(f) == 2 && f[1] == "*" { // t.* as a value: the whole row, as t is
		if e, ok := sc.wholeRow(f[0]); ok {
			return e, nil
		}
	}
	if len(f) == 0 || f[len(f)-1] == "*" {
		return nil, errorf(CodeNotSupported, cr.Location, "* is only supported at the top of a select list")
	}
	schema, qual, name := splitColumnRef(f)
	levels, idx, col, err := sc.resolve(schema, qual, name, cr.Location)
	if err != nil {
		if name == "tableoid" {
			if e, tErr := bindTableOID(sc, schema, qual, cr.Location); e != nil || tErr != nil {
				return e, tErr
			}
		}
		if len(f) == 1 {
			if e, ok := sc.wholeRow(name); ok { // a range variable as a record: row_to_json(t)
				return e, nil
			}
		}
		return nil, err
	}
	return colRef(levels, idx, col), nil
}

// wholeRow binds a whole-row reference to the range variable rel: a record
// of its columns, named as they are; ok is false when no level has rel.
func (sc *scope) wholeRow(rel string) (*cexpr, bool) {
	var fields []colDef
	var cols []*cexpr
	scalar := false
	for s := sc; s != nil && len(cols) == 0; s = s.parent {
		for _, c := range s.cols {
			if c.rel != rel {
				continue
			}
			levels, idx, col, err := sc.resolve("", rel, c.name, noPos)
			if err != nil {
				return nil, false
			}
			scalar = c.scalar
			cols = append(cols, colRef(levels, idx, col))
			fields = append(fields, colDef{name: c.name, typ: outputType(c.typ)})
		}
	}
	if len(cols) == 0 {
		return nil, false
	}
	if scalar && len(cols) == 1 { // json_array_elements(...) AS t: t is the value
		c := *cols[0]
		c.name = rel
		return &c, true
	}
	names, types := fieldNames(fields)
	return &cexpr{typ: tRecord, name: rel, fields: fields, fn: func(ev *evaluator, e *env) (Value, error) {
		vals, err := evalArgs(ev, e, cols)
		if err != nil {
			return null, err
		}
		return Value{k: kRecord, a: vals, names: names, types: types}, nil
	}}, true
}

// fieldNames are a record's field names and types.
func fieldNames(fields []colDef) ([]string, []uint32) {
	names, types := make([]string, len(fields)), make([]uint32, len(fields))
	for i, f := range fields {
		names[i], types[i] = f.name, f.typ
	}
	return names, types
}

// bindTableOID binds the system column tableoid (psql's \dd and \dL
// join pg_description on it): the OID of the relation the range variable
// reads, found in the catalog when the statement runs, since a Shale
// table's OID depends on the tables there are then. It is nil when no
// range variable in scope reads a relation.
func bindTableOID(sc *scope, schema, qual string, pos int32) (*cexpr, error) {
	rel, err := sc.tableOID(schema, qual, pos)
	if rel == nil || err != nil {
		return nil, err
	}
	return &cexpr{typ: tOid, name: "tableoid", fn: func(ev *evaluator, _ *env) (Value, error) {
		snap, err := ev.catalog()
		if err != nil {
			return null, err
		}
		if r := snap.resolveRel(rel.schema, rel.name); r != nil {
			return oidV(r.oid), nil
		}
		return null, nil
	}}, nil
}

func bindConst(c *pg_query.A_Const) (*cexpr, error) {
	if c.Isnull {
		e := constExpr(null, tUnknown)
		e.untyped = true
		return e, nil
	}
	switch v := c.Val.(type) {
	case *pg_query.A_Const_Ival:
		return constExpr(intV(int64(v.Ival.Ival)), tInt4), nil
	case *pg_query.A_Const_Fval:
		if n, err := strconv.ParseInt(v.Fval.Fval, 10, 64); err == nil {
			return constExpr(intV(n), tInt8), nil
		}
		n, err := parseNumeric(v.Fval.Fval)
		if err != nil {
			f, _ := strconv.ParseFloat(v.Fval.Fval, 64)
			return constExpr(floatV(f), tNumeric), nil
		}
		return constExpr(numericV(n), tNumeric), nil
	case *pg_query.A_Const_Boolval:
		// TRUE is 'true'::bool to PostgreSQL's parser: its name gives way
		// to an outer cast's, as a cast's does (true::text is "text").
		e := constExpr(boolV(v.Boolval.Boolval), tBool)
		e.name, e.weak = "bool", true
		return e, nil
	case *pg_query.A_Const_Sval:
		e := constExpr(textV(v.Sval.Sval), tUnknown)
		e.untyped, e.pos = true, c.Location
		return e, nil
	case *pg_query.A_Const_Bsval:
		// B'101' and X'1F' are of type bit, which the dialect does not
		// have; reading them as text would answer wrongly.
		return nil, errorf(CodeNotSupported, c.Location, "bit string literals are not supported")
	}
	return constExpr(null, tUnknown), nil
}

func (b *binder) bindParam(p *pg_query.ParamRef) (*cexpr, error) {
	n := int(p.Number)
	if n < 1 || n > 65535 {
		return nil, errorf(CodeSyntax, p.Location, "there is no parameter $%d", n)
	}
	for len(b.params) < n {
		b.params = append(b.params, 0)
	}
	t := b.params[n-1]
	e := &cexpr{typ: t, name: "?column?", param: n}
	if t == 0 || t == tUnknown {
		e.typ, e.untyped = tUnknown, true
	}
	typ := e.typ
	e.fn = func(ev *evaluator, _ *env) (Value, error) {
		if n > len(ev.args) {
			return null, errorf(CodeSyntax, p.Location, "there is no parameter $%d", n)
		}
		if typ == tUnknown {
			return ev.args[n-1], nil
		}
		return ev.cast(ev.args[n-1], tUnknown, typ)
	}
	return e, nil
}

// unbuiltTypes are types pg_type lists whose values the dialect cannot
// hold: their input and output functions are not built, so a value cast to
// one would print its input unchanged ('10.1/16'::cidr for 10.1.0.0/16,
// '12.5'::money for $12.50).
var unbuiltTypes = map[string]bool{
	"money": true, "inet": true, "cidr": true, "macaddr": true, "macaddr8": true,
	"tsvector": true, "tsquery": true, "bit": true, "varbit": true,
	"point": true, "line": true, "lseg": true, "box": true, "path": true, "polygon": true, "circle": true,
}

// typeFromName resolves a TypeName node.
func typeFromName(tn *pg_query.TypeName) (uint32, string, error) {
	names := strs(tn.Names)
	name := names[len(names)-1]
	t, ok := lookupTypeName(name)
	if !ok {
		return 0, "", errorf(CodeUndefinedObject, tn.Location, "type \"%s\" does not exist", name)
	}
	if unbuiltTypes[t.name] {
		return 0, "", errorf(CodeNotSupported, tn.Location, "type %s is not supported", t.name)
	}
	oid := t.oid
	if len(tn.ArrayBounds) > 0 {
		if t.array == 0 {
			return 0, "", errorf(CodeUndefinedObject, tn.Location, "type \"%s\"[] does not exist", name)
		}
		oid = t.array
	}
	return oid, t.name, nil
}

func (b *binder) bindTypeCast(tc *pg_query.TypeCast, sc *scope) (*cexpr, error) {
	to, tname, err := typeFromName(tc.TypeName)
	if err != nil {
		return nil, err
	}
	arg, err := b.bindExpr(tc.Arg, sc)
	if err != nil {
		return nil, err
	}
	if arg.typ == tJSON && jsonScalarTarget(to) { // jsonb has these casts, json none
		return nil, errorf(CodeCannotCoerce, tc.Location, "cannot cast type json to %s", formatType(to, -1))
	}
	if !arg.untyped && noCastBetween(arg.typ, to) {
		return nil, errorf(CodeCannotCoerce, tc.Location, "cannot cast type %s to %s", formatType(arg.typ, -1), formatType(to, -1))
	}
	name, weak := arg.name, arg.weak
	if name == "?column?" || weak {
		name, weak = tname, true
	}
	e := b.coerce(arg, to)
	keepConst := e == arg && arg.isConst && !arg.untyped // ARRAY['q']::text[]
	if e == arg {
		e = &cexpr{fn: arg.fn, typ: arg.typ, fields: arg.fields, val: arg.val}
	}
	e.name, e.weak, e.untyped, e.param, e.isConst = name, weak, false, 0, keepConst
	mods, err := typmods(tc.TypeName)
	if err != nil {
		return nil, err
	}
	return withTypmod(e, to, mods, tc.TypeName.Location)
}

func (b *binder) bindArgs(args []*pg_query.Node, sc *scope) ([]*cexpr, error) {
	out := make([]*cexpr, len(args))
	for i, a := range args {
		e, err := b.bindExpr(a, sc)
		if err != nil {
			return nil, err
		}
		out[i] = e
	}
	return out, nil
}

// bindArrayExpr binds ARRAY[...]: elements take their common type (text
// when none is typed).
func (b *binder) bindArrayExpr(elems []*pg_query.Node, pos int32, sc *scope) (*cexpr, error) {
	args, err := b.bindArgs(elems, sc)
	if err != nil {
		return nil, err
	}
	et := commonType(args)
	if multiDim(et) {
		return nil, errMultiDim(pos)
	}
	consts := true
	for i, a := range args {
		args[i] = b.coerce(a, et)
		consts = consts && args[i].isConst
	}
	if consts { // ARRAY['q'], as tools spell a jsonb path
		vals := make([]Value, len(args))
		for i, a := range args {
			vals[i] = a.val
		}
		out := constExpr(arrayV(vals), arrayOf(et))
		out.name = "array"
		return out, nil
	}
	return &cexpr{typ: arrayOf(et), name: "array", fn: func(ev *evaluator, e *env) (Value, error) {
		vals, err := evalArgs(ev, e, args)
		if err != nil {
			return null, err
		}
		return arrayV(vals), nil
	}}, nil
}

func (b *binder) bindRow(elems []*pg_query.Node, sc *scope) (*cexpr, error) {
	args, err := b.bindArgs(elems, sc)
	if err != nil {
		return nil, err
	}
	var fields []colDef
	for i, a := range args {
		fields = append(fields, colDef{name: "f" + itoa(int64(i+1)), typ: outputType(a.typ)})
	}
	names, types := fieldNames(fields)
	return &cexpr{typ: tRecord, name: "row", fields: fields, fn: func(ev *evaluator, e *env) (Value, error) {
		vals, err := evalArgs(ev, e, args)
		if err != nil {
			return null, err
		}
		return Value{k: kRecord, a: vals, names: names, types: types}, nil
	}}, nil
}

// bindIndirection binds subscripts (arr[i], arr[i:j]) and field selection
// ((rec).x).
func (b *binder) bindIndirection(ind *pg_query.A_Indirection, sc *scope) (*cexpr, error) {
	cur, err := b.bindExpr(ind.Arg, sc)
	if err != nil {
		return nil, err
	}
	for _, step := range ind.Indirection {
		switch {
		case step.GetAIndices() != nil:
			if cur, err = b.bindSubscript(cur, step.GetAIndices(), sc); err != nil {
				return nil, err
			}
		case step.GetString_() != nil:
			if cur, err = bindField(cur, step.GetString_().Sval); err != nil {
				return nil, err
			}
		default:
			return nil, errorf(CodeNotSupported, noPos, "unsupported indirection in catalog query")
		}
	}
	return cur, nil
}

func (b *binder) bindSubscript(arr *cexpr, ix *pg_query.A_Indices, sc *scope) (*cexpr, error) {
	if arr.typ == tJSONB && !ix.IsSlice && ix.Uidx != nil {
		return b.bindJSONBSubscript(arr, ix.Uidx, sc)
	}
	var lo, hi *cexpr
	var err error
	if ix.Lidx != nil {
		if lo, err = b.bindExpr(ix.Lidx, sc); err != nil {
			return nil, err
		}
		lo = b.coerce(lo, tInt4)
	}
	if ix.Uidx != nil {
		if hi, err = b.bindExpr(ix.Uidx, sc); err != nil {
			return nil, err
		}
		hi = b.coerce(hi, tInt4)
	}
	if arr.untyped {
		arr = b.coerce(arr, tTextArray)
	}
	base := arrayBase(arr.typ)
	if !ix.IsSlice {
		return &cexpr{typ: elemType(arr.typ), name: arr.name, fn: func(ev *evaluator, e *env) (Value, error) {
			a, err := arr.fn(ev, e)
			if err != nil || a.k != kArray {
				return null, err
			}
			i, err := hi.fn(ev, e)
			if err != nil || i.isNull() {
				return null, err
			}
			n, _ := i.asInt()
			n -= base
			if n < 0 || n >= int64(len(a.a)) {
				return null, nil
			}
			return a.a[n], nil
		}}, nil
	}
	return &cexpr{typ: arr.typ, name: arr.name, fn: func(ev *evaluator, e *env) (Value, error) {
		a, err := arr.fn(ev, e)
		if err != nil || a.k != kArray {
			return null, err
		}
		from, to := base, base+int64(len(a.a))-1
		if lo != nil {
			v, err := lo.fn(ev, e)
			if err != nil {
				return null, err
			}
			from, _ = v.asInt()
		}
		if hi != nil {
			v, err := hi.fn(ev, e)
			if err != nil {
				return null, err
			}
			to, _ = v.asInt()
		}
		from, to = max(from-base, 0), min(to-base, int64(len(a.a))-1)
		if from > to {
			return arrayV(nil), nil
		}
		return arrayV(a.a[from : to+1]), nil
	}}, nil
}

func bindField(rec *cexpr, name string) (*cexpr, error) {
	for _, f := range rec.fields {
		if f.name == name {
			return &cexpr{typ: f.typ, name: name, fn: func(ev *evaluator, e *env) (Value, error) {
				v, err := rec.fn(ev, e)
				if err != nil || v.k != kRecord {
					return null, err
				}
				x, _ := v.field(name)
				return x, nil
			}}, nil
		}
	}
	return nil, errorf(CodeUndefinedColumn, noPos, "column \"%s\" not found in data type %s", name, formatType(rec.typ, -1))
}
