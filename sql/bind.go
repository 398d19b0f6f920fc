package sql

import (
	"context"
	"fmt"
	"strings"

	"github.com/cloudspannerecosystem/memefish/ast"

	"github.com/shale-db/shale/catalog"
	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

// Analyze parses and binds a statement against the tables of an instance.
// params declares the types of the @parameters the query may use; any
// other parameter is an UndefinedParameter error. Every error is a
// *sqlerr.Error, positioned when it concerns a piece of the text.
func Analyze(ctx context.Context, text string, cat catalog.Reader, instance string,
	params map[string]*types.Type) (*Statement, error) {
	p, err := parse(text)
	if err != nil {
		return nil, err
	}
	b := &binder{ctx: ctx, cat: cat, instance: instance, p: p, params: params, used: map[string]*types.Type{}}
	q, err := b.bindQueryExpr(p.query)
	if err != nil {
		return nil, err
	}
	return &Statement{Text: text, Explain: p.explain, Analyze: p.analyze, Query: q, Params: b.used}, nil
}

type binder struct {
	ctx      context.Context
	cat      catalog.Reader
	instance string
	p        *parsed
	params   map[string]*types.Type
	used     map[string]*types.Type
	// tables are the tables of FROM, whose schema bundles CAST(x AS
	// bundle.pkg.Msg) resolves against.
	tables []*catalog.Table
}

// errAt returns a positioned error at an AST node.
func (b *binder) errAt(n ast.Node, code sqlerr.Code, format string, args ...any) *sqlerr.Error {
	return sqlerr.At(b.p.text, int(n.Pos()), code, format, args...)
}

// source is the text of n as the statement spells it, for error messages.
// It does not ask memefish to print n: memefish can build a node with a
// missing part (SELECT {A} has a braced field with no value), and both its
// printer and n.End() then dereference nil. Such a node is named by kind.
func (b *binder) source(n ast.Node) (s string) {
	defer func() {
		if recover() != nil {
			s = strings.TrimPrefix(fmt.Sprintf("%T", n), "*ast.")
		}
	}()
	if pos, end := int(n.Pos()), int(n.End()); 0 <= pos && pos < end && end <= len(b.p.text) {
		return b.p.text[pos:end]
	}
	return n.SQL()
}

func (b *binder) bindQueryExpr(qe ast.QueryExpr) (*Query, error) {
	switch qe := qe.(type) {
	case *ast.Query:
		if qe.With != nil {
			return nil, b.errAt(qe.With, sqlerr.NotSupported, "WITH (common table expressions) is not supported")
		}
		if len(qe.PipeOperators) > 0 {
			return nil, b.errAt(qe.PipeOperators[0], sqlerr.NotSupported, "pipe syntax is not supported")
		}
		if qe.ForUpdate != nil {
			return nil, b.errAt(qe.ForUpdate, sqlerr.NotSupported, "FOR UPDATE is not supported")
		}
		sel, ok := qe.Query.(*ast.Select)
		if !ok {
			if sub, ok := qe.Query.(*ast.SubQuery); ok && qe.OrderBy == nil && qe.Limit == nil {
				return b.bindQueryExpr(sub.Query)
			}
			return b.bindQueryExpr(qe.Query)
		}
		return b.bindSelect(sel, qe.OrderBy, qe.Limit)
	case *ast.Select:
		return b.bindSelect(qe, nil, nil)
	case *ast.SubQuery:
		return b.bindQueryExpr(qe.Query)
	case *ast.CompoundQuery:
		off := int(qe.Pos())
		between := b.p.text[qe.Queries[0].End():qe.Queries[1].Pos()]
		if i := strings.Index(strings.ToUpper(between), string(qe.Op)); i >= 0 {
			off = int(qe.Queries[0].End()) + i
		}
		return nil, sqlerr.At(b.p.text, off, sqlerr.NotSupported, "%s is not supported", qe.Op)
	case *ast.FromQuery:
		return nil, b.errAt(qe, sqlerr.NotSupported, "FROM-first queries are not supported")
	}
	return nil, b.errAt(qe, sqlerr.NotSupported, "query form %T is not supported", qe)
}

// selectItem is one expanded select-list entry before binding.
type selectItem struct {
	expr  ast.Expr // nil for a star column
	bound Expr     // set for star columns and REPLACE items
	name  string
	alias bool
	node  ast.Node
}

func (b *binder) bindSelect(sel *ast.Select, ob *ast.OrderBy, lim *ast.Limit) (*Query, error) {
	if sel.As != nil {
		return nil, b.errAt(sel.As, sqlerr.NotSupported, "SELECT AS STRUCT/VALUE is not supported")
	}
	q := &Query{}
	sc := &scope{}
	if sel.From != nil {
		src, s, err := b.bindFrom(sel.From.Source)
		if err != nil {
			return nil, err
		}
		q.From, sc = src, s
	}
	if sel.Where != nil {
		w, err := b.bindPredicate(sel.Where.Expr, &exprCtx{scope: sc, noAgg: "WHERE"})
		if err != nil {
			return nil, err
		}
		q.Where = w
	}
	items, err := b.expandSelect(sel.Results, sc)
	if err != nil {
		return nil, err
	}
	ac := &aggCtx{}
	q.Grouped = sel.GroupBy != nil || b.hasAggregate(sel, ob)
	if sel.GroupBy != nil {
		if err := b.bindGroupBy(q, sel.GroupBy, items, sc); err != nil {
			return nil, err
		}
	}
	ec := &exprCtx{scope: sc}
	if q.Grouped {
		ec.agg = ac
	}
	if err := b.bindSelectList(q, items, ec); err != nil {
		return nil, err
	}
	if sel.AllOrDistinct == ast.AllOrDistinctDistinct {
		if err := b.checkDistinct(q, items); err != nil {
			return nil, err
		}
		q.Distinct = true
	}
	if sel.Having != nil {
		if !q.Grouped {
			return nil, b.errAt(sel.Having, sqlerr.InvalidArgument, "HAVING requires GROUP BY or an aggregate")
		}
		h, err := b.bindPredicate(sel.Having.Expr, ec)
		if err != nil {
			return nil, err
		}
		if q.Having, err = b.postAgg(h, q); err != nil {
			return nil, err
		}
	}
	if ob != nil {
		if err := b.bindOrderBy(q, ob, ec); err != nil {
			return nil, err
		}
	}
	q.Aggs = ac.aggs
	if lim != nil {
		if err := b.bindLimit(q, lim); err != nil {
			return nil, err
		}
	}
	return q, nil
}

func (b *binder) bindSelectList(q *Query, items []selectItem, ec *exprCtx) error {
	for i, it := range items {
		e := it.bound
		if e == nil {
			var err error
			if e, err = b.bindExpr(it.expr, ec); err != nil {
				return err
			}
		}
		if q.Grouped {
			var err error
			if e, err = b.postAgg(e, q); err != nil {
				return err
			}
		}
		name := it.name
		if name == "" {
			name = "$col" + itoa(i+1)
		}
		q.Select = append(q.Select, e)
		q.Columns = append(q.Columns, types.Field{Name: name, Type: e.Type()})
	}
	return nil
}

// checkDistinct rejects SELECT DISTINCT over a column whose type cannot be
// grouped: a MAP (a column family) or a PROTO, at any depth. ARRAY and
// STRUCT values are grouped element by element, as in GoogleSQL.
func (b *binder) checkDistinct(q *Query, items []selectItem) error {
	for i, c := range q.Columns {
		if t := ungroupable(c.Type); t != nil {
			return b.errAt(items[i].node, sqlerr.TypeMismatch,
				"SELECT DISTINCT cannot be used on column %s of type %s (%s values are not groupable)", c.Name, c.Type, distinctKind(t))
		}
	}
	return nil
}

// ungroupable returns the MAP or PROTO type inside t, or nil.
func ungroupable(t *types.Type) *types.Type {
	switch t.Kind {
	case types.KindMap, types.KindProto:
		return t
	case types.KindArray:
		return ungroupable(t.Elem)
	case types.KindStruct:
		for _, f := range t.Fields {
			if u := ungroupable(f.Type); u != nil {
				return u
			}
		}
	}
	return nil
}

func distinctKind(t *types.Type) string {
	if t.Kind == types.KindMap {
		return "MAP"
	}
	return "PROTO"
}

func (b *binder) bindLimit(q *Query, lim *ast.Limit) error {
	var err error
	if q.Limit, err = b.bindIntValue(lim.Count); err != nil {
		return err
	}
	if lim.Offset != nil {
		q.Offset, err = b.bindIntValue(lim.Offset.Value)
	}
	return err
}

func (b *binder) bindIntValue(v ast.IntValue) (Expr, error) {
	var e Expr
	var err error
	switch v := v.(type) {
	case *ast.IntLiteral:
		e, err = b.bindExpr(v, &exprCtx{scope: &scope{}})
	case *ast.Param:
		e, err = b.bindExpr(v, &exprCtx{scope: &scope{}})
	case *ast.CastIntValue:
		e, err = b.bindIntValue(v.Expr)
	default:
		return nil, b.errAt(v, sqlerr.NotSupported, "unsupported LIMIT value")
	}
	if err != nil {
		return nil, err
	}
	if e.Type().Kind != types.KindInt64 {
		return nil, b.errAt(v, sqlerr.TypeMismatch, "LIMIT and OFFSET expect INT64, got %s", e.Type())
	}
	if c, ok := e.(*Const); ok && !c.V.IsNull() && c.V.Int64() < 0 {
		return nil, b.errAt(v, sqlerr.InvalidArgument, "LIMIT and OFFSET must not be negative")
	}
	return e, nil
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}
