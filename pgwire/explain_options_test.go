package pgwire

import "testing"

func TestExplainOptions(t *testing.T) {
	for _, tc := range []struct {
		text, rewritten, format, query string
		ok                             bool
	}{
		{"EXPLAIN (FORMAT JSON) SELECT 1", "EXPLAIN               SELECT 1", "json", "SELECT 1", true},
		{"explain (analyze, format yaml) select 1", "explain ANALYZE                select 1", "yaml", "select 1", true},
		{"EXPLAIN (ANALYZE false, COSTS OFF, FORMAT 'text') SELECT 1", "EXPLAIN                                           SELECT 1", "text", "SELECT 1", true},
		{"EXPLAIN (ANALYSE 1, VERBOSE) SELECT 1", "EXPLAIN ANALYZE              SELECT 1", "text", "SELECT 1", true},
		{"EXPLAIN (FORMAT XML) SELECT 1", "", "", "", false},
		{"EXPLAIN (GENERIC_PLAN) SELECT 1", "", "", "", false},
		{"EXPLAIN (ANALYZE maybe) SELECT 1", "", "", "", false},
		{"EXPLAIN (FORMAT JSON SELECT 1", "", "", "", false},
		{"EXPLAIN SELECT 1", "", "", "", false},
		{"SELECT (1)", "", "", "", false},
	} {
		rewritten, format, query, ok := explainOptions(tc.text)
		if rewritten != tc.rewritten || format != tc.format || query != tc.query || ok != tc.ok {
			t.Errorf("%s: %q %q %q %v, want %q %q %q %v", tc.text, rewritten, format, query, ok, tc.rewritten, tc.format, tc.query, tc.ok)
		}
		if ok && len(rewritten) != len(tc.text) {
			t.Errorf("%s: the rewrite moves offsets", tc.text)
		}
	}
}
