package server_test

import (
	"context"
	"errors"
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/shale-db/shale/engine"
	"github.com/shale-db/shale/pgwire"
	"github.com/shale-db/shale/server"
	"github.com/shale-db/shale/storage"
)

// startPGEngine serves pgwire over the real engine on an in-memory storage
// engine holding the demo tables, and returns its address.
func startPGEngine(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	st, err := storage.Open("", storage.Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := server.LoadDemo(ctx, st); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := pgwire.NewServer(pgwire.Options{Executor: server.NewPGExecutor(engine.New(st, engine.Options{}))})
	go s.Serve(l)
	t.Cleanup(func() { s.Close(); st.Close() })
	return l.Addr().String()
}

func pgConnect(t *testing.T, addr string, extra string) *pgx.Conn {
	t.Helper()
	c, err := pgx.Connect(context.Background(), "postgres://tester@"+addr+"/demo?sslmode=disable"+extra)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	return c
}

func sqlState(err error) (string, int32) {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code, pe.Position
	}
	return "", 0
}

// TestPGEngine runs pgx against pgwire over the real engine: both
// protocols, inferred and declared parameters, binary formats, row limits
// and errors with SQLSTATE and position.
func TestPGEngine(t *testing.T) {
	addr := startPGEngine(t)
	ctx := context.Background()
	for _, mode := range []string{"&default_query_exec_mode=simple_protocol", ""} {
		c := pgConnect(t, addr, mode)
		var n int64
		if err := c.QueryRow(ctx, "SELECT COUNT(*) FROM analytics WHERE STARTS_WITH(CAST(_key AS STRING), 'phone#')").Scan(&n); err != nil || n != 5 {
			t.Fatalf("%s count: %d %v", mode, n, err)
		}
		rows, _ := c.Query(ctx, "SELECT _key, stats_summary['os_build'] AS os, stats_summary FROM analytics LIMIT 2")
		var got []string
		for rows.Next() {
			var key, os []byte
			var fam map[string]any
			if err := rows.Scan(&key, &os, &fam); err != nil {
				t.Fatal(err)
			}
			got = append(got, string(key)+" "+string(os)+" "+fam["connected_wifi"].(string))
		}
		if rows.Err() != nil || strings.Join(got, ",") != "phone#4c410523#20190501 PQ2A.190405.003 1,phone#4c410523#20190502 PQ2A.190405.004 1" {
			t.Fatalf("%s scan: %v %v", mode, got, rows.Err())
		}
		_, err := c.Exec(ctx, "SELECT nosuch FROM analytics")
		if code, pos := sqlState(err); code != "42703" || pos != 8 {
			t.Errorf("%s undefined column: %v (%s, %d)", mode, err, code, pos)
		}
		if _, err := c.Exec(ctx, "SELECT * FROM nosuch"); func() string { c, _ := sqlState(err); return c }() != "42P01" {
			t.Errorf("undefined table: %v", err)
		}
		if _, err := c.Exec(ctx, "SELEC 1"); func() string { c, _ := sqlState(err); return c }() != "42601" {
			t.Errorf("syntax: %v", err)
		}
		if _, err := c.Exec(ctx, "SELECT 1/0"); func() string { c, _ := sqlState(err); return c }() != "22012" {
			t.Errorf("division: %v", err)
		}
		// Nested past sql.MaxBracketDepth: statement_too_complex, with the
		// position of the bracket that crossed it.
		deep := "SELECT " + strings.Repeat("(", 251) + "1" + strings.Repeat(")", 251)
		if code, pos := sqlState(func() error { _, err := c.Exec(ctx, deep); return err }()); code != "54001" || pos != 8+250 {
			t.Errorf("%s too deep: %s at %d", mode, code, pos)
		}
	}
	c := pgConnect(t, addr, "")
	// $n parameters, types inferred from the engine (OID 0 from pgx).
	var os []byte
	err := c.QueryRow(ctx, "SELECT stats_summary['os_build'] FROM analytics WHERE _key = $1", []byte("phone#4c410523#20190502")).Scan(&os)
	if err != nil || string(os) != "PQ2A.190405.004" {
		t.Fatalf("key lookup: %q %v", os, err)
	}
	err = c.QueryRow(ctx, "SELECT stats_summary['os_build'] FROM analytics WHERE _key = $1", "phone#4c410523#20190505").Scan(&os)
	if err != nil || string(os) != "PQ2A.190406.000" {
		t.Fatalf("key lookup with a Go string: %q %v", os, err)
	}
	var keys []string
	rows, _ := c.Query(ctx, "SELECT CAST(_key AS STRING) FROM analytics WHERE _key >= $1 LIMIT $2", []byte("phone#5"), int64(2))
	for rows.Next() {
		var k string
		rows.Scan(&k)
		keys = append(keys, k)
	}
	if rows.Err() != nil || strings.Join(keys, ",") != "phone#5c10102#20190501,phone#5c10102#20190502" {
		t.Fatalf("range: %v %v", keys, rows.Err())
	}
	// An error position after $n rewriting points into the client's text.
	_, err = c.Exec(ctx, "SELECT $1 + nosuch FROM analytics", int64(1))
	if code, pos := sqlState(err); code != "42703" || pos != 13 {
		t.Errorf("position after $1: %v (%s %d)", err, code, pos)
	}
	// GoogleSQL @name parameters, bound by position after the $n ones.
	var s string
	if err := c.QueryRow(ctx, "SELECT CONCAT(@a, @b)", "x", "y").Scan(&s); err != nil || s != "xy" {
		t.Fatalf("@name: %q %v", s, err)
	}
	// Binary result formats through pgconn's result reader.
	rr := c.PgConn().ExecParams(ctx, "SELECT _key FROM analytics", nil, nil, nil, []int16{1})
	n := 0
	for rr.NextRow() {
		n++
	}
	if _, err := rr.Close(); err != nil || n != 6 {
		t.Fatalf("binary _key: %d %v", n, err)
	}
}

// TestPSQL runs psql against pgwire over the real engine.
func TestPSQL(t *testing.T) {
	if _, err := exec.LookPath("psql"); err != nil {
		t.Skip("psql not installed")
	}
	addr := startPGEngine(t)
	host, port, _ := net.SplitHostPort(addr)
	psql := func(args ...string) (string, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, "psql", append([]string{"-X", "-h", host, "-p", port, "-d", "demo", "-U", "tester"}, args...)...)
		cmd.Env = append(cmd.Environ(), "PGCONNECT_TIMEOUT=10", "PGSSLMODE=prefer")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := psql("-c", "SELECT 1")
	if err != nil || !strings.Contains(out, "(1 row)") {
		t.Fatalf("psql -c 'SELECT 1': %v\n%s", err, out)
	}
	out, err = psql("-At", "-c", "SELECT CAST(_key AS STRING), cell_plan['data_plan_05gb'] FROM analytics WHERE _key = 'phone#4c410523#20190501'")
	if err != nil || strings.TrimSpace(out) != `phone#4c410523#20190501|\x74727565` {
		t.Fatalf("point lookup: %v\n%s", err, out)
	}
	out, _ = psql("-c", "SELECT nosuch FROM analytics")
	want := "ERROR:  unrecognized name: nosuch\nLINE 1: SELECT nosuch FROM analytics\n               ^"
	if !strings.Contains(out, want) {
		t.Fatalf("error caret:\n%s\nwant:\n%s", out, want)
	}
	out, err = psql("-c", "SHOW server_version", "-c", "SELECT version()")
	if err != nil || !strings.Contains(out, "15.0") || !strings.Contains(out, "PostgreSQL 15.0") {
		t.Fatalf("version: %v\n%s", err, out)
	}
}
