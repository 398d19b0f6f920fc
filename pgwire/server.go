package pgwire

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"crypto/tls"
	"encoding/binary"
	"errors"
	"log/slog"
	"net"
	"sync"
	"time"
)

// Options configure a Server.
type Options struct {
	// Executor runs GoogleSQL (required).
	Executor Executor
	// Catalog, when set, answers PostgreSQL-dialect catalog queries before
	// the Executor sees them.
	Catalog Catalog
	// TLS, when set, is offered to clients that send SSLRequest.
	TLS *tls.Config
	// Auth checks passwords; nil is trust (any user, no password).
	Auth *Auth
	// MaxConns limits concurrent sessions; beyond it a client gets 53300
	// (0: no limit).
	MaxConns int
	// Logger receives connection errors (default slog.Default).
	Logger *slog.Logger
}

// Server accepts PostgreSQL connections and serves each in a goroutine it
// owns.
type Server struct {
	opts   Options
	ctx    context.Context // canceled by Close: stops every session
	cancel context.CancelFunc
	wg     sync.WaitGroup
	mu     struct {
		sync.Mutex
		conns     map[uint32]*conn // by process id (BackendKeyData)
		listeners map[net.Listener]struct{}
		sessions  int // conns past their StartupMessage
	}
}

// NewServer returns a server; call Serve with a listener.
func NewServer(opts Options) *Server {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	s := &Server{opts: opts}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.mu.conns = map[uint32]*conn{}
	s.mu.listeners = map[net.Listener]struct{}{}
	return s
}

// Serve accepts connections on l until Close; it returns nil after Close.
func (s *Server) Serve(l net.Listener) error {
	s.mu.Lock()
	if s.ctx.Err() != nil {
		s.mu.Unlock()
		return nil
	}
	s.mu.listeners[l] = struct{}{}
	s.wg.Add(1)
	s.mu.Unlock()
	defer s.wg.Done()
	var delay time.Duration
	for {
		nc, err := l.Accept()
		if err != nil {
			if s.ctx.Err() != nil {
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				delay = min(max(2*delay, 5*time.Millisecond), time.Second)
				time.Sleep(delay)
				continue
			}
			return err
		}
		delay = 0
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.serveConn(nc)
		}()
	}
}

// Close stops accepting, ends every session (their running queries are
// canceled) and waits for the goroutines.
func (s *Server) Close() error { return s.Shutdown(context.Background()) }

// Shutdown stops accepting, cancels every running query and closes every
// connection, then waits for the sessions to end until ctx is done: a
// session busy in one long computation that does not look at its context
// can outlive it, and then Shutdown returns ctx's error.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.cancel()
	for l := range s.mu.listeners {
		l.Close()
	}
	for _, c := range s.mu.conns {
		c.nc.Close()
	}
	s.mu.Unlock()
	done := make(chan struct{})
	go func() {
		s.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// register assigns a process id and secret key and counts the session
// against MaxConns.
func (s *Server) register(c *conn) error {
	var b [8]byte
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.opts.MaxConns > 0 && s.mu.sessions >= s.opts.MaxConns {
		return fatal(codeTooManyConnections, "sorry, too many clients already")
	}
	for {
		rand.Read(b[:])
		c.pid = binary.BigEndian.Uint32(b[:4]) & 0x7fffffff
		c.secret = binary.BigEndian.Uint32(b[4:])
		if _, dup := s.mu.conns[c.pid]; !dup && c.pid != 0 {
			break
		}
	}
	s.mu.conns[c.pid] = c
	s.mu.sessions++
	return nil
}

func (s *Server) unregister(c *conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mu.conns[c.pid] == c {
		delete(s.mu.conns, c.pid)
		s.mu.sessions--
	}
}

// cancelRequest cancels the running query of the session with this key
// (CancelRequest); an unknown key is ignored, as PostgreSQL does.
func (s *Server) cancelRequest(pid, secret uint32) {
	s.mu.Lock()
	c := s.mu.conns[pid]
	s.mu.Unlock()
	if c == nil || subtle.ConstantTimeEq(int32(c.secret), int32(secret)) != 1 {
		return
	}
	c.cancelRunning()
}

// trackConn makes Close able to close a connection still in startup.
func (s *Server) trackConn(nc net.Conn) (untrack func()) {
	stop := context.AfterFunc(s.ctx, func() { nc.Close() })
	return func() { stop() }
}
