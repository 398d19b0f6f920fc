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
	case *Const:
		return e.V, nil
	case *Param:
		v, ok := env.Params[e.Name]
		if !ok {
			return types.Value{}, sqlerr.New(sqlerr.UndefinedParameter, "no value for parameter @%s", e.Name)
		}
		return v, nil
	case *ColRef:
		return env.Row[e.Idx], nil
	case *Call:
		return evalCall(e, env)
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

// EvalInto evaluates e into *dst: Eval, with columns, constants and
// precomputed columns copied straight from where they are (the common
// arguments of aggregates and projections).
func EvalInto(dst *types.Value, e Expr, env *Env) error {
	switch e := e.(type) {
	case *ColRef:
		*dst = env.Row[e.Idx]
		return nil
	case *Const:
		*dst = e.V
		return nil
	case *Precomputed:
		if v := &env.Row[e.Col]; v.Type() != nil {
			*dst = *v
			return nil
		}
	}
	v, err := Eval(e, env)
	*dst = v
	return err
}

// evalCall evaluates the arguments onto env's argument stack, then the
// function. Overload.Eval must not keep the slice it is given.
// Arguments that are columns, constants or calls are written straight into
// their stack slot: a Value is large, and copying it through return values
// is most of what a cheap function costs.
func evalCall(e *Call, env *Env) (types.Value, error) {
	base := len(env.args)
	for _, a := range e.Args {
		env.args = append(env.args, types.Value{})
		slot := len(env.args) - 1
		var err error
		switch a := a.(type) {
		case *ColRef:
			env.args[slot] = env.Row[a.Idx]
		case *Const:
			env.args[slot] = a.V
		default:
			var v types.Value
			v, err = Eval(a, env)
			env.args[slot] = v
		}
		if err != nil {
			env.args = env.args[:base]
			return types.Value{}, err
		}
		if !e.Ov.NullCalls && env.args[slot].IsNull() {
			env.args = env.args[:base]
			return types.NullOf(e.T), nil
		}
	}
	v, err := e.Ov.Eval(env.args[base:len(env.args):len(env.args)], e.T)
	env.args = env.args[:base]
	if err != nil {
		if e.Safe {
			return types.NullOf(e.T), nil
		}
		return types.Value{}, at(err, e.Pos)
	}
	return v, nil
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
