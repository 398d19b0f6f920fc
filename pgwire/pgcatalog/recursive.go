package pgcatalog

import (
	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// WITH RECURSIVE: a WITH query that is a UNION [ALL] of a non-recursive
// term and a recursive one that reads the query's own name. As in
// PostgreSQL, the non-recursive term's rows start the result and the
// working table; the recursive term then runs over the working table until
// it produces no rows, each round's rows (without those the result already
// has, under UNION) joining the result and becoming the next working table.
// pg_dump asks this way which materialized views depend on which.

// maxRecursiveRows bounds a recursive query's result: a recursion that
// never ends fails instead of filling memory.
const maxRecursiveRows = 1 << 20

// isRecursiveUnion reports whether a WITH query has a recursive query's
// shape: a UNION whose right-hand term reads the query's name.
func isRecursiveUnion(c *pg_query.CommonTableExpr) bool {
	s := c.Ctequery.GetSelectStmt()
	return s != nil && s.Op == pg_query.SetOperation_SETOP_UNION && s.Rarg != nil &&
		mentionsRelation(s.Rarg, c.Ctename)
}

// mentionsRelation reports whether a query reads a relation named name
// without a schema, anywhere in it (walking the parse tree's messages).
func mentionsRelation(s *pg_query.SelectStmt, name string) bool {
	found := false
	var walk func(m protoreflect.Message)
	walk = func(m protoreflect.Message) {
		if rv, ok := m.Interface().(*pg_query.RangeVar); ok && rv.Schemaname == "" && rv.Relname == name {
			found = true
			return
		}
		m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
			switch {
			case fd.Kind() != protoreflect.MessageKind || fd.IsMap():
			case fd.IsList():
				for i := 0; i < v.List().Len() && !found; i++ {
					walk(v.List().Get(i).Message())
				}
			default:
				walk(v.Message())
			}
			return !found
		})
	}
	walk(s.ProtoReflect())
	return found
}

// bindRecursiveCTE binds a recursive WITH query; sc is the scope its name
// will be bound in.
func (b *binder) bindRecursiveCTE(c *pg_query.CommonTableExpr, parent, sc *scope) (*queryPlan, error) {
	s := c.Ctequery.GetSelectStmt()
	if len(s.SortClause) > 0 || s.LimitCount != nil || s.LimitOffset != nil {
		return nil, errorf(CodeNotSupported, c.Location, "ORDER BY/LIMIT in a recursive query is not implemented")
	}
	init, err := b.bindQuery(s.Larg, parent, sc)
	if err != nil {
		return nil, err
	}
	if names := strs(c.Aliascolnames); len(names) > 0 {
		init = renameCols(init, names)
	}
	work := &cteDef{name: c.Ctename, q: init, work: true}
	inner := &scope{parent: sc.parent, cteOuter: sc, ctes: map[string]*cteDef{c.Ctename: work}}
	step, err := b.bindQuery(s.Rarg, parent, inner)
	if err != nil {
		return nil, err
	}
	if len(step.cols) != len(init.cols) {
		return nil, errorf(CodeSyntax, c.Location, "each UNION query must have the same number of columns")
	}
	p := &recursivePlan{all: s.All, init: init, step: step, work: work}
	for _, col := range init.cols {
		p.cols = append(p.cols, scopeCol{name: col.name, typ: col.typ})
	}
	return &queryPlan{root: p, cols: outCols(p.cols)}, nil
}

// recursivePlan evaluates a recursive WITH query.
type recursivePlan struct {
	all        bool
	init, step *queryPlan
	work       *cteDef
	cols       []scopeCol
}

func (p *recursivePlan) columns() []scopeCol { return p.cols }

func (p *recursivePlan) run(ev *evaluator, outer *env) ([][]Value, error) {
	rows, err := p.init.run(ev, outer)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	keep := func(rows [][]Value) [][]Value { // UNION: rows not seen before
		if p.all {
			return rows
		}
		out := rows[:0:0]
		for _, r := range rows {
			if k := key(r); !seen[k] {
				seen[k] = true
				out = append(out, r)
			}
		}
		return out
	}
	result := keep(rows)
	working := result
	defer delete(ev.ctes, p.work)
	for len(working) > 0 {
		ev.ctes[p.work] = working
		next, err := p.step.run(ev, outer)
		if err != nil {
			return nil, err
		}
		if next, err = castRows(ev, next, p.step.cols, p.cols); err != nil {
			return nil, err
		}
		working = keep(next)
		result = append(result, working...)
		if len(result) > maxRecursiveRows {
			return nil, errorf("54000", noPos, "recursive query produced more than %d rows", maxRecursiveRows)
		}
	}
	return result, nil
}
