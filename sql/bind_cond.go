package sql

import (
	"github.com/cloudspannerecosystem/memefish/ast"

	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

func (b *binder) bindCase(n *ast.CaseExpr, ec *exprCtx) (Expr, error) {
	var operand Expr
	if n.Expr != nil {
		var err error
		if operand, err = b.bindExpr(n.Expr, ec); err != nil {
			return nil, err
		}
	}
	var conds, results []Expr
	for _, w := range n.Whens {
		var c Expr
		var err error
		if operand != nil {
			v, err := b.bindExpr(w.Cond, ec)
			if err != nil {
				return nil, err
			}
			c, err = b.compare(w, "=", operand, v)
			if err != nil {
				return nil, err
			}
		} else if c, err = b.bindPredicate(w.Cond, ec); err != nil {
			return nil, err
		}
		r, err := b.bindExpr(w.Then, ec)
		if err != nil {
			return nil, err
		}
		conds, results = append(conds, c), append(results, r)
	}
	if n.Else != nil {
		r, err := b.bindExpr(n.Else.Expr, ec)
		if err != nil {
			return nil, err
		}
		results = append(results, r)
	}
	out, t, _, ok := unify(results)
	if !ok {
		return nil, b.errAt(n, sqlerr.TypeMismatch, "CASE results have no common type")
	}
	c := &Case{T: t}
	for i := range conds {
		c.Whens = append(c.Whens, When{Cond: conds[i], Then: out[i]})
	}
	if n.Else != nil {
		c.Else = out[len(out)-1]
	}
	return c, nil
}

func (b *binder) bindIf(n *ast.IfExpr, ec *exprCtx) (Expr, error) {
	cond, err := b.bindPredicate(n.Expr, ec)
	if err != nil {
		return nil, err
	}
	t, err := b.bindExpr(n.TrueResult, ec)
	if err != nil {
		return nil, err
	}
	f, err := b.bindExpr(n.ElseResult, ec)
	if err != nil {
		return nil, err
	}
	out, typ, _, ok := unify([]Expr{t, f})
	if !ok {
		return nil, b.errAt(n, sqlerr.TypeMismatch, "IF results have no common type: %s, %s", t.Type(), f.Type())
	}
	return &Case{Whens: []When{{Cond: cond, Then: out[0]}}, Else: out[1], T: typ}, nil
}

func (b *binder) bindArray(n *ast.ArrayLiteral, ec *exprCtx) (Expr, error) {
	var elems []Expr
	for _, v := range n.Values {
		e, err := b.bindExpr(v, ec)
		if err != nil {
			return nil, err
		}
		elems = append(elems, e)
	}
	var t *types.Type
	if n.Type != nil {
		var err error
		if t, err = b.bindType(n.Type); err != nil {
			return nil, err
		}
		for i, e := range elems {
			c, _, ok := coerce(e, t)
			if !ok {
				return nil, b.errAt(n.Values[i], sqlerr.TypeMismatch, "array element must be %s, got %s", t, e.Type())
			}
			elems[i] = c
		}
	} else if len(elems) > 0 {
		var ok bool
		if elems, t, _, ok = unify(elems); !ok {
			return nil, b.errAt(n, sqlerr.TypeMismatch, "array elements have no common type")
		}
	} else {
		t = types.Int64
	}
	if t.Kind == types.KindArray {
		return nil, b.errAt(n, sqlerr.TypeMismatch, "arrays of arrays are not supported")
	}
	return &MakeArray{Elems: elems, T: types.ArrayOf(t)}, nil
}

func (b *binder) bindTypelessStruct(n *ast.TypelessStructLiteral, ec *exprCtx) (Expr, error) {
	var vals []ast.Expr
	var names []string
	for _, a := range n.Values {
		switch a := a.(type) {
		case *ast.ExprArg:
			vals, names = append(vals, a.Expr), append(names, "")
		case *ast.Alias:
			vals, names = append(vals, a.Expr), append(names, a.As.Alias.Name)
		}
	}
	return b.bindStruct(vals, names, nil, ec)
}

func (b *binder) bindStruct(vals []ast.Expr, names []string, typed []*ast.StructField, ec *exprCtx) (Expr, error) {
	var fields []Expr
	var fts []types.Field
	for i, v := range vals {
		e, err := b.bindExpr(v, ec)
		if err != nil {
			return nil, err
		}
		name := ""
		if names != nil {
			name = names[i]
		}
		if typed != nil && i < len(typed) {
			t, err := b.bindType(typed[i].Type)
			if err != nil {
				return nil, err
			}
			c, _, ok := coerce(e, t)
			if !ok {
				return nil, b.errAt(v, sqlerr.TypeMismatch, "struct field must be %s, got %s", t, e.Type())
			}
			e = c
			if typed[i].Ident != nil {
				name = typed[i].Ident.Name
			}
		}
		fields = append(fields, e)
		fts = append(fts, types.Field{Name: name, Type: e.Type()})
	}
	return &MakeStruct{Fields: fields, T: types.StructOf(fts...)}, nil
}
