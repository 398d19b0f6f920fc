package server_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// startShalePG runs `shale <command>` with every listener on a free port and
// returns the PostgreSQL address.
func startShalePG(t *testing.T, command, dataDir string, flags ...string) (*proc, string) {
	t.Helper()
	p := startShaleCmd(t, command, dataDir, flags...)
	return p, p.pgAddr
}

// demoPGX is a pgx connection to database demo of the Shale at addr,
// closed when the test ends.
func demoPGX(t *testing.T, addr string) *pgx.Conn {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, "postgres://tester@"+addr+"/demo?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(ctx) })
	return c
}

// TestDemoOverPostgres queries `shale demo` with psql and pgx.
func TestDemoOverPostgres(t *testing.T) {
	p, addr := startShalePG(t, "demo", t.TempDir())
	ctx := context.Background()
	c, err := pgx.Connect(ctx, "postgres://demo@"+addr+"/demo?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	var clicks int64
	if err := c.QueryRow(ctx, "SELECT clicks['count'] FROM counters WHERE _key = $1", []byte("page#home")).Scan(&clicks); err != nil || clicks != 3 {
		t.Fatalf("counters: %d %v", clicks, err)
	}
	var n int64
	if err := c.QueryRow(ctx, "SELECT COUNT(*) FROM analytics").Scan(&n); err != nil || n != 6 {
		t.Fatalf("count: %d %v", n, err)
	}
	// Structured row keys: the key fields are typed columns and parameters.
	rows, err := c.Query(ctx, "SELECT device_id, ts FROM readings WHERE device_type = $1 AND device_id = $2 ORDER BY ts LIMIT 2",
		"phone", "4c410523")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for rows.Next() {
		var id string
		var ts time.Time
		if err := rows.Scan(&id, &ts); err != nil {
			t.Fatal(err)
		}
		got = append(got, id+" "+ts.UTC().Format(time.RFC3339))
	}
	if err := rows.Err(); err != nil || strings.Join(got, ",") != "4c410523 2020-05-01T00:00:00Z,4c410523 2020-05-01T01:00:00Z" {
		t.Fatalf("readings by key fields: %v %v", got, err)
	}
	// COPY … TO STDOUT streams rows in CSV (pgx's CopyTo; psql's \copy).
	var csv strings.Builder
	tag, err := c.PgConn().CopyTo(ctx, &csv, "COPY (SELECT device_id, ts FROM readings WHERE device_type = 'phone' "+
		"AND device_id = '4c410523' ORDER BY ts LIMIT 2) TO STDOUT WITH (FORMAT csv, HEADER)")
	want := "device_id,ts\n4c410523,2020-05-01 00:00:00+00\n4c410523,2020-05-01 01:00:00+00\n"
	if err != nil || tag.String() != "COPY 2" || csv.String() != want {
		t.Fatalf("COPY TO STDOUT: %q %v\n%s", tag, err, csv.String())
	}
	// In the binary format: the header, a row of one text field, the trailer.
	var bin bytes.Buffer
	tag, err = c.PgConn().CopyTo(ctx, &bin, "COPY (SELECT device_id FROM readings WHERE device_type = 'phone' "+
		"AND device_id = '4c410523' LIMIT 1) TO STDOUT (FORMAT binary)")
	want = "PGCOPY\n\xff\r\n\x00" + "\x00\x00\x00\x00\x00\x00\x00\x00" + "\x00\x01\x00\x00\x00\x084c410523" + "\xff\xff"
	if err != nil || tag.String() != "COPY 1" || bin.String() != want {
		t.Fatalf("COPY TO STDOUT (FORMAT binary): %q %v\n%q", tag, err, bin.String())
	}
	if _, err := exec.LookPath("psql"); err == nil {
		host, port, _ := strings.Cut(addr, ":")
		out, err := exec.Command("psql", "-X", "-h", host, "-p", port, "-d", "demo", "-At", "-c",
			"SELECT CAST(stats_summary['os_build'] AS STRING) FROM analytics WHERE _key = 'phone#4c410523#20190501'").CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != "PQ2A.190405.003" {
			t.Fatalf("psql: %v\n%s", err, out)
		}
		file := filepath.Join(t.TempDir(), "counters.csv")
		out, err = exec.Command("psql", "-X", "-h", host, "-p", port, "-d", "demo", "-c",
			`\copy (SELECT _key, clicks['count'] AS clicks FROM counters ORDER BY _key LIMIT 1) TO '`+file+`' CSV HEADER`).CombinedOutput()
		data, _ := os.ReadFile(file)
		if err != nil || strings.TrimSpace(string(out)) != "COPY 1" || string(data) != "_key,clicks\n\\x7061676523646f6373,2\n" {
			t.Fatalf("psql \\copy: %v\n%s\nfile: %q", err, out, data)
		}
	}
	c.Close(ctx)
	p.stop(t)
}

// TestPGFlags: a password turns on SCRAM; --pg-max-conns limits sessions.
func TestPGFlags(t *testing.T) {
	_, addr := startShalePG(t, "serve", t.TempDir(), "--pg-password", "s3cret", "--pg-max-conns", "1")
	ctx := context.Background()
	if _, err := pgx.Connect(ctx, "postgres://u:wrong@"+addr+"/demo?sslmode=disable"); err == nil ||
		!strings.Contains(err.Error(), "28P01") {
		t.Fatalf("wrong password: %v", err)
	}
	c, err := pgx.Connect(ctx, "postgres://u:s3cret@"+addr+"/demo?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	if _, err := pgx.Connect(ctx, "postgres://u:s3cret@"+addr+"/demo?sslmode=disable"); err == nil ||
		!strings.Contains(err.Error(), "53300") {
		t.Fatalf("past --pg-max-conns: %v", err)
	}
}

// TestPSQLDescribe runs psql's describe commands against `shale demo`: they
// send PostgreSQL catalog queries the emulator answers from the live
// catalog.
func TestPSQLDescribe(t *testing.T) {
	if _, err := exec.LookPath("psql"); err != nil {
		t.Skip("psql is not installed")
	}
	_, addr := startShalePG(t, "demo", t.TempDir())
	host, port, _ := strings.Cut(addr, ":")
	psql := func(cmd string) string {
		out, err := exec.Command("psql", "-X", "-h", host, "-p", port, "-d", "demo", "-c", cmd).CombinedOutput()
		if err != nil {
			t.Fatalf("psql -c %q: %v\n%s", cmd, err, out)
		}
		return string(out)
	}
	for cmd, want := range map[string][]string{
		`\dt`:         {"public | analytics | table", "public | readings  | table", "public | usage     | table", "public | albums    | table", "(5 rows)"},
		`\d readings`: {`Table "public.readings"`, "device_type | text", "ts          | timestamp with time zone", `"readings_pkey" PRIMARY KEY, btree (device_type, device_id, ts)`},
		`\d usage`:    {"_key          | bytea", "not null", "stats_summary | jsonb", `"usage_pkey" PRIMARY KEY, btree (_key)`},
		`\l`:          {"demo", "UTF8"},
		`\dn`:         {"public"},
		`\sf version`: {"CREATE OR REPLACE FUNCTION pg_catalog.version()", " RETURNS text", " LANGUAGE internal"},
		`\dfS+ upper`: {"pg_catalog | upper | text", "| internal |"},
	} {
		out := psql(cmd)
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("psql %s: output lacks %q:\n%s", cmd, w, out)
			}
		}
	}
}
