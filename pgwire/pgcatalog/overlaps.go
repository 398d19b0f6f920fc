package pgcatalog

import pg_query "github.com/pganalyze/pg_query_go/v6"

// (s1, e1) OVERLAPS (s2, e2): whether two periods of time share an instant,
// each given by its ends (in either order) or by its start and an interval.
// NULL ends give PostgreSQL's answers (overlaps_timestamp): unknown unless
// the known ends decide it.

// bindOverlaps binds overlaps(s1, e1, s2, e2), what the parser makes of
// the OVERLAPS operator.
func (b *binder) bindOverlaps(fc *pg_query.FuncCall, sc *scope) (*cexpr, error) {
	args, err := b.bindArgs(fc.Args, sc)
	if err != nil {
		return nil, err
	}
	for _, i := range []int{1, 3} {
		if args[i].typ == tInterval {
			if args[i], err = b.binaryOp("+", args[i-1], args[i], fc.Location); err != nil {
				return nil, err
			}
		}
	}
	typ := uint32(0)
	for _, a := range args {
		switch {
		case a.untyped:
		case a.typ == tTimestamptz:
			typ = tTimestamptz
		case (a.typ == tTimestamp || a.typ == tDate) && typ != tTimestamptz:
			typ = tTimestamp
		case a.typ == tTime && typ == 0:
			typ = tTime
		case a.typ != tTimestamp && a.typ != tDate && a.typ != tTime:
			return nil, noFunction(fc.Location, "overlaps", typeList(args))
		}
	}
	if typ == 0 {
		typ = tTimestamptz
	}
	for i := range args {
		args[i] = b.coerce(args[i], typ)
	}
	return &cexpr{typ: tBool, name: "overlaps", fn: func(ev *evaluator, e *env) (Value, error) {
		v, err := evalArgs(ev, e, args)
		if err != nil {
			return null, err
		}
		return overlaps(v[0], v[1], v[2], v[3], func(x, y Value) int { return compareAs(x, y, typ) }), nil
	}}, nil
}

// overlaps is overlaps_timestamp's logic over comparable values.
func overlaps(s1, e1, s2, e2 Value, cmp func(x, y Value) int) Value {
	// Each period's start is its lesser known end.
	order := func(s, e Value) (Value, Value, bool) {
		switch {
		case s.isNull() && e.isNull():
			return s, e, false
		case s.isNull():
			return e, null, true
		case !e.isNull() && cmp(s, e) > 0:
			return e, s, true
		}
		return s, e, true
	}
	s1, e1, ok1 := order(s1, e1)
	s2, e2, ok2 := order(s2, e2)
	if !ok1 || !ok2 {
		return null
	}
	// The later start must fall before the earlier period's end.
	firstEnd, later, laterEnd := e1, s2, e2
	switch c := cmp(s1, s2); {
	case c > 0:
		firstEnd, later, laterEnd = e2, s1, e1
	case c == 0:
		if e1.isNull() || e2.isNull() {
			return null
		}
		return boolV(true)
	}
	switch {
	case firstEnd.isNull():
		return null
	case cmp(later, firstEnd) < 0:
		return boolV(true)
	case laterEnd.isNull():
		return null
	}
	return boolV(false)
}
