package pgwire

import (
	"errors"
	"net"
	"os"
	"sync"
	"time"
)

// readAhead bounds the bytes connReader holds that the session has not
// consumed yet (backpressure for clients that pipeline a lot).
const readAhead = 256 << 10

// connReader reads a connection for the session. It reads synchronously,
// except while a long-running query executes (conn.checkRunning): then
// watch starts a goroutine that reads ahead, so that a client's hang-up is
// noticed (and its running query canceled through onHangup) even while the
// session is busy producing rows rather than reading; once the query is
// over, unwatch goes back to synchronous reads, which cost no handoff
// between goroutines.
type connReader struct {
	nc       net.Conn
	raw      *rawSocket // nc's socket for synchronous reads, when it is one
	onHangup func()     // called once, from the reading goroutine
	mu       struct {
		sync.Mutex
		cond     sync.Cond
		data     []byte
		off      int // data[off:] is unread
		err      error
		closed   bool
		async    bool
		stopping bool          // unwatch asked the read-ahead to end
		done     chan struct{} // closed when the read-ahead ends
	}
}

func newConnReader(nc net.Conn) *connReader {
	r := &connReader{nc: nc}
	r.mu.cond.L = &r.mu.Mutex
	return r
}

// watch starts reading ahead; stop joins the goroutine. The session must
// not be inside Read when it is called.
func (r *connReader) watch(onHangup func()) {
	r.mu.Lock()
	if r.mu.async {
		r.mu.Unlock()
		return
	}
	if r.mu.closed { // nobody reads any more
		r.mu.Unlock()
		return
	}
	r.onHangup = onHangup
	r.mu.async = true
	r.mu.done = make(chan struct{})
	done := r.mu.done
	r.mu.Unlock()
	go r.loop(done)
}

func (r *connReader) loop(done chan struct{}) {
	defer close(done)
	tmp := make([]byte, 16<<10)
	for {
		n, err := r.nc.Read(tmp)
		r.mu.Lock()
		r.mu.data = append(r.mu.data, tmp[:n]...)
		if err != nil {
			if r.mu.stopping && errors.Is(err, os.ErrDeadlineExceeded) {
				r.mu.Unlock() // unwatch's deadline: not a hang-up
				return
			}
			r.mu.err = err
			r.mu.cond.Broadcast()
			r.mu.Unlock()
			r.onHangup()
			return
		}
		r.mu.cond.Broadcast()
		for len(r.mu.data)-r.mu.off >= readAhead && !r.mu.closed && !r.mu.stopping {
			r.mu.cond.Wait()
		}
		end := r.mu.closed || r.mu.stopping
		r.mu.Unlock()
		if end {
			return
		}
	}
}

// unwatch ends the read-ahead, if it runs and has not seen the connection
// end: a read deadline in the past interrupts its Read, and the session
// reads synchronously again, starting with the bytes read ahead. The
// session must not be inside Read.
func (r *connReader) unwatch() {
	r.mu.Lock()
	if !r.mu.async || r.mu.closed || r.mu.err != nil {
		r.mu.Unlock()
		return
	}
	r.mu.stopping = true
	r.mu.cond.Broadcast() // a read-ahead waiting for room
	done := r.mu.done
	r.mu.Unlock()
	_ = r.nc.SetReadDeadline(time.Unix(1, 0))
	<-done
	_ = r.nc.SetReadDeadline(time.Time{})
	r.mu.Lock()
	r.mu.stopping = false
	r.mu.async = r.mu.err != nil // a hang-up seen meanwhile stays
	r.mu.Unlock()
}

// Read implements io.Reader for pgproto3.
func (r *connReader) Read(p []byte) (int, error) {
	r.mu.Lock()
	if !r.mu.async && r.mu.off == len(r.mu.data) {
		r.mu.Unlock()
		if r.raw != nil {
			return r.raw.Read(p)
		}
		return r.nc.Read(p)
	}
	defer r.mu.Unlock()
	for r.mu.off == len(r.mu.data) && r.mu.err == nil && !r.mu.closed {
		r.mu.cond.Wait()
	}
	if r.mu.off < len(r.mu.data) {
		n := copy(p, r.mu.data[r.mu.off:])
		r.mu.off += n
		if r.mu.off == len(r.mu.data) {
			r.mu.data, r.mu.off = r.mu.data[:0], 0
		}
		r.mu.cond.Broadcast()
		return n, nil
	}
	if r.mu.closed {
		return 0, net.ErrClosed
	}
	return 0, r.mu.err
}

// stop ends the read-ahead goroutine (the caller closes the connection,
// which unblocks its Read) and waits for it.
func (r *connReader) stop() {
	r.mu.Lock()
	r.mu.closed = true
	async, done := r.mu.async, r.mu.done
	r.mu.cond.Broadcast()
	r.mu.Unlock()
	if async {
		<-done
	}
}
