package pgwire

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"runtime/debug"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"
)

// Transaction status, as ReadyForQuery reports it.
const (
	txIdle   byte = 'I'
	txActive byte = 'T'
	txFailed byte = 'E'
)

// maxMessage bounds a frontend message body (PostgreSQL allows 1 GiB).
const maxMessage = 64 << 20

// conn is one client session. Everything but mu is owned by the session's
// goroutine (serveConn); the reader goroutine only reads the network and
// CancelRequest only touches mu.
type conn struct {
	srv    *Server
	nc     net.Conn // the TLS connection once negotiated
	rd     *connReader
	be     *pgproto3.Backend
	w      msgWriter
	enc    *encoder
	ctx    context.Context // ends at hang-up or server Close
	cancel context.CancelFunc

	pid, secret    uint32
	user, database string
	set            *settings
	// reported are the values last sent in ParameterStatus, by canonical
	// name: a change is reported only when the value differs, as
	// PostgreSQL (14 and later) reports it.
	reported map[string]string
	// unreported are the reported settings changed since the last
	// ReadyForQuery, in order of first change: ReadyForQuery sends their
	// ParameterStatus first (reportChanges).
	unreported []string

	stmts     map[string]*prepared
	portals   map[string]*portal
	cursors   map[string]*cursor
	ctxs      execContexts // the executions' contexts (portal.start)
	tx        byte
	localUndo map[string]localPrior // SET LOCAL: values to restore at transaction end
	// txnUndo holds the settings changed in the current transaction
	// (explicit, implicit or a pipeline's) as they were before, by
	// savepoint: its abort restores them, its commit forgets them
	// (txnsettings.go).
	txnUndo  []undoLayer
	skipping bool // an extended-protocol message failed: discard until Sync
	// implicit is set while a simple Query of several statements runs
	// outside a transaction block: PostgreSQL runs them in an implicit
	// transaction block (inBlock), which ends with the Query.
	implicit bool
	// pipelined is set once an Execute has completed a statement since the
	// last Sync without ending the transaction: PostgreSQL's
	// XACT_FLAGS_PIPELINING, which DISCARD ALL refuses.
	pipelined bool

	mu struct {
		sync.Mutex
		running context.CancelFunc // the executing portal's, for CancelRequest
		// runs counts the executions started (setRunning); seen is its
		// value when the watch timer was set, so that a timer that finds it
		// unchanged knows the execution running then has run all along.
		runs, seen uint64
		// watchTimer calls checkRunning; pending: it is set to (setRunning).
		watchTimer *time.Timer
		pending    bool
		watching   bool // the reader reads ahead, until the query ends
	}
}

// serveConn runs a connection from its first byte to its close.
func (s *Server) serveConn(nc net.Conn) {
	defer s.trackConn(nc)()
	c := &conn{srv: s, nc: nc, enc: newEncoder(), tx: txIdle, stmts: map[string]*prepared{}, reported: map[string]string{},
		portals: map[string]*portal{}, cursors: map[string]*cursor{}}
	c.ctx, c.cancel = context.WithCancel(s.ctx)
	c.ctxs.parent = c.ctx
	defer c.cancel() // and every execution's context
	defer func() {
		if r := recover(); r != nil {
			s.opts.Logger.Error("pgwire: session panicked", "panic", r, "stack", string(debug.Stack()))
		}
		c.nc.Close()
		if c.rd != nil {
			c.rd.stop()
		}
		c.closeAll()
	}()
	defer s.unregister(c)
	if !c.startup() {
		return
	}
	c.loop()
}

// loop reads and dispatches messages until Terminate, a hang-up or a
// protocol violation.
func (c *conn) loop() {
	for {
		msg, err := c.be.Receive()
		if err != nil {
			c.receiveFailed(err)
			return
		}
		if c.skipping {
			switch msg.(type) {
			case *pgproto3.Sync:
				c.skipping = false
				c.sync()
			case *pgproto3.Terminate:
				return
			}
			continue
		}
		switch m := msg.(type) {
		case *pgproto3.Query:
			c.simpleQuery(m.String)
		case *pgproto3.Parse:
			c.extended(c.parse(m))
		case *pgproto3.Bind:
			c.extended(c.bind(m))
		case *pgproto3.Describe:
			c.extended(c.describe(m))
		case *pgproto3.Execute:
			c.extended(c.execute(m))
		case *pgproto3.Close:
			c.extended(c.closeMsg(m))
		case *pgproto3.Sync:
			c.sync()
		case *pgproto3.Flush:
			c.w.flush()
		case *pgproto3.Terminate:
			return
		case *pgproto3.CopyData, *pgproto3.CopyDone, *pgproto3.CopyFail:
			// ignored outside COPY, as PostgreSQL does
		case *pgproto3.FunctionCall:
			c.sendError(errorf(codeNotSupported, "function call messages are not supported"))
			c.readyForQuery()
		default:
			c.sendError(fatal(codeProtocolViolation, fmt.Sprintf("unexpected message %T", msg)))
			c.w.flush()
			return
		}
		if c.w.err != nil {
			return
		}
	}
}

// receiveFailed ends the session on a read error: quietly on a hang-up,
// with a FATAL 08P01 on a malformed message.
func (c *conn) receiveFailed(err error) {
	if c.ctx.Err() != nil || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, net.ErrClosed) {
		return
	}
	c.sendError(fatal(codeProtocolViolation, "invalid frontend message: "+err.Error()))
	c.w.flush()
}

// extended finishes an extended-protocol message: after an error, every
// message up to Sync is discarded.
func (c *conn) extended(err error) {
	if err == nil {
		return
	}
	c.sendError(err)
	// Sent now, as PostgreSQL sends it: the messages up to Sync are
	// skipped, a Flush among them, and a client that sent Parse, Describe
	// and Flush (asyncpg) waits for the answer before it sends Sync.
	c.w.flush()
	c.skipping = true
}

// sendError sends an ErrorResponse for err (an inText error gives its
// Position). The error aborts the (sub)transaction, undoing its settings
// at once as PostgreSQL does; inside a transaction block the block fails
// until ROLLBACK.
func (c *conn) sendError(err error) {
	text, base := "", 0
	var it *inText
	if errors.As(err, &it) {
		text, base = it.text, it.base
	}
	c.w.send(toPGError(nil, err, nil).response(text, base))
	c.abortOnError()
	if c.tx == txActive {
		c.tx = txFailed
	}
}

// notice sends a NoticeResponse (a WARNING).
func (c *conn) notice(code, msg string) {
	c.w.send(&pgproto3.NoticeResponse{Severity: "WARNING", SeverityUnlocalized: "WARNING", Code: code, Message: msg})
}

// readyForQuery reports the settings changed since the last one, then
// sends ReadyForQuery.
func (c *conn) readyForQuery() {
	c.reportChanges()
	c.w.sendReady(c.tx)
	c.w.flush()
}

// inBlock reports whether a transaction block is open, explicit (BEGIN)
// or implicit (a simple Query of several statements): DECLARE, SET LOCAL,
// SET TRANSACTION and LOCK need one, and DISCARD ALL refuses one.
func (c *conn) inBlock() bool { return c.tx != txIdle || c.implicit }

// sync ends an extended-protocol batch. Outside a transaction block it
// also ends the implicit transaction: every portal closes.
func (c *conn) sync() {
	c.pipelined = false
	if c.tx == txIdle {
		c.closePortals()
		c.txnUndo = nil // committed
	}
	c.readyForQuery()
}

// cancelRunning cancels the executing portal, if any (CancelRequest).
func (c *conn) cancelRunning() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.mu.running != nil {
		c.mu.running()
	}
}

// setRunning records the cancel function of the execution running now (nil
// once it stops). An execution still running after watchDelay starts the
// reader's read-ahead (connReader.watch), so that a client hanging up stops
// it, and its end stops the read-ahead again; quick queries never pay for
// the read-ahead goroutine's handoffs, nor do the queries after a slow one.
//
// Nor do they pay for a clock reading, or for stopping and resetting a
// timer each: the timer is set by the first execution to start while it is
// not pending, and when it fires, checkRunning looks at whichever
// execution runs then.
func (c *conn) setRunning(cancel context.CancelFunc) {
	c.mu.Lock()
	c.mu.running = cancel
	if cancel == nil && c.mu.watching {
		c.mu.watching = false
		c.mu.Unlock()
		c.rd.unwatch()
		return
	}
	defer c.mu.Unlock()
	if cancel == nil || c.mu.watching {
		return
	}
	c.mu.runs++
	if c.mu.pending {
		return
	}
	c.mu.pending, c.mu.seen = true, c.mu.runs
	if c.mu.watchTimer == nil {
		c.mu.watchTimer = time.AfterFunc(watchDelay, c.checkRunning)
	} else {
		c.mu.watchTimer.Reset(watchDelay)
	}
}

// watchDelay is how long a query runs before the session watches its
// connection for a hang-up: at least this, and less than twice it.
const watchDelay = 10 * time.Millisecond

// checkRunning runs on the watch timer. If the execution that ran when the
// timer was set still runs, it has run for watchDelay: checkRunning starts
// the read-ahead that notices a client's hang-up. If a later one runs, it
// sets the timer again, to look at that one; if none runs, it lets the
// timer lapse. It holds mu while it starts the read-ahead: the session
// reads the connection only after setRunning(nil), so it never reads while
// the read-ahead starts, and only one goroutine ever reads the connection.
func (c *conn) checkRunning() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.mu.running == nil {
		c.mu.pending = false
		return
	}
	if c.mu.runs != c.mu.seen {
		c.mu.seen = c.mu.runs
		c.mu.watchTimer.Reset(watchDelay)
		return
	}
	c.mu.pending, c.mu.watching = false, true
	c.rd.watch(func() {
		c.cancel() // stops a running query of a client that hung up
		c.nc.SetWriteDeadline(time.Now())
	})
}

// closePortals closes every portal but the one running, which closes at
// the next Bind of its name or the next Sync.
func (c *conn) closePortals() {
	for name, pt := range c.portals {
		if pt.running {
			continue
		}
		delete(c.portals, name)
		pt.discard()
	}
}

// closeAll releases everything the session holds.
func (c *conn) closeAll() {
	c.closePortals()
	for name, cur := range c.cursors {
		cur.close()
		delete(c.cursors, name)
	}
}

// session is the Session a Catalog sees.
func (c *conn) session() Session { return sessionView{c} }

type sessionView struct{ c *conn }

func (s sessionView) User() string                       { return s.c.user }
func (s sessionView) Database() string                   { return s.c.database }
func (s sessionView) Setting(name string) (string, bool) { return s.c.set.get(name) }
func (s sessionView) Settings() []SettingValue           { return s.c.set.list() }

// inText locates an error's statement: it starts at byte base of text (the
// Query or Parse string), so that Position counts from the client's text.
type inText struct {
	err  error
	text string
	base int
}

func (e *inText) Error() string { return e.err.Error() }
func (e *inText) Unwrap() error { return e.err }

// at wraps a non-nil err with its statement's location.
func at(err error, text string, base int) error {
	if err == nil {
		return nil
	}
	return &inText{err, text, base}
}
