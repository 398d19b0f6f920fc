package pgwire

import (
	"context"
	"encoding/binary"
	"fmt"
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
	formats []int16 // Bind's result format codes (0, 1 or one per column)
	cols    []column
	fmts    []int16 // one per column, resolved from formats once cols are known

	started bool
	ctx     context.Context
	cancel  context.CancelFunc
	// interrupt is what CancelRequest calls while the portal runs
	// (pt.cancel, or a FETCH's cursor's).
	interrupt context.CancelFunc
	rows      Rows
	tag       func(n int64) string // CommandComplete tag after n rows
	done      bool
	final     string // the tag once done
}

// close releases the portal's rows.
func (pt *portal) close() {
	if pt.rows != nil {
		pt.rows.Close()
		pt.rows = nil
	}
	if pt.cancel != nil {
		pt.cancel()
	}
}

// resolveFormats applies the 0/1/N rule of Bind's result format codes.
func (pt *portal) resolveFormats(cols []column) error {
	pt.cols = cols
	pt.fmts = make([]int16, len(cols))
	switch len(pt.formats) {
	case 0:
	case 1:
		for i := range pt.fmts {
			pt.fmts[i] = pt.formats[0]
		}
	default:
		if len(pt.formats) != len(cols) {
			return errorf(codeProtocolViolation, fmt.Sprintf("bind message has %d result formats but query has %d columns",
				len(pt.formats), len(cols)))
		}
		copy(pt.fmts, pt.formats)
	}
	for _, f := range pt.fmts {
		if f != formatText && f != formatBinary {
			return errorf(codeProtocolViolation, fmt.Sprintf("unsupported format code: %d", f))
		}
	}
	return nil
}

// describeColumns returns the portal's result columns, or nil when it
// returns no rows.
func (c *conn) portalColumns(pt *portal) ([]column, error) {
	if pt.cols != nil || pt.p.empty {
		return pt.cols, nil
	}
	var cols []column
	switch {
	case pt.p.local != nil:
		var err error
		if cols, err = c.localColumns(pt.p.local); err != nil {
			return nil, err
		}
	default:
		cols = pt.p.cols
	}
	if cols == nil {
		cols = []column{}
	}
	return cols, pt.resolveFormats(cols)
}

// start runs the portal's statement.
func (c *conn) start(pt *portal) error {
	pt.started = true
	if _, err := c.portalColumns(pt); err != nil {
		return err
	}
	pt.ctx, pt.cancel = context.WithCancel(c.ctx)
	if d := c.set.timeout; d > 0 {
		pt.ctx, pt.cancel = context.WithTimeoutCause(pt.ctx, d, errStatementTimeout)
	}
	pt.interrupt = pt.cancel
	if pt.p.local != nil {
		return c.runLocal(pt)
	}
	c.setRunning(pt.cancel)
	defer c.setRunning(nil)
	rows, err := pt.p.stmt.Run(pt.ctx, pt.args)
	if err != nil {
		return toPGError(pt.ctx, err, pt.p.origOffset)
	}
	pt.rows = rows
	verb := pt.p.verb
	pt.tag = func(n int64) string {
		if verb == "EXPLAIN" {
			return verb
		}
		return verb + " " + strconv.FormatInt(n, 10)
	}
	return nil
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
		tag := pt.final
		if len(pt.cols) > 0 && pt.tag != nil {
			tag = pt.tag(0)
		}
		c.w.send(&pgproto3.CommandComplete{CommandTag: []byte(tag)})
		return nil
	}
	if !pt.started {
		if err := c.start(pt); err != nil {
			pt.done, pt.final = true, ""
			return err
		}
	}
	var n int64
	if pt.rows != nil {
		c.setRunning(pt.interrupt)
		defer c.setRunning(nil)
		for maxRows <= 0 || n < maxRows {
			if !pt.rows.Next() {
				break
			}
			if err := c.sendRow(pt.rows.Row(), pt.cols, pt.fmts); err != nil {
				pe := toPGError(pt.ctx, err, nil)
				pt.close()
				pt.done = true
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
			pt.done = true
			return pe
		}
		pt.close()
	}
	pt.done = true
	pt.final = pt.tag(n)
	if pt.rows == nil && pt.cancel != nil {
		pt.cancel()
	}
	c.w.send(&pgproto3.CommandComplete{CommandTag: []byte(pt.final)})
	return nil
}

// sendRow appends a DataRow for row straight into the write buffer.
func (c *conn) sendRow(row []types.Value, cols []column, fmts []int16) error {
	if c.w.err != nil {
		return c.w.err
	}
	if len(row) != len(cols) {
		return errorf(codeInternal, fmt.Sprintf("pgwire: row has %d values for %d columns", len(row), len(cols)))
	}
	start := len(c.w.buf)
	buf := append(c.w.buf, 'D', 0, 0, 0, 0)
	buf = binary.BigEndian.AppendUint16(buf, uint16(len(row)))
	for i, v := range row {
		if v.IsNull() {
			buf = binary.BigEndian.AppendUint32(buf, 0xffffffff)
			continue
		}
		at := len(buf)
		buf = append(buf, 0, 0, 0, 0)
		var err error
		if buf, err = c.enc.appendValue(buf, v, cols[i].oid, fmts[i]); err != nil {
			c.w.buf = c.w.buf[:start]
			return err
		}
		binary.BigEndian.PutUint32(buf[at:], uint32(len(buf)-at-4))
	}
	binary.BigEndian.PutUint32(buf[start+1:], uint32(len(buf)-start-1))
	c.w.buf = buf
	return c.w.flushIfFull()
}

// rowDescription describes cols with their formats (nil fmts: text).
func rowDescription(cols []column, fmts []int16) *pgproto3.RowDescription {
	rd := &pgproto3.RowDescription{Fields: make([]pgproto3.FieldDescription, len(cols))}
	for i, col := range cols {
		f := &rd.Fields[i]
		f.Name = []byte(col.name)
		f.DataTypeOID = col.oid
		f.DataTypeSize = typeSize(col.oid)
		f.TypeModifier = -1
		if fmts != nil {
			f.Format = fmts[i]
		}
	}
	return rd
}

// typeSize is pg_type.typlen.
func typeSize(oid uint32) int16 {
	switch oid {
	case oidBool, oidChar:
		return 1
	case oidInt2:
		return 2
	case oidInt4, oidOID, oidFloat4, oidDate:
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
