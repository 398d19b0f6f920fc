package server

import (
	"context"
	"strings"

	"github.com/shale-db/shale/engine"
	"github.com/shale-db/shale/pgwire"
	"github.com/shale-db/shale/sql/types"
)

// pgExecutor adapts the SQL engine to the Executor pgwire declares.
type pgExecutor struct{ e *engine.Engine }

var _ pgwire.Executor = pgExecutor{}

// NewPGExecutor returns the pgwire.Executor over an engine (exported for
// tests that run pgwire against the real engine).
func NewPGExecutor(e *engine.Engine) pgwire.Executor { return pgExecutor{e} }

// Prepare implements pgwire.Executor.
func (x pgExecutor) Prepare(ctx context.Context, database, query string, params map[string]*types.Type) (pgwire.Statement, error) {
	st, err := x.e.Prepare(ctx, InstanceOf(database), query, params)
	if err != nil {
		return nil, err
	}
	return pgStatement{st}, nil
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

// pgStatement adapts *engine.Statement: only Run's result type differs.
type pgStatement struct{ st *engine.Statement }

var _ pgwire.Statement = pgStatement{}

// Columns implements pgwire.Statement.
func (s pgStatement) Columns() []types.Field { return s.st.Columns() }

// Run implements pgwire.Statement.
func (s pgStatement) Run(ctx context.Context, params map[string]types.Value) (pgwire.Rows, error) {
	rows, err := s.st.Run(ctx, params)
	if err != nil {
		return nil, err // never a typed nil *engine.Rows inside the interface
	}
	return rows, nil
}
