package pgcatalog

import (
	"slices"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// builtin is a scalar function.
type builtin struct {
	min, max int      // arity; max < 0 means variadic
	args     []uint32 // types given to untyped arguments (the last repeats); text if empty
	ret      uint32   // result type, unless retFn decides from the argument types
	retFn    func(args []uint32) uint32
	// lenient functions are called with NULL arguments; others (strict)
	// return NULL when any argument is NULL.
	lenient bool
	fn      func(ev *evaluator, a []Value, t []uint32) (Value, error)
	// staticRet is ret, for pg_proc.
	staticRet uint32
	// named are the parameters' names, for calls that name their
	// arguments (make_interval(days => 2)); an argument left out is 0.
	named []string
	// fixedParams is how many leading parameters of a variadic function
	// are not its variadic one (format's format string, concat_ws's
	// separator): a VARIADIC call must give them.
	fixedParams int
	// nullVariadicIsEmpty makes a NULL VARIADIC array no arguments (format)
	// rather than a NULL result.
	nullVariadicIsEmpty bool
	// pathArgs marks a function that reads its first argument, a jsonb,
	// only below the key its second argument names (jsonb_extract_path),
	// so a family it is given may be read at that key alone (byKey).
	pathArgs bool
}

// funcs is the scalar function registry, filled by the funcs_*.go files.
var funcs = map[string]*builtin{}

func register(name string, f *builtin) {
	if f.max == 0 && f.min > 0 {
		f.max = f.min
	}
	f.staticRet = f.ret
	funcs[name] = f
}

func (b *binder) bindFuncCall(fc *pg_query.FuncCall, sc *scope) (*cexpr, error) {
	names := strs(fc.Funcname)
	name := strings.ToLower(names[len(names)-1])
	if len(names) > 1 && names[0] != "pg_catalog" && names[0] != "information_schema" {
		return nil, errorf(CodeUndefinedFunc, fc.Location, "function %s does not exist", strings.Join(names, "."))
	}
	if fc.Over != nil {
		return b.bindWindow(fc, name, sc)
	}
	if agg, ok := aggregates[name]; ok {
		return b.bindAggregate(fc, name, agg, sc)
	}
	if def, ok := srfs[name]; ok {
		return b.bindSRFCall(fc, name, def, sc)
	}
	if _, ok := winFuncs[name]; ok {
		return nil, errorf(CodeWrongObjectType, fc.Location, "window function %s requires an OVER clause", name)
	}
	if name == "overlaps" && len(fc.Args) == 4 {
		return b.bindOverlaps(fc, sc)
	}
	f, ok := funcs[name]
	if !ok { // as PostgreSQL: the arguments are read first, and named by their types
		args, err := b.bindArgs(fc.Args, sc)
		if err != nil {
			return nil, err
		}
		return nil, noFunction(fc.Location, name, typeList(args))
	}
	if fc.AggStar || fc.AggDistinct || len(fc.AggOrder) > 0 {
		return nil, errorf(CodeSyntax, fc.Location, "%s is not an aggregate function", name)
	}
	args, err := b.bindNamedArgs(fc, f, sc)
	if err != nil {
		return nil, err
	}
	if fc.FuncVariadic && f.max < 0 && len(args) > 0 {
		return b.applyVariadic(name, f, args, fc.Location, location(fc.Args[len(fc.Args)-1]))
	}
	return b.applyBuiltin(name, f, args, fc.Location)
}

// applyVariadic calls the variadic builtin f with its last argument given
// as VARIADIC array: the array's elements are the arguments, each of its
// element type. A NULL array makes the result NULL, or is no arguments
// (f.nullVariadicIsEmpty), as in PostgreSQL.
func (b *binder) applyVariadic(name string, f *builtin, args []*cexpr, pos, argPos int32) (*cexpr, error) {
	last := len(args) - 1
	if last < f.fixedParams {
		return nil, noFunction(pos, name, typeList(args))
	}
	if args[last].untyped {
		args[last] = b.coerce(args[last], tTextArray)
	}
	if !isArrayType(args[last].typ) {
		return nil, errorf(CodeDatatypeMismatch, argPos, "VARIADIC argument must be an array")
	}
	b.coerceUntyped(f, args[:last])
	fixed := argTypes(args[:last])
	et := elemType(args[last].typ)
	ret := f.ret
	if f.retFn != nil {
		ret = f.retFn(append(slices.Clone(fixed), et))
	}
	return &cexpr{typ: ret, name: name, fn: func(ev *evaluator, e *env) (Value, error) {
		vals, err := evalArgs(ev, e, args)
		if err != nil {
			return null, err
		}
		arr := vals[last]
		vals, types := vals[:last:last], slices.Clone(fixed)
		if arr.isNull() {
			if !f.nullVariadicIsEmpty {
				return null, nil
			}
		} else {
			for _, v := range arr.a {
				vals = append(vals, v)
				types = append(types, et)
			}
		}
		return f.call(ev, vals, types, ret)
	}}, nil
}

// applyBuiltin calls the builtin f (named name) on bound arguments.
func (b *binder) applyBuiltin(name string, f *builtin, args []*cexpr, pos int32) (*cexpr, error) {
	if len(args) < f.min || (f.max >= 0 && len(args) > f.max) {
		return nil, noFunction(pos, name, typeList(args))
	}
	b.coerceUntyped(f, args)
	if f.pathArgs && len(args) > 1 {
		byKey(args[0], args[1])
	}
	types := argTypes(args)
	ret := f.ret
	if f.retFn != nil {
		ret = f.retFn(types)
	}
	return &cexpr{typ: ret, name: name, fn: func(ev *evaluator, e *env) (Value, error) {
		vals, err := evalArgs(ev, e, args)
		if err != nil {
			return null, err
		}
		return f.call(ev, vals, types, ret)
	}}, nil
}

// coerceUntyped gives f's untyped arguments the types f declares for them
// (text when it declares none).
func (b *binder) coerceUntyped(f *builtin, args []*cexpr) {
	for i, a := range args {
		if a.untyped {
			t := uint32(tText)
			if len(f.args) > 0 {
				t = f.args[min(i, len(f.args)-1)]
			}
			args[i] = b.coerce(a, t)
		}
	}
}

// call applies f to evaluated arguments of types types: NULL when f is
// strict and one is NULL; a numeric result (ret) as a numeric value.
func (f *builtin) call(ev *evaluator, vals []Value, types []uint32, ret uint32) (Value, error) {
	if !f.lenient {
		for _, v := range vals {
			if v.isNull() {
				return null, nil
			}
		}
	}
	v, err := f.fn(ev, vals, types)
	if err == nil && ret == tNumeric {
		v, err = asNumericResult(v)
	}
	return v, err
}

// asNumericResult makes a function's numeric result a numeric value: the
// functions that compute in float64 or int64 (sqrt, extract...) return
// those kinds.
func asNumericResult(v Value) (Value, error) {
	if v.k == kFloat || v.k == kInt {
		return castNumeric(v)
	}
	return v, nil
}

// bindNamedArgs binds a call's arguments, placing those given as
// name => value at their parameter's position (f.named) and filling the
// positions left out with 0.
func (b *binder) bindNamedArgs(fc *pg_query.FuncCall, f *builtin, sc *scope) ([]*cexpr, error) {
	var positional []*pg_query.Node
	named := map[int]*pg_query.Node{}
	last := -1
	for _, a := range fc.Args {
		na := a.GetNamedArgExpr()
		if na == nil {
			if len(named) > 0 {
				return nil, errorf(CodeSyntax, fc.Location, "positional argument cannot follow named argument")
			}
			positional = append(positional, a)
			continue
		}
		i := slices.Index(f.named, na.Name)
		if i < 0 {
			return nil, errorf(CodeUndefinedFunc, fc.Location, "function %s does not exist", strs(fc.Funcname)[len(fc.Funcname)-1])
		}
		named[i], last = na.Arg, max(last, i)
	}
	args, err := b.bindArgs(positional, sc)
	if err != nil || len(named) == 0 {
		return args, err
	}
	for i := len(args); i <= last; i++ {
		n, ok := named[i]
		if !ok {
			args = append(args, constExpr(intV(0), tInt4))
			continue
		}
		e, err := b.bindExpr(n, sc)
		if err != nil {
			return nil, err
		}
		args = append(args, e)
	}
	return args, nil
}

func typeList(args []*cexpr) string {
	names := make([]string, len(args))
	for i, a := range args {
		if a.untyped {
			names[i] = "unknown"
		} else {
			names[i] = formatType(a.typ, -1)
		}
	}
	return strings.Join(names, ", ")
}

// Small constructors for the registry.

func textFn(n int, fn func(ev *evaluator, a []Value) string) *builtin {
	return &builtin{min: n, max: n, ret: tText, fn: func(ev *evaluator, a []Value, _ []uint32) (Value, error) {
		return textV(fn(ev, a)), nil
	}}
}

func constFn(ret uint32, v func(ev *evaluator) Value) *builtin {
	return &builtin{ret: ret, fn: func(ev *evaluator, _ []Value, _ []uint32) (Value, error) { return v(ev), nil }}
}

func sameAsFirst(t []uint32) uint32 {
	if len(t) == 0 || t[0] == tUnknown {
		return tText
	}
	return t[0]
}

// noFunction is PostgreSQL's error, with its hint, for a call no function
// signature matches; args is the arguments' types as typeList lists them.
func noFunction(pos int32, name, args string) *Error {
	err := errorf(CodeUndefinedFunc, pos, "function %s(%s) does not exist", name, args)
	err.Hint = "No function matches the given name and argument types. You might need to add explicit type casts."
	return err
}
