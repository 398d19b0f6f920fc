// Command benchload creates a Bigtable table through the official Go client
// (cloud.google.com/go/bigtable) and fills it with a deterministic data set,
// for benchmarks that compare Shale with another database holding the same
// rows (scripts/pg-compare.sh loads PostgreSQL 15 with identical data).
//
// It talks to the server named by BIGTABLE_EMULATOR_HOST (required), creates
// table -table with family -family in -project/-instance (dropping the table
// first if it exists), and writes -rows rows through ApplyBulk in batches of
// -batch rows, -workers batches at a time. Row i (0 ≤ i < rows) has:
//
//	row key  the decimal string of i, no padding ("0", "1", …, "999999")
//	cf:a     md5hex(i || "a")[:8 + (7i + 0) mod 13]
//	cf:b     md5hex(i || "b")[:8 + (7i + 3) mod 13]
//	cf:c     md5hex(i || "c")[:8 + (7i + 6) mod 13]
//
// so every value is 8 to 20 bytes of lowercase hex. The same values in SQL:
// substr(md5(i::text || 'a'), 1, 8 + (7*i + 0) % 13), and so on.
//
// Usage:
//
//	BIGTABLE_EMULATOR_HOST=127.0.0.1:8086 go run ./internal/tools/benchload -rows 1000000
package main
