package pgwire

import (
	"encoding/binary"
	"strconv"

	"github.com/jackc/pgx/v5/pgproto3"
)

// copyOut runs a COPY … TO STDOUT: CopyOutResponse, one CopyData per row
// (streamed into the write buffer, which is flushed as it fills), then
// CopyDone; the tag is COPY n. An error after CopyOutResponse ends the
// copy with an ErrorResponse, which clients expect in its place.
func (c *conn) copyOut(pt *portal) (string, error) {
	st, inner, ctx := pt.p.local, pt.p.inner, pt.ctx
	c.setRunning(pt.cancel)
	defer c.setRunning(nil)
	offsets := innerOffsets(st, inner)
	rows, err := inner.stmt.Run(ctx, pt.args)
	if err != nil {
		return "", toPGError(ctx, err, offsets)
	}
	defer rows.Close()
	cols, o := inner.cols, st.copy
	format := formatText
	if o.binary {
		format = formatBinary
	}
	fmts := make([]uint16, len(cols))
	for i := range fmts {
		fmts[i] = uint16(format)
	}
	c.w.send(&pgproto3.CopyOutResponse{OverallFormat: byte(format), ColumnFormatCodes: fmts})
	var n int64
	if o.binary {
		n, err = c.copyBinary(rows, cols)
	} else {
		n, err = c.copyText(rows, cols, o)
	}
	if err != nil {
		return "", toPGError(ctx, err, nil)
	}
	if err := rows.Err(); err != nil {
		return "", toPGError(ctx, err, offsets)
	}
	if o.binary {
		start := c.w.begin('d')
		c.w.buf = binary.BigEndian.AppendUint16(c.w.buf, 0xffff) // the trailer
		c.w.end(start)
	}
	c.w.send(&pgproto3.CopyDone{})
	return "COPY " + strconv.FormatInt(n, 10), nil
}

// copyText sends rows as text or CSV lines, one CopyData each, after the
// header line if asked for.
func (c *conn) copyText(rows Rows, cols []column, o *copyOpts) (n int64, err error) {
	if o.header {
		start := c.w.begin('d')
		for i, col := range cols {
			if i > 0 {
				c.w.buf = append(c.w.buf, o.delim)
			}
			c.w.buf = o.appendField(c.w.buf, []byte(col.name), false, len(cols) == 1)
		}
		c.w.buf = append(c.w.buf, '\n')
		c.w.end(start)
	}
	force := make([]bool, len(cols))
	for i, col := range cols {
		force[i] = o.forceAll || o.forceCols[col.name]
	}
	var text []byte
	for rows.Next() {
		start := c.w.begin('d')
		for i, v := range rows.Row() {
			if i > 0 {
				c.w.buf = append(c.w.buf, o.delim)
			}
			if v.IsNull() {
				c.w.buf = append(c.w.buf, o.null...)
				continue
			}
			if text, err = c.enc.appendValue(text[:0], v, cols[i].oid, formatText); err != nil {
				c.w.buf = c.w.buf[:start]
				return n, err
			}
			c.w.buf = o.appendField(c.w.buf, text, force[i], len(cols) == 1)
		}
		c.w.buf = append(c.w.buf, '\n')
		c.w.end(start)
		n++
		if err := c.w.flushIfFull(); err != nil {
			return n, err
		}
	}
	return n, nil
}

// binarySignature opens a binary COPY: the signature, then the flags and
// the header extension's length, both 0.
var binarySignature = []byte("PGCOPY\n\xff\r\n\x00\x00\x00\x00\x00\x00\x00\x00\x00")

// copyBinary sends rows in COPY's binary format: the header, then per row
// its field count and each field as a length (-1: NULL) and its value in
// the column type's binary form (as DataRow sends it). The header rides
// in a CopyData of its own, and so does the trailer copyOut sends (a field
// count of -1) once the rows have all been read.
func (c *conn) copyBinary(rows Rows, cols []column) (n int64, err error) {
	start := c.w.begin('d')
	c.w.buf = append(c.w.buf, binarySignature...)
	c.w.end(start)
	fmts := uniformFormats(formatBinary, len(cols))
	for rows.Next() {
		start := c.w.begin('d')
		buf, err := c.enc.appendFields(c.w.buf, rows.Row(), cols, fmts)
		if err != nil {
			c.w.buf = c.w.buf[:start]
			return n, err
		}
		c.w.buf = buf
		c.w.end(start)
		n++
		if err := c.w.flushIfFull(); err != nil {
			return n, err
		}
	}
	return n, nil
}

// appendField appends one non-null field in the copy's format. In text
// format the backslash and the delimiter are escaped, and so are the
// control characters COPY names (\b \f \n \r \t \v); in CSV a field is quoted when it must be
// (it holds the delimiter, the quote, a line end, or reads as the null
// string, or is \. alone on its line, which ends CSV data) or when forced,
// doubling the quote (or escaping it) inside.
func (o *copyOpts) appendField(dst, f []byte, force, alone bool) []byte {
	if !o.csv {
		start := 0
		for i, c := range f {
			e := o.textEscapes[c]
			if e == 0 {
				continue
			}
			dst = append(append(dst, f[start:i]...), '\\', e)
			start = i + 1
		}
		return append(dst, f[start:]...)
	}
	quote := force || string(f) == o.null || alone && string(f) == `\.`
	for _, c := range f {
		if c == o.delim || c == o.quote || c == '\n' || c == '\r' {
			quote = true
			break
		}
	}
	if !quote {
		return append(dst, f...)
	}
	dst = append(dst, o.quote)
	for _, c := range f {
		if c == o.quote || c == o.escape {
			dst = append(dst, o.escape)
		}
		dst = append(dst, c)
	}
	return append(dst, o.quote)
}
