package server_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestPythonDrivers runs testdata/pydrivers/drivers.py against `shale
// demo`: asyncpg (binary results and parameters, its type introspection),
// psycopg 3 (server-side prepared statements, text and binary results,
// rollback through the extended protocol) and pg8000 run the same queries,
// and what they print must be what they print against PostgreSQL 15 over a
// restored dump of the demo (testdata/pydrivers/postgres.out, recorded
// with `drivers.py 127.0.0.1 PORT demodiff postgres`). It skips where
// Debian's python3-asyncpg, python3-psycopg or python3-pg8000 is missing
// (.ci/run installs them; PyPI is not reachable here).
func TestPythonDrivers(t *testing.T) {
	if err := exec.Command(debianPython, "-c", "import asyncpg, psycopg, pg8000").Run(); err != nil {
		t.Skip("asyncpg, psycopg or pg8000 is not installed (apt-get install python3-asyncpg python3-psycopg python3-pg8000)")
	}
	_, addr := startShalePG(t, "demo", t.TempDir())
	host, port, _ := strings.Cut(addr, ":")
	out, err := exec.Command(debianPython, "testdata/pydrivers/drivers.py", host, port, "demo", "me").CombinedOutput()
	if err != nil {
		t.Fatalf("drivers.py: %v\n%s", err, out)
	}
	want, err := os.ReadFile("testdata/pydrivers/postgres.out")
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != string(want) {
		t.Fatalf("drivers.py printed:\n%s\nPostgreSQL's drivers printed:\n%s", out, want)
	}
}
