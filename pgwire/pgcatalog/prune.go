package pgcatalog

import (
	"context"
	"slices"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// Unused columns of FROM subqueries. Tools wrap a table in subqueries that
// list every column and then use a few: DBeaver counts a result's rows as
// SELECT count(*) FROM (SELECT t.* FROM public.t t) dbvrcnt, and Metabase
// nests each question as FROM (SELECT ... FROM public.t) source. Reading
// every family for those would read the whole table's cells. PostgreSQL's
// planner drops such unused outputs (remove_unused_subquery_outputs); so
// does this binder: after a first binding, which counts the references to
// each subquery column, a subquery's select-list items nothing references
// are bound again as NULL, so that the columns only they read are not read.
// A pruned item could make another subquery's column unused, so binding
// repeats until nothing more is pruned.
//
// An item is kept when the subquery is more than one SELECT (WITH, a set
// operation, VALUES), uses DISTINCT (every item makes a row distinct), or
// sorts by it, and when it holds an aggregate (which groups the SELECT) or
// a set-returning function (which multiplies its rows).

// prunedOutputs are a subquery's select-list items as the first binding
// typed and named them, and those to bind as NULL.
type prunedOutputs struct {
	cols []outCol
	drop []bool
}

// pruned reports whether select-list item j is bound as NULL.
func (p *selectPlan) pruned(j int) bool {
	return p.prune != nil && j < len(p.prune.drop) && p.prune.drop[j]
}

// maxPruneBindings bounds how many times a statement is bound: each
// binding after the first prunes one more level of nesting.
const maxPruneBindings = 4

// bindPruned binds stmt, and again for as long as the last binding left a
// subquery column unused that can be pruned. Should a later binding fail,
// the last good one stands.
func bindPruned(ctx context.Context, src Source, sess *Session, sql string, paramOIDs []uint32, stmt *pg_query.Node) (*binder, *queryPlan, error) {
	b := newBinder(sql, paramOIDs)
	if src != nil {
		b.ctx, b.src, b.sess = ctx, src, sess
	}
	p, err := b.bindStatement(stmt)
	if err == nil {
		err = b.err
	}
	if err != nil {
		return nil, nil, err
	}
	for range maxPruneBindings - 1 {
		prune, more := b.unusedOutputs()
		if !more {
			break
		}
		next := newBinder(sql, b.params) // the types the first binding inferred
		next.ctx, next.src, next.sess, next.tables, next.prune = b.ctx, b.src, b.sess, b.tables, prune
		np, err := next.bindStatement(stmt)
		if err != nil || next.err != nil || len(next.subqueries) != len(b.subqueries) {
			break
		}
		b, p = next, np
	}
	return b, p, nil
}

// unusedOutputs is what the next binding prunes: what this one pruned and
// the items of subqueries whose columns nothing referenced; more reports
// whether there are new ones.
func (b *binder) unusedOutputs() (map[int]*prunedOutputs, bool) {
	out := map[int]*prunedOutputs{}
	more := false
	for k, sp := range b.subqueries {
		root, ok := sp.q.root.(*selectPlan)
		if !ok || !sp.plain || root.distinct || len(root.distinctOn) > 0 {
			continue
		}
		po := &prunedOutputs{cols: root.cols, drop: make([]bool, root.nvisible)}
		any := false
		for j := range root.nvisible {
			switch {
			case root.pruned(j):
				po.drop[j], any = true, true
			case j < len(sp.refs) && sp.refs[j] == 0 && !slices.Contains(root.keep, j) &&
				!slices.ContainsFunc(root.sort, func(s sortKey) bool { return s.idx == j }):
				po.drop[j], any, more = true, true, true
			}
		}
		if any {
			out[k] = po
		}
	}
	return out, more
}
