package pgcatalog

// literalIn reads a string literal that takes type to (a literal of type
// unknown, in PostgreSQL's terms) once, when it is bound, as PostgreSQL's
// parse analysis does, for the types whose input depends on neither the
// session nor the catalog: text, text[], bytea, bool and the integer and
// floating-point types. ok is false for every other expression and type, which are cast
// where they are evaluated. A literal that is not valid input gives its
// error pointing at the literal, so that psql draws its caret there.
func literalIn(e *cexpr, to uint32) (out *cexpr, ok bool, err error) {
	if !e.isConst || !e.untyped || e.val.k != kText {
		return nil, false, nil
	}
	var v Value
	switch {
	case to == tText:
		v = e.val
	case to == tTextArray:
		var elems []Value
		elems, err = parseArray(e.val.s)
		v = arrayV(elems)
	case to == tBytea:
		v, err = byteaIn(e.val.s)
	case to == tBool:
		v, err = castBool(e.val)
	case kindOf(to) == kInt && !isRegType(to):
		v, err = castInt(e.val, to)
	case kindOf(to) == kFloat:
		v, err = castFloat(e.val, to)
	case to == tNumeric:
		v, err = castNumeric(e.val)
	case isJSONType(to):
		v, err = castJSON(e.val.s, tUnknown, to)
	case to == tInterval:
		var iv interval
		iv, err = parseInterval(e.val.s)
		v = textV(iv.String())
	default:
		return nil, false, nil
	}
	if err != nil {
		if pe, isPE := err.(*Error); isPE && pe.Position == 0 && e.pos >= 0 {
			pe.Position = int(e.pos) + 1
		}
		return nil, true, err
	}
	out = constExpr(v, to)
	out.name = e.name
	return out, true, nil
}
