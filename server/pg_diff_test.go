package server_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestPGDialectMatchesPostgres runs testdata/pgdiff/queries.sql, queries of
// the kind BI tools and analysts send over the demo's tables in
// PostgreSQL's dialect (windows, ROLLUP, LATERAL, jsonb, numeric, to_char,
// PREPARE and cursors, a session time zone, errors with their SQLSTATE
// text, position, DETAIL and CONTEXT) and the catalog queries that
// describe those tables (information_schema, pg_attribute, pg_index,
// pg_constraint), through psql against `shale demo`, and requires the output PostgreSQL 15
// printed for them over a database restored from pg_dump of the demo
// (testdata/pgdiff/postgres.out), byte for byte. To record it again, with
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
	cmd := exec.Command("psql", "-X", "-A", "-h", host, "-p", port, "-d", "demo", "-f", "queries.sql")
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
