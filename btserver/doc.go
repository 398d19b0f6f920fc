// Package btserver serves Bigtable's gRPC API over a storage.Engine: the
// Data API (google.bigtable.v2.Bigtable), the Table Admin API
// (google.bigtable.admin.v2.BigtableTableAdmin) and the Instance Admin calls
// that clients and cbt need. It only converts between the protos and the
// storage model and chooses gRPC status codes; the Bigtable semantics live
// in storage.
//
// # Data flow
//
//	gRPC request ─ names.go (resource names → storage.Target, instance, table)
//	             ─ convert*.go (RowSet, RowFilter, Mutation, GcRule, Table … → storage types)
//	             ─ storage.Engine call
//	             ─ convert*.go / read_rows.go (storage results → protos)
//	             ─ errors.go grpcStatus (storage sentinels → codes, spec §10)
//
// ReadRows (read_rows.go) pulls rows from a storage.RowIterator one at a
// time and encodes them as cell chunks, batching small rows into responses
// of about 1 MiB. Admin calls that Bigtable runs as long-running operations
// finish before they answer and return a done Operation (lro.go).
// Authorized views and schema bundles are parts of the table descriptor,
// changed with Engine.AlterTable.
//
// Files: server.go (Server, Register, service types), names.go, errors.go,
// convert.go (mutations, row sets, rows), convert_filter.go,
// convert_table.go (GC rules, value types, tables), row_key_schema.go,
// read_rows.go, data.go (SampleRowKeys, PingAndWarm), mutate.go,
// admin_tables.go, admin_views.go, admin_bundles.go, instance_admin.go,
// lro.go (operations, consistency tokens), paging.go.
//
// # Invariants
//
// B1: protocol types never leave this package; storage sees only its own
// types.
// B2: every handler error passes through grpcStatus, so no client sees
// UNKNOWN; RPCs Shale does not serve answer UNIMPLEMENTED through the
// embedded Unimplemented servers (never a nil interface, never a panic).
// B3: ReadRows never holds more than one row of the iterator plus one
// pending response (≈1 MiB, or one larger row sent on its own), and it
// allocates per response, not per cell: chunks and copied bytes come from
// slabs whose elements are handed out once and never reused, and family
// and qualifier wrappers are immutable and shared within a stream, so a
// sent message is never modified afterwards.
// B4: within a row, the first chunk carries the row key, family and
// qualifier; a family change carries the family and qualifier; a column
// change carries the qualifier; the last chunk commits the row (spec §2.2).
// B5: MutateRows answers one status per entry; only a failure of the whole
// request (missing table, too many mutations) fails the call.
//
// # Deviations and limits
//
// Materialized views, PrepareQuery/ExecuteQuery, change streams, the
// session RPCs, backups, snapshots, app profiles and IAM answer
// UNIMPLEMENTED. GetAuthorizedView defaults to the FULL view (the official
// Go client reads the subset from a default Get). Non-aggregate family
// value types (bytes, string) are accepted but not stored. Schema bundle
// updates are not checked for backward compatibility.
package btserver
