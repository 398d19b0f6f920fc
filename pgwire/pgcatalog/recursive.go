package pgcatalog

import (
	"cmp"
	"slices"

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

// isRecursive reports whether a query of WITH RECURSIVE reads its own
// name, which makes it a recursive query; checkRecursiveForm then checks
// its shape.
func isRecursive(c *pg_query.CommonTableExpr) bool {
	return len(relationRefs(c.Ctequery.GetSelectStmt(), c.Ctename)) > 0
}

// checkRecursiveForm reports PostgreSQL's 42P19 for a recursive query
// that is not a UNION [ALL] of a non-recursive term and a recursive one
// reading the query's name once, as checkWellFormedRecursion does.
func checkRecursiveForm(c *pg_query.CommonTableExpr) error {
	s := c.Ctequery.GetSelectStmt()
	if s.Op != pg_query.SetOperation_SETOP_UNION {
		return errorf("42P19", c.Location, "recursive query \"%s\" does not have the form non-recursive-term UNION [ALL] recursive-term", c.Ctename)
	}
	if refs := relationRefs(s.Larg, c.Ctename); len(refs) > 0 {
		return errorf("42P19", refs[0], "recursive reference to query \"%s\" must not appear within its non-recursive term", c.Ctename)
	}
	w := &recursionCheck{name: c.Ctename}
	if err := w.walk(&pg_query.Node{Node: &pg_query.Node_SelectStmt{SelectStmt: s.Rarg}}); err != nil {
		return err
	}
	switch {
	case len(s.SortClause) > 0:
		return errorf(CodeNotSupported, location(s.SortClause[0].GetSortBy().GetNode()), "ORDER BY in a recursive query is not implemented")
	case s.LimitOffset != nil:
		return errorf(CodeNotSupported, location(s.LimitOffset), "OFFSET in a recursive query is not implemented")
	case s.LimitCount != nil:
		return errorf(CodeNotSupported, location(s.LimitCount), "LIMIT in a recursive query is not implemented")
	}
	if pos, ok := aggregateIn(s.Rarg); ok {
		return errorf("42P19", pos, "aggregate functions are not allowed in a recursive query's recursive term")
	}
	return nil
}

// recursionCheck walks a recursive term for its references to the
// query's name, as PostgreSQL's checkWellFormedRecursionWalker: one, and
// not where the recursion could not proceed row by row (a subquery, the
// nullable side of an outer join, INTERSECT or EXCEPT).
type recursionCheck struct {
	name  string
	where string // "" where a reference may be, else what it may not be within
	refs  int
}

func (w *recursionCheck) walk(n *pg_query.Node) error {
	if n == nil {
		return nil
	}
	within := func(where string, nodes ...*pg_query.Node) error {
		saved := w.where
		defer func() { w.where = saved }()
		w.where = where
		for _, m := range nodes {
			if err := w.walk(m); err != nil {
				return err
			}
		}
		return nil
	}
	switch x := n.Node.(type) {
	case *pg_query.Node_RangeVar:
		if x.RangeVar.Schemaname != "" || x.RangeVar.Relname != w.name {
			return nil
		}
		if w.where != "" {
			return errorf("42P19", x.RangeVar.Location, "recursive reference to query \"%s\" must not appear within %s", w.name, w.where)
		}
		if w.refs++; w.refs > 1 {
			return errorf("42P19", x.RangeVar.Location, "recursive reference to query \"%s\" must not appear more than once", w.name)
		}
		return nil
	case *pg_query.Node_SubLink:
		if err := w.walk(x.SubLink.Testexpr); err != nil {
			return err
		}
		return within("a subquery", x.SubLink.Subselect)
	case *pg_query.Node_JoinExpr:
		j := x.JoinExpr
		l, r := w.where, w.where
		switch j.Jointype {
		case pg_query.JoinType_JOIN_LEFT:
			r = cmp.Or(r, "an outer join")
		case pg_query.JoinType_JOIN_RIGHT:
			l = cmp.Or(l, "an outer join")
		case pg_query.JoinType_JOIN_FULL:
			l, r = cmp.Or(l, "an outer join"), cmp.Or(r, "an outer join")
		}
		if err := within(l, j.Larg); err != nil {
			return err
		}
		if err := within(r, j.Rarg); err != nil {
			return err
		}
		return w.walk(j.Quals)
	case *pg_query.Node_SelectStmt:
		s := x.SelectStmt
		switch s.Op {
		case pg_query.SetOperation_SETOP_INTERSECT:
			if !s.All {
				return within(w.where, selectNode(s.Larg), selectNode(s.Rarg))
			}
			return within(cmp.Or(w.where, "INTERSECT"), selectNode(s.Larg), selectNode(s.Rarg))
		case pg_query.SetOperation_SETOP_EXCEPT:
			l := w.where
			if s.All {
				l = cmp.Or(l, "EXCEPT")
			}
			if err := within(l, selectNode(s.Larg)); err != nil {
				return err
			}
			return within(cmp.Or(w.where, "EXCEPT"), selectNode(s.Rarg))
		}
		// A simple SELECT's clauses in PostgreSQL's order: the select
		// list before FROM, FROM before WHERE.
		for _, list := range [][]*pg_query.Node{s.TargetList, s.FromClause, {s.WhereClause}, s.GroupClause, {s.HavingClause}, {selectNode(s.Larg), selectNode(s.Rarg)}} {
			for _, m := range list {
				if err := w.walk(m); err != nil {
					return err
				}
			}
		}
		return nil
	}
	var err error
	walkParseTree(n, func(m protoreflect.Message) bool {
		if err != nil {
			return false
		}
		if c, ok := m.Interface().(*pg_query.Node); ok && c != n {
			err = w.walk(c)
			return false
		}
		return true
	})
	return err
}

// selectNode is a SELECT as a parse tree node (nil for none).
func selectNode(s *pg_query.SelectStmt) *pg_query.Node {
	if s == nil {
		return nil
	}
	return &pg_query.Node{Node: &pg_query.Node_SelectStmt{SelectStmt: s}}
}

// aggregateIn finds an aggregate call of a simple SELECT's own level (in
// its select list or HAVING, not in a subquery).
func aggregateIn(s *pg_query.SelectStmt) (int32, bool) {
	if s == nil {
		return 0, false
	}
	pos, found := int32(0), false
	items := slices.Clone(s.TargetList)
	if s.HavingClause != nil {
		items = append(items, s.HavingClause)
	}
	walkParseTree(&pg_query.List{Items: items}, func(m protoreflect.Message) bool {
		switch x := m.Interface().(type) {
		case *pg_query.SubLink:
			return false
		case *pg_query.FuncCall:
			if isAggregateCall(x) {
				pos, found = x.Location, true
			}
		}
		return !found
	})
	return pos, found
}

// relationRefs are the locations where a query reads a relation named
// name without a schema, anywhere in it.
func relationRefs(s *pg_query.SelectStmt, name string) []int32 {
	var out []int32
	if s == nil {
		return nil
	}
	walkParseTree(s, func(m protoreflect.Message) bool {
		if rv, ok := m.Interface().(*pg_query.RangeVar); ok && rv.Schemaname == "" && rv.Relname == name {
			out = append(out, rv.Location)
		}
		return true
	})
	return out
}

// walkParseTree calls visit on every message of a parse tree, depth first;
// visit returns false to skip a message's children.
func walkParseTree(root protoreflect.ProtoMessage, visit func(protoreflect.Message) bool) {
	var walk func(m protoreflect.Message)
	walk = func(m protoreflect.Message) {
		if !m.IsValid() || !visit(m) {
			return
		}
		m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
			switch {
			case fd.Kind() != protoreflect.MessageKind || fd.IsMap():
			case fd.IsList():
				for i := 0; i < v.List().Len(); i++ {
					walk(v.List().Get(i).Message())
				}
			default:
				walk(v.Message())
			}
			return true
		})
	}
	walk(root.ProtoReflect())
}

// bindRecursiveCTE binds a recursive WITH query; sc is the scope its name
// will be bound in.
func (b *binder) bindRecursiveCTE(c *pg_query.CommonTableExpr, parent, sc *scope) (*queryPlan, error) {
	if err := checkRecursiveForm(c); err != nil {
		return nil, err
	}
	s := c.Ctequery.GetSelectStmt()
	init, err := b.bindQuery(s.Larg, parent, sc)
	if err != nil {
		return nil, err
	}
	if init, err = cteColumns(c, init); err != nil {
		return nil, err
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
	for i, col := range init.cols {
		if isLiteralText(step, i) {
			continue
		}
		if overall := unifyTypes(col.typ, step.cols[i].typ); overall != col.typ {
			var pos int32 = noPos
			if t := s.Larg.GetTargetList(); i < len(t) {
				pos = location(t[i].GetResTarget().GetVal())
			}
			err := errorf(CodeDatatypeMismatch, pos, "recursive query \"%s\" column %d has type %s in non-recursive term but type %s overall",
				c.Ctename, i+1, formatType(col.typ, -1), formatType(overall, -1))
			err.Hint = "Cast the output of the non-recursive term to the correct type."
			return nil, err
		}
	}
	p := &recursivePlan{all: s.All, init: init, step: step, work: work}
	for _, col := range init.cols {
		p.cols = append(p.cols, scopeCol{name: col.name, typ: col.typ})
	}
	extras, added, err := b.bindRecursionExtras(c, p.cols)
	if err != nil {
		return nil, err
	}
	p.extras, p.cols = extras, append(p.cols, added...)
	return &queryPlan{root: p, cols: outCols(p.cols)}, nil
}

// recursivePlan evaluates a recursive WITH query.
type recursivePlan struct {
	all        bool
	init, step *queryPlan
	work       *cteDef
	cols       []scopeCol
	extras     *recursionExtras // SEARCH and CYCLE, when given
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
	x := p.extras
	if x != nil {
		for i, r := range rows {
			rows[i] = x.first(r)
		}
	}
	result := keep(rows)
	working := result
	defer delete(ev.ctes, p.work)
	for len(working) > 0 {
		var next [][]Value
		var err error
		if x == nil {
			next, err = p.stepRows(ev, outer, working)
		} else {
			next, err = p.stepEach(ev, outer, working)
		}
		if err != nil {
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

// stepRows runs the recursive term over the working table, its result
// cast to the query's column types.
func (p *recursivePlan) stepRows(ev *evaluator, outer *env, working [][]Value) ([][]Value, error) {
	ev.ctes[p.work] = working
	rows, err := p.step.run(ev, outer)
	if err != nil {
		return nil, err
	}
	return castRows(ev, rows, p.step.cols, p.cols[:len(p.init.cols)])
}

// stepEach runs the recursive term once per working row that recurses,
// giving each row it makes the SEARCH and CYCLE columns that continue
// its source row's.
func (p *recursivePlan) stepEach(ev *evaluator, outer *env, working [][]Value) ([][]Value, error) {
	var out [][]Value
	for _, w := range working {
		if !p.extras.recurses(w) {
			continue
		}
		rows, err := p.stepRows(ev, outer, [][]Value{w[:p.extras.width]})
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			out = append(out, p.extras.next(r, w))
		}
		if len(out) > maxRecursiveRows {
			return nil, errorf("54000", noPos, "recursive query produced more than %d rows", maxRecursiveRows)
		}
	}
	return out, nil
}
