package sql

import (
	"errors"

	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

// Env is what an expression is evaluated against: the input row and the
// parameter values of the execution.
type Env struct {
	Row    []types.Value
	Params map[string]types.Value
	// Lambda holds the parameters of the lambdas being applied (LambdaVar).
	Lambda []types.Value
	// args is the stack of function arguments being evaluated (evalCall):
	// reused from row to row, so a call allocates nothing.
	args []types.Value
}

// Eval evaluates e. Run-time errors are *sqlerr.Error carrying the byte
// offset of the failing expression (the engine turns it into line:column).
func Eval(e Expr, env *Env) (types.Value, error) {
	switch e := e.(type) {
	case *Call:
		var v types.Value
		err := evalCall(&v, e, env)
		return v, err
	case *ColRef:
		return env.Row[e.Idx], nil
	case *Const:
		return e.V, nil
	}
	return evalOther(e, env)
}

// EvalInto evaluates e into *dst (on error, *dst is the zero Value). It is
// Eval without copying the result through return values: a Value is
// large, and for cheap functions that copying is much of the cost. Calls
// write their result straight into dst, columns and constants are copied
// from where they are.
func EvalInto(dst *types.Value, e Expr, env *Env) error {
	// The cases in the order of how common they are in a projection;
	// each is one comparison of the interface's type word.
	if c, ok := e.(*Call); ok {
		return evalCall(dst, c, env)
	}
	if c, ok := e.(*ColRef); ok {
		*dst = env.Row[c.Idx]
		return nil
	}
	if c, ok := e.(*Const); ok {
		*dst = c.V
		return nil
	}
	if p, ok := e.(*Precomputed); ok {
		if v := &env.Row[p.Col]; v.Type() != nil {
			*dst = *v
			return nil
		}
	}
	v, err := evalOther(e, env)
	*dst = v
	return err
}

// evalOther evaluates the expressions other than calls, columns and
// constants.
func evalOther(e Expr, env *Env) (types.Value, error) {
	switch e := e.(type) {
	case *Call:
		var v types.Value
		err := evalCall(&v, e, env)
		return v, err
	case *Const:
		return e.V, nil
	case *ColRef:
		return env.Row[e.Idx], nil
	case *Param:
		v, ok := env.Params[e.Name]
		if !ok {
			return types.Value{}, sqlerr.New(sqlerr.UndefinedParameter, "no value for parameter @%s", e.Name)
		}
		return v, nil
	case *And:
		return evalLogic(e.Args, env, false)
	case *Or:
		return evalLogic(e.Args, env, true)
	case *Not:
		v, err := Eval(e.X, env)
		if err != nil || v.IsNull() {
			return types.NullOf(types.Bool), err
		}
		return types.BoolValue(!v.Bool()), nil
	case *IsNull:
		v, err := Eval(e.X, env)
		return types.BoolValue(v.IsNull() != e.Neg), err
	case *IsBool:
		v, err := Eval(e.X, env)
		r := !v.IsNull() && v.Bool() == e.Val
		return types.BoolValue(r != e.Neg), err
	case *In:
		return evalIn(e, env)
	case *InArray:
		return evalInArray(e, env)
	case *Case:
		return evalCase(e, env)
	case *Coalesce:
		for _, a := range e.Args {
			v, err := Eval(a, env)
			if err != nil || !v.IsNull() {
				return v, err
			}
		}
		return types.NullOf(e.T), nil
	case *Cast:
		return evalCast(e, env)
	case *ProtoGet:
		return evalProto(e, env)
	case *Precomputed:
		return evalPrecomputed(e, env)
	case *MapGet:
		return evalMapGet(e, env)
	case *Index:
		return evalIndex(e, env)
	case *Field:
		v, err := Eval(e.X, env)
		if err != nil || v.IsNull() {
			return types.NullOf(e.Type()), err
		}
		return v.Elems()[e.Idx], nil
	case *MakeArray:
		return evalList(e.Elems, env, func(vs []types.Value) types.Value { return types.ArrayValue(e.T, vs) })
	case *MakeStruct:
		return evalList(e.Fields, env, func(vs []types.Value) types.Value { return types.StructValue(e.T, vs) })
	case *Lambda:
		return evalLambda(e, env)
	case *LambdaVar:
		return evalLambdaVar(e, env)
	}
	return types.Value{}, sqlerr.New(sqlerr.Internal, "sql: cannot evaluate %T", e)
}

// EvalBool evaluates a predicate: TRUE passes; FALSE and NULL do not.
func EvalBool(e Expr, env *Env) (bool, error) {
	v, err := Eval(e, env)
	return err == nil && !v.IsNull() && v.Bool(), err
}

// evalCall evaluates the arguments into a frame on env's argument stack,
// then the function into *dst (Overload.EvalTo when it has one). The
// function must not keep the slice it is given. Each call works on its own
// frame slice: a nested call that outgrows the stack moves env.args to a
// larger array (without copying: nothing reads a frame through env.args),
// and the frames of the calls around it stay in the old one until they
// return.
func evalCall(dst *types.Value, e *Call, env *Env) error {
	base, n := len(env.args), len(e.Args)
	if cap(env.args)-base < n {
		env.args = make([]types.Value, base, 2*cap(env.args)+n+8)
	}
	args := env.args[base : base+n : base+n]
	env.args = env.args[:base+n]
	for i, a := range e.Args {
		if err := EvalInto(&args[i], a, env); err != nil {
			env.args = env.args[:base]
			*dst = types.Value{}
			return err
		}
		if args[i].IsNull() && !e.Ov.NullCalls {
			env.args = env.args[:base]
			*dst = types.NullOf(e.T)
			return nil
		}
	}
	var err error
	if to := e.Ov.EvalTo; to != nil {
		err = to(dst, args, e.T)
	} else {
		var v types.Value
		v, err = e.Ov.Eval(args, e.T)
		*dst = v
	}
	env.args = env.args[:base]
	if err != nil {
		if e.Safe {
			*dst = types.NullOf(e.T)
			return nil
		}
		*dst = types.Value{}
		return at(err, e.Pos)
	}
	return nil
}

// at attaches a position to an error that has none.
func at(err error, pos int) error {
	var se *sqlerr.Error
	if errors.As(err, &se) {
		if se.Offset < 0 && pos >= 0 {
			c := *se
			c.Offset = pos
			return &c
		}
		return err
	}
	return &sqlerr.Error{Code: sqlerr.InvalidValue, Offset: pos, Msg: err.Error()}
}

func evalLogic(args []Expr, env *Env, or bool) (types.Value, error) {
	sawNull := false
	for _, a := range args {
		v, err := Eval(a, env)
		if err != nil {
			return types.Value{}, err
		}
		if v.IsNull() {
			sawNull = true
			continue
		}
		if v.Bool() == or {
			return types.BoolValue(or), nil
		}
	}
	if sawNull {
		return types.NullOf(types.Bool), nil
	}
	return types.BoolValue(!or), nil
}

func evalIn(e *In, env *Env) (types.Value, error) {
	x, err := Eval(e.X, env)
	if err != nil || x.IsNull() {
		return types.NullOf(types.Bool), err
	}
	sawNull := false
	for _, item := range e.List {
		v, err := Eval(item, env)
		if err != nil {
			return types.Value{}, err
		}
		if v.IsNull() || v.IsNaN() {
			sawNull = sawNull || v.IsNull()
			continue
		}
		if !x.IsNaN() && types.Compare(x, v) == 0 {
			return types.BoolValue(!e.Neg), nil
		}
	}
	if sawNull {
		return types.NullOf(types.Bool), nil
	}
	return types.BoolValue(e.Neg), nil
}

func evalInArray(e *InArray, env *Env) (types.Value, error) {
	x, err := Eval(e.X, env)
	if err != nil {
		return types.Value{}, err
	}
	arr, err := Eval(e.Array, env)
	if err != nil {
		return types.Value{}, err
	}
	if arr.IsNull() || arr.Len() == 0 {
		return types.BoolValue(e.Neg), nil
	}
	if x.IsNull() {
		return types.NullOf(types.Bool), nil
	}
	sawNull := false
	for _, v := range arr.Elems() {
		if v.IsNull() {
			sawNull = true
		} else if !x.IsNaN() && types.Compare(x, v) == 0 {
			return types.BoolValue(!e.Neg), nil
		}
	}
	if sawNull {
		return types.NullOf(types.Bool), nil
	}
	return types.BoolValue(e.Neg), nil
}

func evalCase(e *Case, env *Env) (types.Value, error) {
	for _, w := range e.Whens {
		ok, err := EvalBool(w.Cond, env)
		if err != nil {
			return types.Value{}, err
		}
		if ok {
			return Eval(w.Then, env)
		}
	}
	if e.Else == nil {
		return types.NullOf(e.T), nil
	}
	return Eval(e.Else, env)
}

func evalCast(e *Cast, env *Env) (types.Value, error) {
	v, err := Eval(e.X, env)
	if err != nil {
		return types.Value{}, err
	}
	r, err := types.Cast(v, e.T)
	if err != nil {
		if e.Safe {
			return types.NullOf(e.T), nil
		}
		return types.Value{}, at(err, e.Pos)
	}
	return r, nil
}

func evalMapGet(e *MapGet, env *Env) (types.Value, error) {
	m, err := Eval(e.Map, env)
	if err != nil {
		return types.Value{}, err
	}
	k, err := Eval(e.Key, env)
	if err != nil || m.IsNull() || k.IsNull() {
		return types.NullOf(e.Type()), err
	}
	if v, ok := m.MapGet(k); ok {
		return v, nil
	}
	return types.NullOf(e.Type()), nil
}

func evalIndex(e *Index, env *Env) (types.Value, error) {
	arr, err := Eval(e.Arr, env)
	if err != nil {
		return types.Value{}, err
	}
	i, err := Eval(e.Idx, env)
	if err != nil || arr.IsNull() || i.IsNull() {
		return types.NullOf(e.Type()), err
	}
	n := i.Int64()
	if e.Mode == Ordinal || e.Mode == SafeOrdinal {
		n--
	}
	if n < 0 || n >= int64(arr.Len()) {
		if e.Mode == SafeOffset || e.Mode == SafeOrdinal {
			return types.NullOf(e.Type()), nil
		}
		return types.Value{}, &sqlerr.Error{Code: sqlerr.OutOfRange, Offset: e.Pos,
			Msg: "array index " + i.String() + " is out of bounds"}
	}
	return arr.Elems()[n], nil
}

func evalList(es []Expr, env *Env, mk func([]types.Value) types.Value) (types.Value, error) {
	vs := make([]types.Value, len(es))
	for i, x := range es {
		v, err := Eval(x, env)
		if err != nil {
			return types.Value{}, err
		}
		vs[i] = v
	}
	return mk(vs), nil
}
