package sql

import (
	"slices"
	"strings"

	"github.com/cloudspannerecosystem/memefish/ast"

	"github.com/shale-db/shale/protoschema"
	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

// expandSelect expands stars and names the select items (spec §4.8:
// alias, else the column or field name, else $colN).
func (b *binder) expandSelect(results []ast.SelectItem, sc *scope) ([]selectItem, error) {
	var items []selectItem
	for _, r := range results {
		switch r := r.(type) {
		case *ast.Star:
			cols := make([]int, 0, len(sc.cols))
			for i, c := range sc.cols {
				if !c.hidden {
					cols = append(cols, i)
				}
			}
			if len(cols) == 0 {
				return nil, b.errAt(r, sqlerr.InvalidArgument, "SELECT * must have a FROM clause")
			}
			star, err := b.starItems(r, cols, sc, r.Except, r.Replace)
			if err != nil {
				return nil, err
			}
			items = append(items, star...)
		case *ast.DotStar:
			id, ok := r.Expr.(*ast.Ident)
			cols, isTable := sc.table(identName(id, ok))
			if !isTable {
				star, err := b.protoStar(r, sc)
				if err != nil {
					return nil, err
				}
				items = append(items, star...)
				continue
			}
			star, err := b.starItems(r, visible(cols, sc), sc, r.Except, r.Replace)
			if err != nil {
				return nil, err
			}
			items = append(items, star...)
		case *ast.Alias:
			items = append(items, selectItem{expr: r.Expr, name: r.As.Alias.Name, alias: true, node: r})
		case *ast.ExprSelectItem:
			items = append(items, selectItem{expr: r.Expr, name: implicitName(r.Expr), node: r})
		}
	}
	return items, nil
}

// visible drops hidden columns from a table's column list.
func visible(cols []int, sc *scope) []int {
	out := make([]int, 0, len(cols))
	for _, i := range cols {
		if !sc.cols[i].hidden {
			out = append(out, i)
		}
	}
	return out
}

func identName(id *ast.Ident, ok bool) string {
	if !ok {
		return ""
	}
	return id.Name
}

// implicitName is the name GoogleSQL gives an unaliased expression.
func implicitName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.Path:
		return e.Idents[len(e.Idents)-1].Name
	case *ast.SelectorExpr:
		return e.Ident.Name
	case *ast.ParenExpr:
		return implicitName(e.Expr)
	}
	return ""
}

// starItems expands a star over the columns cols of sc, less EXCEPT, with
// REPLACE. The value of UNNEST over an ARRAY<STRUCT> expands to its fields.
func (b *binder) starItems(n ast.Node, cols []int, sc *scope, ex *ast.StarModifierExcept, rep *ast.StarModifierReplace) ([]selectItem, error) {
	var star []starCol
	for _, i := range cols {
		c := sc.cols[i]
		if !c.fields {
			star = append(star, starCol{name: c.name, e: &ColRef{Idx: i, Name: c.name, T: c.t, Pos: int(n.Pos())}})
			continue
		}
		for f := range c.t.Fields {
			star = append(star, starCol{name: c.t.Fields[f].Name, e: valueField(sc, i, f, int(n.Pos()))})
		}
	}
	skip := map[int]bool{}
	if ex != nil {
		for _, id := range ex.Columns {
			i, ok := findStar(star, id.Name)
			if !ok {
				return nil, b.errAt(id, sqlerr.UndefinedColumn, "column %s in SELECT * EXCEPT list does not exist", id.Name)
			}
			skip[i] = true
		}
	}
	replace := map[int]*ast.StarModifierReplaceItem{}
	if rep != nil {
		for _, it := range rep.Columns {
			i, ok := findStar(star, it.Name.Name)
			if !ok {
				return nil, b.errAt(it.Name, sqlerr.UndefinedColumn, "column %s in SELECT * REPLACE list does not exist", it.Name.Name)
			}
			replace[i] = it
		}
	}
	var out []selectItem
	for i, c := range star {
		if skip[i] {
			continue
		}
		if it, ok := replace[i]; ok {
			out = append(out, selectItem{expr: it.Expr, name: c.name, alias: true, node: it})
			continue
		}
		out = append(out, selectItem{bound: c.e, name: c.name, node: n})
	}
	return out, nil
}

// starCol is one column a star expands to.
type starCol struct {
	name string
	e    Expr
}

// findStar finds the star column called name: an exact match, else a
// unique case-insensitive one (scope.find).
func findStar(star []starCol, name string) (int, bool) {
	found := -1
	for i, c := range star {
		if c.name == name {
			return i, true
		}
		if strings.EqualFold(c.name, name) {
			if found >= 0 {
				return -1, false
			}
			found = i
		}
	}
	return found, found >= 0
}

// hasAggregate reports whether the select list or ORDER BY calls an
// aggregate (an aggregation without GROUP BY).
func (b *binder) hasAggregate(sel *ast.Select, ob *ast.OrderBy) bool {
	found := false
	visit := func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CountStarExpr:
			found = true
		case *ast.CallExpr:
			if fn := Lookup(n.Func.SQL()); fn != nil && fn.Agg != nil {
				found = true
			}
		case *ast.ScalarSubQuery, *ast.ArraySubQuery, *ast.ExistsSubQuery:
			return false
		}
		return !found
	}
	ast.InspectMany(sel.Results, visit)
	if sel.Having != nil {
		ast.Inspect(sel.Having, visit)
	}
	if ob != nil {
		ast.Inspect(ob, visit)
	}
	return found
}

// bindGroupBy binds GROUP BY items: an ordinal or a select alias names a
// select item; anything else is an expression over the FROM row.
func (b *binder) bindGroupBy(q *Query, gb *ast.GroupBy, items []selectItem, sc *scope) error {
	ec := &exprCtx{scope: sc, noAgg: "GROUP BY"}
	for _, g := range gb.Exprs {
		var e Expr
		var err error
		it, ok, err := b.selectRef(g, items)
		switch {
		case err != nil:
			return err
		case ok && it.bound != nil:
			e = it.bound
		case ok:
			e, err = b.bindExpr(it.expr, ec)
		default:
			e, err = b.bindExpr(g, ec)
		}
		if err != nil {
			return err
		}
		if !e.Type().IsScalar() {
			return b.errAt(g, sqlerr.TypeMismatch, "cannot GROUP BY a value of type %s", e.Type())
		}
		q.GroupBy = append(q.GroupBy, e)
	}
	return nil
}

// selectRef resolves an ordinal or a select-list alias.
func (b *binder) selectRef(g ast.Expr, items []selectItem) (*selectItem, bool, error) {
	switch g := g.(type) {
	case *ast.IntLiteral:
		c, err := b.bindLiteral(g)
		if err != nil {
			return nil, false, err
		}
		n := c.(*Const).V.Int64()
		if n < 1 || n > int64(len(items)) {
			return nil, false, b.errAt(g, sqlerr.InvalidArgument, "ordinal %d is out of range (1..%d)", n, len(items))
		}
		return &items[n-1], true, nil
	case *ast.Ident:
		for i := range items {
			if items[i].alias && strings.EqualFold(items[i].name, g.Name) {
				return &items[i], true, nil
			}
		}
	}
	return nil, false, nil
}

// protoStar expands CAST(x AS bundle.pkg.Msg).* (or any PROTO
// expression's .*) to one item per top-level field of the message, in
// field-number order, each named after its field and bound later as
// expr.field like any other select item. A STRUCT's .* expands to its
// fields in order.
func (b *binder) protoStar(r *ast.DotStar, sc *scope) ([]selectItem, error) {
	x, err := b.bindExpr(r.Expr, &exprCtx{scope: sc, noAgg: "expr.*"})
	if err != nil {
		if _, isIdent := r.Expr.(*ast.Ident); isIdent {
			return nil, b.errAt(r, sqlerr.NotSupported, "expr.* is only supported on a table name or a protobuf message")
		}
		return nil, err
	}
	if x.Type().Kind == types.KindStruct {
		if r.Except != nil || r.Replace != nil {
			return nil, b.errAt(r, sqlerr.NotSupported, "EXCEPT and REPLACE are not supported on a STRUCT's .*")
		}
		out := make([]selectItem, len(x.Type().Fields))
		for i, f := range x.Type().Fields {
			out[i] = selectItem{bound: &Field{X: x, Idx: i, Name: f.Name}, name: f.Name, node: r}
		}
		return out, nil
	}
	if x.Type().Kind != types.KindProto {
		return nil, b.errAt(r, sqlerr.NotSupported, "expr.* is only supported on a table name or a protobuf message, not %s", x.Type())
	}
	if r.Except != nil || r.Replace != nil {
		return nil, b.errAt(r, sqlerr.NotSupported, "EXCEPT and REPLACE are not supported on a message's .*")
	}
	var msg *protoschema.Message
	if g, ok := x.(*ProtoGet); ok {
		msg = g.Msg
		if len(g.Path) > 0 {
			msg = g.Path[len(g.Path)-1].Message()
		}
	} else {
		bundle, rest, _ := strings.Cut(x.Type().Name, ".")
		if msg, err = b.protoMessage(bundle, rest); err != nil {
			return nil, b.errAt(r, sqlerr.UndefinedColumn, "%v", err)
		}
	}
	if msg == nil {
		return nil, b.errAt(r, sqlerr.Internal, "no message type for %s", x.Type())
	}
	fields := slices.Clone(msg.Fields())
	slices.SortFunc(fields, func(a, c *protoschema.Field) int { return int(a.Number - c.Number) })
	out := make([]selectItem, len(fields))
	for i, f := range fields {
		sel := &ast.SelectorExpr{Expr: r.Expr, Ident: &ast.Ident{NamePos: r.Star, NameEnd: r.Star + 1, Name: f.Name}}
		out[i] = selectItem{expr: sel, name: f.Name, node: r}
	}
	return out, nil
}
