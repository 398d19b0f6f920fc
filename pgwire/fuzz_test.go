package pgwire_test

import (
	"context"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/shale-db/shale/pgwire"
)

// pipeListener hands out the server ends of net.Pipe connections.
type pipeListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error   { l.once.Do(func() { close(l.done) }); return nil }
func (l *pipeListener) Addr() net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)} }

func (l *pipeListener) dial() net.Conn {
	client, server := net.Pipe()
	select {
	case l.conns <- server:
	case <-l.done:
	}
	return client
}

// panicLog records the server's "panicked" log lines.
type panicLog struct {
	mu  sync.Mutex
	msg []string
}

func (p *panicLog) Enabled(context.Context, slog.Level) bool { return true }
func (p *panicLog) Handle(_ context.Context, r slog.Record) error {
	if strings.Contains(r.Message, "panicked") {
		p.mu.Lock()
		r.Attrs(func(a slog.Attr) bool { p.msg = append(p.msg, a.String()); return true })
		p.mu.Unlock()
	}
	return nil
}
func (p *panicLog) WithAttrs([]slog.Attr) slog.Handler { return p }
func (p *panicLog) WithGroup(string) slog.Handler      { return p }

func encode(msgs ...pgproto3.FrontendMessage) []byte {
	var b []byte
	for _, m := range msgs {
		b, _ = m.Encode(b)
	}
	return b
}

// FuzzBackend sends random frontend messages after a valid startup over
// net.Pipe: the server must not panic, and once the client hangs up it must
// end the session promptly (no hang).
func FuzzBackend(f *testing.F) {
	f.Add(encode(&pgproto3.Query{String: "gen 3; fail@1"}))
	f.Add(encode(&pgproto3.Parse{Query: "echo $1 @x"}, &pgproto3.Bind{Parameters: [][]byte{[]byte("1"), nil}},
		&pgproto3.Describe{ObjectType: 'P'}, &pgproto3.Execute{MaxRows: 1}, &pgproto3.Sync{}))
	f.Add(encode(&pgproto3.Parse{Query: "types"}, &pgproto3.Bind{ResultFormatCodes: []int16{1}},
		&pgproto3.Execute{}, &pgproto3.Sync{}))
	f.Add(encode(&pgproto3.Query{String: "BEGIN; DECLARE c CURSOR FOR gen 3; FETCH 2 c; SET x = 1; SHOW x"}))
	f.Add(encode(&pgproto3.Query{String: `SET "search_path" TO "a`}))
	f.Add(encode(&pgproto3.Query{String: "COPY (gen 3) TO STDOUT WITH (FORMAT csv, HEADER, FORCE_QUOTE (s)); COPY t (a) TO STDOUT CSV QUOTE AS '|'"}))
	f.Add(encode(&pgproto3.Query{String: "COPY (types) TO STDOUT (FORMAT binary); COPY (gen 2) TO STDOUT BINARY"}))
	f.Add(encode(&pgproto3.Parse{Name: "a", Query: "echo $1:int64", ParameterOIDs: []uint32{20}},
		&pgproto3.Bind{PreparedStatement: "a", ParameterFormatCodes: []int16{1}, Parameters: [][]byte{{0, 0, 0, 0, 0, 0, 0, 1}}},
		&pgproto3.Execute{}, &pgproto3.Flush{}, &pgproto3.Close{ObjectType: 'S', Name: "a"}, &pgproto3.Sync{}))
	f.Add([]byte{'B', 0, 0, 0, 8, 'x', 0, 'y', 0})
	f.Add([]byte{'Q', 0xff, 0xff, 0xff, 0xff})
	f.Add([]byte{'Z', 0, 0, 0, 4})
	f.Fuzz(func(t *testing.T, data []byte) { runFuzzOne(t, data) })
}

var startupBytes = encode(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30,
	Parameters: map[string]string{"user": "fuzz", "database": "db"}})

func runFuzzOne(t *testing.T, data []byte) {
	{
		startup := startupBytes
		plog := &panicLog{}
		s := pgwire.NewServer(pgwire.Options{Executor: newFake(), Logger: slog.New(plog)})
		l := newPipeListener()
		served := make(chan struct{})
		go func() { s.Serve(l); close(served) }()
		client := l.dial()
		client.SetDeadline(time.Now().Add(2 * time.Second))
		drained := make(chan struct{})
		go func() { io.Copy(io.Discard, client); close(drained) }()
		client.Write(startup)
		client.Write(data)
		client.Write(encode(&pgproto3.Sync{}, &pgproto3.Terminate{}))
		select {
		case <-drained: // the server closed the connection
		case <-time.After(20 * time.Millisecond): // still waiting for a partial message
		}
		client.Close()
		closed := make(chan struct{})
		go func() { s.Close(); close(closed) }()
		select {
		case <-closed:
		case <-time.After(5 * time.Second):
			t.Fatalf("the server did not stop within 5s of the client hanging up (input %q)", data)
		}
		<-served
		if len(plog.msg) > 0 {
			t.Fatalf("panic: %s", strings.Join(plog.msg, "\n"))
		}
	}
}
