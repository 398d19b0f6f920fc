package server_test

import (
	"os/exec"
	"strings"
	"testing"
)

// debianPython is the interpreter Debian's python3-sqlalchemy and
// python3-psycopg2 install into (.ci/run installs them; PyPI is not
// reachable here).
const debianPython = "/usr/bin/python3"

// TestSQLAlchemy runs testdata/sqlalchemy/reflect.py against `shale demo`:
// SQLAlchemy's inspector lists and reflects tables as Superset does, with
// queries the catalog emulator answers, and then runs a GoogleSQL query
// and a PostgreSQL one (psycopg2 writes bytes parameters as '\x..'::bytea).
// It skips where Python, SQLAlchemy or psycopg2 is missing (CI installs
// them).
func TestSQLAlchemy(t *testing.T) {
	if err := exec.Command(debianPython, "-c", "import sqlalchemy, psycopg2").Run(); err != nil {
		t.Skip("SQLAlchemy or psycopg2 is not installed (apt-get install python3-sqlalchemy python3-psycopg2)")
	}
	_, addr := startShalePG(t, "demo", t.TempDir())
	out, err := exec.Command(debianPython, "testdata/sqlalchemy/reflect.py", "me@"+addr+"/demo").CombinedOutput()
	if err != nil {
		t.Fatalf("reflect.py: %v\n%s", err, out)
	}
	want := strings.Join([]string{
		"schemas: information_schema public",
		"tables: albums analytics counters readings usage",
		"views: ",
		"readings columns: device_type:TEXT device_id:TEXT ts:TIMESTAMP stats:JSONB",
		"readings primary key: device_type device_id ts",
		"readings indexes: [] foreign keys: []",
		"googlesql: phone#5c10102#20190501",
		"postgresql: phone#5c10102#20190501",
	}, "\n")
	if got := strings.TrimSpace(string(out)); got != want {
		t.Fatalf("reflect.py printed:\n%s\nwant:\n%s", got, want)
	}
}
