package server_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestPGDialectMatchesPostgres runs testdata/pgdiff/queries.sql, queries of
// the kind BI tools and analysts send over the demo's tables in
// PostgreSQL's dialect (windows, ROLLUP, LATERAL, jsonb, numeric, to_char,
// PREPARE and cursors, a session time zone, errors with their SQLSTATE
// text, position, DETAIL and CONTEXT), the catalog queries that describe
// those tables (information_schema, pg_attribute, pg_index, pg_constraint)
// and psql's backslash commands that do (\d, \dt, \di, \dn, \df, \dT,
// \dp, \dconfig), through psql against `shale demo`, and requires the
// output PostgreSQL 15 printed for them over a database restored from
// pg_dump of the demo (testdata/pgdiff/postgres.out), byte for byte. To record it again, with
// a PostgreSQL 15 on port 15433 and an empty database demodiff:
//
//	pg_dump -h 127.0.0.1 -p 5433 -d demo --no-owner | psql -h 127.0.0.1 -p 15433 -U postgres -d demodiff
//	cd testdata/pgdiff && psql -h 127.0.0.1 -p 15433 -U postgres -d demodiff -X -A -f queries.sql > postgres.out 2>&1
func TestPGDialectMatchesPostgres(t *testing.T) {
	if _, err := exec.LookPath("psql"); err != nil {
		t.Skip("psql is not installed")
	}
	want, err := os.ReadFile("testdata/pgdiff/postgres.out")
	if err != nil {
		t.Fatal(err)
	}
	_, addr := startShalePG(t, "demo", t.TempDir())
	host, port, _ := strings.Cut(addr, ":")
	// As the recording's role, postgres, so that psql's Owner columns
	// (\dt, \dn, \dT+) name the same role whoever runs the test.
	cmd := exec.Command("psql", "-X", "-A", "-h", host, "-p", port, "-U", "postgres", "-d", "demo", "-f", "queries.sql")
	cmd.Dir = "testdata/pgdiff" // error lines name the file as the recording did
	got, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("psql: %v\n%s", err, got)
	}
	gotLines, wantLines := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := range max(len(gotLines), len(wantLines)) {
		g, w := "", ""
		if i < len(gotLines) {
			g = gotLines[i]
		}
		if i < len(wantLines) {
			w = wantLines[i]
		}
		if g != w {
			t.Fatalf("line %d differs from PostgreSQL's:\n shale:    %s\n postgres: %s", i+1, g, w)
		}
	}
}

// TestPGDialectParametersMatchPostgres runs PostgreSQL-dialect queries
// with $n parameters through pgx's extended protocol (binary parameters of
// pgx's own types: a time.Time is a timestamptz, an int an int8) against
// `shale demo`, and requires the values PostgreSQL 15 returned for the
// same queries over the restored demo (recorded as pgx's Values, printed).
func TestPGDialectParametersMatchPostgres(t *testing.T) {
	_, addr := startShalePG(t, "demo", t.TempDir())
	ctx := context.Background()
	c := demoPGX(t, addr)
	for _, tc := range []struct {
		q    string
		args []any
		want string
	}{
		{`SELECT "device_id", "ts", "stats" FROM "public"."readings" WHERE "device_id" = $1 AND "ts" >= $2 ORDER BY "ts"`,
			[]any{"4c410523", time.Date(2020, 5, 1, 2, 0, 0, 0, time.UTC)},
			"[[4c410523 2020-05-01 02:00:00 +0000 UTC map[battery:86 os_build:PQ2A.190405.003]] [4c410523 2020-05-01 03:00:00 +0000 UTC map[battery:79 os_build:PQ2A.190405.003]] [4c410523 2020-05-01 04:00:00 +0000 UTC map[battery:72 os_build:PQ2A.190405.003]] [4c410523 2020-05-01 05:00:00 +0000 UTC map[battery:65 os_build:PQ2A.190405.003]]]"},
		{`SELECT count(*) FROM public.readings WHERE (stats->>'battery')::int > $1`, []any{80}, "[[8]]"},
		{`SELECT device_id, avg((stats->>'battery')::numeric) FROM public.readings WHERE device_type = $1 GROUP BY 1 ORDER BY 1`,
			[]any{"phone"}, "[[4c410523 {825000000000000000 -16 false finite true}] [5c10102 {795000000000000000 -16 false finite true}]]"},
		{`SELECT _key, clicks FROM public.counters WHERE _key = $1`, []any{[]byte("page#home")}, "[[[112 97 103 101 35 104 111 109 101] map[count:3]]]"},
		{`SELECT date_trunc($1, ts) AS t, count(*) FROM public.readings GROUP BY 1 ORDER BY 1 LIMIT $2`, []any{"hour", 3},
			"[[2020-05-01 00:00:00 +0000 UTC 3] [2020-05-01 01:00:00 +0000 UTC 3] [2020-05-01 02:00:00 +0000 UTC 3]]"},
		{`SELECT device_id, stats->>$1 FROM public.readings ORDER BY ts, device_id LIMIT 2`, []any{"os_build"},
			"[[4c410523 PQ2A.190405.003] [5c10102 PQ2A.190401.002]]"},
		{`SELECT 1.5::numeric * $1, $2::float8 / 3, $3::text || 'x'`, []any{2, 1.0, "a"}, "[[{30 -1 false finite true} 0.3333333333333333 ax]]"},
	} {
		rows, err := c.Query(ctx, tc.q, tc.args...)
		if err != nil {
			t.Fatalf("%s: %v", tc.q, err)
		}
		var got [][]any
		for rows.Next() {
			v, err := rows.Values()
			if err != nil {
				t.Fatalf("%s: %v", tc.q, err)
			}
			for i, x := range v { // times as UTC, as recorded
				if tm, ok := x.(time.Time); ok {
					v[i] = tm.UTC()
				}
			}
			got = append(got, v)
		}
		if err := rows.Err(); err != nil {
			t.Fatalf("%s: %v", tc.q, err)
		}
		if s := fmt.Sprint(got); s != tc.want {
			t.Errorf("%s:\n shale:    %s\n postgres: %s", tc.q, s, tc.want)
		}
	}
}
