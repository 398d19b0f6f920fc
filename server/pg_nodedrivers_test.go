package server_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNodeDrivers runs testdata/nodedrivers/drivers.js against `shale
// demo`: node-postgres (simple and extended protocol, a named statement,
// several statements in one query, pg-cursor's portal read in batches, an
// aborted transaction) and postgres.js (prepared statements, the array
// types it reads from pg_type at connect, Describe, a cursor, BEGIN) run
// the same queries, Sequelize, Kysely and Knex connect and introspect the
// demo's tables and query them, and what they print must be what they print against
// PostgreSQL 15 over a restored dump of the demo
// (testdata/nodedrivers/postgres.out, recorded with `node drivers.js
// 127.0.0.1 PORT demodiff postgres`; TestPGDialectMatchesPostgres says how
// to restore the dump). It skips where node or the drivers are missing:
// .ci/run installs them with `npm ci` from package-lock.json.
func TestNodeDrivers(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	dir := filepath.Join("testdata", "nodedrivers")
	for _, mod := range []string{"pg", "pg-cursor", "postgres"} {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", mod)); err != nil {
			t.Skipf("%s is not installed (cd %s && npm ci)", mod, dir)
		}
	}
	_, addr := startShalePG(t, "demo", t.TempDir())
	host, port, _ := strings.Cut(addr, ":")
	cmd := exec.Command(node, "drivers.js", host, port, "demo", "me")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("drivers.js: %v\n%s", err, out)
	}
	want, err := os.ReadFile(filepath.Join(dir, "postgres.out"))
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != string(want) {
		t.Fatalf("drivers.js printed:\n%s\nPostgreSQL's drivers printed:\n%s", out, want)
	}
}
