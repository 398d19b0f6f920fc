package pgcatalog

import pg_query "github.com/pganalyze/pg_query_go/v6"

// plan is a relational operator. Plans are immutable after binding; run
// materializes the rows (catalog relations are small), evaluating
// correlated references against outer.
type plan interface {
	columns() []scopeCol
	run(ev *evaluator, outer *env) ([][]Value, error)
}

// queryPlan is a bound statement: its root plan and visible output columns.
type queryPlan struct {
	root plan
	cols []outCol
}

type outCol struct {
	name string
	typ  uint32
}

func (q *queryPlan) run(ev *evaluator, outer *env) ([][]Value, error) {
	return q.root.run(ev, outer)
}

// scanPlan reads an emulated relation.
type scanPlan struct {
	def  *relDef
	cols []scopeCol
}

func (p *scanPlan) columns() []scopeCol { return p.cols }
func (p *scanPlan) run(ev *evaluator, _ *env) ([][]Value, error) {
	return ev.relRows(p.def)
}

// cteDef is a WITH query, evaluated once per run; or, when work is set,
// the working table of a recursive one (recursive.go), which reads what the
// recursion set last.
type cteDef struct {
	name string
	q    *queryPlan
	work bool
}

type ctePlan struct {
	cte  *cteDef
	cols []scopeCol
}

func (p *ctePlan) columns() []scopeCol { return p.cols }
func (p *ctePlan) run(ev *evaluator, outer *env) ([][]Value, error) {
	if rows, ok := ev.ctes[p.cte]; ok || p.cte.work {
		return rows, nil
	}
	rows, err := p.cte.q.run(ev, outer)
	if err != nil {
		return nil, err
	}
	ev.ctes[p.cte] = rows
	return rows, nil
}

// subqueryPlan is a FROM-clause subquery under an alias.
type subqueryPlan struct {
	q    *queryPlan
	cols []scopeCol
	// refs counts the references to each column; plain marks a subquery
	// that is one SELECT (no WITH, set operation or VALUES), whose unused
	// columns may be pruned (prune.go).
	refs  []int
	plain bool
}

func (p *subqueryPlan) columns() []scopeCol { return p.cols }
func (p *subqueryPlan) run(ev *evaluator, outer *env) ([][]Value, error) {
	return p.q.run(ev, outer)
}

// joinKind is the type of a join.
type joinKind int

const (
	joinInner joinKind = iota
	joinLeft
	joinRight
	joinFull
)

// joinPlan is an explicit JOIN: a hash join when an ON conjunct equates
// a left-side and a right-side expression, else a nested loop.
type joinPlan struct {
	kind        joinKind
	left, right plan
	on          *pg_query.Node // the ON condition, as written (pushdown)
	onScope     *scope         // the scope on is bound in: the join's inputs
	// merged are a FULL JOIN … USING's columns, after the inputs': each
	// the first non-NULL of a left and a right column (bindUsing).
	merged [][2]int
	// usingCols are the columns USING (or NATURAL) names, in its order:
	// an unqualified * lists them first (starColumns).
	usingCols []int
	conds     []*conj
	eq        *conj
	eqSwap    bool // eq's left side reads the right input
	cols      []scopeCol
}

func (p *joinPlan) columns() []scopeCol { return p.cols }
func (p *joinPlan) run(ev *evaluator, outer *env) ([][]Value, error) {
	lrows, err := p.left.run(ev, outer)
	if err != nil {
		return nil, err
	}
	rrows, err := p.right.run(ev, outer)
	if err != nil {
		return nil, err
	}
	return joinRows(ev, outer, lrows, rrows, p.mergeRows(), p.conds, p.eq, p.eqSwap, p.kind)
}

// open streams the join (not under an outer query): the left input as it
// is read, each row joined to the right input's rows, which are held.
func (p *joinPlan) open(ev *evaluator) (rowIter, error) {
	rrows, err := p.right.run(ev, nil)
	if err != nil {
		return nil, err
	}
	j, err := newJoiner(ev, nil, rrows, p.mergeRows(), p.conds, p.eq, p.eqSwap, p.kind)
	if err != nil {
		return nil, err
	}
	left, err := openPlan(ev, p.left, nil)
	if err != nil {
		return nil, err
	}
	return &joinIter{j: j, left: left}, nil
}

// mergeRows builds a joined row from a left and a right row (nil: NULLs),
// with a FULL JOIN … USING's merged columns after them.
func (p *joinPlan) mergeRows() func(l, r []Value) []Value {
	nl, nr := len(p.left.columns()), len(p.right.columns())
	return func(l, r []Value) []Value {
		row := make([]Value, nl+nr+len(p.merged))
		copy(row, l)
		copy(row[nl:], r)
		for i, m := range p.merged {
			v := row[m[0]]
			if v.isNull() {
				v = row[m[1]]
			}
			row[nl+nr+i] = v
		}
		return row
	}
}

// openPlan starts a plan as a row stream: a select that streams
// (selectplan.go) computes its rows on demand, and so, not under an outer
// query, do a Shale table (as it is scanned), a subquery and a join (its
// left input); anything else is computed whole.
func openPlan(ev *evaluator, pl plan, outer *env) (rowIter, error) {
	switch x := pl.(type) {
	case *selectPlan:
		return x.open(ev, outer, true)
	case *tableScanPlan:
		if outer == nil {
			return x.open(ev, -1)
		}
	case *subqueryPlan: // FROM (SELECT … FROM t) AS source, as Metabase nests questions
		if sp, ok := x.q.root.(*selectPlan); ok && outer == nil {
			return sp.open(ev, nil, true) // its rows stream through: not held
		}
	case *joinPlan:
		if outer == nil {
			return x.open(ev)
		}
	}
	rows, err := pl.run(ev, outer)
	if err != nil {
		return nil, err
	}
	return &sliceIter{rows: rows}, nil
}

// pickEq finds a conjunct usable as a hash key between columns [0, nl) and
// [nl, n).
func pickEq(conds []*conj, nl, n int) (*conj, bool) {
	for _, c := range conds {
		if c.eqL == nil {
			continue
		}
		if within(c.refL, 0, nl) && within(c.refR, nl, n) {
			return c, false
		}
		if within(c.refR, 0, nl) && within(c.refL, nl, n) {
			return c, true
		}
	}
	return nil, false
}

// valuesPlan is VALUES (...), (...).
type valuesPlan struct {
	rows [][]*cexpr
	cols []scopeCol
}

func (p *valuesPlan) columns() []scopeCol { return p.cols }
func (p *valuesPlan) run(ev *evaluator, outer *env) ([][]Value, error) {
	out := make([][]Value, 0, len(p.rows))
	e := &env{outer: outer}
	for _, r := range p.rows {
		row := make([]Value, len(r))
		for i, x := range r {
			v, err := x.fn(ev, e)
			if err != nil {
				return nil, err
			}
			if row[i], err = ev.cast(v, x.typ, p.cols[i].typ); err != nil {
				return nil, err
			}
		}
		out = append(out, row)
	}
	return out, nil
}

// funcScanPlan is a set-returning function in FROM.
type funcScanPlan struct {
	srf        *srfDef
	args       []*cexpr
	ordinality bool
	cols       []scopeCol
}

func (p *funcScanPlan) columns() []scopeCol { return p.cols }
func (p *funcScanPlan) run(ev *evaluator, outer *env) ([][]Value, error) {
	args, err := evalArgs(ev, &env{outer: outer}, p.args)
	if err != nil {
		return nil, err
	}
	vals, err := p.srf.call(ev, args, argTypes(p.args))
	if err != nil {
		return nil, err
	}
	out := make([][]Value, len(vals))
	for i, v := range vals {
		var row []Value
		if p.srf.fields != nil {
			row = append(row, v.a...)
		} else {
			row = append(row, v)
		}
		if p.ordinality {
			row = append(row, intV(int64(i+1)))
		}
		out[i] = row
	}
	return out, nil
}

func evalArgs(ev *evaluator, e *env, args []*cexpr) ([]Value, error) {
	out := make([]Value, len(args))
	for i, a := range args {
		v, err := a.fn(ev, e)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func argTypes(args []*cexpr) []uint32 {
	out := make([]uint32, len(args))
	for i, a := range args {
		out[i] = a.typ
	}
	return out
}

// oneRowPlan is the FROM-less SELECT's single empty row.
type oneRowPlan struct{}

func (oneRowPlan) columns() []scopeCol { return nil }
func (oneRowPlan) run(*evaluator, *env) ([][]Value, error) {
	return [][]Value{{}}, nil
}
