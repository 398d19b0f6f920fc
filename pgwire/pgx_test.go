package pgwire_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/shale-db/shale/pgwire"
)

func connect(t testing.TB, addr string, extra ...string) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	dsn := fmt.Sprintf("postgres://tester@%s/testdb?sslmode=disable&%s", addr, strings.Join(extra, "&"))
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

func pgCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

func TestStartupParameters(t *testing.T) {
	addr, _ := startServer(t, pgwire.Options{})
	c := connect(t, addr, "application_name=myapp")
	pc := c.PgConn()
	for k, want := range map[string]string{"server_version": pgwire.ServerVersion, "server_encoding": "UTF8",
		"client_encoding": "UTF8", "DateStyle": "ISO, MDY", "integer_datetimes": "on",
		"standard_conforming_strings": "on", "TimeZone": "UTC", "application_name": "myapp", "is_superuser": "off"} {
		if got := pc.ParameterStatus(k); got != want {
			t.Errorf("ParameterStatus(%s) = %q, want %q", k, got, want)
		}
	}
	if pc.PID() == 0 {
		t.Error("no BackendKeyData")
	}
}

// TestClientEncodingSpellings: an encoding name reads as PostgreSQL reads
// it, ignoring case and punctuation; asyncpg's startup sends 'utf-8' with
// its quotes.
func TestClientEncodingSpellings(t *testing.T) {
	addr, _ := startServer(t, pgwire.Options{})
	for _, name := range []string{"'utf-8'", "utf8", "Unicode", "UTF-8"} {
		cfg, err := pgx.ParseConfig("postgres://shale@" + addr + "/db?sslmode=disable")
		if err != nil {
			t.Fatal(err)
		}
		cfg.RuntimeParams["client_encoding"] = name
		c, err := pgx.ConnectConfig(context.Background(), cfg)
		if err != nil {
			t.Fatalf("client_encoding %s: %v", name, err)
		}
		if got := c.PgConn().ParameterStatus("client_encoding"); got != "UTF8" {
			t.Errorf("client_encoding %s reads as %q, want UTF8", name, got)
		}
		c.Close(context.Background())
	}
	c := connect(t, addr)
	if _, err := c.Exec(context.Background(), "SET client_encoding = 'LATIN1'"); pgCode(err) != "0A000" {
		t.Errorf("SET client_encoding LATIN1: %v, want 0A000", err)
	}
}

func TestSimpleProtocol(t *testing.T) {
	addr, _ := startServer(t, pgwire.Options{})
	c := connect(t, addr, "default_query_exec_mode=simple_protocol")
	ctx := context.Background()
	rows, _ := c.Query(ctx, "gen 3")
	var got []string
	for rows.Next() {
		var i int64
		var s string
		if err := rows.Scan(&i, &s); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprint(i, s))
	}
	if rows.Err() != nil || strings.Join(got, ",") != "1row 1,2row 2,3row 3" {
		t.Fatalf("got %v, %v", got, rows.Err())
	}
	// Several statements in one Query; empty and comment-only queries.
	res, err := c.PgConn().Exec(ctx, "gen 2; gen 1;; -- the end").ReadAll()
	if err != nil || len(res) != 2 || len(res[0].Rows) != 2 || res[1].CommandTag.String() != "SELECT 1" {
		t.Fatalf("multi-statement: %+v, %v", res, err)
	}
	for _, q := range []string{"", "  ", "-- nothing", "/* nothing */ ;"} {
		res, err := c.PgConn().Exec(ctx, q).ReadAll()
		if err != nil || len(res) != 1 || res[0].CommandTag.String() != "" {
			t.Errorf("empty query %q: %+v, %v", q, res, err)
		}
	}
	// An error stops the rest of the Query, and the session carries on.
	res, err = c.PgConn().Exec(ctx, "gen 1; fail@3; gen 1").ReadAll()
	if pgCode(err) != "42601" || len(res) != 1 {
		t.Fatalf("error mid-query: %+v, %v", res, err)
	}
	var pe *pgconn.PgError
	errors.As(err, &pe)
	if want := int32(len("gen 1;") + 3 + 1); pe.Position != want { // the statement starts after ';'
		t.Errorf("Position = %d, want %d", pe.Position, want)
	}
	if err := c.Ping(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestExtendedProtocol(t *testing.T) {
	addr, _ := startServer(t, pgwire.Options{})
	c := connect(t, addr)
	ctx := context.Background()
	// $n with client types (pgx describes, then encodes in binary).
	var a int64
	var b string
	var named string
	if err := c.QueryRow(ctx, "echo $1:int64 $2 @zz", int64(7), "x", "named").Scan(&a, &b, &named); err != nil {
		t.Fatal(err)
	}
	if a != 7 || b != "x" || named != "named" {
		t.Fatalf("echo = %d %q %q", a, b, named)
	}
	// A parameter the query needs as BYTES: inferred from OID 0.
	var key []byte
	if err := c.QueryRow(ctx, "echo @p1:bytes", []byte("k\x00")).Scan(&key); err != nil || string(key) != "k\x00" {
		t.Fatalf("bytes = %q, %v", key, err)
	}
	// Named statements survive; errors name the parameter.
	if _, err := c.Prepare(ctx, "s1", "echo $1:int64"); err != nil {
		t.Fatal(err)
	}
	for i := range 7 { // past pgJDBC's binary threshold, for good measure
		var got int64
		if err := c.QueryRow(ctx, "s1", int64(i)).Scan(&got); err != nil || got != int64(i) {
			t.Fatalf("s1(%d) = %d, %v", i, got, err)
		}
	}
	_, err := c.Exec(ctx, "fail@5")
	var pe *pgconn.PgError
	if !errors.As(err, &pe) || pe.Code != "42601" || pe.Position != 6 {
		t.Fatalf("fail@5: %v", err)
	}
	if _, err := c.Prepare(ctx, "two", "gen 1; gen 2"); pgCode(err) != "42601" {
		t.Fatalf("two statements in Parse: %v", err)
	}
}

func TestBatchPipeline(t *testing.T) {
	addr, _ := startServer(t, pgwire.Options{})
	c := connect(t, addr)
	ctx := context.Background()
	b := &pgx.Batch{}
	b.Queue("gen 2")
	b.Queue("echo $1:int64", int64(5))
	b.Queue("runfail")
	b.Queue("gen 1")
	br := c.SendBatch(ctx, b)
	n := 0
	rows, _ := br.Query()
	for rows.Next() {
		n++
	}
	if rows.Err() != nil || n != 2 {
		t.Fatalf("gen 2: %d rows, %v", n, rows.Err())
	}
	var v int64
	if err := br.QueryRow().Scan(&v); err != nil || v != 5 {
		t.Fatalf("echo: %d %v", v, err)
	}
	rows, _ = br.Query()
	for rows.Next() {
	}
	if pgCode(rows.Err()) != "22012" {
		t.Fatalf("runfail: %v", rows.Err())
	}
	if _, err := br.Exec(); err == nil {
		t.Fatal("the statement after an error in a pipeline ran")
	}
	if err := br.Close(); err == nil {
		t.Log("batch close: nil")
	}
	var got int64
	if err := c.QueryRow(ctx, "echo $1:int64", int64(9)).Scan(&got); err != nil || got != 9 {
		t.Fatalf("after the failed batch: %d, %v", got, err)
	}
}

// TestPipelineAfterSlowQuery: a query slower than the hang-up watch's delay
// starts the read-ahead, which reads the messages pipelined behind it; when
// the query ends the session goes back to reading the connection itself,
// starting with what was read ahead.
func TestPipelineAfterSlowQuery(t *testing.T) {
	addr, _ := startServer(t, pgwire.Options{})
	c := connect(t, addr)
	ctx := context.Background()
	for round := range 3 {
		b := &pgx.Batch{}
		b.Queue("pause")
		for i := 1; i <= 20; i++ {
			b.Queue("echo $1:int64", int64(i))
		}
		br := c.SendBatch(ctx, b)
		var n int64
		if err := br.QueryRow().Scan(&n, new(string)); err != nil || n != 1 {
			t.Fatalf("round %d: pause: %d, %v", round, n, err)
		}
		for i := 1; i <= 20; i++ {
			if err := br.QueryRow().Scan(&n); err != nil || n != int64(i) {
				t.Fatalf("round %d: echo %d: %d, %v", round, i, n, err)
			}
		}
		if err := br.Close(); err != nil {
			t.Fatal(err)
		}
		if err := c.QueryRow(ctx, "echo $1:int64", int64(99)).Scan(&n); err != nil || n != 99 {
			t.Fatalf("round %d: after the batch: %d, %v", round, n, err)
		}
	}
}

func TestTypesTextAndBinary(t *testing.T) {
	addr, _ := startServer(t, pgwire.Options{})
	ctx := context.Background()
	var texts []string
	for _, mode := range []string{"simple_protocol", "cache_statement"} {
		c := connect(t, addr, "default_query_exec_mode="+mode)
		rows, err := c.Query(ctx, "types")
		if err != nil {
			t.Fatal(err)
		}
		if !rows.Next() {
			t.Fatal(rows.Err())
		}
		vals, err := rows.Values()
		if err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		rows.Close()
		texts = append(texts, fmt.Sprintf("%v", vals))
		t.Logf("%s: %v", mode, vals)
		fds := rows.FieldDescriptions()
		var oids []uint32
		for _, fd := range fds {
			oids = append(oids, fd.DataTypeOID)
		}
		if want := []uint32{16, 20, 700, 701, 25, 17, 1082, 1184, 1016, 1009, 1001, 3802, 3802, 20}; fmt.Sprint(oids) != fmt.Sprint(want) {
			t.Errorf("OIDs %v, want %v", oids, want)
		}
	}
	// Bytes in jsonb: UTF-8 text as itself, anything else (or text that
	// begins with \x) as "\x" and hex.
	want := `[true -42 1.5 0.1 héllo [0 1 255] 2019-05-01 00:00:00 +0000 UTC 2019-05-01 12:30:00.123456 +0000 UTC ` +
		`[1 2] [a b <nil>] [[104 105]] map[\xfe:\x5c78 k:v] map[a:7 b:x] <nil>]`
	for i, got := range texts {
		if got != want {
			t.Errorf("mode %d:\n got %s\nwant %s", i, got, want)
		}
	}
}

func TestCancelRequest(t *testing.T) {
	addr, _ := startServer(t, pgwire.Options{})
	c := connect(t, addr)
	ctx := context.Background()
	go func() {
		time.Sleep(200 * time.Millisecond)
		if err := c.PgConn().CancelRequest(context.Background()); err != nil {
			t.Errorf("CancelRequest: %v", err)
		}
	}()
	_, err := c.Exec(ctx, "sleep")
	if pgCode(err) != "57014" {
		t.Fatalf("sleep: %v", err)
	}
	if err := c.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	// The canceled execution's context is not the next one's, and a
	// CancelRequest while no query runs cancels nothing.
	for i := range 3 {
		if i == 1 {
			if err := c.PgConn().CancelRequest(ctx); err != nil {
				t.Fatal(err)
			}
			time.Sleep(50 * time.Millisecond)
		}
		var n int64
		if err := c.QueryRow(ctx, "gen 1").Scan(&n, new(string)); err != nil || n != 1 {
			t.Fatalf("gen 1 after the cancel (%d): %d, %v", i, n, err)
		}
	}
}

// TestStatementTimeout: a statement that runs past statement_timeout fails
// with 57014 and says so (a CancelRequest's says "user request"); the
// statements after it run, and so does one that ends in time.
func TestStatementTimeout(t *testing.T) {
	addr, _ := startServer(t, pgwire.Options{})
	c := connect(t, addr)
	ctx := context.Background()
	if _, err := c.Exec(ctx, "SET statement_timeout = '100ms'"); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		_, err := c.Exec(ctx, "sleep")
		var pe *pgconn.PgError
		if !errors.As(err, &pe) || pe.Code != "57014" || pe.Message != "canceling statement due to statement timeout" {
			t.Fatalf("sleep: %v", err)
		}
		var n int64
		if err := c.QueryRow(ctx, "gen 1").Scan(&n, new(string)); err != nil || n != 1 {
			t.Fatalf("gen 1: %d, %v", n, err)
		}
	}
}

func TestDisconnectStopsQuery(t *testing.T) {
	addr, f := startServer(t, pgwire.Options{})
	c := connect(t, addr)
	rows, err := c.Query(context.Background(), "forever")
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		rows.Next()
	}
	c.PgConn().Conn().Close() // hang up mid-result
	waitEnded(t, f, "forever")
}

// waitEnded waits for the fake executor's query word to end, as it does
// when its client hangs up or cancels.
func waitEnded(t *testing.T, f *fakeExec, word string) {
	t.Helper()
	select {
	case w := <-f.ended:
		if w != word {
			t.Fatalf("ended %q", w)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("%s kept running after the client gave up on it", word)
	}
}

func TestMaxConns(t *testing.T) {
	addr, _ := startServer(t, pgwire.Options{MaxConns: 1})
	connect(t, addr)
	_, err := pgx.Connect(context.Background(), "postgres://tester@"+addr+"/db?sslmode=disable")
	if pgCode(err) != "53300" {
		t.Fatalf("second connection: %v", err)
	}
}

// TestCopyCancel: a COPY runs until the client gives up on it (pgx hangs
// up when CopyTo's context ends), and then stops.
func TestCopyCancel(t *testing.T) {
	addr, f := startServer(t, pgwire.Options{})
	c := connect(t, addr)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, err := c.PgConn().CopyTo(ctx, io.Discard, "COPY (forever) TO STDOUT"); err == nil {
		t.Fatal("COPY (forever) ended without an error")
	}
	waitEnded(t, f, "forever")
}
