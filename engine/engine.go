package engine

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strings"

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
	// Logger receives the stacks of statements that panicked (recover.go);
	// default slog.Default.
	Logger *slog.Logger
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
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
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
	e    *Engine
	text string
	plan *planner.Plan
	// runs starts the runs of the plan (nil for EXPLAIN); the statements
	// of one plan cache entry share it, and the operator trees it reuses.
	runs    *exec.Prepared
	columns []types.Field
	params  map[string]*types.Type
	// decls are params in name order, which every Run checks.
	decls    []paramDecl
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
func (e *Engine) prepare(ctx context.Context, instance, query string, params map[string]*types.Type) (s *Statement, err error) {
	defer func() {
		if p := recover(); p != nil {
			s, err = nil, e.internalError("preparing", query, p)
		}
	}()
	st, err := sql.Analyze(ctx, query, e.cat, instance, params)
	if err != nil {
		return nil, positioned(query, err)
	}
	p, err := planner.New(st)
	if err != nil {
		return nil, positioned(query, err)
	}
	s = &Statement{e: e, text: query, plan: p, columns: p.Columns, params: p.Params, decls: paramDecls(p.Params),
		instance: instance}
	if p.Explain {
		s.columns = []types.Field{{Name: "plan", Type: types.String}}
	} else {
		s.runs = exec.Prepare(p.Root, exec.Deps{Scanner: e.scanner, Options: e.opts.Exec})
	}
	return s, nil
}

// Columns returns the result column names and types (spec §4.8 naming).
func (s *Statement) Columns() []types.Field { return s.columns }

// Params returns the types of the parameters the query uses.
func (s *Statement) Params() map[string]*types.Type { return s.params }

// Plan returns the statement's plan as EXPLAIN prints it.
func (s *Statement) Plan() string { return planner.Format(s.plan.Root, nil) }

// Run executes the statement with parameter values. The statement may
// run again, from any goroutine, while the Rows are open.
func (s *Statement) Run(ctx context.Context, params map[string]types.Value) (*Rows, error) {
	if !s.plan.Explain || s.plan.Analyze {
		if err := checkParams(s.decls, params); err != nil {
			return nil, err
		}
	}
	if s.plan.Explain {
		run, err := exec.Build(s.plan.Root, exec.Deps{Scanner: s.e.scanner, Params: s.runParams(params),
			Options: s.e.opts.Exec, Analyze: s.plan.Analyze})
		if err != nil {
			return nil, s.positioned(err)
		}
		r := &Rows{s: s, run: run, ctx: ctx}
		return r, r.guard(r.explain)
	}
	run, err := s.runs.Start(s.runParams(params))
	if err != nil {
		return nil, s.positioned(err)
	}
	r := &Rows{s: s, run: run, ctx: ctx, open: true}
	if err := r.guard(func() error { return run.Root.Open(ctx) }); err != nil {
		r.Close()
		return nil, s.positioned(err)
	}
	return r, nil
}

// paramDecl is a declared parameter.
type paramDecl struct {
	name string
	t    *types.Type
}

// paramDecls lists params in name order: a run checks them without
// ranging over the map, and reports the first missing one by name.
func paramDecls(params map[string]*types.Type) []paramDecl {
	if len(params) == 0 {
		return nil
	}
	decls := make([]paramDecl, 0, len(params))
	for name, t := range params {
		decls = append(decls, paramDecl{name, t})
	}
	slices.SortFunc(decls, func(a, b paramDecl) int { return strings.Compare(a.name, b.name) })
	return decls
}

func checkParams(decls []paramDecl, vals map[string]types.Value) error {
	for _, d := range decls {
		v, ok := vals[d.name]
		if !ok {
			return sqlerr.New(sqlerr.UndefinedParameter, "no value bound for parameter @%s", d.name)
		}
		if v.Type() != nil && !v.Type().Equal(d.t) {
			return sqlerr.New(sqlerr.TypeMismatch, "parameter @%s is declared %s but bound to a %s", d.name, d.t, v.Type())
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
