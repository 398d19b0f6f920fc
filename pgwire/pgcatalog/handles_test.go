package pgcatalog

import "testing"

// TestHandleHints: every name Handles looks for contains one of the hints
// that let it skip the word split, so the shortcut never drops a statement.
func TestHandleHints(t *testing.T) {
	var names []string
	for w := range catalogWords {
		names = append(names, w)
	}
	for w := range catalogFuncs {
		names = append(names, w)
	}
	names = append(names, "pg_class", "information_schema", "has_table_privilege", "PG_CATALOG", "Version")
	for _, n := range names {
		if !mayHandle("select " + n + "()") {
			t.Errorf("no hint covers %q", n)
		}
	}
	for _, q := range []string{"SELECT _key, cf['a'] FROM t WHERE _key = 'k1'", "SELECT COUNT(*) FROM t"} {
		if mayHandle(q) {
			t.Errorf("%q: a hint matched", q)
		}
	}
}

// BenchmarkHandles: the check every simple-protocol statement goes through,
// on pgbench's point lookup.
func BenchmarkHandles(b *testing.B) {
	const q = "SELECT _key, cf['a'] FROM t WHERE _key = CAST(CAST(123456 AS STRING) AS BYTES)"
	for b.Loop() {
		if Handles(q) {
			b.Fatal("handled")
		}
	}
}
