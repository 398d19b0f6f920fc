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
// lro.go (operations, consistency tokens), paging.go; for SQL query.go
// (the SQL interface, PrepareQuery), query_execute.go, query_token.go
// (prepared-query and resume tokens), query_cache.go, query_types.go,
// query_params.go, query_encode.go and query_stream.go (batches).
//
// # Queries
//
// PrepareQuery and ExecuteQuery run GoogleSQL through the SQL interface
// the process wiring supplies (Options.SQL; without one both answer
// UNIMPLEMENTED). btserver only converts: param_types and Values to
// sql/types, result types to metadata, rows to ProtoRows, *sqlerr.Error
// codes to gRPC codes (errors.go sqlCode).
//
//	PrepareQuery ─ SQL.Prepare ─ metadata + token (instance, query, param
//	               types, valid_until, metadata checksum) ─ statement cached
//	ExecuteQuery ─ token ─ cached statement, or SQL.Prepare again ─
//	               bind params ─ Statement.Run ─ rows ─ batches + tokens
//
// Tokens are self-contained (query_token.go), so a restart or a cache
// eviction costs a re-plan, not an error; if the re-planned columns differ
// from the metadata the client holds, the token counts as expired. Tokens
// are valid for an hour; past that a request without a resume token gets
// FAILED_PRECONDITION with a PREPARED_QUERY_EXPIRED violation, and the
// clients prepare again. Resume tokens count released rows; a retry runs
// the statement again and skips them (query_stream.go), which relies on
// the statement returning rows in the same order each time.
//
// Result metadata is written in the forms the official Go client
// (cloud.google.com/go/bigtable v1.58) can read, which cannot parse PROTO
// or ENUM types, MAP keys other than BYTES, STRING and INT64, or unnamed
// STRUCT fields: PROTO columns are described as BYTES (the serialized
// message), ENUM as INT64 (the number), a MAP<K, V> with another key type
// as ARRAY<STRUCT<key K, value V>> (the same values on the wire), and an
// unnamed STRUCT field as _field_N (1-based, as BigQuery names them). The
// Go client also cannot read a NULL STRUCT inside an ARRAY or a MAP (it
// has no nil bigtable.Struct); other clients can. FLOAT NaN and infinities
// have no wire form: a result holding one fails with OUT_OF_RANGE, and
// such a parameter is INVALID_ARGUMENT.
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
// B6: ExecuteQuery holds one row of the result plus one open batch
// (≈1 MiB, or one larger row); a batch holds whole rows, its messages
// carry at most 1 MiB of batch_data each, and its last message carries the
// CRC32C checksum and a resume token. PREPARED_QUERY_EXPIRED is only ever
// the first and only answer of a request without a resume token.
//
// # Deviations and limits
//
// Materialized views, change streams, the session RPCs, backups, snapshots, app profiles and IAM answer
// UNIMPLEMENTED. GetAuthorizedView defaults to the FULL view (the official
// Go client reads the subset from a default Get). Non-aggregate family
// value types (bytes, string) are accepted but not stored. Schema bundle
// updates are not checked for backward compatibility. ExecuteQuery
// ignores app_profile_id and view_parameters; the prepared query is not
// invalidated early by schema changes (a cached plan keeps its columns
// until its token expires).
package btserver
