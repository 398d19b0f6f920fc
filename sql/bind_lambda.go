package sql

import (
	"strings"

	"github.com/cloudspannerecosystem/memefish/ast"

	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

// Lambdas: ARRAY_FILTER(arr, e -> e > 0), ARRAY_TRANSFORM(arr, (e, i) -> e * i),
// ARRAY_INCLUDES(arr, e -> ...), ARRAY_OFFSET(arr, e -> ...) and
// ARRAY_OFFSETS(arr, e -> ...).
//
// The array and the lambda bind together into one Lambda node that takes
// their place among the call's arguments: ARRAY_FILTER(arr, e -> p) becomes
// the call ARRAY_FILTER(Lambda) whose overload passes the Lambda's value
// through. An overload's Eval sees values only, so the lambda is applied
// where the environment is at hand, in Eval. The body reads its parameters
// through LambdaVar nodes from Env.Lambda: a lambda's parameters take the
// slots after those of the lambdas around it, and evaluation fills them in
// a small frame allocated once per array, not per element.

// LambdaMode is what a Lambda makes of the body's values.
type LambdaMode uint8

const (
	// LambdaFilter keeps the elements for which the body is TRUE.
	LambdaFilter LambdaMode = iota
	// LambdaTransform collects the body's values.
	LambdaTransform
	// LambdaAny reports whether the body is TRUE for some element.
	LambdaAny
	// LambdaOffsets collects the offsets at which the body is TRUE.
	LambdaOffsets
	// LambdaFirstOffset is the first offset at which the body is TRUE, or
	// NULL.
	LambdaFirstOffset
)

// Lambda applies `Params -> Body` to the elements of Arr (a NULL array
// gives NULL). Params are the element and, optionally, its 0-based offset;
// they live in Env.Lambda[Slot:].
type Lambda struct {
	Mode   LambdaMode
	Arr    Expr
	Params []string
	Slot   int
	Body   Expr
	T      *types.Type
}

// LambdaVar reads a lambda parameter: Env.Lambda[Slot].
type LambdaVar struct {
	Slot int
	Name string
	T    *types.Type
}

func (*Lambda) exprNode()              {}
func (*LambdaVar) exprNode()           {}
func (e *Lambda) Type() *types.Type    { return e.T }
func (e *LambdaVar) Type() *types.Type { return e.T }

// String prints the array and the lambda, as they appear in the call.
func (e *Lambda) String() string {
	ps := e.Params[0]
	if len(e.Params) > 1 {
		ps = "(" + strings.Join(e.Params, ", ") + ")"
	}
	return e.Arr.String() + ", " + ps + " -> " + e.Body.String()
}

func (e *LambdaVar) String() string { return e.Name }

// lambdaParam is a lambda parameter in scope (scope.lambda).
type lambdaParam struct {
	name string
	t    *types.Type
}

// lambdaVar resolves a name to the innermost lambda parameter so named;
// lambda parameters shadow columns.
func (s *scope) lambdaVar(id *ast.Ident) (Expr, bool) {
	for i := len(s.lambda) - 1; i >= 0; i-- {
		if strings.EqualFold(s.lambda[i].name, id.Name) {
			return &LambdaVar{Slot: i, Name: s.lambda[i].name, T: s.lambda[i].t}, true
		}
	}
	return nil, false
}

// lambdaFunc describes how a function takes a lambda.
type lambdaFunc struct {
	mode LambdaMode
	// withIndex: the lambda may take (element, offset).
	withIndex bool
	// only: the function has no form without a lambda.
	only bool
}

var lambdaFuncs = map[string]lambdaFunc{
	"ARRAY_FILTER":    {mode: LambdaFilter, withIndex: true, only: true},
	"ARRAY_TRANSFORM": {mode: LambdaTransform, withIndex: true, only: true},
	"ARRAY_INCLUDES":  {mode: LambdaAny},
	"ARRAY_OFFSET":    {mode: LambdaFirstOffset},
	"ARRAY_OFFSETS":   {mode: LambdaOffsets},
}

// checkLambdaCall checks the arguments of a function that takes a lambda
// before they bind. A lambda call binds to one argument (the Lambda), which
// the function's one-argument overload accepts; no one-argument call may
// reach that overload otherwise. (Without arguments no overload matches.)
func (b *binder) checkLambdaCall(name string, as []ast.Arg) error {
	lf, ok := lambdaFuncs[name]
	if !ok {
		return nil
	}
	at := -1
	for i, a := range as {
		if _, ok := a.(*ast.LambdaArg); ok {
			at = i
		}
	}
	switch {
	case len(as) == 1:
		return b.errAt(as[0], sqlerr.UndefinedFunction, "%s takes an array and %s", name, lambdaWhat(lf))
	case at >= 0 && len(as) != 2:
		return b.errAt(as[0], sqlerr.UndefinedFunction, "%s with a lambda takes two arguments, the array and the lambda", name)
	case len(as) == 2 && lf.only && at != 1:
		return b.errAt(as[1], sqlerr.TypeMismatch, "%s expects a lambda such as e -> e > 0 as argument 2", name)
	}
	return nil
}

func lambdaWhat(lf lambdaFunc) string {
	if lf.only {
		return "a lambda"
	}
	return "a value or a lambda"
}

// bindLambda binds la, argument i of name, over the already bound array
// args[0]; the result replaces args[0] (see Lambda).
func (b *binder) bindLambda(name string, i int, la *ast.LambdaArg, args []Expr, ec *exprCtx) (Expr, error) {
	lf, ok := lambdaFuncs[name]
	if !ok {
		return nil, b.errAt(la, sqlerr.TypeMismatch, "%s does not take a lambda argument", name)
	}
	if i != 1 || len(args) != 1 {
		return nil, b.errAt(la, sqlerr.TypeMismatch, "the lambda must be argument 2 of %s", name)
	}
	arr := args[0]
	if c, ok := arr.(*Const); ok && c.Lit && c.V.IsNull() {
		arr, _, _ = coerce(arr, types.ArrayOf(types.Int64))
	}
	at := arr.Type()
	if at.Kind != types.KindArray {
		return nil, b.errAt(la, sqlerr.TypeMismatch, "%s expects an ARRAY as argument 1, got %s", name, at)
	}
	if len(la.Args) > 2 || len(la.Args) == 2 && !lf.withIndex {
		want := "one argument (the element)"
		if lf.withIndex {
			want = "one or two arguments (the element and its offset)"
		}
		return nil, b.errAt(la, sqlerr.TypeMismatch, "the lambda of %s takes %s", name, want)
	}
	if len(la.Args) == 2 && strings.EqualFold(la.Args[0].Name, la.Args[1].Name) {
		return nil, b.errAt(la.Args[1], sqlerr.InvalidArgument, "duplicate lambda argument %s", la.Args[1].Name)
	}
	sc := *ec.scope
	sc.lambda = append(sc.lambda[:len(sc.lambda):len(sc.lambda)], lambdaParam{la.Args[0].Name, at.Elem})
	params := []string{la.Args[0].Name}
	if len(la.Args) == 2 {
		sc.lambda = append(sc.lambda, lambdaParam{la.Args[1].Name, types.Int64})
		params = append(params, la.Args[1].Name)
	}
	body, err := b.bindExpr(la.Expr, &exprCtx{scope: &sc, noAgg: "a lambda body"})
	if err != nil {
		return nil, err
	}
	l := &Lambda{Mode: lf.mode, Arr: arr, Params: params, Slot: len(ec.scope.lambda), Body: body}
	switch lf.mode {
	case LambdaTransform:
		if body.Type().Kind == types.KindArray {
			return nil, b.errAt(la.Expr, sqlerr.TypeMismatch, "%s cannot produce an array of arrays", name)
		}
		l.T = types.ArrayOf(body.Type())
		return l, nil
	case LambdaFilter:
		l.T = at
	case LambdaAny:
		l.T = types.Bool
	case LambdaOffsets:
		l.T = types.ArrayOf(types.Int64)
	case LambdaFirstOffset:
		l.T = types.Int64
	}
	if l.Body, _, ok = coerce(body, types.Bool); !ok {
		return nil, b.errAt(la.Expr, sqlerr.TypeMismatch, "the lambda of %s must return BOOL, got %s", name, body.Type())
	}
	return l, nil
}

// lambdaFrame is the environment of a lambda body: the outer row and
// parameters, and the lambda slots (inline for shallow nesting).
type lambdaFrame struct {
	env   Env
	slots [4]types.Value
}

func evalLambda(e *Lambda, env *Env) (types.Value, error) {
	arr, err := Eval(e.Arr, env)
	if err != nil || arr.IsNull() {
		return types.NullOf(e.T), err
	}
	// The body's calls stack their arguments in the free part of the
	// caller's argument stack (evalCall), so they allocate nothing.
	f := &lambdaFrame{env: Env{Row: env.Row, Params: env.Params, args: env.args[len(env.args):]}}
	if n := e.Slot + len(e.Params); n <= len(f.slots) {
		f.env.Lambda = f.slots[:n]
	} else {
		f.env.Lambda = make([]types.Value, n)
	}
	copy(f.env.Lambda, env.Lambda[:e.Slot])
	elems := arr.Elems()
	var out []types.Value
	if e.Mode == LambdaTransform {
		out = make([]types.Value, len(elems))
	}
	for i, x := range elems {
		f.env.Lambda[e.Slot] = x
		if len(e.Params) == 2 {
			f.env.Lambda[e.Slot+1] = types.Int64Value(int64(i))
		}
		v, err := Eval(e.Body, &f.env)
		if err != nil {
			return types.Value{}, err
		}
		if e.Mode == LambdaTransform {
			out[i] = v
			continue
		}
		if v.IsNull() || !v.Bool() {
			continue
		}
		switch e.Mode {
		case LambdaFilter:
			out = append(out, x)
		case LambdaAny:
			return types.BoolValue(true), nil
		case LambdaOffsets:
			out = append(out, types.Int64Value(int64(i)))
		case LambdaFirstOffset:
			return types.Int64Value(int64(i)), nil
		}
	}
	switch e.Mode {
	case LambdaAny:
		return types.BoolValue(false), nil
	case LambdaFirstOffset:
		return types.NullOf(types.Int64), nil
	}
	return types.ArrayValue(e.T, out), nil
}

func evalLambdaVar(e *LambdaVar, env *Env) (types.Value, error) {
	if e.Slot >= len(env.Lambda) {
		return types.Value{}, sqlerr.New(sqlerr.Internal, "lambda argument %s evaluated outside its lambda", e.Name)
	}
	return env.Lambda[e.Slot], nil
}

func init() {
	// The conformance table shows the lambda-only functions as written.
	SyntaxForms["ARRAY_FILTER"] = "ARRAY_FILTER(array, e -> BOOL), ARRAY_FILTER(array, (e, i) -> BOOL)"
	SyntaxForms["ARRAY_TRANSFORM"] = "ARRAY_TRANSFORM(array, e -> T), ARRAY_TRANSFORM(array, (e, i) -> T)"
}

// lambdaResult is the one-argument overload of a function that takes a
// lambda: its argument is the bound Lambda, whose value it passes on.
func lambdaResult() *Overload {
	return &Overload{Args: []*types.Type{nil},
		Result: func(a []*types.Type) (*types.Type, error) { return a[0], nil },
		Eval:   func(a []types.Value, _ *types.Type) (types.Value, error) { return a[0], nil }}
}
