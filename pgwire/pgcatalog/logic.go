package pgcatalog

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"
)

func (b *binder) bindBoolExpr(x *pg_query.BoolExpr, sc *scope) (*cexpr, error) {
	args := make([]*cexpr, len(x.Args))
	for i, a := range x.Args {
		e, err := b.bindBool(a, sc, "boolean expression")
		if err != nil {
			return nil, err
		}
		args[i] = e
	}
	switch x.Boolop {
	case pg_query.BoolExprType_AND_EXPR:
		return andAll(args), nil
	case pg_query.BoolExprType_OR_EXPR:
		return orAll(args), nil
	}
	return notExpr(args[0]), nil
}

// andAll is three-valued AND: false wins, then NULL.
func andAll(args []*cexpr) *cexpr { return logicAll(args, false) }

// orAll is three-valued OR: true wins, then NULL.
func orAll(args []*cexpr) *cexpr { return logicAll(args, true) }

// logicAll is three-valued AND (decisive false) or OR (decisive true): the
// decisive value wins, then NULL, else the other value.
func logicAll(args []*cexpr, decisive bool) *cexpr {
	if len(args) == 1 {
		return args[0]
	}
	return &cexpr{typ: tBool, name: "?column?", fn: func(ev *evaluator, e *env) (Value, error) {
		sawNull := false
		for _, a := range args {
			v, err := a.fn(ev, e)
			if err != nil {
				return null, err
			}
			if v.isNull() {
				sawNull = true
			} else if v.b == decisive {
				return boolV(decisive), nil
			}
		}
		if sawNull {
			return null, nil
		}
		return boolV(!decisive), nil
	}}
}

func notExpr(a *cexpr) *cexpr {
	return &cexpr{typ: tBool, name: "?column?", fn: func(ev *evaluator, e *env) (Value, error) {
		v, err := a.fn(ev, e)
		if err != nil || v.isNull() {
			return null, err
		}
		return boolV(!v.b), nil
	}}
}

func (b *binder) bindNullTest(x *pg_query.NullTest, sc *scope) (*cexpr, error) {
	a, err := b.bindExpr(x.Arg, sc)
	if err != nil {
		return nil, err
	}
	want := x.Nulltesttype == pg_query.NullTestType_IS_NULL
	return &cexpr{typ: tBool, name: "?column?", fn: func(ev *evaluator, e *env) (Value, error) {
		v, err := a.fn(ev, e)
		if err != nil {
			return null, err
		}
		if v.k == kRecord {
			// A row is NULL when every field is, and NOT NULL when none
			// is: ROW(1, NULL) is neither.
			for _, f := range v.a {
				if f.isNull() != want {
					return boolV(false), nil
				}
			}
			return boolV(true), nil
		}
		return boolV(v.isNull() == want), nil
	}}, nil
}

func (b *binder) bindBooleanTest(x *pg_query.BooleanTest, sc *scope) (*cexpr, error) {
	a, err := b.bindBool(x.Arg, sc, "IS")
	if err != nil {
		return nil, err
	}
	t := x.Booltesttype
	return &cexpr{typ: tBool, name: "?column?", fn: func(ev *evaluator, e *env) (Value, error) {
		v, err := a.fn(ev, e)
		if err != nil {
			return null, err
		}
		var r bool
		switch t {
		case pg_query.BoolTestType_IS_TRUE:
			r = v.truthy()
		case pg_query.BoolTestType_IS_NOT_TRUE:
			r = !v.truthy()
		case pg_query.BoolTestType_IS_FALSE:
			r = !v.isNull() && !v.b
		case pg_query.BoolTestType_IS_NOT_FALSE:
			r = v.isNull() || v.b
		case pg_query.BoolTestType_IS_UNKNOWN:
			r = v.isNull()
		default:
			r = !v.isNull()
		}
		return boolV(r), nil
	}}, nil
}

// bindCase binds both CASE forms. Results take the first typed branch's
// type; untyped branches are coerced to it.
func (b *binder) bindCase(x *pg_query.CaseExpr, sc *scope) (*cexpr, error) {
	var arg *cexpr
	var err error
	if x.Arg != nil {
		if arg, err = b.bindExpr(x.Arg, sc); err != nil {
			return nil, err
		}
	}
	var conds, results []*cexpr
	for _, w := range x.Args {
		cw := w.GetCaseWhen()
		var c *cexpr
		if arg != nil {
			v, err := b.bindExpr(cw.Expr, sc)
			if err != nil {
				return nil, err
			}
			if c, err = b.binaryOp("=", arg, v, cw.Location); err != nil {
				return nil, err
			}
		} else if c, err = b.bindBool(cw.Expr, sc, "CASE/WHEN"); err != nil {
			return nil, err
		}
		r, err := b.bindExpr(cw.Result, sc)
		if err != nil {
			return nil, err
		}
		conds, results = append(conds, c), append(results, r)
	}
	def := constExpr(null, tUnknown)
	def.untyped = true
	if x.Defresult != nil {
		if def, err = b.bindExpr(x.Defresult, sc); err != nil {
			return nil, err
		}
	}
	typ := commonType(append(results, def))
	for i := range results {
		results[i] = b.coerce(results[i], typ)
	}
	def = b.coerce(def, typ)
	return &cexpr{typ: typ, name: "case", weak: true, fn: func(ev *evaluator, e *env) (Value, error) {
		for i, c := range conds {
			v, err := c.fn(ev, e)
			if err != nil {
				return null, err
			}
			if v.truthy() {
				return results[i].fn(ev, e)
			}
		}
		return def.fn(ev, e)
	}}, nil
}

// commonType is the first typed expression's type, or text.
func commonType(es []*cexpr) uint32 {
	t, typed := uint32(tText), false
	for _, e := range es {
		switch {
		case e.untyped:
		case !typed:
			t, typed = e.typ, true
		default:
			t = unifyTypes(t, e.typ)
		}
	}
	return t
}

// unifyTypes is the type PostgreSQL resolves two typed inputs of a UNION,
// CASE, COALESCE, VALUES column or ARRAY to (select_common_type), where
// both are of a category the dialect orders: numbers go to the wider
// (int2 < int4 < int8 < numeric < float4 < float8), dates and times to the
// later (date < timestamp < timestamptz). Otherwise it is a, the first, as
// PostgreSQL keeps it for strings (varchar and text cast to each other
// implicitly, so varchar then text stays varchar).
func unifyTypes(a, b uint32) uint32 {
	if a == b {
		return a
	}
	for _, rank := range []func(uint32) int{numberRank, timeRank} {
		if ra, rb := rank(a), rank(b); ra > 0 && rb > 0 {
			if ra >= rb {
				return a
			}
			return b
		}
	}
	return a
}

func numberRank(t uint32) int {
	switch t {
	case tInt2:
		return 1
	case tInt4:
		return 2
	case tInt8:
		return 3
	case tNumeric:
		return 4
	case tFloat4:
		return 5
	case tFloat8:
		return 6
	}
	return 0
}

func timeRank(t uint32) int {
	switch t {
	case tDate:
		return 1
	case tTimestamp:
		return 2
	case tTimestamptz:
		return 3
	}
	return 0
}

// bindCoalesce binds COALESCE (and, with pick, GREATEST/LEAST, which order
// the arguments as values of their common type, by compareAs).
func (b *binder) bindCoalesce(nodes []*pg_query.Node, sc *scope, name string, pick func(a, b Value, typ uint32) bool) (*cexpr, error) {
	args, err := b.bindArgs(nodes, sc)
	if err != nil {
		return nil, err
	}
	typ := commonType(args)
	for i := range args {
		args[i] = b.coerce(args[i], typ)
	}
	return &cexpr{typ: typ, name: name, fn: func(ev *evaluator, e *env) (Value, error) {
		best := null
		for _, a := range args {
			v, err := a.fn(ev, e)
			if err != nil {
				return null, err
			}
			if v.isNull() {
				continue
			}
			if pick == nil {
				return v, nil
			}
			if best.isNull() || pick(v, best, typ) {
				best = v
			}
		}
		return best, nil
	}}, nil
}

func (b *binder) bindMinMax(x *pg_query.MinMaxExpr, sc *scope) (*cexpr, error) {
	if x.Op == pg_query.MinMaxOp_IS_GREATEST {
		return b.bindCoalesce(x.Args, sc, "greatest", func(a, b Value, t uint32) bool { return compareAs(a, b, t) > 0 })
	}
	return b.bindCoalesce(x.Args, sc, "least", func(a, b Value, t uint32) bool { return compareAs(a, b, t) < 0 })
}

// bindSQLValueFunction binds current_user, session_user, current_schema
// and friends written without parentheses.
func bindSQLValueFunction(x *pg_query.SQLValueFunction) (*cexpr, error) {
	var name string
	var typ uint32 = tName
	var fn evalFn
	switch x.Op {
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_USER, pg_query.SQLValueFunctionOp_SVFOP_CURRENT_ROLE,
		pg_query.SQLValueFunctionOp_SVFOP_USER, pg_query.SQLValueFunctionOp_SVFOP_SESSION_USER:
		name = map[pg_query.SQLValueFunctionOp]string{
			pg_query.SQLValueFunctionOp_SVFOP_CURRENT_USER: "current_user", pg_query.SQLValueFunctionOp_SVFOP_CURRENT_ROLE: "current_role",
			pg_query.SQLValueFunctionOp_SVFOP_USER: "user", pg_query.SQLValueFunctionOp_SVFOP_SESSION_USER: "session_user"}[x.Op]
		fn = func(ev *evaluator, _ *env) (Value, error) { return textV(ev.sess.User), nil }
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_CATALOG:
		name = "current_catalog"
		fn = func(ev *evaluator, _ *env) (Value, error) { return textV(ev.sess.Database), nil }
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_SCHEMA:
		name = "current_schema"
		fn = currentSchema
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP, pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP_N:
		name, typ = "current_timestamp", tTimestamptz
		fn = func(ev *evaluator, _ *env) (Value, error) { return textV(ev.now.Format(timestampLayout)), nil }
	case pg_query.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP, pg_query.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP_N:
		name, typ = "localtimestamp", tTimestamp
		fn = func(ev *evaluator, _ *env) (Value, error) { return timeValue(ev.now.In(ev.zone()), tTimestamp), nil }
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_DATE:
		name, typ = "current_date", tDate
		fn = func(ev *evaluator, _ *env) (Value, error) { return timeValue(ev.now.In(ev.zone()), tDate), nil }
	case pg_query.SQLValueFunctionOp_SVFOP_LOCALTIME, pg_query.SQLValueFunctionOp_SVFOP_LOCALTIME_N:
		name, typ = "localtime", tTime
		fn = func(ev *evaluator, _ *env) (Value, error) { return timeOfDay(clockMicros(ev.now.In(ev.zone()))), nil }
	case pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIME, pg_query.SQLValueFunctionOp_SVFOP_CURRENT_TIME_N:
		name, typ = "current_time", tTimetz // the time and the zone's offset
		fn = func(ev *evaluator, _ *env) (Value, error) {
			now := ev.now.In(ev.zone())
			_, off := now.Zone()
			return timetzText(clockMicros(now), off), nil
		}
	default:
		return nil, errorf(CodeNotSupported, x.Location, "unsupported SQL value function")
	}
	return &cexpr{typ: typ, name: name, fn: fn}, nil
}

func currentSchema(ev *evaluator, _ *env) (Value, error) {
	p := searchPath(ev.sess, false)
	if len(p) == 0 {
		return null, nil
	}
	return textV(p[0]), nil
}
