package server_test

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestBIToolQueriesOverPostgres sends `shale demo` the PostgreSQL-dialect
// queries BI tools send over user tables: GoogleSQL rejects them, the
// catalog emulator answers them over a real scan, and every value is
// byte-for-byte what the GoogleSQL query of the same rows sends, in text
// and binary formats. GoogleSQL stays first.
func TestBIToolQueriesOverPostgres(t *testing.T) {
	_, addr := startShalePG(t, "demo", t.TempDir())
	ctx := context.Background()
	for _, mode := range []string{"", "&default_query_exec_mode=simple_protocol"} {
		c, err := pgx.Connect(ctx, "postgres://metabase@"+addr+"/demo?sslmode=disable"+mode)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close(ctx)

		// pg_dump's LOCK finds its tables: a missing one is 42P01.
		tx, err := c.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Exec(ctx, "LOCK TABLE public.analytics, ONLY readings IN ACCESS SHARE MODE"); err != nil {
			t.Errorf("%s LOCK: %v", mode, err)
		}
		if _, err := tx.Exec(ctx, `LOCK TABLE public."Analytics"`); err == nil || !strings.Contains(err.Error(), `relation "public.Analytics" does not exist (SQLSTATE 42P01)`) {
			t.Errorf("%s LOCK of a missing table: %v", mode, err)
		}
		tx.Rollback(ctx)

		// Metabase's can-connect probe for a table.
		rows, err := c.Query(ctx, `SELECT TRUE AS "_" FROM "public"."analytics" WHERE 1 <> 1 LIMIT 0`)
		if err != nil {
			t.Fatal(err)
		}
		fds := rows.FieldDescriptions()
		n := 0
		for rows.Next() {
			n++
		}
		if rows.Err() != nil || n != 0 || len(fds) != 1 || fds[0].Name != "_" || fds[0].DataTypeOID != 16 {
			t.Fatalf("%s probe: %d rows, %v, %v", mode, n, fds, rows.Err())
		}

		// Metabase's sync samples, Grafana and DBeaver: the same rows as
		// GoogleSQL's SELECT *, in the same columns.
		for _, q := range []struct{ pg, google, cols string }{
			{`SELECT "public"."analytics"."_key" AS "_key", "public"."analytics"."cell_plan" AS "cell_plan", "public"."analytics"."stats_summary" AS "stats_summary" FROM "public"."analytics" LIMIT 10000`,
				`SELECT * FROM analytics`, "_key:17 cell_plan:3802 stats_summary:3802"},
			{`SELECT t.* FROM public.readings t LIMIT 200`,
				`SELECT * FROM readings LIMIT 200`, "device_type:25 device_id:25 ts:1184 stats:3802"},
			{`SELECT "ts" AS "time", "stats" FROM "readings" WHERE "device_type" = 'phone' ORDER BY "ts" DESC LIMIT 3`,
				`SELECT ts AS time, stats FROM readings WHERE device_type = 'phone' ORDER BY ts DESC LIMIT 3`, "time:1184 stats:3802"},
			{`SELECT "_key", "clicks" FROM "public"."counters" WHERE "_key" = '\x7061676523686f6d65'::bytea`,
				`SELECT _key, clicks FROM counters WHERE _key = b'page#home'`, "_key:17 clicks:3802"},
			// Ordered by the key, either way: read in (reverse) key order.
			{`SELECT "_key", "cell_plan" FROM "public"."analytics" ORDER BY "_key" DESC LIMIT 4 OFFSET 1`,
				`SELECT _key, cell_plan FROM analytics ORDER BY _key DESC LIMIT 4 OFFSET 1`, "_key:17 cell_plan:3802"},
			{`SELECT a._key, a.cell_plan->>'data_plan_05gb' AS p FROM public.analytics a WHERE a._key < '\x7461'::bytea ORDER BY 1 DESC, 2 LIMIT 2`,
				`SELECT _key, SAFE_CONVERT_BYTES_TO_STRING(cell_plan['data_plan_05gb']) AS p FROM analytics WHERE _key < b'ta' ORDER BY _key DESC LIMIT 2`, "_key:17 p:25"},
		} {
			for _, format := range []int16{0, 1} {
				gotCols, got := rawResult(t, c.PgConn(), q.pg, format)
				wantCols, want := rawResult(t, c.PgConn(), q.google, format)
				if gotCols != q.cols || wantCols != q.cols {
					t.Errorf("%s %q: columns %s (GoogleSQL: %s), want %s", mode, q.pg, gotCols, wantCols, q.cols)
				}
				if len(got) == 0 || !equalRows(got, want) {
					t.Errorf("%s %q format %d:\n%q\nGoogleSQL:\n%q", mode, q.pg, format, got, want)
				}
			}
		}

		// A parameter of a fallback query, typed by the emulator (bytea).
		var plan string
		if err := c.QueryRow(ctx, `SELECT "cell_plan"::text FROM "public"."analytics" WHERE "_key" = $1`,
			[]byte("phone#4c410523#20190502")).Scan(&plan); err != nil || plan != `{"data_plan_05gb": "true"}` {
			t.Errorf("%s parameter: %q %v", mode, plan, err)
		}

		// GoogleSQL first: "_key" is a string literal there.
		var s string
		if err := c.QueryRow(ctx, `SELECT "_key" FROM analytics LIMIT 1`).Scan(&s); err != nil || s != "_key" {
			t.Errorf("%s GoogleSQL string literal: %q %v", mode, s, err)
		}
		// A GoogleSQL query naming a function PostgreSQL has too, with
		// GoogleSQL's array literal: the catalog's syntax error gives way.
		if err := c.QueryRow(ctx, `SELECT ARRAY_TO_STRING(['a', 'b'], ',')`).Scan(&s); err != nil || s != "a,b" {
			t.Errorf("%s GoogleSQL ARRAY_TO_STRING: %q %v", mode, s, err)
		}
		// A PostgreSQL function in FROM is no GoogleSQL table.
		var total int64
		if err := c.QueryRow(ctx, `SELECT sum(n) FROM generate_series(1, 4) AS g(n)`).Scan(&total); err != nil || total != 10 {
			t.Errorf("%s generate_series in FROM: %d %v", mode, total, err)
		}
		rows, err = c.Query(ctx, `SELECT * FROM analytics`)
		if err != nil {
			t.Fatal(err)
		}
		n = 0
		for rows.Next() {
			n++
		}
		if rows.Err() != nil || n != 6 || len(rows.FieldDescriptions()) != 3 {
			t.Errorf("%s SELECT *: %d rows, %v", mode, n, rows.Err())
		}

		// When both fail: the GoogleSQL error, unless the text clearly is
		// PostgreSQL (a quoted table name, alias or dotted name, ::,
		// public.t); "x" alone is a GoogleSQL string.
		for q, want := range map[string]string{
			`SELEC 1`:                                               "42601 syntax error: expected beginning of simple query",
			`SELECT _key FROM analytics WHERE`:                      "42601 syntax error: unexpected token: <eof>",
			`SELECT _key FROM analytics LIMIT ALL x`:                "42601 syntax error: expected token: <param>, <int>, CAST, but: ALL",
			`SELECT _key FROM analytics WHERE _key = "x" LIMIT ALL`: "42601 syntax error: expected token: <param>, <int>, CAST, but: ALL",
			`SELECT "nope" FROM "public"."analytics"`:               `42703 column "nope" does not exist`,
			`SELECT x.* FROM public.nosuch x`:                       `42P01 relation "public.nosuch" does not exist`,
			`SELECT nosuchfunc("_key") FROM "public"."analytics"`:   "42883 function nosuchfunc(bytea) does not exist",
			// PostgreSQL's parser reads it, so its error counts.
			`SELECT * FROM nosuchfn('x') AS x(a int)`:         "42883 function nosuchfn(unknown) does not exist",
			`SELECT * FROM generate_series(1, 2) AS x(a int)`: `42601 a column definition list is only allowed for functions returning "record"`,
			// A table neither knows: GoogleSQL's error.
			`SELECT * FROM nosuch`: "42P01 table not found: nosuch",
		} {
			_, err := c.Exec(ctx, q)
			code, _ := sqlState(err)
			if err == nil || !strings.HasPrefix(code+" "+err.(*pgconn.PgError).Message, want) {
				t.Errorf("%s %q: %v (%s), want %s", mode, q, err, code, want)
			}
		}
		c.Close(ctx)
	}
}

// rawResult runs q with every result column in format and returns the
// columns (name:oid) and the raw values of each row.
func rawResult(t *testing.T, c *pgconn.PgConn, q string, format int16) (string, [][][]byte) {
	t.Helper()
	rr := c.ExecParams(context.Background(), q, nil, nil, nil, []int16{format})
	var cols []string
	for _, fd := range rr.FieldDescriptions() {
		cols = append(cols, fmt.Sprintf("%s:%d", fd.Name, fd.DataTypeOID))
	}
	var rows [][][]byte
	for rr.NextRow() {
		var row [][]byte
		for _, v := range rr.Values() {
			row = append(row, bytes.Clone(v))
		}
		rows = append(rows, row)
	}
	if _, err := rr.Close(); err != nil {
		t.Fatalf("%q: %v", q, err)
	}
	return strings.Join(cols, " "), rows
}

// queryLines runs a query of one text column (EXPLAIN's) and returns its
// rows, trimmed.
func queryLines(t *testing.T, c *pgx.Conn, q string, args ...any) []string {
	t.Helper()
	rows, err := c.Query(context.Background(), q, args...)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	var out []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		out = append(out, strings.TrimSpace(line))
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return out
}

func equalRows(a, b [][][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return false
		}
		for j := range a[i] {
			if !bytes.Equal(a[i][j], b[i][j]) || (a[i][j] == nil) != (b[i][j] == nil) {
				return false
			}
		}
	}
	return true
}

// TestBIToolKeyPushdown: a Metabase-style lookup by `_key` over the
// PostgreSQL dialect returns its row, and its WHERE reaches the scan. The
// emulator hands `"_key" = $1` to the scan as a filter, which the server
// renders as the GoogleSQL query below (pgSource.Scan's scanQuery, with
// the key as its parameter @p1); EXPLAIN ANALYZE of that query through the
// engine shows it reads one row, where the unfiltered scan reads the
// table.
func TestBIToolKeyPushdown(t *testing.T) {
	_, addr := startShalePG(t, "demo", t.TempDir())
	ctx := context.Background()
	key := []byte("phone#4c410523#20190502")
	for _, mode := range []string{"", "&default_query_exec_mode=simple_protocol"} {
		c, err := pgx.Connect(ctx, "postgres://metabase@"+addr+"/demo?sslmode=disable"+mode)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close(ctx)
		for _, q := range []string{
			`SELECT "public"."analytics"."_key" AS "_key", "public"."analytics"."cell_plan" AS "cell_plan" FROM "public"."analytics" WHERE "public"."analytics"."_key" = $1 LIMIT 100`,
			`SELECT "_key", "cell_plan" FROM "public"."analytics" WHERE "_key" = $1`,
			`SELECT "_key", "cell_plan" FROM "public"."analytics" WHERE "_key" BETWEEN $1 AND $1 AND "cell_plan" IS NOT NULL`,
		} {
			rows, err := c.Query(ctx, q, key)
			if err != nil {
				t.Fatalf("%s %q: %v", mode, q, err)
			}
			var got []string
			for rows.Next() {
				var k []byte
				var plan string
				if err := rows.Scan(&k, &plan); err != nil {
					t.Fatal(err)
				}
				got = append(got, string(k)+" "+plan)
			}
			if err := rows.Err(); err != nil || strings.Join(got, ";") != `phone#4c410523#20190502 {"data_plan_05gb": "true"}` {
				t.Errorf("%s %q: %q %v", mode, q, got, err)
			}
		}
		// A range and an IN list on a row-key field's table, through the
		// fallback too.
		var n int64
		if err := c.QueryRow(ctx, `SELECT count(*) FROM "public"."analytics" WHERE "_key" IN ($1, '\x6e6f6e65'::bytea) OR "_key" = $1`, key).Scan(&n); err != nil || n != 1 {
			t.Errorf("%s IN: %d %v", mode, n, err)
		}
		if err := c.QueryRow(ctx, `SELECT count(*) FROM "public"."readings" WHERE "device_type" = 'phone' AND "ts" >= '2000-01-01T00:00:00Z'`).Scan(&n); err != nil {
			t.Errorf("%s readings: %v", mode, err)
		} else {
			var want int64
			if err := c.QueryRow(ctx, `SELECT COUNT(*) FROM readings WHERE device_type = 'phone' AND ts >= TIMESTAMP '2000-01-01T00:00:00Z'`).Scan(&want); err != nil || n != want || n == 0 {
				t.Errorf("%s readings: %d, GoogleSQL %d %v", mode, n, want, err)
			}
		}
		// EXPLAIN shows the key narrowing: the GoogleSQL scan's spans.
		plan := queryLines(t, c, `EXPLAIN SELECT count(*) FROM "public"."readings" WHERE "device_type" = 'phone' AND "device_id" = $1`, "4c410523")
		if !slices.Contains(plan, "└── scan public.readings") ||
			!slices.ContainsFunc(plan, func(l string) bool { return strings.HasPrefix(l, "spans: fields(device_type = ") }) {
			t.Errorf("%s EXPLAIN:\n%s", mode, strings.Join(plan, "\n"))
		}
		// LIKE on a text key field: its literal prefix is pushed as a range.
		if err := c.QueryRow(ctx, `SELECT count(*) FROM "public"."readings" WHERE "device_type" LIKE 'pho%' AND "device_id" LIKE '4c4_0%'`).Scan(&n); err != nil {
			t.Errorf("%s LIKE: %v", mode, err)
		} else {
			var want int64
			if err := c.QueryRow(ctx, `SELECT COUNT(*) FROM readings WHERE device_type LIKE 'pho%' AND device_id LIKE '4c4_0%'`).Scan(&want); err != nil || n != want || n == 0 {
				t.Errorf("%s LIKE: %d, GoogleSQL %d %v", mode, n, want, err)
			}
		}
		c.Close(ctx)
	}

	c, err := pgx.Connect(ctx, "postgres://metabase@"+addr+"/demo?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	explain := func(q string, args ...any) string {
		return strings.Join(queryLines(t, c, "EXPLAIN ANALYZE "+q, args...), "\n")
	}
	if plan := explain("SELECT `_key`, `cell_plan` FROM `analytics` WHERE `_key` = @p1", key); !strings.Contains(plan, "rows_read=1 ") {
		t.Errorf("pushed scan:\n%s", plan)
	}
	if plan := explain("SELECT `_key`, `cell_plan` FROM `analytics`"); !strings.Contains(plan, "rows_read=6 ") {
		t.Errorf("unfiltered scan:\n%s", plan)
	}
	// The same through the PostgreSQL dialect's EXPLAIN ANALYZE.
	if plan := explain(`SELECT "_key", "cell_plan" FROM "public"."analytics" WHERE "_key" = $1`, key); !strings.Contains(plan, "rows read: 1\n") || !strings.Contains(plan, "Rows: 1\n") {
		t.Errorf("PostgreSQL dialect, pushed scan:\n%s", plan)
	}
}

// TestSortSpillOverPostgres sorts a PostgreSQL-dialect query with work_mem
// at its minimum, so that its rows spill to sorted runs on disk, and
// requires every value byte for byte as the in-memory sort sends it, in
// text and binary formats: a spilled value is sent from its text, the
// in-memory one from the engine's value.
func TestSortSpillOverPostgres(t *testing.T) {
	_, addr := startShalePG(t, "demo", t.TempDir())
	ctx := context.Background()
	const q = `SELECT r.device_id, r.ts, r.stats, u._key, u.metrics FROM public.readings r
		CROSS JOIN (SELECT _key, metrics FROM public.usage ORDER BY _key LIMIT 200) u ORDER BY r.ts DESC, u._key`
	for _, mode := range []string{"", "&default_query_exec_mode=simple_protocol"} {
		c, err := pgx.Connect(ctx, "postgres://tester@"+addr+"/demo?sslmode=disable"+mode)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close(ctx)
		var results [2][]string
		for i, mem := range []string{"64MB", "64kB"} {
			if _, err := c.Exec(ctx, "SET work_mem = '"+mem+"'"); err != nil {
				t.Fatal(err)
			}
			rows, err := c.Query(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var b bytes.Buffer
				for _, v := range rows.RawValues() {
					fmt.Fprintf(&b, "%q ", v)
				}
				results[i] = append(results[i], b.String())
			}
			if err := rows.Err(); err != nil {
				t.Fatalf("%s work_mem %s: %v", mode, mem, err)
			}
		}
		if len(results[0]) != 18*200 || !slices.Equal(results[0], results[1]) {
			t.Errorf("%s: %d rows in memory, %d spilled; equal: %v", mode, len(results[0]), len(results[1]), slices.Equal(results[0], results[1]))
		}
	}
	c := demoPGX(t, addr)
	for v, want := range map[string]string{"1024": "1MB", "65536kB": "64MB", "2GB": "2GB", "100kB": "100kB"} {
		var got string
		if _, err := c.Exec(ctx, "SET work_mem = '"+v+"'"); err != nil {
			t.Fatal(err)
		}
		if err := c.QueryRow(ctx, "SHOW work_mem").Scan(&got); err != nil || got != want {
			t.Errorf("SET work_mem = %s: SHOW %q %v, want %s", v, got, err, want)
		}
	}
	for v, want := range map[string]string{"lots": `22023 invalid value for parameter "work_mem": "lots"`,
		"32kB": `22023 32 kB is outside the valid range for parameter "work_mem" (64 .. 2147483647)`} {
		_, err := c.Exec(ctx, "SET work_mem = '"+v+"'")
		code, _ := sqlState(err)
		if err == nil || !strings.HasPrefix(code+" "+err.(*pgconn.PgError).Message, want) {
			t.Errorf("SET work_mem = %s: %v, want %s", v, err, want)
		}
	}
}
