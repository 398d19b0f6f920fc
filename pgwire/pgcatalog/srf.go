package pgcatalog

import (
	"math"
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// srfDef is a set-returning function: one value per result row, a record
// when fields is set.
type srfDef struct {
	min, max int // arity
	ret      func(args []uint32) uint32
	retType  uint32 // for pg_proc
	fields   []colDef
	call     func(ev *evaluator, a []Value, t []uint32) ([]Value, error)
	// argTypes, when set, gives the types untyped arguments take from the
	// typed ones (0: the default, text); otherwise they are text.
	argTypes func(args []*cexpr) []uint32
	// outName names the one column of a function with one OUT parameter
	// (json_array_elements' value), alias or not; "" for the function's
	// name (or the alias).
	outName string
}

// coerceUntyped gives untyped arguments their types: argTypes' choice, or
// else fallback (0: leave them untyped).
func (d *srfDef) coerceUntyped(b *binder, args []*cexpr, fallback uint32) {
	var want []uint32
	if d.argTypes != nil {
		want = d.argTypes(args)
	}
	for i, a := range args {
		if !a.untyped {
			continue
		}
		t := fallback
		if i < len(want) && want[i] != 0 {
			t = want[i]
		}
		if t != 0 {
			args[i] = b.coerce(a, t)
		}
	}
}

var srfs = map[string]*srfDef{}

func init() {
	srfs["generate_series"] = &srfDef{min: 2, max: 3, retType: tInt4, ret: seriesType, call: generateSeries, argTypes: seriesArgTypes}
	srfs["unnest"] = &srfDef{min: 1, max: 1, retType: tAnyArray, ret: func(t []uint32) uint32 { return elemType(t[0]) }, call: unnest}
	srfs["generate_subscripts"] = &srfDef{min: 2, max: 3, retType: tInt4, ret: constType(tInt4), call: generateSubscripts}
	srfs["_pg_expandarray"] = &srfDef{min: 1, max: 1, retType: tRecord, ret: constType(tRecord),
		fields: []colDef{{"x", tInt4}, {"n", tInt4}}, call: expandArray}
	srfs["pg_get_keywords"] = &srfDef{retType: tRecord, ret: constType(tRecord),
		fields: []colDef{{"word", tText}, {"catcode", tChar}, {"barelabel", tBool}, {"catdesc", tText}, {"baredesc", tText}},
		call:   keywordRows}
	// Shale has no partitioned tables, and for a relation that is neither
	// a partition nor partitioned PostgreSQL's partition functions return
	// no rows (\dP+ reads pg_partition_tree).
	srfs["pg_partition_ancestors"] = &srfDef{min: 1, max: 1, retType: tRegclass, ret: constType(tRegclass), call: noRows}
	srfs["pg_partition_tree"] = &srfDef{min: 1, max: 1, retType: tRecord, ret: constType(tRecord),
		fields: []colDef{{"relid", tRegclass}, {"parentrelid", tRegclass}, {"isleaf", tBool}, {"level", tInt4}},
		call:   noRows}
	srfs["pg_options_to_table"] = &srfDef{min: 1, max: 1, retType: tRecord, ret: constType(tRecord),
		fields: []colDef{{"option_name", tText}, {"option_value", tText}}, call: optionsToTable}
	srfs["aclexplode"] = &srfDef{min: 1, max: 1, retType: tRecord, ret: constType(tRecord),
		fields: []colDef{{"grantor", tOid}, {"grantee", tOid}, {"privilege_type", tText}, {"is_grantable", tBool}},
		call:   func(*evaluator, []Value, []uint32) ([]Value, error) { return nil, nil }}
}

// noRows is a set-returning function's empty result.
func noRows(*evaluator, []Value, []uint32) ([]Value, error) { return nil, nil }

func constType(t uint32) func([]uint32) uint32 { return func([]uint32) uint32 { return t } }

// seriesType is generate_series' result type: its bounds' type, integers
// widened to the wider of the two; dates make timestamps with time zone.
func seriesType(t []uint32) uint32 {
	switch {
	case isSeriesTime(t[0]):
		return tTimestamptz
	case t[0] == tTimestamp:
		return tTimestamp
	case t[0] == tNumeric || t[1] == tNumeric || len(t) > 2 && t[2] == tNumeric:
		return tNumeric
	case t[0] == tInt8 || t[1] == tInt8 || len(t) > 2 && t[2] == tInt8:
		return tInt8
	}
	return tInt4
}

func isSeriesTime(t uint32) bool { return t == tTimestamptz || t == tDate }

// seriesArgTypes: an untyped bound takes the other bound's type, and the
// step of a series of times is an interval.
func seriesArgTypes(args []*cexpr) []uint32 {
	bound := uint32(0)
	for _, a := range args[:min(2, len(args))] {
		if !a.untyped {
			bound = a.typ
			break
		}
	}
	if bound == tDate {
		bound = tTimestamptz
	}
	step := bound
	if bound == tTimestamptz || bound == tTimestamp {
		step = tInterval
	}
	return []uint32{bound, bound, step}
}

// generateSeries is generate_series(start, stop [, step]) over integers,
// numerics, or timestamps stepped by an interval.
func generateSeries(ev *evaluator, a []Value, t []uint32) ([]Value, error) {
	if len(a) < 2 || a[0].isNull() || a[1].isNull() || len(a) > 2 && a[2].isNull() {
		return nil, nil
	}
	switch typ := seriesType(t); typ {
	case tTimestamptz, tTimestamp:
		return timeSeries(ev, a, typ)
	case tNumeric:
		return numericSeries(ev, a)
	}
	lo, _ := a[0].asInt()
	hi, _ := a[1].asInt()
	step := int64(1)
	if len(a) > 2 {
		step, _ = a[2].asInt()
	}
	if step == 0 {
		return nil, errorf("22023", noPos, "step size cannot equal zero")
	}
	var out []Value
	for i := lo; (step > 0 && i <= hi) || (step < 0 && i >= hi); i += step {
		if err := seriesRow(ev, len(out)); err != nil {
			return nil, err
		}
		out = append(out, intV(i))
		if step > 0 && i > math.MaxInt64-step || step < 0 && i < math.MinInt64-step {
			break // the next value would overflow: this was the last
		}
	}
	return out, nil
}

// seriesRow checks, before a series' n+1th row, the row limit and the
// statement's cancellation.
func seriesRow(ev *evaluator, n int) error {
	if n >= 100_000 {
		return errorf("54000", noPos, "generate_series is limited to 100000 rows in catalog queries")
	}
	return ev.check()
}

func timeSeries(ev *evaluator, a []Value, typ uint32) ([]Value, error) {
	if len(a) < 3 {
		return nil, errorf(CodeUndefinedFunc, noPos, "function generate_series(%s, %s) does not exist", formatType(typ, -1), formatType(typ, -1))
	}
	lo, err := ev.localTime(a[0], typ)
	if err != nil {
		return nil, err
	}
	hi, err := timeArg(a[1])
	if err != nil {
		return nil, err
	}
	step, err := parseInterval(a[2].s)
	if err != nil {
		return nil, err
	}
	dir := step.span()
	if dir == 0 {
		return nil, errorf("22023", noPos, "step size cannot equal zero")
	}
	var out []Value
	// Each value is the one before plus the step, as PostgreSQL adds it: a
	// month after Jan 31 is Feb 29, and a month after that Mar 29.
	for at := lo; !(dir > 0 && at.After(hi) || dir < 0 && at.Before(hi)); at = addInterval(at, step, 1) {
		if err := seriesRow(ev, len(out)); err != nil {
			return nil, err
		}
		out = append(out, timeValue(instantIfZoned(at, typ), typ))
	}
	return out, nil
}

func numericSeries(ev *evaluator, a []Value) ([]Value, error) {
	var n [3]*numeric
	n[2] = numericFromInt(1)
	for i := range a {
		v, err := numericOf(a[i])
		if err != nil {
			return nil, err
		}
		if v.nan {
			return nil, errorf("22023", noPos, "%s value cannot be NaN", [3]string{"start", "stop", "step size"}[i])
		}
		n[i] = v
	}
	dir := n[2].unscaled.Sign()
	if dir == 0 {
		return nil, errorf("22023", noPos, "step size cannot equal zero")
	}
	var out []Value
	for at := n[0]; at.cmp(n[1])*dir <= 0; at = at.add(n[2], false) {
		if err := seriesRow(ev, len(out)); err != nil {
			return nil, err
		}
		out = append(out, numericV(at))
	}
	return out, nil
}

func unnest(_ *evaluator, a []Value, _ []uint32) ([]Value, error) {
	if len(a) != 1 || a[0].k != kArray {
		return nil, nil
	}
	return append([]Value(nil), a[0].a...), nil
}

// zippedUnnest is unnest(a, b, ...) in FROM: a column per array, each
// row the arrays' next elements, the shorter arrays padded with NULLs.
func zippedUnnest(args []*cexpr, pos int32) (*srfDef, error) {
	fields := make([]colDef, len(args))
	for i, a := range args {
		if !isArrayType(a.typ) {
			return nil, errorf(CodeUndefinedFunc, pos, "function unnest(%s) does not exist", typeList(args))
		}
		fields[i] = colDef{"unnest", elemType(a.typ)}
	}
	return &srfDef{min: len(args), max: len(args), retType: tRecord, ret: constType(tRecord), fields: fields,
		call: func(_ *evaluator, a []Value, _ []uint32) ([]Value, error) {
			n := 0
			for _, arr := range a {
				if arr.k == kArray {
					n = max(n, len(arr.a))
				}
			}
			out := make([]Value, n)
			for i := range out {
				row := make([]Value, len(a))
				for j, arr := range a {
					if arr.k == kArray && i < len(arr.a) {
						row[j] = arr.a[i]
					}
				}
				out[i] = Value{k: kRecord, a: row}
			}
			return out, nil
		}}, nil
}

// generateSubscripts is generate_subscripts(array, dim [, reverse]): the
// subscripts of the array's dimension dim, in order or reversed (SQLAlchemy
// orders a primary key's columns by them).
func generateSubscripts(_ *evaluator, a []Value, t []uint32) ([]Value, error) {
	if a[0].k != kArray || a[1].isNull() || a[1].i != 1 {
		return nil, nil
	}
	base := arrayBase(t[0])
	out := make([]Value, len(a[0].a))
	for i := range out {
		out[i] = intV(base + int64(i))
	}
	if len(a) > 2 && a[2].truthy() {
		slices.Reverse(out)
	}
	return out, nil
}

// expandArray is information_schema._pg_expandarray: (element, index) for
// each element, as pgJDBC's getPrimaryKeys uses it.
func expandArray(_ *evaluator, a []Value, _ []uint32) ([]Value, error) {
	if len(a) != 1 || a[0].k != kArray {
		return nil, nil
	}
	out := make([]Value, len(a[0].a))
	for i, v := range a[0].a {
		out[i] = Value{k: kRecord, a: []Value{v, intV(int64(i + 1))}, names: []string{"x", "n"}}
	}
	return out, nil
}

func optionsToTable(_ *evaluator, a []Value, _ []uint32) ([]Value, error) {
	if len(a) != 1 || a[0].k != kArray {
		return nil, nil
	}
	var out []Value
	for _, v := range a[0].a {
		name, val, _ := cut(plainText(v), "=")
		out = append(out, Value{k: kRecord, a: []Value{textV(name), textV(val)}, names: []string{"option_name", "option_value"}})
	}
	return out, nil
}

// srfSlot is a set-returning function in a select list.
type srfSlot struct {
	def  *srfDef
	args []*cexpr
}

func (b *binder) bindSRFCall(fc *pg_query.FuncCall, name string, def *srfDef, sc *scope) (*cexpr, error) {
	// As PostgreSQL checks: the clause as the call is read, CASE or
	// COALESCE once read, an aggregate's arguments after that.
	argsClause := sc.clause == clauseAggArgs || sc.clause == clauseWinArgs
	if sc.srfs == nil && sc.clause != "" && !argsClause {
		return nil, notAllowed("set-returning", sc, fc.Location)
	}
	if sc.srfRefusal != "" {
		err := errorf(CodeNotSupported, fc.Location, "set-returning functions are not allowed in %s", sc.srfRefusal)
		err.Hint = "You might be able to move the set-returning function into a LATERAL FROM item."
		return nil, err
	}
	if sc.srfs == nil {
		if argsClause {
			return nil, notAllowed("set-returning", sc, fc.Location)
		}
		return nil, errorf(CodeNotSupported, fc.Location, "set-returning function %s is only supported in a select list or FROM", name)
	}
	inner := *sc
	inner.srfs = nil
	args, err := b.bindArgs(fc.Args, &inner)
	if err != nil {
		return nil, err
	}
	if err := def.checkArity(name, args, fc.Location); err != nil {
		return nil, err
	}
	def.coerceUntyped(b, args, tText)
	slot := &srfSlot{def: def, args: args}
	*sc.srfs = append(*sc.srfs, slot)
	idx := len(*sc.srfs) - 1
	e := &cexpr{typ: def.ret(argTypes(args)), name: name, fields: def.fields}
	e.fn = func(_ *evaluator, en *env) (Value, error) {
		if idx < len(en.srf) {
			return en.srf[idx], nil
		}
		return null, nil
	}
	return e, nil
}

// evalSRFs calls every select-list set-returning function for one row.
func evalSRFs(ev *evaluator, slots []*srfSlot, e *env) (int, [][]Value, error) {
	n := 0
	sets := make([][]Value, len(slots))
	for i, s := range slots {
		args, err := evalArgs(ev, e, s.args)
		if err != nil {
			return 0, nil, err
		}
		if sets[i], err = s.def.call(ev, args, argTypes(s.args)); err != nil {
			return 0, nil, err
		}
		n = max(n, len(sets[i]))
	}
	return n, sets, nil
}

// scalarAsSRF wraps a scalar function for use in FROM: one row holding its
// result.
func scalarAsSRF(f *builtin) *srfDef {
	return &srfDef{min: f.min, max: f.max, retType: f.ret, ret: func(t []uint32) uint32 {
		if f.retFn != nil {
			return f.retFn(t)
		}
		return f.ret
	}, call: func(ev *evaluator, a []Value, t []uint32) ([]Value, error) {
		if !f.lenient {
			for _, v := range a {
				if v.isNull() {
					return []Value{null}, nil
				}
			}
		}
		v, err := f.fn(ev, a, t)
		return []Value{v}, err
	}}
}

func (d *srfDef) checkArity(name string, args []*cexpr, pos int32) error {
	if len(args) < d.min || d.max >= 0 && len(args) > d.max {
		return noFunction(pos, name, typeList(args))
	}
	return nil
}
