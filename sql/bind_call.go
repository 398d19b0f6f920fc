package sql

import (
	"strings"

	"github.com/cloudspannerecosystem/memefish/ast"

	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

func (b *binder) bindCall(n *ast.CallExpr, ec *exprCtx) (Expr, error) {
	parts := make([]string, len(n.Func.Idents))
	for i, id := range n.Func.Idents {
		parts[i] = strings.ToUpper(id.Name)
	}
	for i, id := range n.Func.Idents {
		if real, ok := b.p.calls[int(id.Pos())]; ok {
			parts[i] = real // LEFT(...), RIGHT(...): see parsed.calls
		}
	}
	name := strings.Join(parts, ".")
	safe := false
	if len(parts) == 2 && parts[0] == "SAFE" {
		name, safe = parts[1], true
	}
	if len(n.NamedArgs) > 0 || n.Having != nil ||
		(n.NullHandling != nil || n.OrderBy != nil || n.Limit != nil) && !isAggregate(name) {
		return nil, b.errAt(n, sqlerr.NotSupported, "%s: named arguments and aggregate modifiers are not supported", name)
	}
	fn := Lookup(name)
	if fn != nil && fn.Agg != nil {
		if safe {
			return nil, b.errAt(n.Func, sqlerr.NotSupported, "the SAFE. prefix is not supported on aggregate function %s", name)
		}
		return b.bindAggregate(n, name, n.Args, n.Distinct, ec)
	}
	if n.Distinct {
		return nil, b.errAt(n, sqlerr.InvalidArgument, "DISTINCT is only allowed in aggregate functions")
	}
	args, err := b.bindArgs(name, n.Args, ec)
	if err != nil {
		return nil, err
	}
	if safe {
		if fn == nil {
			return nil, b.errAt(n.Func, sqlerr.UndefinedFunction, "function not found: SAFE.%s%s", name, suggestFunctions(name))
		}
		c, err := b.call(n, fn, args)
		if err != nil {
			return nil, err
		}
		c.(*Call).Safe = true
		return c, nil
	}
	switch name {
	case "COALESCE", "IFNULL":
		if name == "IFNULL" && len(args) != 2 || len(args) == 0 {
			return nil, b.errAt(n, sqlerr.UndefinedFunction, "wrong number of arguments to %s", name)
		}
		out, t, _, ok := unify(args)
		if !ok {
			return nil, b.errAt(n, sqlerr.TypeMismatch, "%s arguments have no common type", name)
		}
		return &Coalesce{Args: out, T: t}, nil
	case "NULLIF":
		if len(args) != 2 {
			return nil, b.errAt(n, sqlerr.UndefinedFunction, "NULLIF takes two arguments")
		}
		eq, err := b.compare(n, "=", args[0], args[1])
		if err != nil {
			return nil, err
		}
		return &Case{Whens: []When{{Cond: eq, Then: &Const{V: types.NullOf(args[0].Type()), T: args[0].Type()}}},
			Else: args[0], T: args[0].Type()}, nil
	}
	if fn == nil {
		return nil, b.errAt(n.Func, sqlerr.UndefinedFunction, "function not found: %s%s", name, suggestFunctions(name))
	}
	return b.call(n, fn, args)
}

// bindArgs binds call arguments; a bare keyword where the function takes
// one (the date part HOUR of TIMESTAMP_TRUNC, NFKC of NORMALIZE) becomes an
// upper-case STRING constant.
func (b *binder) bindArgs(name string, as []ast.Arg, ec *exprCtx) ([]Expr, error) {
	if err := b.checkLambdaCall(name, as); err != nil {
		return nil, err
	}
	args := make([]Expr, 0, len(as))
	for i, a := range as {
		if la, ok := a.(*ast.LambdaArg); ok { // with its array, one argument
			l, err := b.bindLambda(name, i, la, args, ec)
			if err != nil {
				return nil, err
			}
			args[0] = l
			continue
		}
		ea, ok := a.(*ast.ExprArg)
		if !ok {
			return nil, b.errAt(a, sqlerr.NotSupported, "%s: this kind of argument is not supported", name)
		}
		if ex, ok, err := b.bindTimeArg(name, i, ea.Expr, ec); err != nil || ok {
			args = append(args, ex...)
			if err != nil {
				return nil, err
			}
			continue
		}
		if id, ok := ea.Expr.(*ast.Ident); ok && IsKeywordArg(name, i, id.Name) {
			args = append(args, &Const{V: types.StringValue(strings.ToUpper(id.Name)), T: types.String})
			continue
		}
		e, err := b.bindExpr(ea.Expr, ec)
		if err != nil {
			return nil, err
		}
		args = append(args, e)
	}
	return args, nil
}

// call resolves fn's overload for args: the one needing the cheapest
// coercions wins.
func (b *binder) call(n ast.Node, fn *Function, args []Expr) (Expr, error) {
	var best *Call
	bestCost := -1
	var lastErr string
	for _, ov := range fn.Overloads {
		c, cost, msg := tryOverload(fn, ov, args)
		if c == nil {
			if msg != "" {
				lastErr = msg
			}
			continue
		}
		if bestCost < 0 || cost < bestCost {
			best, bestCost = c, cost
		}
	}
	if best == nil {
		if lastErr == "" {
			ts := make([]string, len(args))
			for i, a := range args {
				ts[i] = a.Type().String()
			}
			lastErr = "no matching signature for " + fn.Name + "(" + strings.Join(ts, ", ") + ")"
		}
		return nil, b.errAt(n, sqlerr.TypeMismatch, "%s", lastErr)
	}
	best.Pos = int(n.Pos())
	return best, nil
}

func tryOverload(fn *Function, ov *Overload, args []Expr) (*Call, int, string) {
	want := ov.Args
	if ov.Variadic {
		if len(args) < len(want)-1 {
			return nil, 0, ""
		}
		for len(want) < len(args) {
			want = append(append([]*types.Type(nil), want...), want[len(want)-1])
		}
		want = want[:len(args)]
	}
	if len(want) != len(args) {
		return nil, 0, ""
	}
	if ov.ArgTypes != nil {
		at := make([]*types.Type, len(args))
		for i, a := range args {
			at[i] = a.Type()
		}
		want = ov.ArgTypes(at)
	}
	out := make([]Expr, len(args))
	cost := 0
	for i, a := range args {
		if want[i] == nil {
			out[i] = a
			continue
		}
		c, n, ok := coerce(a, want[i])
		if !ok {
			return nil, 0, ""
		}
		out[i], cost = c, cost+n
	}
	ret := ov.Ret
	if ov.Result != nil {
		at := make([]*types.Type, len(out))
		for i, a := range out {
			at[i] = a.Type()
		}
		t, err := ov.Result(at)
		if err != nil {
			return nil, 0, err.Error()
		}
		ret = t
	}
	return &Call{Fn: fn, Ov: ov, Args: out, T: ret}, cost, ""
}

func (b *binder) bindCast(n *ast.CastExpr, ec *exprCtx) (Expr, error) {
	x, err := b.bindExpr(n.Expr, ec)
	if err != nil {
		return nil, err
	}
	if nt, ok := n.Type.(*ast.NamedType); ok && len(nt.Path) > 1 {
		return b.bindProtoCast(n, nt, x, ec)
	}
	t, err := b.bindType(n.Type)
	if err != nil {
		return nil, err
	}
	if c, ok := x.(*Const); ok && c.Lit && c.V.IsNull() {
		return &Const{V: types.NullOf(t), T: t}, nil
	}
	if !types.CanCast(x.Type(), t) {
		return nil, b.errAt(n, sqlerr.TypeMismatch, "invalid cast from %s to %s", x.Type(), t)
	}
	if x.Type().Equal(t) {
		return x, nil
	}
	return &Cast{X: x, T: t, Safe: n.Safe, Pos: int(n.Pos())}, nil
}

var typeAliases = map[string]*types.Type{"INT": types.Int64, "SMALLINT": types.Int64, "INTEGER": types.Int64,
	"BIGINT": types.Int64, "TINYINT": types.Int64, "BYTEINT": types.Int64, "BOOLEAN": types.Bool,
	"INT64": types.Int64, "BOOL": types.Bool, "FLOAT32": types.Float32, "FLOAT64": types.Float64,
	"STRING": types.String, "BYTES": types.Bytes, "DATE": types.Date, "TIMESTAMP": types.Timestamp}

func (b *binder) bindType(t ast.Type) (*types.Type, error) {
	switch t := t.(type) {
	case *ast.SimpleType:
		if st, ok := typeAliases[string(t.Name)]; ok {
			return st, nil
		}
	case *ast.NamedType:
		if len(t.Path) == 1 {
			if st, ok := typeAliases[strings.ToUpper(t.Path[0].Name)]; ok {
				return st, nil
			}
		}
		return nil, b.errAt(t, sqlerr.NotSupported, "PROTO and ENUM types (schema bundles) are not supported yet")
	case *ast.ArrayType:
		e, err := b.bindType(t.Item)
		if err != nil {
			return nil, err
		}
		if e.Kind == types.KindArray {
			return nil, b.errAt(t, sqlerr.TypeMismatch, "arrays of arrays are not supported")
		}
		return types.ArrayOf(e), nil
	case *ast.StructType:
		var fs []types.Field
		for _, f := range t.Fields {
			ft, err := b.bindType(f.Type)
			if err != nil {
				return nil, err
			}
			name := ""
			if f.Ident != nil {
				name = f.Ident.Name
			}
			fs = append(fs, types.Field{Name: name, Type: ft})
		}
		return types.StructOf(fs...), nil
	}
	return nil, b.errAt(t, sqlerr.NotSupported, "type %s is not supported", b.source(t))
}
