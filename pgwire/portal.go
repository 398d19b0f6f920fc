package pgwire

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/shale-db/shale/sql/types"
)

// portal is a bound statement (Bind, or a simple Query's statement) and,
// once executed, its open result. It stays open across Execute calls with
// a row limit until its rows run out or it is closed.
type portal struct {
	p       *prepared
	args    map[string]types.Value
	formats []int16 // a session statement's result format codes, until its columns are known
	cols    []column
	// fmts has one format code per column, resolved from Bind's codes
	// once cols are known. It may be shared: never write to it.
	fmts []int16
	// shared: cols are p's and fmts all one format, so Describe sends p's
	// cached RowDescription.
	shared bool

	started bool
	ctx     context.Context
	cancel  context.CancelFunc
	ctxs    *execContexts // where ctx came from and goes back to (nil: a timeout's)
	// interrupt is what CancelRequest calls while the portal runs
	// (pt.cancel, or a FETCH's cursor's).
	interrupt context.CancelFunc
	rows      Rows
	tag       commandTag
	done      bool
	failed    bool  // done by an error: a further Execute completes with an empty tag
	final     int64 // the rows of the Execute that completed the portal
	// running is set while an Execute runs the portal (set around run,
	// not deferred in it: one more defer there costs every Execute the
	// open-coded defers of its others): a COMMIT or
	// ROLLBACK it runs closes the other portals, not this one, as in
	// PostgreSQL (closePortals).
	running bool
}

// commandTag is a CommandComplete tag: its verb ("SET", "DECLARE CURSOR"),
// followed by the number of rows when count is set ("SELECT 5"). The zero
// value is the empty tag.
type commandTag struct {
	verb  string
	count bool
}

// append appends the tag for n rows.
func (t commandTag) append(dst []byte, n int64) []byte {
	dst = append(dst, t.verb...)
	if t.count {
		dst = strconv.AppendInt(append(dst, ' '), n, 10)
	}
	return dst
}

// close releases the portal's rows.
func (pt *portal) close() {
	if pt.rows != nil {
		pt.rows.Close()
		pt.rows = nil
	}
	pt.releaseContext()
	// With the rows closed the statement is done with the parameters
	// (Statement.Run). A session statement's may live on in a cursor.
	if pt.args != nil && pt.p.local == nil {
		clear(pt.args)
		pt.p.spareArgs, pt.args = pt.args, nil
	}
}

// discard closes a portal that the session no longer names (it can no
// longer be executed or described) and keeps it for its statement's next
// Bind.
func (pt *portal) discard() {
	pt.close()
	if p := pt.p; p.sparePortal == nil {
		*pt = portal{}
		p.sparePortal = pt
	}
}

// releaseContext ends the portal's context, once: it goes back to the
// session's execContexts, or is canceled.
func (pt *portal) releaseContext() {
	switch {
	case pt.cancel == nil:
		return
	case pt.ctxs != nil:
		pt.ctxs.put(pt.ctx, pt.cancel)
	default:
		pt.cancel()
	}
	pt.cancel, pt.ctxs = nil, nil
}

// resolveFormats sets the portal's columns and applies the 0/1/N rule of
// Bind's result format codes (formats, not retained) to them.
func (pt *portal) resolveFormats(cols []column, formats []int16) error {
	pt.cols = cols
	switch len(formats) {
	case 0:
		pt.fmts = uniformFormats(formatText, len(cols))
	case 1:
		pt.fmts = uniformFormats(formats[0], len(cols))
	default:
		if len(formats) != len(cols) {
			return errorf(codeProtocolViolation, fmt.Sprintf("bind message has %d result formats but query has %d columns",
				len(formats), len(cols)))
		}
		pt.fmts = slices.Clone(formats)
	}
	// An unknown code is no error until rows are sent (checkFormats): as
	// in PostgreSQL, Bind completes and Describe shows it.
	pt.shared = len(formats) <= 1 && pt.p.stmt != nil && (len(formats) == 0 || validFormat(formats[0]))
	return nil
}

func validFormat(f int16) bool { return f == formatText || f == formatBinary }

// checkFormats fails with 22023 if a result column has a format code other
// than text or binary; PostgreSQL fails so when it starts sending rows.
func (pt *portal) checkFormats() error {
	for _, f := range pt.fmts {
		if !validFormat(f) {
			return errorf(codeInvalidParamValue, fmt.Sprintf("unsupported format code: %d", f))
		}
	}
	return nil
}

// Uniform format codes for up to maxShared columns, shared by every portal
// whose columns are all text or all binary (the usual case) so that
// resolving them allocates nothing. They are never written.
const maxShared = 64

var (
	textFormats   [maxShared]int16 // formatText is 0
	binaryFormats = func() (b [maxShared]int16) {
		for i := range b {
			b[i] = formatBinary
		}
		return b
	}()
)

// uniformFormats returns n format codes, all f. The result may be shared.
func uniformFormats(f int16, n int) []int16 {
	switch {
	case n <= maxShared && f == formatText:
		return textFormats[:n:n]
	case n <= maxShared && f == formatBinary:
		return binaryFormats[:n:n]
	}
	fmts := make([]int16, n)
	for i := range fmts {
		fmts[i] = f
	}
	return fmts
}

// portalColumns returns the portal's result columns (empty when it returns
// no rows; nil for an empty query), resolving its result formats the first
// time.
func (c *conn) portalColumns(pt *portal) ([]column, error) {
	if pt.cols != nil || pt.p.empty {
		return pt.cols, nil
	}
	cols := pt.p.cols
	if pt.p.local != nil {
		var err error
		if cols, err = c.localColumns(pt.p.local); err != nil {
			return nil, err
		}
	}
	if cols == nil {
		cols = []column{}
	}
	return cols, pt.resolveFormats(cols, pt.formats)
}

// describePortal sends the portal's RowDescription, or NoData.
func (c *conn) describePortal(pt *portal) error {
	cols, err := c.portalColumns(pt)
	if err != nil {
		return err
	}
	if pt.shared && len(cols) > 0 {
		if msg := pt.p.rowDescription(pt.fmts[0]); msg != nil {
			c.w.sendEncoded(msg)
			return nil
		}
	}
	c.sendRowDescription(cols, pt.fmts, pt.p.isQuery())
	return nil
}

// start runs the portal's statement. For a statement run by the Executor
// it returns running: the portal is left recorded as the running
// execution (setRunning), and the caller ends that.
func (c *conn) start(pt *portal) (running bool, err error) {
	pt.started = true
	if _, err := c.portalColumns(pt); err != nil {
		return false, err
	}
	if err := pt.checkFormats(); err != nil {
		return false, err
	}
	// The context of this execution: CancelRequest, statement_timeout, the
	// session's end and the portal's close end it. A timeout's context is
	// canceled through its own CancelFunc, so it needs no WithCancel
	// beneath it.
	if d := c.set.timeout; d > 0 {
		pt.ctx, pt.cancel = context.WithTimeoutCause(c.ctx, d, errStatementTimeout)
	} else {
		pt.ctx, pt.cancel = c.ctxs.get()
		pt.ctxs = &c.ctxs
	}
	pt.interrupt = pt.cancel
	if pt.p.local != nil {
		return false, c.runLocal(pt)
	}
	c.setRunning(pt.cancel)
	rows, err := pt.p.stmt.Run(pt.ctx, pt.args)
	if err != nil {
		return true, toPGError(pt.ctx, err, pt.p.origOffset)
	}
	pt.rows = rows
	pt.tag = commandTag{verb: pt.p.verb, count: pt.p.verb != "EXPLAIN"}
	return true, nil
}

// run executes a portal: up to maxRows rows (0: all), then PortalSuspended
// if the limit was reached, else CommandComplete. Rows stream into the
// write buffer, which is flushed as it fills.
func (c *conn) run(pt *portal, maxRows int64) error {
	if pt.p.empty {
		c.w.send(&pgproto3.EmptyQueryResponse{})
		return nil
	}
	if pt.done { // run to completion before: no more rows
		tag, n := pt.tag, pt.final
		switch {
		case len(pt.cols) > 0 || pt.p.isQuery():
			n = 0
		case pt.failed:
			tag = commandTag{}
		}
		c.w.sendComplete(tag, n)
		return nil
	}
	running := false
	if !pt.started {
		var err error
		running, err = c.start(pt)
		if running {
			defer c.setRunning(nil)
		}
		if err != nil {
			pt.done, pt.failed = true, true
			return err
		}
	}
	var n int64
	if pt.rows != nil {
		if !running {
			c.setRunning(pt.interrupt)
			defer c.setRunning(nil)
		}
		for maxRows <= 0 || n < maxRows {
			if !pt.rows.Next() {
				break
			}
			if err := c.sendRow(pt.rows.Row(), pt.cols, pt.fmts); err != nil {
				pe := toPGError(pt.ctx, err, nil)
				pt.close()
				pt.done, pt.failed = true, true
				return pe
			}
			n++
		}
		if maxRows > 0 && n == maxRows {
			c.w.send(&pgproto3.PortalSuspended{})
			return nil
		}
		if err := pt.rows.Err(); err != nil {
			pe := toPGError(pt.ctx, err, pt.p.origOffset)
			pt.close()
			pt.done, pt.failed = true, true
			return pe
		}
		pt.close()
	}
	pt.done, pt.final = true, n
	if pt.rows == nil {
		pt.releaseContext()
	}
	c.w.sendComplete(pt.tag, n)
	return nil
}

// sendRow appends a DataRow for row straight into the write buffer.
func (c *conn) sendRow(row []types.Value, cols []column, fmts []int16) error {
	if c.w.err != nil {
		return c.w.err
	}
	start := c.w.begin('D')
	buf, err := c.enc.appendFields(c.w.buf, row, cols, fmts)
	if err != nil {
		c.w.buf = c.w.buf[:start]
		return err
	}
	c.w.buf = buf
	c.w.end(start)
	return c.w.flushIfFull()
}

// appendRowDescription appends a RowDescription of cols with their formats
// (nil fmts: text). It fails, appending nothing, past 65535 columns.
func appendRowDescription(dst []byte, cols []column, fmts []int16) ([]byte, error) {
	if len(cols) > math.MaxUint16 {
		return dst, errors.New("pgwire: too many columns for a RowDescription")
	}
	start := len(dst)
	dst = append(dst, 'T', 0, 0, 0, 0)
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(cols)))
	for i, col := range cols {
		dst = append(append(dst, col.name...), 0)
		dst = binary.BigEndian.AppendUint32(dst, 0) // table OID
		dst = binary.BigEndian.AppendUint16(dst, 0) // column attribute number
		dst = binary.BigEndian.AppendUint32(dst, col.oid)
		dst = binary.BigEndian.AppendUint16(dst, uint16(typeSize(col.oid)))
		dst = binary.BigEndian.AppendUint32(dst, math.MaxUint32) // type modifier -1
		f := formatText
		if fmts != nil {
			f = fmts[i]
		}
		dst = binary.BigEndian.AppendUint16(dst, uint16(f))
	}
	binary.BigEndian.PutUint32(dst[start+1:], uint32(len(dst)-start-1))
	return dst, nil
}

// sendRowDescription sends RowDescription, or NoData for no columns unless
// they are a query's (prepared.isQuery).
func (c *conn) sendRowDescription(cols []column, fmts []int16, query bool) {
	if c.w.err != nil {
		return
	}
	if len(cols) == 0 && !query {
		c.w.send(&pgproto3.NoData{})
		return
	}
	c.w.buf, c.w.err = appendRowDescription(c.w.buf, cols, fmts)
}

// typeSize is pg_type.typlen.
func typeSize(oid uint32) int16 {
	switch oid {
	case oidBool, oidChar:
		return 1
	case oidInt2:
		return 2
	case oidInt4, oidOID, oidFloat4, oidDate, oidVoid:
		return 4
	case oidInt8, oidFloat8, oidTimestamp, oidTimestamptz:
		return 8
	case oidName:
		return 64
	case oidUUID:
		return 16
	}
	return -1
}
