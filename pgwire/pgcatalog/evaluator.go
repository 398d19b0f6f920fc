package pgcatalog

import (
	"context"
	"regexp"
	"time"
)

// evaluator is the state of one Run: the catalog snapshot (read lazily, at
// most once), parameter values and per-run caches.
type evaluator struct {
	ctx     context.Context
	src     Source
	sess    *Session
	snap    *snapshot
	args    []Value
	now     time.Time
	loc     *time.Location // the session's TimeZone (zone.go); nil until asked
	rels    map[*relDef][][]Value
	ctes    map[*cteDef][][]Value
	regexps map[string]*regexp.Regexp
	// pgRegexps are the compiled PostgreSQL patterns (pgRegexp).
	pgRegexps map[pgRegexpKey]*regexp.Regexp
	likes     map[likeKey]*regexp.Regexp // LIKE and ILIKE patterns (likeRegexp)
	paths     map[string]*jpPath         // jsonpaths parsed, by text
	ticks     int
	// Shale table scans: the rows of tables read whole, the tables
	// streamed once already, and the scans to close when the run ends.
	scanned map[*tableScanPlan][][]Value
	opened  map[*tableScanPlan]bool
	scans   []*scanIter
	// Uncorrelated subqueries run once per statement, as PostgreSQL's
	// InitPlans do: their rows, and for x IN (subquery) their hashed
	// values (subquery.go).
	subRows map[*queryPlan][][]Value
	inSets  map[*queryPlan]*inSet
	lookups map[*decorrelated]lookupTable // decorrelated subqueries (semijoin.go)
	// analyzed marks a run of EXPLAIN ANALYZE's statement, whose plan
	// then shows what each scan read.
	analyzed bool
}

func newEvaluator(ctx context.Context, src Source, sess *Session, params []uint32, args []*string) (*evaluator, error) {
	ev := &evaluator{ctx: ctx, src: src, sess: sess, now: time.Now().UTC(),
		rels: map[*relDef][][]Value{}, ctes: map[*cteDef][][]Value{}, regexps: map[string]*regexp.Regexp{},
		scanned: map[*tableScanPlan][][]Value{}, opened: map[*tableScanPlan]bool{},
		subRows: map[*queryPlan][][]Value{}, inSets: map[*queryPlan]*inSet{}, lookups: map[*decorrelated]lookupTable{}}
	if len(args) < len(params) {
		return nil, errorf(CodeSyntax, noPos, "bind message supplies %d parameters, but prepared statement requires %d", len(args), len(params))
	}
	for _, a := range args {
		if a == nil {
			ev.args = append(ev.args, null)
		} else {
			ev.args = append(ev.args, textV(*a))
		}
	}
	return ev, nil
}

// catalog returns the statement's snapshot, reading the Source on first use.
func (ev *evaluator) catalog() (*snapshot, error) {
	if ev.snap == nil {
		s, err := buildSnapshot(ev.ctx, ev.src, ev.sess)
		if err != nil {
			return nil, err
		}
		ev.snap = s
	}
	return ev.snap, nil
}

// maxTicks bounds the rows one statement may visit: catalog queries touch
// thousands, a runaway cross product billions.
var maxTicks = 5_000_000

// check reports cancellation and runaway statements; loops call it once
// per row.
func (ev *evaluator) check() error {
	ev.ticks++
	if ev.ticks%256 == 0 && ev.ctx.Err() != nil {
		return errorf(CodeCanceled, noPos, "canceling statement due to user request")
	}
	if ev.ticks > maxTicks {
		return errorf("54000", noPos, "catalog query visits more than %d rows", maxTicks)
	}
	return nil
}

// pulse reports cancellation for loops that do not count against maxTicks
// (a streamed result's rows); they call it once per row.
func (ev *evaluator) pulse(n int) error {
	if n%256 == 0 && ev.ctx.Err() != nil {
		return errorf(CodeCanceled, noPos, "canceling statement due to user request")
	}
	return nil
}

// closeScans closes the run's table scans.
func (ev *evaluator) closeScans() {
	for _, it := range ev.scans {
		it.close()
	}
	ev.scans = nil
}

// relRows returns a catalog relation's rows, computed once per run.
func (ev *evaluator) relRows(d *relDef) ([][]Value, error) {
	if rows, ok := ev.rels[d]; ok {
		return rows, nil
	}
	s, err := ev.catalog()
	if err != nil {
		return nil, err
	}
	rows := s.relationRows(d)
	ev.rels[d] = rows
	return rows, nil
}

// jsonPath parses a jsonpath once per run: a path in a WHERE clause is
// the same text for every row.
func (ev *evaluator) jsonPath(text string) (*jpPath, error) {
	if p, ok := ev.paths[text]; ok {
		return p, nil
	}
	p, err := parseJSONPath(text)
	if err != nil {
		return nil, err
	}
	if ev.paths == nil {
		ev.paths = map[string]*jpPath{}
	}
	ev.paths[text] = p
	return p, nil
}

func (ev *evaluator) regexp(pattern string, fold bool) (*regexp.Regexp, error) {
	k := pattern
	if fold {
		k = "(?i)" + pattern
	}
	return ev.compileRegexp(translateRegex(k))
}

// env is the row context an expression evaluates in: the current row of
// its query level, that level's aggregate, window and set-returning
// function results, and the enclosing query's env for correlated
// references.
type env struct {
	row   []Value
	outer *env
	aggs  []Value
	win   []Value
	srf   []Value
	// leftOut marks the GROUP BY keys a group's grouping set leaves out
	// (grouping.go); nil without grouping sets.
	leftOut []bool
}
