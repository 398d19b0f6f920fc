package engine

import (
	"context"
	"errors"

	"github.com/shale-db/shale/catalog"
	"github.com/shale-db/shale/exec"
	"github.com/shale-db/shale/planner"
	"github.com/shale-db/shale/sql"
	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
	"github.com/shale-db/shale/storage"
)

// Options configure an Engine.
type Options struct {
	// Exec tunes execution (batch size, memory cap of sorts and
	// aggregations).
	Exec exec.Options
	// Scanner overrides the table reader (default: the storage engine).
	Scanner exec.Scanner
	// Catalog overrides the table lookup (default: the storage engine).
	Catalog catalog.Reader
}

// Engine prepares and runs GoogleSQL queries. It is safe for concurrent use.
type Engine struct {
	opts    Options
	cat     catalog.Reader
	scanner exec.Scanner
	// epoch returns the catalog epoch (storage.Engine.CatalogEpoch); nil
	// turns the plan cache off (a catalog that is not the store's).
	epoch func() uint64
	cache planCache
}

// New returns an engine over a storage engine.
func New(store *storage.Engine, opts Options) *Engine {
	e := &Engine{opts: opts, cat: opts.Catalog, scanner: opts.Scanner}
	if e.cat == nil {
		e.cat = catalog.StorageReader{Store: store}
		if store != nil {
			e.epoch = store.CatalogEpoch
		}
	}
	if e.scanner == nil {
		e.scanner = exec.StorageScanner{Store: store}
	}
	return e
}

// Statement is a prepared query: parsed, bound and planned once, run any
// number of times.
type Statement struct {
	e        *Engine
	text     string
	plan     *planner.Plan
	columns  []types.Field
	params   map[string]*types.Type
	instance string
	// lits are the values of a literalized statement's literal parameters
	// (planCache), litOffset maps its plan's offsets to text.
	lits      map[string]types.Value
	litOffset func(int) int
}

// Prepare parses, binds and plans a query against an instance
// ("projects/p/instances/i"). params declares @parameter types; an
// undeclared parameter is an error.
func (e *Engine) Prepare(ctx context.Context, instance, query string, params map[string]*types.Type) (*Statement, error) {
	if len(params) == 0 && e.epoch != nil {
		if s := e.cachedPrepare(ctx, instance, query); s != nil {
			return s, nil
		}
	}
	return e.prepare(ctx, instance, query, params)
}

// prepare parses, binds and plans query.
func (e *Engine) prepare(ctx context.Context, instance, query string, params map[string]*types.Type) (*Statement, error) {
	st, err := sql.Analyze(ctx, query, e.cat, instance, params)
	if err != nil {
		return nil, positioned(query, err)
	}
	p, err := planner.New(st)
	if err != nil {
		return nil, positioned(query, err)
	}
	s := &Statement{e: e, text: query, plan: p, columns: p.Columns, params: p.Params, instance: instance}
	if p.Explain {
		s.columns = []types.Field{{Name: "plan", Type: types.String}}
	}
	return s, nil
}

// Columns returns the result column names and types (spec §4.8 naming).
func (s *Statement) Columns() []types.Field { return s.columns }

// Params returns the types of the parameters the query uses.
func (s *Statement) Params() map[string]*types.Type { return s.params }

// Plan returns the statement's plan as EXPLAIN prints it.
func (s *Statement) Plan() string { return planner.Format(s.plan.Root, nil) }

// Run executes the statement with parameter values.
func (s *Statement) Run(ctx context.Context, params map[string]types.Value) (*Rows, error) {
	if !s.plan.Explain || s.plan.Analyze {
		if err := checkParams(s.params, params); err != nil {
			return nil, err
		}
	}
	run, err := exec.Build(s.plan.Root, exec.Deps{Scanner: s.e.scanner, Params: s.runParams(params),
		Options: s.e.opts.Exec, Analyze: s.plan.Analyze})
	if err != nil {
		return nil, s.positioned(err)
	}
	r := &Rows{s: s, run: run, ctx: ctx}
	if s.plan.Explain {
		return r, r.explain()
	}
	if err := run.Root.Open(ctx); err != nil {
		run.Root.Close()
		return nil, s.positioned(err)
	}
	r.open = true
	return r, nil
}

func checkParams(decl map[string]*types.Type, vals map[string]types.Value) error {
	for name, t := range decl {
		v, ok := vals[name]
		if !ok {
			return sqlerr.New(sqlerr.UndefinedParameter, "no value bound for parameter @%s", name)
		}
		if v.Type() != nil && !v.Type().Equal(t) {
			return sqlerr.New(sqlerr.TypeMismatch, "parameter @%s is declared %s but bound to a %s", name, t, v.Type())
		}
	}
	return nil
}

// positioned makes err a *sqlerr.Error with a line:column when it has an
// offset into query.
func positioned(query string, err error) error {
	var se *sqlerr.Error
	if !errors.As(err, &se) {
		return sqlerr.New(sqlerr.Internal, "%v", err)
	}
	if se.Pos.Line == 0 && se.Offset >= 0 {
		c := *se
		c.Pos = sqlerr.PosOf(query, se.Offset)
		return &c
	}
	return se
}
