package server_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// pgJDBCJar is where Debian's libpostgresql-jdbc-java puts pgJDBC (.ci/run
// installs it; Maven's registry is not reachable here).
const pgJDBCJar = "/usr/share/java/postgresql.jar"

// requireJDBC returns the java command, skipping the test where Java or
// pgJDBC is missing (CI installs both).
func requireJDBC(t *testing.T) string {
	t.Helper()
	java, err := exec.LookPath("java")
	if err != nil {
		t.Skip("java is not installed")
	}
	if _, err := os.Stat(pgJDBCJar); err != nil {
		t.Skip("pgJDBC is not installed (apt-get install libpostgresql-jdbc-java)")
	}
	return java
}

// TestJDBC runs testdata/jdbc/JdbcSmoke.java with pgJDBC against `shale
// demo`: prepared statements past the binary threshold, an error's
// SQLSTATE, and DatabaseMetaData (getTables, getColumns, getPrimaryKeys,
// getSchemas) answered by the catalog emulator. It skips where Java or pgJDBC is missing
// (CI installs both).
func TestJDBC(t *testing.T) {
	java := requireJDBC(t)
	_, addr := startShalePG(t, "demo", t.TempDir())
	out, err := exec.Command(java, "-cp", pgJDBCJar, "testdata/jdbc/JdbcSmoke.java",
		"jdbc:postgresql://"+addr+"/demo").CombinedOutput()
	if err != nil {
		t.Fatalf("JdbcSmoke: %v\n%s", err, out)
	}
	var want []string
	for i := 1; i <= 8; i++ {
		want = append(want, "exec "+string(rune('0'+i))+": tablet# os=PQ2A. battery>0=true")
	}
	want = append(want, "phones: 2700", "error: 42P01", "product: PostgreSQL 15",
		"tables: albums analytics counters readings usage",
		"readings columns: device_type:text device_id:text ts:timestamptz stats:jsonb",
		"readings primary key: device_type/1 device_id/2 ts/3",
		"schemas: information_schema pg_catalog public")
	if got := strings.TrimSpace(string(out)); got != strings.Join(want, "\n") {
		t.Fatalf("JdbcSmoke printed:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
}

// TestJDBCDialect runs testdata/jdbc/DialectDiff.java against `shale demo`:
// PostgreSQL-dialect statements (numeric, interval, time, arrays, jsonb,
// a catalog query) read by pgJDBC in text and, from the fifth execution,
// in binary must come out as they do from PostgreSQL 15 over a restored
// dump of the demo (testdata/jdbc/dialect.out).
func TestJDBCDialect(t *testing.T) {
	java := requireJDBC(t)
	_, addr := startShalePG(t, "demo", t.TempDir())
	out, err := exec.Command(java, "-Duser.timezone=UTC", "-cp", pgJDBCJar, "testdata/jdbc/DialectDiff.java",
		"jdbc:postgresql://"+addr+"/demo", "me").CombinedOutput()
	if err != nil {
		t.Fatalf("DialectDiff: %v\n%s", err, out)
	}
	want, err := os.ReadFile("testdata/jdbc/dialect.out")
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != string(want) {
		t.Fatalf("DialectDiff printed:\n%s\nagainst PostgreSQL:\n%s", out, want)
	}
}
