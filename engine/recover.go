package engine

import (
	"fmt"
	"runtime/debug"

	"github.com/shale-db/shale/sql/sqlerr"
)

// A bug that panics while a statement is prepared or run fails that
// statement alone: the panic becomes an internal error (sqlerr.Internal:
// SQLSTATE XX000 on pgwire, INTERNAL over gRPC), logged with its stack, and
// the session that sent it goes on, as PostgreSQL's sessions survive an
// elog ERROR. A run that panicked is dropped rather than reused
// (Rows.poisoned): its operators' state is not to be trusted.

// internalError turns a recovered panic value into the error the statement
// fails with, logging it with the stack of the panic.
func (e *Engine) internalError(while, query string, p any) error {
	e.opts.Logger.Error("sql: statement panicked", "while", while, "query", query, "panic", p, "stack", string(debug.Stack()))
	return sqlerr.New(sqlerr.Internal, "internal error while %s the statement: %s", while, panicText(p))
}

// panicText is a panic value as text.
func panicText(p any) string {
	if err, ok := p.(error); ok {
		return err.Error()
	}
	return fmt.Sprint(p)
}
