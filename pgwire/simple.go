package pgwire

import (
	"github.com/jackc/pgx/v5/pgproto3"
)

// simpleQuery runs a Query message: each statement in turn, stopping at
// the first error; then ReadyForQuery, always (psql waits for it).
//
// As in PostgreSQL (exec_simple_query), a simple Query uses the unnamed
// statement and portal: it drops the unnamed statement first, whatever
// follows, and each statement that gets as far as running replaces the
// unnamed portal.
func (c *conn) simpleQuery(text string) {
	delete(c.stmts, "")
	var buf [4]span // on the stack: a Query is mostly one statement
	spans := splitStatements(buf[:0], text)
	if len(spans) == 0 {
		c.w.send(&pgproto3.EmptyQueryResponse{})
	}
	for _, sp := range spans {
		// Several statements run in an implicit transaction block, until
		// one of them opens an explicit one (BEGIN) or ends it (COMMIT).
		c.implicit = len(spans) > 1 && c.tx == txIdle
		if err := c.simpleStatement(text[sp.start:sp.end]); err != nil {
			c.sendError(at(err, text, sp.start))
			break
		}
		if c.w.err != nil {
			return
		}
	}
	switch {
	case c.implicit && c.tx == txIdle:
		c.endTxn() // its cursors close, its SET LOCAL and SET TRANSACTION are undone
	case c.tx == txIdle:
		c.closePortals()
		c.txnUndo = nil // committed
	}
	c.implicit, c.pipelined = false, false
	c.readyForQuery()
}

// simpleStatement runs one statement of a Query with text results (binary
// for a BINARY cursor's FETCH).
func (c *conn) simpleStatement(stmt string) error {
	p, err := c.prepare(stmt, nil)
	if err != nil {
		return err
	}
	c.dropUnnamedPortal()
	pt := &portal{p: p}
	defer pt.close()
	cols, err := c.portalColumns(pt)
	if err != nil {
		return err
	}
	if !p.empty && p.local != nil && p.local.kind == localFetch {
		if cur := c.cursors[p.local.name]; cur != nil && cur.binary {
			if err := pt.resolveFormats(cols, []int16{formatBinary}); err != nil {
				return err
			}
		}
	}
	if len(cols) > 0 || p.isQuery() {
		c.sendRowDescription(cols, pt.fmts, true)
	}
	return c.run(pt, 0)
}
