package engine

import (
	"context"
	"errors"
	"sync"

	"github.com/shale-db/shale/sql"
	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

// planCache keeps the plans of literalized queries (sql.Literalize), so
// that queries differing only in literal operands — what a client of
// PostgreSQL's simple protocol sends for every point lookup — are parsed,
// bound and planned once. An entry is valid for the catalog epoch it was
// planned in; any table change anywhere starts over.
type planCache struct {
	mu      sync.Mutex
	epoch   uint64
	entries map[cacheKey]*Statement
}

type cacheKey struct{ instance, text string }

// planCacheSize bounds the entries; when full, the cache starts over.
const planCacheSize = 1024

// cachedPrepare returns the statement for query from the plan of its
// literalized form, or nil when the query cannot take that path (no
// literal to replace, or the literalized text does not prepare: the
// caller then prepares the text itself, for exact error messages).
func (e *Engine) cachedPrepare(ctx context.Context, instance, query string) *Statement {
	lit, ok := sql.Literalize(query)
	if !ok {
		return nil
	}
	epoch := e.epoch()
	key := cacheKey{instance, lit.Text}
	e.cache.mu.Lock()
	if e.cache.entries == nil || e.cache.epoch != epoch || len(e.cache.entries) >= planCacheSize {
		e.cache.entries, e.cache.epoch = map[cacheKey]*Statement{}, epoch
	}
	base := e.cache.entries[key]
	e.cache.mu.Unlock()
	if base == nil {
		var err error
		if base, err = e.prepare(ctx, instance, lit.Text, lit.Params); err != nil || base.plan.Explain {
			return nil
		}
		e.cache.mu.Lock()
		if e.cache.epoch == epoch {
			e.cache.entries[key] = base
		}
		e.cache.mu.Unlock()
	}
	s := *base
	s.text, s.params, s.decls, s.lits, s.litOffset = query, nil, nil, lit.Values, lit.OriginalOffset
	return &s
}

// runParams are the parameter values a run of s passes down: the caller's
// plus the literals of a literalized statement. Runs only read them.
func (s *Statement) runParams(params map[string]types.Value) map[string]types.Value {
	if len(s.lits) == 0 {
		return params
	}
	if len(params) == 0 {
		return s.lits
	}
	all := make(map[string]types.Value, len(params)+len(s.lits))
	for k, v := range params {
		all[k] = v
	}
	for k, v := range s.lits {
		all[k] = v
	}
	return all
}

// positioned is the package's positioned for s's errors: offsets into a
// literalized text are mapped back to the client's.
func (s *Statement) positioned(err error) error {
	var se *sqlerr.Error
	if s.litOffset != nil && errors.As(err, &se) && se.Offset >= 0 && se.Pos.Line == 0 {
		c := *se
		c.Offset = s.litOffset(se.Offset)
		err = &c
	}
	return positioned(s.text, err)
}
