// Package storage is Shale's tablet engine: the Bigtable data model stored
// in one Pebble database.
//
// # Data flow
//
// btserver (and later the SQL executor) call the Engine: catalog calls
// (instances, tables, families, authorized views, schema bundles), writes
// (MutateRow, MutateRows, CheckAndMutateRow, ReadModifyWriteRow) and reads
// (ReadRows → RowIterator, SampleRowKeys). A read turns its RowSet into
// sorted Pebble key spans and walks them with one bounded iterator, one row
// at a time; filters (filter.go, filter_eval.go) run per row. A long read
// that asks (ReadOptions.ReadAhead: SQL scans) walks them on a goroutine of
// its own from its 1024th row, a few batches of rows ahead of its caller
// (readahead.go).
//
// # Key layout
//
//	metadata:  0x00 <kind> ...                                  (catalog.go)
//	cell:      0x01 <table id: 8B BE> esc(row) 0x00 0x01 <family> 0x00
//	           esc(qualifier) 0x00 0x01 ^ts(8B BE)              (keys.go)
//
// esc escapes 0x00 as 0x00 0xFF and 0x00 0x01 ends a field, an
// order-preserving, prefix-preserving escaping; the value is the raw cell
// value (8-byte big-endian state for Int64 aggregate families).
//
// # Invariants
//
// S1: within a table, cells are ordered by row key (unsigned bytes), family
// name, qualifier, then timestamp descending; a row-range read is one
// bounded Pebble iteration per span.
// S2: a family's cells exist only while the family is in the table's schema
// (dropping a family deletes its cells before the schema is published).
// S3: every cell key carries the id of a live table; ids are never reused,
// so a dropped and recreated table never sees old data.
// S4: all mutations of one request on one row commit in one Pebble batch,
// under the row's lock stripe (rowlock.go), so CheckAndMutateRow and
// ReadModifyWriteRow are atomic against every other write of the row.
// S5: an acknowledged write has reached the WAL on disk unless the engine was
// opened with NoSync.
// S6: explicit deletes are invisible at once; GC-eligible cells disappear
// when the maintenance sweep (gc.go) collects them.
// S7: Int64 aggregate cells always hold 8 bytes.
//
// Check verifies S1–S3 and S7 over the whole store.
package storage
