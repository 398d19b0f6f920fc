package pgcatalog

import (
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
}

var srfs = map[string]*srfDef{}

func init() {
	srfs["generate_series"] = &srfDef{min: 2, max: 3, retType: tInt4, ret: seriesType, call: generateSeries}
	srfs["unnest"] = &srfDef{min: 1, max: 1, retType: tAnyArray, ret: func(t []uint32) uint32 { return elemType(t[0]) }, call: unnest}
	srfs["generate_subscripts"] = &srfDef{min: 2, max: 3, retType: tInt4, ret: constType(tInt4), call: generateSubscripts}
	srfs["_pg_expandarray"] = &srfDef{min: 1, max: 1, retType: tRecord, ret: constType(tRecord),
		fields: []colDef{{"x", tInt4}, {"n", tInt4}}, call: expandArray}
	srfs["pg_get_keywords"] = &srfDef{retType: tRecord, ret: constType(tRecord),
		fields: []colDef{{"word", tText}, {"catcode", tChar}, {"barelabel", tBool}, {"catdesc", tText}, {"baredesc", tText}},
		call:   keywordRows}
	srfs["pg_partition_ancestors"] = &srfDef{min: 1, max: 1, retType: tRegclass, ret: constType(tRegclass),
		call: func(_ *evaluator, a []Value, _ []uint32) ([]Value, error) { return onlyNonNull(a[0]), nil }}
	srfs["pg_options_to_table"] = &srfDef{min: 1, max: 1, retType: tRecord, ret: constType(tRecord),
		fields: []colDef{{"option_name", tText}, {"option_value", tText}}, call: optionsToTable}
	srfs["aclexplode"] = &srfDef{min: 1, max: 1, retType: tRecord, ret: constType(tRecord),
		fields: []colDef{{"grantor", tOid}, {"grantee", tOid}, {"privilege_type", tText}, {"is_grantable", tBool}},
		call:   func(*evaluator, []Value, []uint32) ([]Value, error) { return nil, nil }}
}

func constType(t uint32) func([]uint32) uint32 { return func([]uint32) uint32 { return t } }

func onlyNonNull(v Value) []Value {
	if v.isNull() {
		return nil
	}
	return []Value{v}
}

func seriesType(t []uint32) uint32 {
	for _, x := range t {
		if x == tInt8 {
			return tInt8
		}
	}
	return tInt4
}

func generateSeries(ev *evaluator, a []Value, _ []uint32) ([]Value, error) {
	if len(a) < 2 || a[0].isNull() || a[1].isNull() {
		return nil, nil
	}
	lo, _ := a[0].asInt()
	hi, _ := a[1].asInt()
	step := int64(1)
	if len(a) > 2 && !a[2].isNull() {
		step, _ = a[2].asInt()
	}
	if step == 0 {
		return nil, errorf("22023", noPos, "step size cannot equal zero")
	}
	var out []Value
	for i := lo; (step > 0 && i <= hi) || (step < 0 && i >= hi); i += step {
		if len(out) >= 100_000 {
			return nil, errorf("54000", noPos, "generate_series is limited to 100000 rows in catalog queries")
		}
		if err := ev.check(); err != nil {
			return nil, err
		}
		out = append(out, intV(i))
	}
	return out, nil
}

func unnest(_ *evaluator, a []Value, _ []uint32) ([]Value, error) {
	if len(a) != 1 || a[0].k != kArray {
		return nil, nil
	}
	return append([]Value(nil), a[0].a...), nil
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
	if sc.srfs == nil {
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
	for i, a := range args {
		if a.untyped {
			args[i] = b.coerce(a, tText)
		}
	}
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
		return errorf(CodeUndefinedFunc, pos, "function %s(%s) does not exist", name, typeList(args))
	}
	return nil
}
