package btserver

import (
	"bytes"
	"fmt"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/shale-db/shale/sql/sqlerr"
)

func TestPreparedTokenRoundTrip(t *testing.T) {
	id, err := queryIdentity("projects/p/instances/i", "SELECT 1", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := preparedToken{identity: id, validUntil: 1717245296123456, schema: 0xdeadbeef}
	enc := want.encode()
	got, err := decodePreparedToken(enc)
	if err != nil || !bytes.Equal(got.identity, want.identity) || got.validUntil != want.validUntil || got.schema != want.schema {
		t.Fatalf("decode(encode(%+v)) = %+v, %v", want, got, err)
	}
	req, err := got.request()
	if err != nil || req.GetQuery() != "SELECT 1" || req.GetInstanceName() != "projects/p/instances/i" {
		t.Fatalf("request() = %v, %v", req, err)
	}
	for i := range enc {
		bad := append([]byte(nil), enc...)
		bad[i] ^= 0x40
		if _, err := decodePreparedToken(bad); err == nil {
			t.Errorf("a token with byte %d flipped decodes", i)
		}
	}
}

func TestResumeTokenRoundTrip(t *testing.T) {
	for _, want := range []resumeToken{{}, {rows: 1, fingerprint: 7}, {rows: 1 << 40, done: true, fingerprint: 0xffffffff}} {
		got, err := decodeResumeToken(want.encode())
		if err != nil || got != want {
			t.Errorf("decode(encode(%+v)) = %+v, %v", want, got, err)
		}
		if len(want.encode()) == 0 {
			t.Errorf("empty token for %+v: clients ignore empty tokens", want)
		}
	}
}

// FuzzDecodeTokens: arbitrary bytes never panic, and what decodes
// re-encodes to the same bytes.
func FuzzDecodeTokens(f *testing.F) {
	id, _ := queryIdentity("projects/p/instances/i", "SELECT @x", nil)
	f.Add(preparedToken{identity: id, validUntil: 5, schema: 9}.encode())
	f.Add(resumeToken{rows: 300, done: true, fingerprint: 1}.encode())
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		if r, err := decodeResumeToken(b); err == nil && !bytes.Equal(r.encode(), b) {
			t.Errorf("resume token %x re-encodes as %x", b, r.encode())
		}
		if p, err := decodePreparedToken(b); err == nil {
			_, _ = p.request()
		}
	})
}

type nopStmt struct{ Statement }

func TestStmtCacheEvicts(t *testing.T) {
	c := newStmtCache(2)
	a, b, d := &nopStmt{}, &nopStmt{}, &nopStmt{}
	c.put("a", a)
	c.put("b", b)
	if c.get("a") != a { // a is now the most recently used
		t.Fatal("a missing")
	}
	c.put("d", d)
	if c.get("b") != nil || c.get("a") != a || c.get("d") != d || c.len() != 2 {
		t.Errorf("after overflow: b=%v a=%v d=%v len=%d; want b evicted", c.get("b"), c.get("a"), c.get("d"), c.len())
	}
}

// TestSQLCodes: every SQL error code maps to a deliberate gRPC code, never
// UNKNOWN or OK.
func TestSQLCodes(t *testing.T) {
	want := map[sqlerr.Code]codes.Code{
		sqlerr.Internal: codes.Internal, sqlerr.Syntax: codes.InvalidArgument, sqlerr.NotSupported: codes.InvalidArgument,
		sqlerr.UndefinedTable: codes.NotFound, sqlerr.UndefinedColumn: codes.InvalidArgument,
		sqlerr.UndefinedFunction: codes.InvalidArgument, sqlerr.UndefinedParameter: codes.InvalidArgument,
		sqlerr.TypeMismatch: codes.InvalidArgument, sqlerr.InvalidArgument: codes.InvalidArgument,
		sqlerr.DivisionByZero: codes.OutOfRange, sqlerr.OutOfRange: codes.OutOfRange, sqlerr.InvalidValue: codes.OutOfRange,
		sqlerr.ResourceExhausted: codes.ResourceExhausted, sqlerr.Canceled: codes.Canceled,
		sqlerr.TooComplex: codes.InvalidArgument,
	}
	for c := sqlerr.Code(0); c <= sqlerr.TooComplex+1; c++ {
		err := grpcStatus(fmt.Errorf("wrapped: %w", sqlerr.New(c, "boom")))
		w, ok := want[c]
		if !ok {
			w = codes.Internal // codes added later default to INTERNAL
		}
		if got := status.Code(err); got != w {
			t.Errorf("%v: got %v, want %v", c, got, w)
		}
	}
}
