package server

import (
	"context"
	"strings"

	"github.com/shale-db/shale/btserver"
	"github.com/shale-db/shale/engine"
	"github.com/shale-db/shale/pgwire"
	"github.com/shale-db/shale/sql/types"
)

// The SQL engine serves two edges, each of which declares the interface it
// consumes (STYLE P3): btserver (PrepareQuery/ExecuteQuery) and pgwire.
// Their statement interfaces differ only in the rows type Run returns, which
// *engine.Rows implements for both; statement adapts once for either.
var (
	_ btserver.SQL        = btSQL{}
	_ pgwire.Executor     = pgExecutor{}
	_ btserver.ResultRows = (*engine.Rows)(nil)
	_ pgwire.Rows         = (*engine.Rows)(nil)
)

// statement adapts *engine.Statement to an edge whose Run returns R.
type statement[R any] struct{ st *engine.Statement }

// Columns returns the result columns.
func (s statement[R]) Columns() []types.Field { return s.st.Columns() }

// Run runs the statement; the error path never wraps a typed nil.
func (s statement[R]) Run(ctx context.Context, params map[string]types.Value) (R, error) {
	rows, err := s.st.Run(ctx, params)
	if err != nil {
		var none R
		return none, err
	}
	return any(rows).(R), nil
}

// btSQL is the engine as btserver.SQL; instances are full names.
type btSQL struct{ e *engine.Engine }

// Prepare implements btserver.SQL.
func (s btSQL) Prepare(ctx context.Context, instance, query string, params map[string]*types.Type) (btserver.Statement, error) {
	st, err := s.e.Prepare(ctx, instance, query, params)
	if err != nil {
		return nil, err
	}
	return statement[btserver.ResultRows]{st}, nil
}

// pgExecutor is the engine as pgwire.Executor; a database name selects the
// instance (InstanceOf).
type pgExecutor struct{ e *engine.Engine }

// NewPGExecutor returns the pgwire.Executor over an engine (exported for
// tests that run pgwire against the real engine).
func NewPGExecutor(e *engine.Engine) pgwire.Executor { return pgExecutor{e} }

// Prepare implements pgwire.Executor.
func (x pgExecutor) Prepare(ctx context.Context, database, query string, params map[string]*types.Type) (pgwire.Statement, error) {
	st, err := x.e.Prepare(ctx, InstanceOf(database), query, params)
	if err != nil {
		return nil, err
	}
	return statement[pgwire.Rows]{st}, nil
}

// InstanceOf maps a PostgreSQL database name to the instance it selects:
//
//	demo                   → projects/demo/instances/demo
//	myproj.myinst          → projects/myproj/instances/myinst
//	myproj/myinst          → projects/myproj/instances/myinst
//	projects/p/instances/i → itself
//
// A name with neither a dot nor a slash is both project and instance, so
// `psql -d demo` reaches the demo instance. The last dot separates the
// instance, so domain-scoped projects (example.com:proj.inst) work; Bigtable
// instance ids contain no dots.
func InstanceOf(database string) string {
	switch {
	case strings.HasPrefix(database, "projects/"):
		return database
	case strings.Contains(database, "/"):
		p, i, _ := strings.Cut(database, "/")
		return "projects/" + p + "/instances/" + i
	case strings.Contains(database, "."):
		k := strings.LastIndex(database, ".")
		return "projects/" + database[:k] + "/instances/" + database[k+1:]
	}
	return "projects/" + database + "/instances/" + database
}
