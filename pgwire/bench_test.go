package pgwire

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"net"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/shale-db/shale/sql/types"
)

// BenchmarkDataRowEncode encodes rows of an int, a string and a bytes
// map into the reused write buffer (text and binary).
func BenchmarkDataRowEncode(b *testing.B) {
	m := types.MapOf(types.Bytes, types.Bytes)
	row := []types.Value{types.Int64Value(123456789), types.StringValue("phone#4c410523#20190501"),
		types.MapValue(m, []types.Value{types.BytesValue([]byte("os_build")), types.BytesValue([]byte("PQ2A.190405.003"))})}
	cols := []column{{oid: oidInt8}, {oid: oidText}, {oid: oidJSONB}}
	for _, f := range []int16{formatText, formatBinary} {
		b.Run(map[int16]string{0: "text", 1: "binary"}[f], func(b *testing.B) {
			c := &conn{enc: newEncoder(), w: msgWriter{w: io.Discard}}
			fmts := []int16{f, f, f}
			b.ReportAllocs()
			for b.Loop() {
				if err := c.sendRow(row, cols, fmts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkJSONMapKeys encodes a three-qualifier family as jsonb: keys
// already in jsonb's order (checked, not sorted) and keys that must be
// reordered (longer qualifiers sort after shorter ones).
func BenchmarkJSONMapKeys(b *testing.B) {
	m := types.MapOf(types.Bytes, types.Bytes)
	for _, tc := range []struct {
		name string
		keys []string
	}{{"ordered", []string{"a", "b", "c"}}, {"reordered", []string{"connected_cell", "connected_wifi", "os_build"}}} {
		var kv []types.Value
		for _, k := range tc.keys {
			kv = append(kv, types.BytesValue([]byte(k)), types.BytesValue([]byte("PQ2A.190405.003")))
		}
		row, cols := []types.Value{types.MapValue(m, kv)}, []column{{oid: oidJSONB}}
		b.Run(tc.name, func(b *testing.B) {
			c := &conn{enc: newEncoder(), w: msgWriter{w: io.Discard}}
			b.ReportAllocs()
			for b.Loop() {
				if err := c.sendRow(row, cols, []int16{formatText}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPointLookup drives one session through pgbench-shaped point
// lookups against an executor that returns one row of two bytea columns:
// prepared is Bind, Describe portal, Execute, Sync per op (pgbench -M
// prepared: a text parameter of unspecified type, text results); binary is
// the same with an int8 parameter and results in binary (pgx); simple is
// one Query message per op (pgbench -M simple). It measures pgwire's own
// cost: the fake executor allocates once per Run.
func BenchmarkPointLookup(b *testing.B) {
	const query = "SELECT k, v FROM t WHERE k = $1"
	prepare := func(oid uint32) []pgproto3.FrontendMessage {
		return []pgproto3.FrontendMessage{&pgproto3.Parse{Name: "q", Query: query, ParameterOIDs: []uint32{oid}}, &pgproto3.Sync{}}
	}
	extended := func(param []byte, format int16) []pgproto3.FrontendMessage {
		return []pgproto3.FrontendMessage{
			&pgproto3.Bind{PreparedStatement: "q", ParameterFormatCodes: []int16{format}, Parameters: [][]byte{param},
				ResultFormatCodes: []int16{format}},
			&pgproto3.Describe{ObjectType: 'P'},
			&pgproto3.Execute{},
			&pgproto3.Sync{},
		}
	}
	for _, bc := range []struct {
		name       string
		setup, per []pgproto3.FrontendMessage
	}{
		{"prepared", prepare(oidUnspecified), extended([]byte("12345"), formatText)},
		{"binary", prepare(oidInt8), extended(binary.BigEndian.AppendUint64(nil, 12345), formatBinary)},
		{"simple", nil, []pgproto3.FrontendMessage{&pgproto3.Query{String: "SELECT k, v FROM t WHERE k = 12345"}}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			nc := newBenchConn(b, bc.setup, bc.per)
			s := NewServer(Options{Executor: benchExec{}})
			defer s.Close()
			b.ReportAllocs()
			b.ResetTimer()
			s.serveConn(nc) // returns after b.N ops and a Terminate
			b.StopTimer()
			if nc.rows != b.N || nc.errors > 0 {
				b.Fatalf("%d ops: %d DataRows, %d ErrorResponses", b.N, nc.rows, nc.errors)
			}
		})
	}
}

// benchExec prepares every query as the same statement.
type benchExec struct{}

func (benchExec) Prepare(context.Context, string, string, map[string]*types.Type) (Statement, error) {
	return benchStmt{}, nil
}

// benchStmt returns one row of two bytea columns.
type benchStmt struct{}

var (
	benchCols = []types.Field{{Name: "k", Type: types.Bytes}, {Name: "v", Type: types.Bytes}}
	benchRow  = []types.Value{types.BytesValue([]byte("user#0000012345")), types.BytesValue(bytes.Repeat([]byte{'v'}, 84))}
)

func (benchStmt) Columns() []types.Field { return benchCols }
func (benchStmt) Run(context.Context, map[string]types.Value) (Rows, error) {
	return &benchRows{}, nil
}

type benchRows struct{ n int }

func (r *benchRows) Next() bool         { r.n++; return r.n == 1 }
func (r *benchRows) Row() []types.Value { return benchRow }
func (r *benchRows) Err() error         { return nil }
func (r *benchRows) Close() error       { return nil }

// benchConn is an in-memory client: it reads a startup message, setup, b.N
// copies of per and a Terminate, and counts the DataRows and
// ErrorResponses it is sent.
type benchConn struct {
	net.Conn     // nil: only the methods below are used
	head, per    []byte
	left         int // copies of per still to read
	buf          []byte
	rows, errors int
}

func newBenchConn(b *testing.B, setup, per []pgproto3.FrontendMessage) *benchConn {
	encode := func(dst []byte, msgs ...pgproto3.FrontendMessage) []byte {
		for _, m := range msgs {
			var err error
			if dst, err = m.Encode(dst); err != nil {
				b.Fatal(err)
			}
		}
		return dst
	}
	nc := &benchConn{left: b.N}
	nc.head = encode(nil, &pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30,
		Parameters: map[string]string{"user": "bench", "database": "db"}})
	nc.head = encode(nc.head, setup...)
	nc.per = encode(nil, per...)
	return nc
}

func (c *benchConn) Read(p []byte) (int, error) {
	for len(c.buf) == 0 {
		switch {
		case c.head != nil:
			c.buf, c.head = c.head, nil
		case c.left > 0:
			c.buf, c.left = c.per, c.left-1
		case c.per != nil:
			c.buf, c.per = []byte{'X', 0, 0, 0, 4}, nil // Terminate
		default:
			return 0, io.EOF
		}
	}
	n := copy(p, c.buf)
	c.buf = c.buf[n:]
	return n, nil
}

func (c *benchConn) Write(p []byte) (int, error) {
	for m := p; len(m) >= 5; m = m[1+binary.BigEndian.Uint32(m[1:]):] {
		switch m[0] {
		case 'D':
			c.rows++
		case 'E':
			c.errors++
		}
	}
	return len(p), nil
}

func (c *benchConn) Close() error                     { return nil }
func (c *benchConn) SetDeadline(time.Time) error      { return nil }
func (c *benchConn) SetWriteDeadline(time.Time) error { return nil }
