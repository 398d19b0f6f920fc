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
	return b.starModify(n, star, ex, rep, "column", "")
}

// starCol is one column a star expands to: a bound expression e, or an
// expression expr bound later with the other select items.
type starCol struct {
	name string
	e    Expr
	expr ast.Expr
}

// starModify applies a star's EXCEPT and REPLACE to the columns it expands
// to, as GoogleSQL does for SELECT *, t.* and expr.*: EXCEPT drops the
// named columns (every column of a duplicated name), REPLACE puts an
// expression in a column's place under its name. A name that matches
// nothing (an error naming the nearest ones), a name listed twice, a
// column both excepted and replaced, an ambiguous REPLACE and an EXCEPT
// that leaves no column are errors. kind ("column", "field") and in (" of
// message m") word the errors.
func (b *binder) starModify(n ast.Node, star []starCol, ex *ast.StarModifierExcept, rep *ast.StarModifierReplace, kind, in string) ([]selectItem, error) {
	names := make([]string, len(star))
	for i, c := range star {
		names[i] = c.name
	}
	skip := map[int]bool{}
	if ex != nil {
		for _, id := range ex.Columns {
			m := matchStar(star, id.Name)
			if len(m) == 0 {
				return nil, b.errAt(id, sqlerr.UndefinedColumn, "%s %s%s in SELECT * EXCEPT list does not exist%s",
					kind, id.Name, in, nearestNames(id.Name, names))
			}
			if skip[m[0]] {
				return nil, b.errAt(id, sqlerr.InvalidArgument, "duplicate %s %s in SELECT * EXCEPT list", kind, id.Name)
			}
			for _, i := range m {
				skip[i] = true
			}
		}
	}
	replace := map[int]*ast.StarModifierReplaceItem{}
	if rep != nil {
		for _, it := range rep.Columns {
			m := matchStar(star, it.Name.Name)
			switch {
			case len(m) == 0:
				return nil, b.errAt(it.Name, sqlerr.UndefinedColumn, "%s %s%s in SELECT * REPLACE list does not exist%s",
					kind, it.Name.Name, in, nearestNames(it.Name.Name, names))
			case skip[m[0]]:
				return nil, b.errAt(it.Name, sqlerr.InvalidArgument, "%s %s cannot occur in both SELECT * EXCEPT and REPLACE", kind, it.Name.Name)
			case len(m) > 1:
				return nil, b.errAt(it.Name, sqlerr.InvalidArgument, "%s %s in SELECT * REPLACE list is ambiguous", kind, it.Name.Name)
			case replace[m[0]] != nil:
				return nil, b.errAt(it.Name, sqlerr.InvalidArgument, "duplicate %s %s in SELECT * REPLACE list", kind, it.Name.Name)
			}
			replace[m[0]] = it
		}
	}
	var out []selectItem
	for i, c := range star {
		switch it := replace[i]; {
		case skip[i]:
		case it != nil:
			out = append(out, selectItem{expr: it.Expr, name: c.name, alias: true, node: it})
		case c.e != nil:
			out = append(out, selectItem{bound: c.e, name: c.name, node: n})
		default:
			out = append(out, selectItem{expr: c.expr, name: c.name, node: n})
		}
	}
	if len(out) == 0 && len(star) > 0 {
		return nil, b.errAt(n, sqlerr.InvalidArgument, "SELECT * expands to zero columns after applying EXCEPT")
	}
	return out, nil
}

// matchStar finds the star columns called name: the exact matches, else
// the case-insensitive ones (as scope.find resolves names).
func matchStar(star []starCol, name string) []int {
	var exact, fold []int
	for i, c := range star {
		if c.name == name {
			exact = append(exact, i)
		} else if strings.EqualFold(c.name, name) {
			fold = append(fold, i)
		}
	}
	if len(exact) > 0 {
		return exact
	}
	return fold
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
// expr.field like any other select item, less EXCEPT, with REPLACE
// (starModify): a field left out is never read, so never decoded. A
// STRUCT's .* expands to its fields in order.
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
	star := make([]starCol, len(fields))
	for i, f := range fields {
		sel := &ast.SelectorExpr{Expr: r.Expr, Ident: &ast.Ident{NamePos: r.Star, NameEnd: r.Star + 1, Name: f.Name}}
		star[i] = starCol{name: f.Name, expr: sel}
	}
	return b.starModify(r, star, r.Except, r.Replace, "field", " of message "+msg.FullName())
}
