package pgcatalog

import (
	"context"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// binder turns a parse tree into a plan: it resolves names against the
// emulated relations' fixed shapes (no catalog data is needed) and, when
// it has a Source, the shapes of the Shale tables, and gives every
// expression a static PostgreSQL type.
type binder struct {
	sql    string
	params []uint32 // type of $n at index n-1; 0 until inferred
	// Shale tables (PrepareWith): read from src on first need.
	ctx    context.Context
	src    Source
	sess   *Session
	tables map[string]*Table
	// err is the first bad literal coerce found (literalIn): it fails the
	// statement once bound, as PostgreSQL's parse analysis does, even where
	// no row would evaluate the literal.
	err error
	// subqueries are the FROM subqueries in the order they were bound;
	// prune, for a binding after the first, the select-list items of each
	// to bind as NULL, and pruneNext those of the select being bound
	// (prune.go).
	subqueries []*subqueryPlan
	prune      map[int]*prunedOutputs
	pruneNext  *prunedOutputs
}

func newBinder(sql string, paramOIDs []uint32) *binder {
	return &binder{sql: sql, params: append([]uint32(nil), paramOIDs...)}
}

func (b *binder) paramTypes() []uint32 {
	out := make([]uint32, len(b.params))
	for i, t := range b.params {
		if t == 0 || t == tUnknown {
			t = tText
		}
		out[i] = t
	}
	return out
}

// scopeCol is a column visible to expressions: its range-table name (and
// schema, for a relation named without an alias), its own name and type,
// and for records the fields.
type scopeCol struct {
	rel    string
	schema string
	name   string
	typ    uint32
	fields []colDef
	// scalar marks the one column of a function of a scalar type in FROM
	// (without ORDINALITY): its range variable as a value is the column's
	// value, not a record.
	scalar bool
	// use, for a Shale table's column, is set when an expression
	// references it: the scan reads only those columns.
	use *bool
	// src is the relation a range variable reads, for its system column
	// tableoid (nil: a subquery, CTE, function or VALUES).
	src *relRef
	// usingDup hides a copy of a JOIN USING column from unqualified
	// references and from * (the join lists the column it names:
	// joinPlan.usingCols).
	usingDup bool
	// scan is the Shale table a column reads (nil for other relations):
	// its primary key, grouped, makes the table's other columns grouped too.
	scan *tableScanPlan
	// refs, for a FROM subquery's column, counts the references to it
	// (prune.go).
	refs *int
}

// relRef names a catalog relation or a Shale table.
type relRef struct{ schema, name string }

// scope is one query level's name space. parent is the enclosing query's
// scope, for correlated subqueries.
type scope struct {
	cols     []scopeCol
	parent   *scope
	cteOuter *scope
	ctes     map[string]*cteDef
	// Where aggregates, window functions and set-returning functions may
	// appear (the select list, HAVING, ORDER BY), these collect them.
	// refHook, when set, sees every column of this level that an
	// expression (or a subquery in it) references; the join planner uses it
	// to learn which FROM items a condition needs.
	refHook func(idx int)
	// outerRef, when set, sees every column of this level that a subquery
	// references (checkGrouped).
	outerRef func(idx int, pos int32)
	aggs     *[]*aggSlot
	wins     *[]*winSlot
	srfs     *[]*srfSlot
	// windows are the query's named windows (WINDOW w AS (...)).
	windows map[string]*pg_query.WindowDef
	// groupKeys identify the GROUP BY keys (nodeKey), for GROUPING();
	// groupNodes are the keys' expressions (a position or output name
	// replaced by the select-list item it names), for checkGrouped.
	groupKeys  []string
	groupNodes []*pg_query.Node
	// srfRefusal, when set, is the construct being bound that takes no
	// set-returning function (CASE, COALESCE), though its clause may.
	srfRefusal string
	// clause is the clause being bound, as PostgreSQL names it in "...
	// functions are not allowed in WHERE" (notAllowed); "" where it does
	// not say.
	clause string
	// argAggs, when set, collects the aggregates an aggregate's own
	// arguments may hold: a window aggregate's, which runs after grouping
	// (sum(count(*)) OVER ()).
	argAggs *[]*aggSlot
}

// Clauses that are no SQL clause: an aggregate's or a window function's
// arguments, where PostgreSQL names the call that holds another.
const (
	clauseAggArgs = "\x00aggregate"
	clauseWinArgs = "\x00window"
)

// enter makes clause the clause sc binds until restore is called.
func (s *scope) enter(clause string) (restore func()) {
	old := s.clause
	s.clause = clause
	return func() { s.clause = old }
}

// refusingSRFs is sc for the operands of construct (CASE, COALESCE),
// where PostgreSQL refuses set-returning functions.
func (s *scope) refusingSRFs(construct string) *scope {
	inner := *s
	inner.srfRefusal = construct
	return &inner
}

// notAllowed is PostgreSQL's error for an aggregate, window or
// set-returning function call (kind) where sc's clause refuses it.
func notAllowed(kind string, sc *scope, pos int32) *Error {
	code := map[string]string{"aggregate": CodeGrouping, "window": CodeWindowing, "set-returning": CodeNotSupported}[kind]
	var err *Error
	switch sc.clause {
	case "":
		err = errorf(code, pos, "%s functions are not allowed here", kind)
	case clauseAggArgs, clauseWinArgs:
		outer := strings.TrimPrefix(sc.clause, "\x00")
		if kind == outer {
			return errorf(code, pos, "%s function calls cannot be nested", kind)
		}
		if kind == "window" {
			code = CodeGrouping
		}
		err = errorf(code, pos, "%s function calls cannot contain %s function calls", outer, kind)
		if kind == "set-returning" {
			err.Hint = "You might be able to move the set-returning function into a LATERAL FROM item."
		}
	default:
		err = errorf(code, pos, "%s functions are not allowed in %s", kind, sc.clause)
	}
	return err
}

func (s *scope) lookupCTE(name string) *cteDef {
	if s == nil {
		return nil
	}
	if c, ok := s.ctes[name]; ok {
		return c
	}
	if c := s.cteOuter.lookupCTE(name); c != nil {
		return c
	}
	return s.parent.lookupCTE(name)
}

// resolve finds a column by optional qualifiers (schema only with a
// relation); it returns the number of query levels up and the index in
// that level's row.
func (s *scope) resolve(schema, qual, name string, pos int32) (levels, idx int, col scopeCol, err error) {
	for sc := s; sc != nil; sc, levels = sc.parent, levels+1 {
		found := -1
		for i, c := range sc.cols {
			if c.name != name || (qual != "" && c.rel != qual) || (qual == "" && c.usingDup) || (schema != "" && c.schema != schema) {
				continue
			}
			if found >= 0 {
				return 0, 0, col, errorf(CodeAmbiguousColumn, pos, "column reference \"%s\" is ambiguous", name)
			}
			found = i
		}
		if found >= 0 {
			if sc.refHook != nil {
				sc.refHook(found)
			}
			if levels > 0 && sc.outerRef != nil {
				sc.outerRef(found, pos)
			}
			return levels, found, sc.cols[found], nil
		}
	}
	if qual != "" {
		if !s.hasRel(schema, qual) {
			return 0, 0, col, errorf(CodeUndefinedTable, pos, "missing FROM-clause entry for table \"%s\"", qual)
		}
		return 0, 0, col, errorf(CodeUndefinedColumn, pos, "column %s.%s does not exist", qual, name)
	}
	return 0, 0, col, errorf(CodeUndefinedColumn, pos, "column \"%s\" does not exist", name)
}

// tableOID finds the relation whose system column tableoid a reference
// names: the range variable qual (nil if it is no relation's, as for a
// subquery), or the only relation in the nearest level that has one; nil
// when there is none.
func (s *scope) tableOID(schema, qual string, pos int32) (*relRef, error) {
	for sc := s; sc != nil; sc = sc.parent {
		var found *relRef
		var rel string
		named := false // qual is a range variable of this level
		for _, c := range sc.cols {
			if (qual != "" && c.rel != qual) || (schema != "" && c.schema != schema) {
				continue
			}
			named = named || qual != ""
			if c.src == nil {
				continue
			}
			if found != nil && c.rel != rel {
				return nil, errorf(CodeAmbiguousColumn, pos, "column reference \"%s\" is ambiguous", "tableoid")
			}
			found, rel = c.src, c.rel
		}
		if found != nil || named {
			return found, nil
		}
	}
	return nil, nil
}

func (s *scope) hasRel(schema, name string) bool {
	for sc := s; sc != nil; sc = sc.parent {
		for _, c := range sc.cols {
			if c.rel == name && (schema == "" || c.schema == schema) {
				return true
			}
		}
	}
	return false
}

// strs extracts the String values of a name list.
func strs(nodes []*pg_query.Node) []string {
	out := make([]string, 0, len(nodes))
	for _, n := range nodes {
		if s := n.GetString_(); s != nil {
			out = append(out, s.Sval)
		} else if n.GetAStar() != nil {
			out = append(out, "*")
		}
	}
	return out
}

func lastName(nodes []*pg_query.Node) string {
	s := strs(nodes)
	if len(s) == 0 {
		return ""
	}
	return s[len(s)-1]
}
