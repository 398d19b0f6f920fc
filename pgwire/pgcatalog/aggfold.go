package pgcatalog

// Aggregates computed one input at a time, so that a grouped query over a
// table holds a state per group instead of its rows: count, min, max,
// sum, avg, bool_and, bool_or, every and bit_and/or/xor fold their inputs
// as they come (folder), with the results their final functions give for
// the whole list; the others, and any aggregate with DISTINCT or an ORDER
// BY, keep their inputs (argument values only) until the group ends.

// folder is an aggregate's running state.
type folder interface {
	add(in []Value) error
	result() (Value, error)
}

// newFolder returns a folder for the aggregate name over inputs of types
// t, or nil when it has none.
func newFolder(name string, t []uint32) folder {
	switch name {
	case "count":
		return &countFold{}
	case "max":
		return &extremeFold{dir: 1, typ: extremeType(t[0])}
	case "min":
		return &extremeFold{dir: -1, typ: extremeType(t[0])}
	case "sum", "avg":
		f := &sumFold{avg: name == "avg", typ: t[0]}
		switch {
		case t[0] == tInterval:
		case name == "sum" && sumType(t) == tNumeric, name == "avg" && avgType(t) == tNumeric:
			f.exact = numericFromInt(0)
		}
		return f
	case "bool_and", "every":
		return &boolFoldState{and: true}
	case "bool_or":
		return &boolFoldState{}
	case "bit_and":
		return &bitFoldState{op: func(a, b int64) int64 { return a & b }}
	case "bit_or":
		return &bitFoldState{op: func(a, b int64) int64 { return a | b }}
	case "bit_xor":
		return &bitFoldState{op: func(a, b int64) int64 { return a ^ b }}
	}
	return nil
}

// countFold is count(*) (no inputs) or count(x) (the non-NULL ones).
type countFold struct{ n int64 }

func (f *countFold) add(in []Value) error {
	if len(in) == 0 || !in[0].isNull() {
		f.n++
	}
	return nil
}

func (f *countFold) result() (Value, error) { return intV(f.n), nil }

// extremeFold is min (dir -1) or max (dir 1) of the non-NULL inputs; of
// equal ones the last, as PostgreSQL's *_larger and *_smaller return
// their second argument on a tie (max(1.0, 1.00) is 1.00).
type extremeFold struct {
	dir  int
	typ  uint32
	best Value
	seen bool
}

func (f *extremeFold) add(in []Value) error {
	if v := in[0]; !v.isNull() && (!f.seen || compareAs(v, f.best, f.typ)*f.dir >= 0) {
		f.best, f.seen = v, true
	}
	return nil
}

func (f *extremeFold) result() (Value, error) {
	if !f.seen {
		return null, nil
	}
	return f.best, nil
}

// sumFold is sum or avg of the non-NULL inputs: intervals as intervals,
// integers and numerics exactly (exact), floats in input order.
type sumFold struct {
	avg     bool
	typ     uint32
	n       int64
	exact   *numeric
	iv      interval
	i       int64
	f       float64
	isFloat bool
}

func (f *sumFold) add(in []Value) error {
	v := in[0]
	if v.isNull() {
		return nil
	}
	f.n++
	switch {
	case f.typ == tInterval:
		iv, err := parseInterval(v.s)
		if err != nil {
			return err
		}
		f.iv = f.iv.add(iv)
	case f.exact != nil:
		n, err := numericOf(v)
		if err != nil {
			return err
		}
		f.exact = f.exact.add(n, false)
	default:
		if v.k == kFloat {
			f.isFloat = true
		}
		x, _ := v.asFloat()
		f.f += x
		if f.typ == tFloat4 && !f.avg { // sum(real) adds as real
			f.f = float64(float32(f.f))
		}
		n, _ := v.asInt()
		f.i += n
	}
	return nil
}

func (f *sumFold) result() (Value, error) {
	switch {
	case f.n == 0:
		return null, nil
	case f.typ == tInterval && f.avg:
		return textV(f.iv.scale(float64(f.n), true).String()), nil
	case f.typ == tInterval:
		return textV(f.iv.String()), nil
	case f.exact != nil && f.avg:
		q, err := f.exact.div(numericFromInt(f.n))
		if err != nil {
			return null, err
		}
		return numericV(q), nil
	case f.exact != nil:
		return numericV(f.exact), nil
	case f.avg:
		return floatV(f.f / float64(f.n)), nil
	case f.isFloat:
		return floatV(f.f), nil
	}
	return intV(f.i), nil
}

// boolFoldState is bool_and (every) or bool_or of the non-NULL inputs.
type boolFoldState struct {
	and, seen, decided bool
}

func (f *boolFoldState) add(in []Value) error {
	if v := in[0]; !v.isNull() {
		f.seen = true
		if v.b != f.and {
			f.decided = true
		}
	}
	return nil
}

func (f *boolFoldState) result() (Value, error) {
	if !f.seen {
		return null, nil
	}
	return boolV(f.and != f.decided), nil
}

// bitFoldState is bit_and, bit_or or bit_xor of the non-NULL integers.
type bitFoldState struct {
	op   func(a, b int64) int64
	acc  int64
	seen bool
}

func (f *bitFoldState) add(in []Value) error {
	if v := in[0]; !v.isNull() {
		if f.seen {
			f.acc = f.op(f.acc, v.i)
		} else {
			f.acc, f.seen = v.i, true
		}
	}
	return nil
}

func (f *bitFoldState) result() (Value, error) {
	if !f.seen {
		return null, nil
	}
	return intV(f.acc), nil
}

// aggAcc accumulates one aggregate call over one group's rows: through its
// folder, or by keeping the inputs for its final function.
type aggAcc struct {
	s    *aggSlot
	fold folder
	in   [][]Value
}

func (s *aggSlot) newAcc() *aggAcc {
	a := &aggAcc{s: s}
	if !s.distinct && len(s.keys) == 0 {
		a.fold = newFolder(s.name, s.inputTypes())
	}
	return a
}

// add takes one row of the group: its FILTER, then its arguments.
func (a *aggAcc) add(ev *evaluator, e *env) error {
	s := a.s
	if s.filter != nil {
		v, err := s.filter.fn(ev, e)
		if err != nil || !v.truthy() {
			return err
		}
	}
	var vals []Value
	if n := len(s.args) + len(s.order); n > 0 {
		vals = make([]Value, 0, n)
		for _, x := range s.args {
			v, err := x.fn(ev, e)
			if err != nil {
				return err
			}
			vals = append(vals, v)
		}
		for _, x := range s.order {
			v, err := x.fn(ev, e)
			if err != nil {
				return err
			}
			vals = append(vals, v)
		}
	}
	if a.fold != nil {
		return a.fold.add(vals)
	}
	a.in = append(a.in, vals)
	return nil
}

// result is the aggregate's value over the rows added.
func (a *aggAcc) result(ev *evaluator) (Value, error) {
	s := a.s
	types := s.inputTypes()
	var v Value
	var err error
	if a.fold != nil {
		v, err = a.fold.result()
	} else {
		in := a.in
		keys := s.keys
		if s.distinct {
			in = distinctRows(in, allIdx(len(s.args)))
			if len(keys) == 0 { // PostgreSQL sorts to find the distinct inputs
				for i, t := range types[:len(s.args)] {
					keys = append(keys, sortKey{idx: i, typ: t})
				}
			}
		}
		if len(keys) > 0 {
			sortRows(in, keys)
		}
		v, err = s.def.final(ev, in, types)
	}
	if err == nil && s.def.ret(types) == tNumeric {
		v, err = asNumericResult(v)
	}
	return v, err
}
