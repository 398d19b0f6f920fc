package pgwire_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/binary"
	"io"
	"math/big"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/shale-db/shale/pgwire"
)

func TestSessionStatements(t *testing.T) {
	addr, _ := startServer(t, pgwire.Options{})
	c := connect(t, addr)
	ctx := context.Background()
	show := func(q string) string {
		t.Helper()
		var v string
		if err := c.QueryRow(ctx, q).Scan(&v); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return v
	}
	exec := func(q string) {
		t.Helper()
		if _, err := c.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	exec("SET search_path TO myschema, public")
	exec("SET SESSION extra_float_digits = 3")
	exec("SET TIME ZONE 'America/New_York'")
	for q, want := range map[string]string{
		"SHOW search_path":                    "myschema, public",
		"SHOW extra_float_digits":             "3",
		"SHOW timezone":                       "America/New_York",
		"SHOW TRANSACTION ISOLATION LEVEL":    "read committed",
		"SHOW server_version":                 pgwire.ServerVersion,
		"SELECT current_setting('DateStyle')": "ISO, MDY",
		"SELECT pg_catalog.current_schema()":  "public",
		"SELECT current_database()":           "testdb",
		"SELECT current_user":                 "tester",
	} {
		if got := show(q); got != want {
			t.Errorf("%s = %q, want %q", q, got, want)
		}
	}
	if c.PgConn().ParameterStatus("TimeZone") != "America/New_York" {
		t.Errorf("no ParameterStatus after SET TIME ZONE")
	}
	if v := show("SELECT version()"); !strings.HasPrefix(v, "PostgreSQL 15.") {
		t.Errorf("version() = %q", v)
	}
	exec("RESET search_path")
	if got := show("SHOW search_path"); got != `"$user", public` {
		t.Errorf("after RESET: %q", got)
	}
	// set_config is SET (pg_dump clears search_path with it); a local one
	// outside a transaction changes nothing past its statement.
	if got := show("SELECT pg_catalog.set_config('search_path', '', false)"); got != "" {
		t.Errorf("set_config returned %q", got)
	}
	if got := show("SHOW search_path"); got != "" {
		t.Errorf("after set_config: search_path %q", got)
	}
	if got := show("SELECT set_config('extra_float_digits', '2', true)"); got != "2" {
		t.Errorf("local set_config returned %q", got)
	}
	if got := show("SHOW extra_float_digits"); got != "3" {
		t.Errorf("a local set_config outside a transaction lasted: %q", got)
	}
	exec("RESET search_path")
	// LOCK TABLE is accepted in a transaction block (Shale's reads take no
	// locks; pg_dump locks what it dumps), refused outside one.
	if _, err := c.Exec(ctx, "LOCK TABLE public.t IN ACCESS SHARE MODE"); pgCode(err) != "25P01" {
		t.Errorf("LOCK outside a transaction: %v", err)
	}
	exec("BEGIN")
	for _, q := range []string{"LOCK TABLE public.t IN ACCESS SHARE MODE", "LOCK t, ONLY u * IN SHARE ROW EXCLUSIVE MODE NOWAIT", "LOCK t"} {
		if tag, err := c.Exec(ctx, q); err != nil || tag.String() != "LOCK TABLE" {
			t.Errorf("%s: %q, %v", q, tag, err)
		}
	}
	if _, err := c.Exec(ctx, "LOCK TABLE t IN BOGUS MODE"); pgCode(err) != "42601" {
		t.Errorf("LOCK with a bad mode: %v", err)
	}
	exec("ROLLBACK")
	if _, err := c.Exec(ctx, "SHOW no_such_setting"); pgCode(err) != "42704" {
		t.Errorf("SHOW unknown: %v", err)
	}
	// Transaction status.
	exec("BEGIN ISOLATION LEVEL SERIALIZABLE")
	if st := c.PgConn().TxStatus(); st != 'T' {
		t.Errorf("TxStatus after BEGIN = %c", st)
	}
	if got := show("SHOW transaction_isolation"); got != "serializable" {
		t.Errorf("isolation in BEGIN ... SERIALIZABLE: %q", got)
	}
	if _, err := c.Exec(ctx, "fail@0"); err == nil {
		t.Fatal("fail@0 succeeded")
	}
	if st := c.PgConn().TxStatus(); st != 'E' {
		t.Errorf("TxStatus after an error = %c", st)
	}
	exec("ROLLBACK")
	if st := c.PgConn().TxStatus(); st != 'I' {
		t.Errorf("TxStatus after ROLLBACK = %c", st)
	}
	// pgx.Tx uses BEGIN/COMMIT; cursors inside it.
	tx, err := c.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "DECLARE cur CURSOR FOR gen 10"); err != nil {
		t.Fatal(err)
	}
	rows, _ := tx.Query(ctx, "FETCH 4 FROM cur")
	n := 0
	for rows.Next() {
		n++
	}
	if rows.Err() != nil || n != 4 {
		t.Fatalf("FETCH 4: %d rows, %v", n, rows.Err())
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Exec(ctx, "FETCH 1 FROM cur"); pgCode(err) != "34000" {
		t.Errorf("cursor outlived its transaction: %v", err)
	}
	if _, err := c.Exec(ctx, "DECLARE c2 CURSOR FOR gen 1"); pgCode(err) != "25P01" {
		t.Errorf("DECLARE outside a transaction: %v", err)
	}
	// DEALLOCATE and DISCARD ALL.
	if _, err := c.Prepare(ctx, "st", "gen 1"); err != nil {
		t.Fatal(err)
	}
	exec("DEALLOCATE st")
	if _, err := c.Exec(ctx, "DEALLOCATE st"); pgCode(err) != "26000" {
		t.Errorf("DEALLOCATE twice: %v", err)
	}
	exec("DISCARD ALL") // drops pgx's cached statements too: read on with the simple protocol
	res, err := c.PgConn().Exec(ctx, "SHOW extra_float_digits").ReadAll()
	if err != nil || string(res[0].Rows[0][0]) != "1" {
		t.Errorf("extra_float_digits after DISCARD ALL: %v %v", res, err)
	}
}

func TestSCRAM(t *testing.T) {
	auth, err := pgwire.ParseUsers(strings.NewReader("# users\nalice:wonderland\n\nbob:" +
		// PostgreSQL's verifier of "builder", salt and iterations as it stores them.
		scramVerifier("builder") + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	addr, _ := startServer(t, pgwire.Options{Auth: auth})
	ctx := context.Background()
	for _, tc := range []struct {
		user, pw string
		ok       bool
	}{{"alice", "wonderland", true}, {"alice", "nope", false}, {"bob", "builder", true}, {"carol", "x", false}} {
		c, err := pgx.Connect(ctx, "postgres://"+tc.user+":"+tc.pw+"@"+addr+"/db?sslmode=disable")
		if tc.ok != (err == nil) {
			t.Errorf("%s/%s: %v", tc.user, tc.pw, err)
		}
		if err == nil {
			c.Close(ctx)
		} else if pgCode(err) != "28P01" {
			t.Errorf("%s: code %q (%v)", tc.user, pgCode(err), err)
		}
	}
}

// scramVerifier builds a verifier in PostgreSQL's stored format through
// the package's own password path, by round-tripping it in a users file.
func scramVerifier(password string) string {
	return pgwire.Verifier(password)
}

func TestTLS(t *testing.T) {
	addr, _ := startServer(t, pgwire.Options{TLS: selfSigned(t)})
	c, err := pgx.Connect(context.Background(), "postgres://tester@"+addr+"/db?sslmode=require")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(context.Background())
	if _, ok := c.PgConn().Conn().(*tls.Conn); !ok {
		t.Fatalf("connection is %T, not TLS", c.PgConn().Conn())
	}
	var n int64
	if err := c.QueryRow(context.Background(), "echo $1:int64", int64(3)).Scan(&n); err != nil || n != 3 {
		t.Fatal(n, err)
	}
	// Without TLS configured, SSLRequest is answered N and pgx falls back.
	addr2, _ := startServer(t, pgwire.Options{})
	c2, err := pgx.Connect(context.Background(), "postgres://tester@"+addr2+"/db?sslmode=prefer")
	if err != nil {
		t.Fatal(err)
	}
	c2.Close(context.Background())
}

func selfSigned(t *testing.T) *tls.Config {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), NotBefore: time.Now().Add(-time.Hour),
		NotAfter: time.Now().Add(time.Hour), DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
}

// rawStartup sends a startup packet (length, code, body) and returns the
// connection.
func rawStartup(t *testing.T, addr string, code uint32, body []byte) net.Conn {
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	nc.SetDeadline(time.Now().Add(5 * time.Second))
	pkt := binary.BigEndian.AppendUint32(nil, uint32(8+len(body)))
	pkt = binary.BigEndian.AppendUint32(pkt, code)
	nc.Write(append(pkt, body...))
	return nc
}

func TestStartupEdges(t *testing.T) {
	addr, _ := startServer(t, pgwire.Options{})
	// GSSENCRequest is refused with N; the connection stays open for a
	// StartupMessage.
	nc := rawStartup(t, addr, 80877104, nil)
	b := make([]byte, 1)
	if _, err := io.ReadFull(nc, b); err != nil || b[0] != 'N' {
		t.Fatalf("GSSENCRequest: %q %v", b, err)
	}
	// A CancelRequest for no session gets no answer: the server closes.
	nc = rawStartup(t, addr, 80877102, []byte{0, 0, 0, 1, 0, 0, 0, 2})
	if n, err := nc.Read(b); n != 0 || err == nil {
		t.Fatalf("CancelRequest was answered: %d %v", n, err)
	}
	// An unknown code is a protocol violation (FATAL 08P01), not a crash.
	nc = rawStartup(t, addr, 1234, nil)
	msg, _ := io.ReadAll(nc)
	if !strings.Contains(string(msg), "08P01") {
		t.Fatalf("bad startup code: %q", msg)
	}
	// A hang-up during startup is fine, and the server serves on.
	nc, _ = net.Dial("tcp", addr)
	nc.Close()
	connect(t, addr)
}

func TestMalformedMessage(t *testing.T) {
	addr, _ := startServer(t, pgwire.Options{})
	c := connect(t, addr)
	nc := c.PgConn().Conn()
	// A Bind whose body is shorter than its fields say.
	nc.Write([]byte{'B', 0, 0, 0, 8, 'x', 0, 'y', 0})
	nc.SetReadDeadline(time.Now().Add(5 * time.Second))
	msg, _ := io.ReadAll(nc)
	if !strings.Contains(string(msg), "08P01") {
		t.Fatalf("malformed Bind: %q", msg)
	}
	connect(t, addr) // the server is still up
}
