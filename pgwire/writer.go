package pgwire

import (
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

// flushIfFull writes the buffer out once it passes flushAt.
func (w *msgWriter) flushIfFull() error {
	if len(w.buf) >= flushAt {
		return w.flush()
	}
	return w.err
}
