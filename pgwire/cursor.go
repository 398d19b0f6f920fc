package pgwire

import (
	"context"
	"fmt"
	"strconv"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/shale-db/shale/sql/types"
)

// cursor is an SQL-level cursor (DECLARE … CURSOR FOR): an open result
// that FETCH and MOVE read forward. WITH HOLD cursors survive the end of
// their transaction; they keep streaming from the open result rather than
// materializing it (Shale is read-only, so there is nothing to isolate
// from).
type cursor struct {
	cols   []column
	rows   Rows
	ctx    context.Context
	cancel context.CancelFunc
	hold   bool
	binary bool
	done   bool
}

func (cur *cursor) close() {
	if cur.rows != nil {
		cur.rows.Close()
		cur.rows = nil
	}
	cur.cancel()
}

// declare opens the cursor of a DECLARE portal.
func (c *conn) declare(pt *portal) error {
	st, inner := pt.p.local, pt.p.inner
	if c.portalNamed(st.name) {
		return errorf(codeDuplicateCursor, fmt.Sprintf("cursor \"%s\" already exists", st.name))
	}
	if !st.hold && !c.inBlock() {
		return errorf(codeNoActiveTxn, "DECLARE CURSOR can only be used in transaction blocks")
	}
	cur := &cursor{cols: inner.cols, hold: st.hold, binary: st.binary}
	cur.ctx, cur.cancel = context.WithCancel(c.ctx)
	c.setRunning(cur.cancel)
	defer c.setRunning(nil)
	rows, err := inner.stmt.Run(cur.ctx, pt.args)
	if err != nil {
		pe := toPGError(cur.ctx, err, innerOffsets(st, inner))
		cur.cancel()
		return pe
	}
	cur.rows = rows
	c.cursors[st.name] = cur
	return nil
}

// fetch runs FETCH (rows through pt) or MOVE (rows skipped).
func (c *conn) fetch(pt *portal, st *localStmt) error {
	cur := c.cursors[st.name]
	if cur == nil {
		var err error
		if cur, err = c.portalCursor(st.name); err != nil {
			return err
		}
	}
	limit := st.count
	if st.all {
		limit = -1
	}
	fr := &fetchRows{cur: cur, left: limit}
	pt.interrupt = cur.cancel
	if st.kind == localMove {
		c.setRunning(cur.cancel)
		defer c.setRunning(nil)
		var n int64
		for fr.Next() {
			n++
		}
		if err := fr.Err(); err != nil {
			return toPGError(cur.ctx, err, nil)
		}
		pt.tag = commandTag{verb: "MOVE " + strconv.FormatInt(n, 10)}
		return nil
	}
	pt.rows = fr
	pt.tag = commandTag{verb: "FETCH", count: true}
	return nil
}

// portalCursor reads a named protocol-level portal as a cursor, as
// PostgreSQL lets FETCH and MOVE do (asyncpg's Cursor.forward sends MOVE
// FORWARD n "__asyncpg_portal_N__"); rows it reads are gone from the
// portal's next Execute. A portal not yet executed is started.
func (c *conn) portalCursor(name string) (*cursor, error) {
	ppt := c.portals[name]
	if name == "" || ppt == nil || ppt.p.local != nil {
		return nil, errorf(codeInvalidCursor, fmt.Sprintf("cursor \"%s\" does not exist", name))
	}
	if !ppt.started {
		running, err := c.start(ppt)
		if running {
			c.setRunning(nil)
		}
		if err != nil {
			ppt.done, ppt.failed = true, true
			return nil, err
		}
	}
	cur := &cursor{cols: ppt.cols, rows: ppt.rows, ctx: ppt.ctx, cancel: ppt.cancel, done: ppt.done || ppt.rows == nil}
	if cur.ctx == nil {
		cur.ctx, cur.cancel = c.ctx, func() {}
	}
	return cur, nil
}

// cursorFormats are the formats a cursor's rows are sent in: all binary
// for a BINARY cursor, else text (nil).
func cursorFormats(cur *cursor) []int16 {
	if !cur.binary {
		return nil
	}
	fmts := make([]int16, len(cur.cols))
	for i := range fmts {
		fmts[i] = formatBinary
	}
	return fmts
}

// fetchRows reads up to left rows (-1: all) of a cursor; Close leaves the
// cursor open.
type fetchRows struct {
	cur  *cursor
	left int64
	err  error
}

func (r *fetchRows) Next() bool {
	if r.left == 0 || r.cur.done || r.cur.rows == nil {
		return false
	}
	if !r.cur.rows.Next() {
		r.cur.done = true
		if err := r.cur.rows.Err(); err != nil {
			r.err = toPGError(r.cur.ctx, err, nil)
		}
		return false
	}
	if r.left > 0 {
		r.left--
	}
	return true
}
func (r *fetchRows) Row() []types.Value { return r.cur.rows.Row() }
func (r *fetchRows) Err() error         { return r.err }
func (r *fetchRows) Close() error       { return nil }

// portalNamed reports whether name is taken by a cursor or a protocol
// portal: in PostgreSQL they are one namespace, the portals'.
func (c *conn) portalNamed(name string) bool {
	return c.cursors[name] != nil || c.portals[name] != nil
}

// executeCursor runs Execute on a DECLAREd cursor, a portal too in
// PostgreSQL: up to maxRows (0: all) of its next rows, then
// PortalSuspended if the limit was reached, else CommandComplete SELECT n.
func (c *conn) executeCursor(cur *cursor, maxRows int64) error {
	fr := &fetchRows{cur: cur, left: -1}
	if maxRows > 0 {
		fr.left = maxRows
	}
	fmts := cursorFormats(cur)
	if fmts == nil {
		fmts = uniformFormats(formatText, len(cur.cols))
	}
	c.setRunning(cur.cancel)
	defer c.setRunning(nil)
	var n int64
	for fr.Next() {
		if err := c.sendRow(fr.Row(), cur.cols, fmts); err != nil {
			return toPGError(cur.ctx, err, nil)
		}
		n++
	}
	if err := fr.Err(); err != nil {
		return err
	}
	if maxRows > 0 && n == maxRows {
		c.w.send(&pgproto3.PortalSuspended{})
		return nil
	}
	c.w.sendComplete(commandTag{verb: "SELECT", count: true}, n)
	return nil
}

// closeCursor runs CLOSE name | ALL. Like FETCH, it reaches protocol
// portals too (PostgreSQL's cursors are portals): CLOSE ALL closes every
// one but the one running it.
func (c *conn) closeCursor(st *localStmt) (string, error) {
	if st.all {
		for name, cur := range c.cursors {
			cur.close()
			delete(c.cursors, name)
		}
		c.closePortals()
		return "CLOSE CURSOR ALL", nil
	}
	cur := c.cursors[st.name]
	if pt := c.portals[st.name]; cur == nil && pt != nil && st.name != "" && !pt.running {
		delete(c.portals, st.name)
		pt.discard()
		return "CLOSE CURSOR", nil
	}
	if cur == nil {
		return "", errorf(codeInvalidCursor, fmt.Sprintf("cursor \"%s\" does not exist", st.name))
	}
	cur.close()
	delete(c.cursors, st.name)
	return "CLOSE CURSOR", nil
}
