package pgwire

import (
	"encoding/binary"
	"io"

	"github.com/jackc/pgx/v5/pgproto3"
)

// flushAt is the buffered size past which a result is written out while it
// streams.
const flushAt = 32 << 10

// msgWriter buffers backend messages. Messages append themselves into one
// reused buffer (pgproto3's Encode(dst)); nothing is written until flush.
// After a write error every call is a no-op and err reports it.
type msgWriter struct {
	w   io.Writer
	buf []byte
	err error
}

// send appends m. An encoding error (a bug) is kept like a write error.
func (w *msgWriter) send(m pgproto3.BackendMessage) {
	if w.err != nil {
		return
	}
	n := len(w.buf)
	var err error
	if w.buf, err = m.Encode(w.buf); err != nil {
		w.buf = w.buf[:n]
		w.err = err
	}
}

// flush writes the buffer out.
func (w *msgWriter) flush() error {
	if w.err != nil || len(w.buf) == 0 {
		return w.err
	}
	_, w.err = w.w.Write(w.buf)
	if cap(w.buf) > 4*flushAt {
		w.buf = nil // don't keep a huge row's buffer for the session's life
	} else {
		w.buf = w.buf[:0]
	}
	return w.err
}

// begin starts a message of type typ appended in place (w.buf), returning
// where it starts; end closes it.
func (w *msgWriter) begin(typ byte) int {
	start := len(w.buf)
	w.buf = append(w.buf, typ, 0, 0, 0, 0)
	return start
}

// end closes the message begun at start: it sets its length.
func (w *msgWriter) end(start int) {
	binary.BigEndian.PutUint32(w.buf[start+1:], uint32(len(w.buf)-start-1))
}

// flushIfFull writes the buffer out once it passes flushAt.
func (w *msgWriter) flushIfFull() error {
	if len(w.buf) >= flushAt {
		return w.flush()
	}
	return w.err
}

// The messages every query sends are appended straight into the buffer by
// the methods below (and sendRow, sendRowDescription): through send, each
// would allocate its message struct, which escapes into the BackendMessage
// interface. Like send, they do nothing after an error.

// sendReady appends ReadyForQuery with transaction status tx.
func (w *msgWriter) sendReady(tx byte) {
	if w.err == nil {
		w.buf = append(w.buf, 'Z', 0, 0, 0, 5, tx)
	}
}

// sendComplete appends CommandComplete with tag for n rows.
func (w *msgWriter) sendComplete(tag commandTag, n int64) {
	if w.err != nil {
		return
	}
	start := w.begin('C')
	w.buf = tag.append(w.buf, n)
	w.buf = append(w.buf, 0)
	w.end(start)
}

// sendEncoded appends a message encoded before (a cached RowDescription).
func (w *msgWriter) sendEncoded(msg []byte) {
	if w.err == nil {
		w.buf = append(w.buf, msg...)
	}
}
