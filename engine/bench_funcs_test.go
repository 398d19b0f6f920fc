package engine_test

import (
	"context"
	"testing"
)

// BenchmarkFunctions compares a query that applies five functions to every
// row with the plain scan returning the same cells (issue #8: at most 2×,
// and no allocation per function call).
func BenchmarkFunctions(b *testing.B) {
	_, eng, n := benchEngine(b)
	ctx := context.Background()
	for _, q := range []struct{ name, sql string }{
		{"plain-scan", "SELECT cf['a'] FROM t"},
		{"five-functions", "SELECT ABS(TO_INT64(cf['a'])), LENGTH(cf['a']), STARTS_WITH(cf['a'], b'1'), " +
			"FARM_FINGERPRINT(cf['a']) FROM t"},
	} {
		b.Run(q.name, func(b *testing.B) {
			b.ReportAllocs()
			stmt, err := eng.Prepare(ctx, testInstance, q.sql, nil)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				rows, err := stmt.Run(ctx, nil)
				if err != nil {
					b.Fatal(err)
				}
				c := 0
				for rows.Next() {
					c++
				}
				if err := rows.Err(); err != nil || c != n {
					b.Fatalf("%s: %d rows, %v", q.sql, c, err)
				}
				rows.Close()
			}
		})
	}
}
