package pgcatalog

import (
	"strconv"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// checkGrouped reports PostgreSQL's 42803 for a grouped query (GROUP BY,
// an aggregate or HAVING) whose select list, HAVING or ORDER BY reads a
// column of its own level outside an aggregate, unless the expression
// around it is a GROUP BY key or the column's table is grouped by its
// primary key (PostgreSQL's functional dependency). Keys and expressions
// match as PostgreSQL matches them: with column references resolved, so
// readings.ts and ts are the same key. A subquery there may read only the
// columns that are keys themselves (outer: the columns of this level the
// subqueries of those expressions read outside an aggregate's arguments).
// Columns of catalog relations are left alone: tools' catalog queries
// are PostgreSQL's own, valid there.
func (b *binder) checkGrouped(exprs []*pg_query.Node, outer []outerRef, sc *scope) error {
	keys := map[string]bool{}
	for _, g := range sc.groupNodes {
		keys[resolvedKey(g, sc)] = true
	}
	grouped := map[*tableScanPlan]map[string]bool{} // a table's columns that are keys themselves
	for _, g := range sc.groupNodes {
		if cr := g.GetColumnRef(); cr != nil {
			if _, col, ok := resolveRef(cr, sc); ok && col.scan != nil {
				if grouped[col.scan] == nil {
					grouped[col.scan] = map[string]bool{}
				}
				grouped[col.scan][col.name] = true
			}
		}
	}
	byPrimaryKey := func(t *tableScanPlan) bool {
		for _, k := range t.table.PrimaryKey {
			if !grouped[t][k] {
				return false
			}
		}
		return len(t.table.PrimaryKey) > 0
	}
	var walk func(n *pg_query.Node) error
	walk = func(n *pg_query.Node) error {
		if n == nil || keys[resolvedKey(n, sc)] {
			return nil
		}
		switch x := n.Node.(type) {
		case *pg_query.Node_SubLink, *pg_query.Node_GroupingFunc:
			return nil
		case *pg_query.Node_FuncCall:
			if isAggregateCall(x.FuncCall) {
				return nil
			}
		case *pg_query.Node_ColumnRef:
			levels, col, ok := resolveRef(x.ColumnRef, sc)
			if !ok || levels > 0 || col.src != nil && col.scan == nil || col.scan != nil && byPrimaryKey(col.scan) {
				return nil
			}
			ref := col.name
			if col.rel != "" {
				ref = col.rel + "." + col.name
			}
			return errorf(CodeGrouping, x.ColumnRef.Location, "column \"%s\" must appear in the GROUP BY clause or be used in an aggregate function", ref)
		}
		var err error
		eachChild(n.ProtoReflect(), func(c *pg_query.Node) {
			if err == nil {
				err = walk(c)
			}
		})
		return err
	}
	for _, e := range exprs {
		if err := walk(e); err != nil {
			return err
		}
	}
	keyCols := map[int]bool{}
	for _, g := range sc.groupNodes {
		if cr := g.GetColumnRef(); cr != nil && len(cr.Fields) > 0 && len(strs(cr.Fields)) == len(cr.Fields) {
			schema, qual, name := splitColumnRef(strs(cr.Fields))
			if levels, idx, _, err := sc.resolve(schema, qual, name, cr.Location); err == nil && levels == 0 {
				keyCols[idx] = true
			}
		}
	}
	for _, r := range outer {
		col := sc.cols[r.idx]
		if keyCols[r.idx] || col.src != nil && col.scan == nil || col.scan != nil && byPrimaryKey(col.scan) {
			continue
		}
		ref := col.name
		if col.rel != "" {
			ref = col.rel + "." + col.name
		}
		return errorf(CodeGrouping, r.pos, "subquery uses ungrouped column \"%s\" from outer query", ref)
	}
	return nil
}

// outerRef is a column of a query level that a subquery reads.
type outerRef struct {
	idx int
	pos int32
}

// isAggregateCall reports whether a call is an aggregate (not a window
// function, whose arguments are the group's values).
func isAggregateCall(fc *pg_query.FuncCall) bool {
	if fc.Over != nil {
		return false
	}
	return aggregates[lastName(fc.Funcname)] != nil || fc.AggStar || fc.AggDistinct || fc.AggWithinGroup ||
		fc.AggFilter != nil || len(fc.AggOrder) > 0
}

// resolveRef resolves a column reference (not a *) in sc.
func resolveRef(cr *pg_query.ColumnRef, sc *scope) (levels int, col scopeCol, ok bool) {
	f := strs(cr.Fields)
	if len(f) == 0 || len(f) != len(cr.Fields) || f[len(f)-1] == "*" {
		return 0, col, false
	}
	schema, qual, name := splitColumnRef(f)
	levels, _, col, err := sc.resolve(schema, qual, name, cr.Location)
	return levels, col, err == nil
}

// resolvedKey is nodeKey with each column reference replaced by the column
// it resolves to, so that equal expressions written differently match.
func resolvedKey(n *pg_query.Node, sc *scope) string {
	c := proto.Clone(n).(*pg_query.Node)
	var rewrite func(m protoreflect.Message)
	rewrite = func(m protoreflect.Message) {
		if cr, ok := m.Interface().(*pg_query.ColumnRef); ok {
			f := strs(cr.Fields)
			if len(f) == 0 || len(f) != len(cr.Fields) || f[len(f)-1] == "*" {
				return
			}
			schema, qual, name := splitColumnRef(f)
			if levels, idx, _, err := sc.resolve(schema, qual, name, cr.Location); err == nil {
				id := "#" + strconv.Itoa(levels) + "." + strconv.Itoa(idx)
				cr.Fields = []*pg_query.Node{pg_query.MakeStrNode(id)}
			}
			return
		}
		eachMessage(m, rewrite)
	}
	rewrite(c.ProtoReflect())
	return nodeKey(c)
}

// eachMessage calls f on each message-valued field of m, and on each
// element of its lists of messages.
func eachMessage(m protoreflect.Message, f func(protoreflect.Message)) {
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Message() != nil:
			for i := 0; i < v.List().Len(); i++ {
				f(v.List().Get(i).Message())
			}
		case fd.Message() != nil && !fd.IsMap():
			f(v.Message())
		}
		return true
	})
}

// eachChild calls f on each Node directly below the node m (looking
// through the messages that are not Nodes, as a SortBy or WindowDef).
func eachChild(m protoreflect.Message, f func(*pg_query.Node)) {
	eachMessage(m, func(c protoreflect.Message) {
		if n, ok := c.Interface().(*pg_query.Node); ok {
			f(n)
			return
		}
		eachChild(c, f)
	})
}

// outputNamed is the select-list expression a GROUP BY name stands for
// when it names an output column and no input column (GROUP BY h for
// date_trunc('hour', ts) AS h), as PostgreSQL reads it; nil otherwise.
func outputNamed(n *pg_query.Node, targets []*pg_query.Node, sc *scope) *pg_query.Node {
	cr := n.GetColumnRef()
	if cr == nil || len(cr.Fields) != 1 {
		return nil
	}
	name := cr.Fields[0].GetString_().GetSval()
	if _, _, _, err := sc.resolve("", "", name, cr.Location); err == nil || name == "" {
		return nil
	}
	for _, t := range targets {
		if rt := t.GetResTarget(); rt != nil && rt.Name == name {
			return rt.Val
		}
	}
	return nil
}
