package sql

import (
	"strconv"
	"strings"

	"github.com/cloudspannerecosystem/memefish/ast"

	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

// exprCtx is where an expression is bound: the scope of its names, and
// whether aggregates are collected (agg) or refused (noAgg names the
// clause).
type exprCtx struct {
	scope *scope
	agg   *aggCtx
	noAgg string
}

func (b *binder) bindPredicate(n ast.Expr, ec *exprCtx) (Expr, error) {
	e, err := b.bindExpr(n, ec)
	if err != nil {
		return nil, err
	}
	if c, _, ok := coerce(e, types.Bool); ok {
		return c, nil
	}
	return nil, b.errAt(n, sqlerr.TypeMismatch, "expected a BOOL expression, got %s", e.Type())
}

func (b *binder) bindExpr(n ast.Expr, ec *exprCtx) (Expr, error) {
	switch n := n.(type) {
	case *ast.ParenExpr:
		return b.bindExpr(n.Expr, ec)
	case *ast.Ident:
		return b.resolveIdent(n, ec)
	case *ast.ExtractExpr:
		return b.bindExtract(n, ec)
	case *ast.Path:
		return b.resolvePath(n.Idents, ec.scope)
	case *ast.Param:
		t, ok := b.params[n.Name]
		if !ok {
			return nil, b.errAt(n, sqlerr.UndefinedParameter, "undeclared parameter @%s", n.Name)
		}
		b.used[n.Name] = t
		return &Param{Name: n.Name, T: t, Pos: int(n.Pos()), Lit: strings.HasPrefix(n.Name, LiteralParamPrefix)}, nil
	case *ast.BinaryExpr:
		return b.bindBinary(n, ec)
	case *ast.UnaryExpr:
		return b.bindUnary(n, ec)
	case *ast.InExpr:
		return b.bindIn(n, ec)
	case *ast.IsNullExpr:
		x, err := b.bindExpr(n.Left, ec)
		if err != nil {
			return nil, err
		}
		return &IsNull{X: x, Neg: n.Not}, nil
	case *ast.IsBoolExpr:
		x, err := b.bindPredicate(n.Left, ec)
		if err != nil {
			return nil, err
		}
		return &IsBool{X: x, Val: n.Right, Neg: n.Not}, nil
	case *ast.BetweenExpr:
		return b.bindBetween(n, ec)
	case *ast.SelectorExpr:
		x, err := b.bindExpr(n.Expr, ec)
		if err != nil {
			return nil, err
		}
		return b.fieldAccess(x, n.Ident)
	case *ast.IndexExpr:
		return b.bindIndex(n, ec)
	case *ast.CallExpr:
		return b.bindCall(n, ec)
	case *ast.CountStarExpr:
		return b.bindAggregate(n, "COUNT", nil, false, ec)
	case *ast.CastExpr:
		return b.bindCast(n, ec)
	case *ast.CaseExpr:
		return b.bindCase(n, ec)
	case *ast.IfExpr:
		return b.bindIf(n, ec)
	case *ast.ArrayLiteral:
		return b.bindArray(n, ec)
	case *ast.TupleStructLiteral:
		return b.bindStruct(n.Values, nil, nil, ec)
	case *ast.TypelessStructLiteral:
		return b.bindTypelessStruct(n, ec)
	case *ast.TypedStructLiteral:
		return b.bindStruct(n.Values, nil, n.Fields, ec)
	case *ast.ScalarSubQuery, *ast.ArraySubQuery, *ast.ExistsSubQuery:
		return nil, b.errAt(n, sqlerr.NotSupported, "subqueries are not supported")
	}
	return b.bindLiteral(n)
}

func (b *binder) bindLiteral(n ast.Expr) (Expr, error) {
	switch n := n.(type) {
	case *ast.NullLiteral:
		return &Const{V: types.NullOf(types.Int64), T: types.Int64, Lit: true}, nil
	case *ast.BoolLiteral:
		return &Const{V: types.BoolValue(n.Value), T: types.Bool}, nil
	case *ast.IntLiteral:
		v, err := strconv.ParseInt(n.Value, 0, 64)
		if err != nil {
			return nil, b.errAt(n, sqlerr.OutOfRange, "invalid INT64 literal %s", n.Value)
		}
		return &Const{V: types.Int64Value(v), T: types.Int64, Lit: true}, nil
	case *ast.FloatLiteral:
		v, err := strconv.ParseFloat(n.Value, 64)
		if err != nil {
			return nil, b.errAt(n, sqlerr.OutOfRange, "invalid FLOAT64 literal %s", n.Value)
		}
		return &Const{V: types.Float64Value(v), T: types.Float64}, nil
	case *ast.StringLiteral:
		return &Const{V: types.StringValue(n.Value), T: types.String, Lit: true}, nil
	case *ast.BytesLiteral:
		return &Const{V: types.BytesValue(n.Value), T: types.Bytes}, nil
	case *ast.DateLiteral:
		v, err := types.Cast(types.StringValue(n.Value.Value), types.Date)
		if err != nil {
			return nil, b.errAt(n, sqlerr.InvalidValue, "invalid DATE literal %q", n.Value.Value)
		}
		return &Const{V: v, T: types.Date}, nil
	case *ast.TimestampLiteral:
		v, err := types.Cast(types.StringValue(n.Value.Value), types.Timestamp)
		if err != nil {
			return nil, b.errAt(n, sqlerr.InvalidValue, "invalid TIMESTAMP literal %q", n.Value.Value)
		}
		return &Const{V: v, T: types.Timestamp}, nil
	}
	return nil, b.errAt(n, sqlerr.NotSupported, "expression %s is not supported", b.source(n))
}

var compareOps = map[ast.BinaryOp]string{ast.OpEqual: "=", ast.OpNotEqual: "!=", ast.OpLess: "<",
	ast.OpLessEqual: "<=", ast.OpGreater: ">", ast.OpGreaterEqual: ">="}

func (b *binder) bindBinary(n *ast.BinaryExpr, ec *exprCtx) (Expr, error) {
	if n.Op == ast.OpAnd || n.Op == ast.OpOr {
		l, err := b.bindPredicate(n.Left, ec)
		if err != nil {
			return nil, err
		}
		r, err := b.bindPredicate(n.Right, ec)
		if err != nil {
			return nil, err
		}
		if n.Op == ast.OpAnd {
			return &And{Args: flatten[*And](l, r)}, nil
		}
		return &Or{Args: flatten[*Or](l, r)}, nil
	}
	l, err := b.bindExpr(n.Left, ec)
	if err != nil {
		return nil, err
	}
	r, err := b.bindExpr(n.Right, ec)
	if err != nil {
		return nil, err
	}
	if op, ok := compareOps[n.Op]; ok {
		return b.compare(n, op, l, r)
	}
	switch n.Op {
	case ast.OpLike, ast.OpNotLike:
		e, err := b.call(n, Lookup("LIKE"), []Expr{l, r})
		if err != nil || n.Op == ast.OpLike {
			return e, err
		}
		return &Not{X: e}, nil
	case ast.OpAdd, ast.OpSub, ast.OpMul, ast.OpDiv, ast.OpConcat:
		return b.call(n, Lookup(string(n.Op)), []Expr{l, r})
	}
	return nil, b.errAt(n, sqlerr.NotSupported, "operator %s is not supported", n.Op)
}

// flatten merges nested ANDs (or ORs) into one argument list.
func flatten[T interface{ *And | *Or }](es ...Expr) []Expr {
	var out []Expr
	for _, e := range es {
		switch x := any(e).(type) {
		case T:
			switch y := any(x).(type) {
			case *And:
				out = append(out, y.Args...)
			case *Or:
				out = append(out, y.Args...)
			}
		default:
			out = append(out, e)
		}
	}
	return out
}

// compare binds a comparison after unifying the operand types.
func (b *binder) compare(n ast.Node, op string, l, r Expr) (Expr, error) {
	args, _, _, ok := unify([]Expr{l, r})
	if !ok {
		return nil, b.errAt(n, sqlerr.TypeMismatch,
			"no matching signature for operator %s for argument types %s, %s", op, l.Type(), r.Type())
	}
	return b.call(n, Lookup(op), args)
}

func (b *binder) bindUnary(n *ast.UnaryExpr, ec *exprCtx) (Expr, error) {
	switch n.Op {
	case ast.OpNot:
		x, err := b.bindPredicate(n.Expr, ec)
		if err != nil {
			return nil, err
		}
		return &Not{X: x}, nil
	case ast.OpMinus:
		if lit, ok := n.Expr.(*ast.IntLiteral); ok {
			v, err := strconv.ParseInt("-"+lit.Value, 0, 64)
			if err == nil {
				return &Const{V: types.Int64Value(v), T: types.Int64, Lit: true}, nil
			}
		}
		x, err := b.bindExpr(n.Expr, ec)
		if err != nil {
			return nil, err
		}
		return b.call(n, Lookup("NEG"), []Expr{x})
	case ast.OpPlus:
		return b.bindExpr(n.Expr, ec)
	}
	return nil, b.errAt(n, sqlerr.NotSupported, "operator %s is not supported", n.Op)
}

func (b *binder) bindIn(n *ast.InExpr, ec *exprCtx) (Expr, error) {
	x, err := b.bindExpr(n.Left, ec)
	if err != nil {
		return nil, err
	}
	switch r := n.Right.(type) {
	case *ast.ValuesInCondition:
		all := []Expr{x}
		for _, v := range r.Exprs {
			e, err := b.bindExpr(v, ec)
			if err != nil {
				return nil, err
			}
			all = append(all, e)
		}
		out, _, bad, ok := unify(all)
		if !ok {
			at := ast.Node(n)
			if bad > 0 {
				at = r.Exprs[bad-1]
			}
			return nil, b.errAt(at, sqlerr.TypeMismatch, "IN list items must have the type of the left operand %s", x.Type())
		}
		return &In{X: out[0], List: out[1:], Neg: n.Not}, nil
	case *ast.UnnestInCondition:
		arr, err := b.bindExpr(r.Expr, ec)
		if err != nil {
			return nil, err
		}
		if arr.Type().Kind != types.KindArray {
			return nil, b.errAt(r.Expr, sqlerr.TypeMismatch, "UNNEST expects an ARRAY, got %s", arr.Type())
		}
		if cx, _, ok := coerce(x, arr.Type().Elem); ok {
			return &InArray{X: cx, Array: arr, Neg: n.Not}, nil
		}
		if ca, _, ok := coerce(arr, types.ArrayOf(x.Type())); ok {
			return &InArray{X: x, Array: ca, Neg: n.Not}, nil
		}
		return nil, b.errAt(n, sqlerr.TypeMismatch, "cannot compare %s with elements of %s", x.Type(), arr.Type())
	}
	return nil, b.errAt(n.Right, sqlerr.NotSupported, "IN (subquery) is not supported")
}

func (b *binder) bindBetween(n *ast.BetweenExpr, ec *exprCtx) (Expr, error) {
	var es [3]Expr
	for i, a := range []ast.Expr{n.Left, n.RightStart, n.RightEnd} {
		e, err := b.bindExpr(a, ec)
		if err != nil {
			return nil, err
		}
		es[i] = e
	}
	lo, err := b.compare(n, ">=", es[0], es[1])
	if err != nil {
		return nil, err
	}
	hi, err := b.compare(n, "<=", es[0], es[2])
	if err != nil {
		return nil, err
	}
	e := Expr(&And{Args: []Expr{lo, hi}})
	if n.Not {
		e = &Not{X: e}
	}
	return e, nil
}

func (b *binder) bindIndex(n *ast.IndexExpr, ec *exprCtx) (Expr, error) {
	x, err := b.bindExpr(n.Expr, ec)
	if err != nil {
		return nil, err
	}
	var idxNode ast.Expr
	mode := Offset
	switch s := n.Index.(type) {
	case *ast.ExprArg:
		idxNode = s.Expr
	case *ast.SubscriptSpecifierKeyword:
		idxNode = s.Expr
		mode = map[ast.PositionKeyword]IndexMode{ast.PositionKeywordOffset: Offset,
			ast.PositionKeywordSafeOffset: SafeOffset, ast.PositionKeywordOrdinal: Ordinal,
			ast.PositionKeywordSafeOrdinal: SafeOrdinal}[s.Keyword]
		if x.Type().Kind == types.KindMap {
			return nil, b.errAt(s, sqlerr.TypeMismatch, "%s is not allowed on a MAP; use %s['key']", s.Keyword, x)
		}
	}
	idx, err := b.bindExpr(idxNode, ec)
	if err != nil {
		return nil, err
	}
	switch x.Type().Kind {
	case types.KindMap:
		k, _, ok := coerce(idx, x.Type().Key)
		if !ok {
			return nil, b.errAt(idxNode, sqlerr.TypeMismatch, "map key must be %s, got %s", x.Type().Key, idx.Type())
		}
		return &MapGet{Map: x, Key: k}, nil
	case types.KindArray:
		i, _, ok := coerce(idx, types.Int64)
		if !ok {
			return nil, b.errAt(idxNode, sqlerr.TypeMismatch, "array index must be INT64, got %s", idx.Type())
		}
		return &Index{Arr: x, Idx: i, Mode: mode, Pos: int(n.Pos())}, nil
	}
	return nil, b.errAt(n, sqlerr.TypeMismatch, "cannot subscript a value of type %s", x.Type())
}
