package sql

import (
	"strings"

	"github.com/cloudspannerecosystem/memefish/ast"

	"github.com/shale-db/shale/sql/sqlerr"
)

// bindOrderBy binds ORDER BY items to output columns: an ordinal, an
// output alias, or an expression equal to a select item; any other
// expression becomes a hidden output column (an error under SELECT
// DISTINCT, whose ORDER BY may only name select items). NULLs sort first ascending
// and last descending unless NULLS FIRST|LAST says otherwise (spec §4.6).
func (b *binder) bindOrderBy(q *Query, ob *ast.OrderBy, ec *exprCtx) error {
	for i, it := range ob.Items {
		col, err := b.orderColumn(q, it.Expr, ec)
		if err != nil {
			return err
		}
		if !q.Select[col].Type().IsScalar() {
			return b.errAt(it.Expr, sqlerr.TypeMismatch, "cannot ORDER BY a value of type %s", q.Select[col].Type())
		}
		desc := it.Dir == ast.DirectionDesc
		oi := OrderItem{Col: col, Desc: desc, NullsFirst: !desc}
		end := int(^uint(0) >> 1)
		if i+1 < len(ob.Items) {
			end = int(ob.Items[i+1].Pos())
		}
		for off, first := range b.p.nulls {
			if off >= int(it.End()) && off < end {
				oi.NullsFirst = first
			}
		}
		q.OrderBy = append(q.OrderBy, oi)
	}
	return nil
}

func (b *binder) orderColumn(q *Query, n ast.Expr, ec *exprCtx) (int, error) {
	switch n := n.(type) {
	case *ast.IntLiteral:
		c, err := b.bindLiteral(n)
		if err != nil {
			return 0, err
		}
		k := c.(*Const).V.Int64()
		if k < 1 || k > int64(len(q.Columns)) {
			return 0, b.errAt(n, sqlerr.InvalidArgument, "ORDER BY ordinal %d is out of range (1..%d)", k, len(q.Columns))
		}
		return int(k - 1), nil
	case *ast.Ident:
		for i, c := range q.Columns {
			if strings.EqualFold(c.Name, n.Name) && !strings.HasPrefix(c.Name, "$") {
				return i, nil
			}
		}
	}
	e, err := b.bindExpr(n, ec)
	if err != nil {
		return 0, err
	}
	if q.Grouped {
		if e, err = b.postAgg(e, q); err != nil {
			return 0, err
		}
	}
	for i, s := range q.Select {
		if Equal(s, e) {
			return i, nil
		}
	}
	if q.Distinct {
		return 0, b.errAt(n, sqlerr.InvalidArgument, "ORDER BY expression %s must appear in the SELECT DISTINCT list", b.p.text[n.Pos():n.End()])
	}
	q.Select = append(q.Select, e)
	return len(q.Select) - 1, nil
}
