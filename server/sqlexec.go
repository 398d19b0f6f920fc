package server

import (
	"context"

	"github.com/shale-db/shale/btserver"
	"github.com/shale-db/shale/engine"
	"github.com/shale-db/shale/sql/types"
)

// btSQL adapts the SQL engine to the interface btserver consumes for
// PrepareQuery and ExecuteQuery.
type btSQL struct{ e *engine.Engine }

var _ btserver.SQL = btSQL{}

// Prepare implements btserver.SQL.
func (s btSQL) Prepare(ctx context.Context, instance, query string, params map[string]*types.Type) (btserver.Statement, error) {
	st, err := s.e.Prepare(ctx, instance, query, params)
	if err != nil {
		return nil, err
	}
	return btStatement{st}, nil
}

// btStatement adapts *engine.Statement: only Run's result type differs.
type btStatement struct{ st *engine.Statement }

var _ btserver.Statement = btStatement{}

// Columns implements btserver.Statement.
func (s btStatement) Columns() []types.Field { return s.st.Columns() }

// Run implements btserver.Statement.
func (s btStatement) Run(ctx context.Context, params map[string]types.Value) (btserver.ResultRows, error) {
	rows, err := s.st.Run(ctx, params)
	if err != nil {
		return nil, err // never a typed nil *engine.Rows inside the interface
	}
	return rows, nil
}
