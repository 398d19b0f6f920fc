package pgcatalog

import (
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// aggDef is an aggregate: its result type and how to fold the inputs of a
// group (each input is the argument values of one row, after FILTER,
// DISTINCT and ORDER BY).
type aggDef struct {
	ret   func(args []uint32) uint32
	final func(ev *evaluator, in [][]Value, t []uint32) (Value, error)
	// nargs is the number of arguments: 0 means 1, -1 none.
	nargs int
	// ordered marks an ordered-set aggregate (percentile_cont(0.5) WITHIN
	// GROUP (ORDER BY x)): its inputs end with the ORDER BY values, and
	// ret and final see their types after the arguments'.
	ordered bool
	// refuse lists argument types PostgreSQL has no such aggregate for
	// (min and max of bytea).
	refuse []uint32
	// takes, when set, says whether PostgreSQL has a form of the
	// aggregate for input types t (its arguments', then an ordered-set
	// aggregate's WITHIN GROUP type): sum has none for text.
	takes func(t []uint32) bool
}

// Input type tests for aggDef.takes.
func numberInput(t []uint32) bool  { return numberRank(t[0]) > 0 }
func sumInput(t []uint32) bool     { return numberRank(t[0]) > 0 || t[0] == tInterval }
func boolInput(t []uint32) bool    { return t[0] == tBool }
func integerInput(t []uint32) bool { return isIntegerType(t[0]) }

// arity is the number of arguments def takes.
func (def *aggDef) arity() int {
	switch def.nargs {
	case 0:
		return 1
	case -1:
		return 0
	}
	return def.nargs
}

var aggregates = map[string]*aggDef{}

func init() {
	for name, def := range aggregateDefs() {
		aggregates[name] = def
	}
}

func aggregateDefs() map[string]*aggDef {
	return map[string]*aggDef{
		"count": {ret: constType(tInt8), final: func(_ *evaluator, in [][]Value, _ []uint32) (Value, error) {
			n := 0
			for _, r := range in {
				if len(r) == 0 || !r[0].isNull() {
					n++
				}
			}
			return intV(int64(n)), nil
		}},
		"array_agg": {ret: func(t []uint32) uint32 { return arrayOf(outputType(t[0])) }, final: func(_ *evaluator, in [][]Value, t []uint32) (Value, error) {
			if multiDim(t[0]) {
				return null, errMultiDim(noPos)
			}
			if len(in) == 0 {
				return null, nil
			}
			out := make([]Value, len(in))
			for i, r := range in {
				out[i] = r[0]
			}
			return arrayV(out), nil
		}},
		"string_agg": {nargs: 2, ret: stringAggType, final: func(ev *evaluator, in [][]Value, t []uint32) (Value, error) {
			if t[0] == tBytea {
				return stringAggBytea(in, t)
			}
			var sb strings.Builder
			n := 0
			for _, r := range in {
				if r[0].isNull() {
					continue
				}
				if n > 0 && !r[1].isNull() {
					sb.WriteString(r[1].s)
				}
				v := ev.text(r[0], t[0])
				if sb.Len()+len(v) > maxRepeatBytes {
					return null, textTooLong(sb.Len(), len(v))
				}
				sb.WriteString(v)
				n++
			}
			if n == 0 {
				return null, nil
			}
			return textV(sb.String()), nil
		}},
		"max":      {ret: firstType, final: extreme(1), refuse: []uint32{tBytea, tJSONB, tJSON}},
		"min":      {ret: firstType, final: extreme(-1), refuse: []uint32{tBytea, tJSONB, tJSON}},
		"sum":      {ret: sumType, final: sum, takes: sumInput},
		"avg":      {ret: avgType, final: avg, takes: sumInput},
		"bool_and": {ret: constType(tBool), final: boolFold(true), takes: boolInput},
		"every":    {ret: constType(tBool), final: boolFold(true), takes: boolInput},
		"bool_or":  {ret: constType(tBool), final: boolFold(false), takes: boolInput},
		"bit_and":  {ret: firstType, final: bitFold(func(a, b int64) int64 { return a & b }), takes: integerInput},
		"bit_or":   {ret: firstType, final: bitFold(func(a, b int64) int64 { return a | b }), takes: integerInput},
		"bit_xor":  {ret: firstType, final: bitFold(func(a, b int64) int64 { return a ^ b }), takes: integerInput},
	}
}

// stringAggType is string_agg's result: bytea for bytea, else text.
func stringAggType(t []uint32) uint32 {
	if t[0] == tBytea {
		return tBytea
	}
	return tText
}

// stringAggBytea is string_agg(bytea, bytea): the bytes, joined by the
// delimiter's bytes.
func stringAggBytea(in [][]Value, t []uint32) (Value, error) {
	var out []byte
	n := 0
	for _, r := range in {
		if r[0].isNull() {
			continue
		}
		if n > 0 && !r[1].isNull() {
			sep := byteaBytes(r[1])
			if t[1] != tBytea { // an untyped literal: bytea input
				b, err := ParseBytea(r[1].s)
				if err != nil {
					return null, err
				}
				sep = b
			}
			out = append(out, sep...)
		}
		out = append(out, byteaBytes(r[0])...)
		n++
	}
	if n == 0 {
		return null, nil
	}
	return byteaV(out), nil
}

func firstType(t []uint32) uint32 { return outputType(t[0]) }

// bitFold is bit_and, bit_or or bit_xor of the non-NULL integers (NULL
// for none).
func bitFold(op func(a, b int64) int64) func(*evaluator, [][]Value, []uint32) (Value, error) {
	return func(_ *evaluator, in [][]Value, _ []uint32) (Value, error) {
		vals := nonNull(in)
		if len(vals) == 0 {
			return null, nil
		}
		acc := vals[0].i
		for _, v := range vals[1:] {
			acc = op(acc, v.i)
		}
		return intV(acc), nil
	}
}

func sumType(t []uint32) uint32 {
	switch t[0] {
	case tInt2, tInt4:
		return tInt8
	case tFloat4, tFloat8:
		return t[0] // sum(real) is real
	case tInterval:
		return tInterval
	}
	return tNumeric
}

// avgType is avg's result type: float8 for floats, interval for
// intervals, numeric for the rest.
func avgType(t []uint32) uint32 {
	switch t[0] {
	case tFloat4, tFloat8:
		return tFloat8
	case tInterval:
		return tInterval
	}
	return tNumeric
}

// numericSum adds values exactly, as sum and avg over integers and
// numerics do.
func numericSum(vals []Value) (*numeric, error) {
	total := numericFromInt(0)
	for _, v := range vals {
		n, err := numericOf(v)
		if err != nil {
			return nil, err
		}
		total = total.add(n, false)
	}
	return total, nil
}

// intervalSum adds intervals, as sum(interval) does.
func intervalSum(vals []Value) (interval, error) {
	var total interval
	for _, v := range vals {
		iv, err := parseInterval(v.s)
		if err != nil {
			return interval{}, err
		}
		total = total.add(iv)
	}
	return total, nil
}

func nonNull(in [][]Value) []Value {
	var out []Value
	for _, r := range in {
		if !r[0].isNull() {
			out = append(out, r[0])
		}
	}
	return out
}

func extreme(dir int) func(*evaluator, [][]Value, []uint32) (Value, error) {
	return func(_ *evaluator, in [][]Value, t []uint32) (Value, error) {
		best := null
		for _, v := range nonNull(in) {
			if best.isNull() || compareAs(v, best, extremeType(t[0]))*dir >= 0 {
				best = v
			}
		}
		return best, nil
	}
}

// extremeType is the type min and max order values of type t as:
// PostgreSQL has no max("char"), and takes max(text) of the "char"s'
// text (\303 before z), not their bytes' order.
func extremeType(t uint32) uint32 {
	if t == tChar {
		return tText
	}
	return t
}

func sum(_ *evaluator, in [][]Value, t []uint32) (Value, error) {
	vals := nonNull(in)
	if len(vals) == 0 {
		return null, nil
	}
	if t[0] == tInterval {
		total, err := intervalSum(vals)
		return textV(total.String()), err
	}
	if sumType(t) == tNumeric {
		total, err := numericSum(vals)
		if err != nil {
			return null, err
		}
		return numericV(total), nil
	}
	var i int64
	var f float64
	isFloat := false
	for _, v := range vals {
		if v.k == kFloat {
			isFloat = true
		}
		x, _ := v.asFloat()
		f += x
		if t[0] == tFloat4 { // float4pl: real arithmetic
			f = float64(float32(f))
		}
		n, _ := v.asInt()
		i += n
	}
	if isFloat {
		return floatV(f), nil
	}
	return intV(i), nil
}

func avg(_ *evaluator, in [][]Value, t []uint32) (Value, error) {
	vals := nonNull(in)
	if len(vals) == 0 {
		return null, nil
	}
	if t[0] == tInterval {
		total, err := intervalSum(vals)
		return textV(total.scale(float64(len(vals)), true).String()), err
	}
	if avgType(t) == tNumeric {
		total, err := numericSum(vals)
		if err != nil {
			return null, err
		}
		q, err := total.div(numericFromInt(int64(len(vals))))
		if err != nil {
			return null, err
		}
		return numericV(q), nil
	}
	var f float64
	for _, v := range vals {
		x, _ := v.asFloat()
		f += x
	}
	return floatV(f / float64(len(vals))), nil
}

func boolFold(and bool) func(*evaluator, [][]Value, []uint32) (Value, error) {
	return func(_ *evaluator, in [][]Value, _ []uint32) (Value, error) {
		vals := nonNull(in)
		if len(vals) == 0 {
			return null, nil
		}
		for _, v := range vals {
			if v.b != and {
				return boolV(!and), nil
			}
		}
		return boolV(and), nil
	}
}

// aggSlot is one aggregate call of a query level.
type aggSlot struct {
	name     string
	def      *aggDef
	star     bool
	distinct bool
	args     []*cexpr
	filter   *cexpr
	order    []*cexpr
	keys     []sortKey
}

// isAggArg reports whether n, an ORDER BY expression of an aggregate, is
// one of its arguments: the same expression, or a column of the same name
// (as written qualified or not).
func isAggArg(n *pg_query.Node, args []*pg_query.Node) bool {
	key := func(n *pg_query.Node) string {
		if c := n.GetColumnRef(); c != nil {
			return "column " + lastName(c.Fields)
		}
		return nodeKey(n)
	}
	k := key(n)
	for _, a := range args {
		if key(a) == k {
			return true
		}
	}
	return false
}

func (b *binder) bindAggregate(fc *pg_query.FuncCall, name string, def *aggDef, sc *scope) (*cexpr, error) {
	if sc.aggs == nil {
		return nil, notAllowed("aggregate", sc, fc.Location)
	}
	inner := *sc
	inner.aggs, inner.wins, inner.srfs, inner.argAggs, inner.clause = sc.argAggs, nil, nil, nil, clauseAggArgs
	inner.outerRef = nil // an aggregate's arguments read each row of its group
	slot := &aggSlot{name: name, def: def, star: fc.AggStar, distinct: fc.AggDistinct}
	var err error
	if slot.args, err = b.bindArgs(fc.Args, &inner); err != nil {
		return nil, err
	}
	if def.ordered && !fc.AggWithinGroup && len(slot.args) == def.arity()+1 {
		// The arguments fit the direct and aggregated ones together.
		return nil, errorf(CodeWrongObjectType, fc.Location, "WITHIN GROUP is required for ordered-set aggregate %s", name)
	}
	if !slot.star && len(slot.args) != def.arity() || slot.star && name != "count" {
		return nil, noFunction(fc.Location, name, typeList(slot.args))
	}
	for i, a := range slot.args {
		if a.untyped {
			slot.args[i] = b.coerce(a, tText)
		}
	}
	if fc.AggFilter != nil {
		if slot.filter, err = b.bindBool(fc.AggFilter, &inner, "FILTER"); err != nil {
			return nil, err
		}
	}
	for i, o := range fc.AggOrder {
		sb := o.GetSortBy()
		if fc.AggDistinct && !fc.AggWithinGroup && !isAggArg(sb.Node, fc.Args) {
			return nil, errorf("42P10", location(sb.Node), "in an aggregate with DISTINCT, ORDER BY expressions must appear in argument list")
		}
		e, err := b.bindExpr(sb.Node, &inner)
		if err != nil {
			return nil, err
		}
		k := newSortKey(sb)
		k.idx, k.typ = len(slot.args)+i, e.typ
		slot.order, slot.keys = append(slot.order, e), append(slot.keys, k)
	}
	// An ordered-set aggregate takes exactly one WITHIN GROUP ordering,
	// which no other aggregate takes (PostgreSQL then finds no function
	// for the types of the arguments and the ordering together).
	switch {
	case def.ordered && (!fc.AggWithinGroup || len(slot.order) != 1):
		return nil, noFunction(fc.Location, name, typeList(slot.args))
	case !def.ordered && fc.AggWithinGroup:
		return nil, noFunction(fc.Location, name, typeList(append(slices.Clone(slot.args), slot.order...)))
	}
	if len(slot.args) > 0 && slices.Contains(def.refuse, slot.args[0].typ) {
		return nil, noFunction(fc.Location, name, typeList(slot.args))
	}
	if def.takes != nil && !def.takes(slot.inputTypes()) {
		if def.ordered {
			return nil, noFunction(fc.Location, name, typeList(append(slices.Clone(slot.args), slot.order...)))
		}
		return nil, noFunction(fc.Location, name, typeList(slot.args))
	}
	*sc.aggs = append(*sc.aggs, slot)
	idx := len(*sc.aggs) - 1
	types := slot.inputTypes()
	if slot.star {
		types = []uint32{tInt8}
	}
	return &cexpr{typ: def.ret(types), name: name, fn: func(_ *evaluator, e *env) (Value, error) {
		if idx < len(e.aggs) {
			return e.aggs[idx], nil
		}
		return null, nil
	}}, nil
}

// compute folds the slot over a group's rows.
func (s *aggSlot) compute(ev *evaluator, rows []*env) (Value, error) {
	a := s.newAcc()
	for _, e := range rows {
		if err := ev.check(); err != nil {
			return null, err
		}
		if err := a.add(ev, e); err != nil {
			return null, err
		}
	}
	return a.result(ev)
}

// inputTypes are the types of an aggregate's arguments, and for an
// ordered-set one, of its ORDER BY values after them.
func (s *aggSlot) inputTypes() []uint32 {
	t := argTypes(s.args)
	if s.def.ordered {
		t = append(t, argTypes(s.order)...)
	}
	return t
}

// group partitions envs by the GROUP BY keys (in first-seen order) and
// computes each group's aggregates. Without GROUP BY there is exactly one
// group, even over no rows.
func (p *selectPlan) group(ev *evaluator, envs []*env, outer *env) ([]*env, error) {
	if p.groupSets != nil {
		return p.groupSetsRun(ev, envs, outer)
	}
	return p.groupOnce(ev, envs, outer, p.groupKeys, nil)
}

// groupOnce groups envs by keys, computes each group's aggregates, and
// keeps the groups HAVING accepts; setup, when set, adjusts each group's
// env first (grouping sets).
func (p *selectPlan) groupOnce(ev *evaluator, envs []*env, outer *env, keys []*cexpr, setup func(g *env)) ([]*env, error) {
	var order []string
	groups := map[string][]*env{}
	for _, e := range envs {
		vals, err := evalArgs(ev, e, keys)
		if err != nil {
			return nil, err
		}
		k := key(vals)
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], e)
	}
	if len(keys) == 0 && len(order) == 0 {
		order = append(order, "")
	}
	out := make([]*env, 0, len(order))
	for _, k := range order {
		members := groups[k]
		g := &env{outer: outer, aggs: make([]Value, len(p.aggs))}
		if len(members) > 0 {
			g.row = members[0].row
		}
		if setup != nil {
			setup(g)
		}
		for i, s := range p.aggs {
			v, err := s.compute(ev, members)
			if err != nil {
				return nil, err
			}
			g.aggs[i] = v
		}
		if p.having != nil {
			v, err := p.having.fn(ev, g)
			if err != nil {
				return nil, err
			}
			if !v.truthy() {
				continue
			}
		}
		out = append(out, g)
	}
	return out, nil
}
