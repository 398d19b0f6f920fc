package sql

import (
	"errors"
	"strings"

	"github.com/cloudspannerecosystem/memefish/ast"

	"github.com/shale-db/shale/catalog"
	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

func (b *binder) bindFrom(te ast.TableExpr) (Source, *scope, error) {
	switch te := te.(type) {
	case *ast.TableName:
		return b.bindTable(te.Table, aliasOf(te.As), nil, nil)
	case *ast.TVFCallExpr:
		if len(te.Name.Idents) == 1 && strings.EqualFold(te.Name.Idents[0].Name, "UNPACK") {
			return b.bindUnpack(te)
		}
		if len(te.Name.Idents) != 1 {
			return nil, nil, b.errAt(te, sqlerr.NotSupported, "table-valued function %s is not supported", te.Name.SQL())
		}
		return b.bindTable(te.Name.Idents[0], b.p.tvfAliases[int(te.Name.Pos())], te.Args, te.NamedArgs)
	case *ast.Join:
		return b.bindJoin(te)
	case *ast.Unnest:
		return b.bindUnnest(nil, &scope{}, te)
	case *ast.SubQueryTableExpr:
		return nil, nil, b.errAt(te, sqlerr.NotSupported, "subqueries in FROM are not supported (except inside UNPACK)")
	case *ast.ParenTableExpr:
		return nil, nil, b.errAt(te, sqlerr.NotSupported, "parenthesized joins are not supported")
	case *ast.PathTableExpr:
		return nil, nil, b.errAt(te, sqlerr.NotSupported, "path table expressions are not supported")
	}
	return nil, nil, b.errAt(te, sqlerr.NotSupported, "FROM item %T is not supported", te)
}

func aliasOf(a *ast.AsAlias) string {
	if a == nil {
		return ""
	}
	return a.Alias.Name
}

func (b *binder) bindJoin(j *ast.Join) (Source, *scope, error) {
	un, ok := j.Right.(*ast.Unnest)
	if !ok || (j.Op != ast.CrossJoin && j.Op != ast.CommaJoin) || j.Cond != nil {
		return nil, nil, b.errAt(j.Right, sqlerr.NotSupported,
			"JOIN is not supported (only CROSS JOIN UNNEST(...) and , UNNEST(...))")
	}
	left, sc, err := b.bindFrom(j.Left)
	if err != nil {
		return nil, nil, err
	}
	return b.bindUnnest(left, sc, un)
}

func (b *binder) bindUnnest(left Source, sc *scope, un *ast.Unnest) (Source, *scope, error) {
	arr, err := b.bindExpr(un.Expr, &exprCtx{scope: sc, noAgg: "UNNEST"})
	if err != nil {
		return nil, nil, err
	}
	if arr.Type().Kind != types.KindArray {
		return nil, nil, b.errAt(un.Expr, sqlerr.TypeMismatch, "UNNEST expects an ARRAY, got %s", arr.Type())
	}
	out := &scope{cols: append([]scopeCol(nil), sc.cols...), tables: sc.tables}
	alias := aliasOf(un.As)
	// An ARRAY of STRUCTs unnests into a value table: its fields are
	// columns too, with or without an alias.
	elem := arr.Type().Elem
	out.cols[out.add(alias, elem)].fields = elem.Kind == types.KindStruct
	j := &UnnestJoin{Left: left, Array: arr, Alias: alias, WithOffset: un.WithOffset != nil}
	if un.WithOffset != nil {
		name := aliasOf(un.WithOffset.As)
		if name == "" {
			name = "offset"
		}
		out.add(name, types.Int64)
	}
	return j, out, nil
}

// bindTable binds a table read with its temporal arguments (spec §4.3).
func (b *binder) bindTable(name *ast.Ident, alias string, args []ast.TVFArg, named []*ast.NamedArg) (Source, *scope, error) {
	t, err := b.cat.Table(b.ctx, b.instance, name.Name)
	if err != nil {
		if errors.Is(err, catalog.ErrTableNotFound) {
			return nil, nil, b.errAt(name, sqlerr.UndefinedTable, "table not found: %s", name.Name)
		}
		return nil, nil, b.errAt(name, sqlerr.Internal, "%v", err)
	}
	if len(args) > 0 {
		return nil, nil, b.errAt(args[0], sqlerr.InvalidArgument, "table arguments must be named (name => value)")
	}
	ts := &TableScan{Table: t}
	b.tables = append(b.tables, t)
	if err := b.bindTemporal(ts, named); err != nil {
		return nil, nil, err
	}
	ts.Cols = t.Columns(ts.History)
	sc := &scope{tables: map[string][]int{}}
	idx := make([]int, len(ts.Cols))
	for i, c := range ts.Cols {
		idx[i] = sc.add(c.Name, c.Type)
		sc.cols[idx[i]].hidden = c.Hidden
	}
	if alias == "" {
		alias = t.Name
	}
	sc.tables[alias] = idx
	return ts, sc, nil
}

func (b *binder) bindTemporal(ts *TableScan, named []*ast.NamedArg) error {
	var withHistory, asOf *ast.NamedArg
	var needHistory []*ast.NamedArg
	seen := map[string]bool{}
	ec := &exprCtx{scope: &scope{}, noAgg: "table arguments"}
	for _, a := range named {
		n := strings.ToLower(a.Name.Name)
		if seen[n] {
			return b.errAt(a, sqlerr.InvalidArgument, "duplicate table argument %s", n)
		}
		seen[n] = true
		if n == "with_history" {
			v, ok := a.Value.(*ast.BoolLiteral)
			if !ok {
				return b.errAt(a.Value, sqlerr.InvalidArgument, "with_history must be TRUE or FALSE")
			}
			ts.History, withHistory = v.Value, a
			continue
		}
		want := types.Timestamp
		if n == "latest_n" {
			want = types.Int64
		}
		dst := map[string]*Expr{"as_of": &ts.AsOf, "after": &ts.After, "after_or_equal": &ts.AfterOrEqual,
			"before": &ts.Before, "before_or_equal": &ts.BeforeOrEqual, "latest_n": &ts.LatestN}[n]
		if dst == nil {
			return b.errAt(a.Name, sqlerr.InvalidArgument, "unknown table argument %s", a.Name.Name)
		}
		e, err := b.bindExpr(a.Value, ec)
		if err != nil {
			return err
		}
		if !IsConstant(e) {
			return b.errAt(a.Value, sqlerr.InvalidArgument, "%s must be a constant or a parameter", n)
		}
		ce, _, ok := coerce(e, want)
		if !ok {
			return b.errAt(a.Value, sqlerr.TypeMismatch, "%s expects %s, got %s", n, want, e.Type())
		}
		if c, ok := ce.(*Const); ok && n == "latest_n" && (c.V.IsNull() || c.V.Int64() < 1) {
			return b.errAt(a.Value, sqlerr.InvalidArgument, "latest_n must be at least 1")
		}
		*dst = ce
		if n == "as_of" {
			asOf = a
		} else {
			needHistory = append(needHistory, a)
		}
	}
	if asOf != nil && ts.History {
		return b.errAt(withHistory, sqlerr.InvalidArgument, "as_of cannot be combined with with_history => TRUE")
	}
	if len(needHistory) > 0 && !ts.History {
		return b.errAt(needHistory[0], sqlerr.InvalidArgument,
			"%s requires with_history => TRUE", strings.ToLower(needHistory[0].Name.Name))
	}
	return nil
}

// bindUnpack binds UNPACK((subquery)) (spec §4.4).
func (b *binder) bindUnpack(te *ast.TVFCallExpr) (Source, *scope, error) {
	if len(te.Args) != 1 || len(te.NamedArgs) > 0 {
		return nil, nil, b.errAt(te, sqlerr.InvalidArgument, "UNPACK takes one parenthesized subquery: UNPACK((SELECT ...))")
	}
	ea, ok := te.Args[0].(*ast.ExprArg)
	var sub *ast.ScalarSubQuery
	if ok {
		sub, ok = ea.Expr.(*ast.ScalarSubQuery)
	}
	if !ok {
		return nil, nil, b.errAt(te.Args[0], sqlerr.InvalidArgument, "UNPACK takes one parenthesized subquery: UNPACK((SELECT ...))")
	}
	in, err := b.bindQueryExpr(sub.Query)
	if err != nil {
		return nil, nil, err
	}
	if !historySource(in.From) || in.Grouped {
		return nil, nil, b.errAt(sub, sqlerr.InvalidArgument, "the input of UNPACK must read a table with with_history => TRUE")
	}
	u := &Unpack{Input: in}
	sc := &scope{}
	for _, c := range in.Columns {
		kind, t := unpackType(c.Type)
		u.Kinds = append(u.Kinds, kind)
		u.Cols = append(u.Cols, types.Field{Name: c.Name, Type: t})
		sc.add(c.Name, t)
	}
	u.Cols = append(u.Cols, types.Field{Name: "_timestamp", Type: types.Timestamp})
	sc.add("_timestamp", types.Timestamp)
	return u, sc, nil
}

func historySource(s Source) bool {
	switch s := s.(type) {
	case *TableScan:
		return s.History
	case *UnnestJoin:
		return historySource(s.Left)
	}
	return false
}

// isVersions reports whether t is ARRAY<STRUCT<timestamp TIMESTAMP, value V>>.
func isVersions(t *types.Type) bool {
	return t.Kind == types.KindArray && t.Elem.Kind == types.KindStruct && len(t.Elem.Fields) == 2 &&
		t.Elem.Fields[0].Name == "timestamp" && t.Elem.Fields[0].Type.Kind == types.KindTimestamp &&
		t.Elem.Fields[1].Name == "value"
}

func unpackType(t *types.Type) (UnpackKind, *types.Type) {
	switch {
	case t.Kind == types.KindMap && isVersions(t.Elem):
		return UnpackMap, types.MapOf(t.Key, t.Elem.Elem.Fields[1].Type)
	case isVersions(t):
		return UnpackArray, t.Elem.Fields[1].Type
	}
	return UnpackCopy, t
}
