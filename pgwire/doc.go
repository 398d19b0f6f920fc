// Package pgwire serves the PostgreSQL v3 wire protocol on pgx's pgproto3,
// so psql, drivers (pgx, JDBC, node-postgres) and BI tools can query Shale.
// Queries are GoogleSQL for Bigtable, run by an Executor that pgwire
// declares and package server implements over the engine; pgwire itself
// imports only pgproto3, sql/types and sql/sqlerr.
//
// # Connection state machine
//
//	accept ─▶ Startup ──SSLRequest──▶ 'S' + TLS handshake (or 'N') ─▶ Startup
//	            │  ──GSSENCRequest──▶ 'N' ─▶ Startup
//	            │  ──CancelRequest──▶ cancel that session's running portal; close, no reply
//	            │  ──EOF──▶ close quietly (clients hang up after 'N')
//	            └─StartupMessage─▶ MaxConns? (FATAL 53300) ─▶ Auth (trust | SCRAM-SHA-256, FATAL 28P01)
//	               ─▶ AuthenticationOk, ParameterStatus…, BackendKeyData, ReadyForQuery(I)
//	Ready ──Query──▶ per statement: [RowDescription] DataRow* CommandComplete | EmptyQueryResponse;
//	        │        stop at the first ErrorResponse; then ReadyForQuery, always
//	        ├─Parse/Bind/Describe/Execute/Close──▶ reply, buffered; on error ErrorResponse ─▶ Skipping
//	        ├─Execute(maxRows)──▶ DataRow×maxRows PortalSuspended (portal stays open) | … CommandComplete
//	        ├─Flush──▶ write the buffer
//	        ├─Sync──▶ outside a transaction block: close every portal; ReadyForQuery
//	        └─Terminate, EOF, malformed message (FATAL 08P01)──▶ close
//	Skipping ──any message but Sync──▶ discarded (Flush and Query too) ──Sync──▶ ReadyForQuery ─▶ Ready
//
// Transaction status (ReadyForQuery): I, T after BEGIN, E after an error in
// a transaction block, where everything but COMMIT/ROLLBACK fails with
// 25P02. Shale is read-only over SQL: BEGIN/COMMIT/ROLLBACK only track this
// status; at the end of a block portals, cursors without HOLD and SET LOCAL
// values go. A Query of several statements runs in an implicit block (as
// PostgreSQL's does), and settings are transactional, savepoints included
// (txnsettings.go): an error undoes the failed (sub)transaction's SETs at
// once. Changes of reported settings are sent as ParameterStatus just
// before ReadyForQuery, as PostgreSQL 14+ sends them.
//
// # Statements: who answers
//
// prepare (prepare.go) routes each statement, in order, to
//  1. pgwire itself for the session statements drivers send (local.go, a
//     small tokenizer, not regular expressions): SET/RESET/SHOW, BEGIN,
//     START TRANSACTION, COMMIT, END, ROLLBACK, ABORT, SAVEPOINT, RELEASE,
//     DISCARD, PREPARE … AS, EXECUTE, DEALLOCATE (sqlprepare.go),
//     DECLARE … CURSOR [WITH HOLD] FOR, FETCH, MOVE, CLOSE, LOCK [TABLE]
//     (in a transaction block, checking its tables exist), COPY … TO
//     STDOUT (copy.go; its query goes on down this list), and SELECT lists
//     made only of version(), current_schema(), current_database(),
//     current_setting(), set_config() (which sets, as SET does),
//     pg_backend_pid(), current_user and friends;
//  2. the Catalog, if set: the hook for the pg_catalog/information_schema
//     emulation. It sees the client's PostgreSQL text with $n intact and
//     declines what is not a catalog query;
//  3. the Executor, with $n rewritten to @pn;
//  4. when the Executor rejects the statement with a syntax error (42601)
//     or as not supported (0A000, e.g. a schema-qualified public.t), a
//     Catalog that is a FallbackCatalog: BI tools' PostgreSQL-dialect
//     queries over the database's tables (quoted identifiers are strings
//     to GoogleSQL). If it fails too, it decides whose error the client
//     sees: the Executor's, unless the text clearly is PostgreSQL.
//
// # Parameters
//
// $1…$n are rewritten to the GoogleSQL parameters @p1…@pn (the lexer skips
// strings, quoted identifiers and comments; error positions are mapped back
// to the client's text). @name parameters work too, numbered after the $n
// ones in order of first use; ParameterDescription lists them in that
// order. A type from Parse's OIDs is used as given. An OID of 0 (or a
// missing one) is inferred by trial preparation: the parameter starts as
// STRING; while Prepare fails with a type error, the parameter nearest the
// error's position takes the next of BYTES, INT64, FLOAT64, BOOL,
// TIMESTAMP, DATE and is kept if the query prepares or fails further on (at
// most 64 Prepare calls). A parameter declared text/varchar may become
// BYTES the same way; its text is then the bytes. Text-format BYTES
// parameters otherwise use bytea input (\x hex, or escapes).
//
// # Types
//
//	GoogleSQL                    PostgreSQL        text form
//	BOOL                         bool (16)         t / f
//	INT64, ENUM (its number)     int8 (20)
//	FLOAT32                      float4 (700)      shortest exact (extra_float_digits ≥ 1)
//	FLOAT64                      float8 (701)      NaN, Infinity, -Infinity
//	STRING                       text (25)
//	BYTES                        bytea (17)        \x hex
//	DATE                         date (1082)       2019-05-01
//	TIMESTAMP                    timestamptz (1184) 2019-05-01 00:00:00+00 in the session TimeZone
//	ARRAY<scalar above>          its array type    {1,2,NULL}, one dimension
//	MAP, STRUCT, PROTO, other ARRAY  jsonb (3802)
//
// A STRING value in a json or jsonb column (only a CatalogStatement has
// those) is JSON text already and is sent as it is.
//
// jsonb renders MAP and STRUCT as objects (unnamed fields "_1", "_2"…),
// ARRAY as arrays, INT64 as numbers, non-finite floats as "NaN",
// "Infinity", "-Infinity", DATE and TIMESTAMP as ISO 8601 strings, and
// BYTES (map keys too) as strings: the bytes themselves when they are
// UTF-8 and do not begin with \x, else "\x" and lowercase hex — so
// families of text cells read naturally and every value is recoverable.
// A MAP's keys come in jsonb's order (shorter first, then by their bytes),
// as PostgreSQL prints a jsonb object; a STRUCT keeps its fields' order.
// A PROTO (a whole message: a top-level column, an ARRAY element, a STRUCT
// field or a map value) renders as its protojson object, through the
// AppendJSON hook its sql/types type carries (protoschema sets it; pgwire
// never sees a descriptor): protojson's defaults — lowerCamelCase
// json_name keys, unset fields omitted, enums by value name, 64-bit
// integers as strings, bytes as base64, well-known types in their JSON
// forms — re-spaced as jsonb prints (", " and ": "). A PROTO whose type has
// no hook, or whose bytes do not parse as the message, renders as BYTES do
// instead (a string, usually "\x" and hex), so the result stream goes on.
// Note that a top-level ENUM column is its number (int8), while an enum
// inside a protojson message is its name.
// Binary formats follow PostgreSQL's send/recv functions for every type in
// both directions (jsonb: version byte 1 + text); Bind's format codes
// follow the 0 (all text) / 1 (all the same) / N (one each) rule.
//
// # Errors
//
// sqlerr codes map to SQLSTATE: Syntax 42601, UndefinedTable 42P01,
// UndefinedColumn 42703, UndefinedFunction 42883, UndefinedParameter 42P02,
// TypeMismatch 42804, InvalidArgument 22023, DivisionByZero 22012,
// OutOfRange 22003, InvalidValue 22P02, ResourceExhausted 53200,
// TooComplex 54001, Canceled and any error after a cancel 57014, Internal
// XX000. Position is the
// 1-based character offset in the Query or Parse text, so psql draws its
// caret under a multi-statement Query's failing statement too.
//
// # Invariants
//
// W1: results stream. A DataRow is encoded straight into the session's
// write buffer (flushed past 32 KiB); no result is held whole.
// W2: every goroutine has an owner: Serve's accept loop and each session's
// goroutine are joined by Close; a session's read-ahead goroutine is joined
// by its session. A recovered panic ends only its session; a panic in the
// SQL engine never reaches it, failing its statement with XX000 instead
// (engine's G4).
// W3: a session's read-ahead goroutine (reader.go) sees a hang-up at once
// and cancels the session's context, so a client that disconnects in the
// middle of a result stops its query.
// W4: after an error in an extended-protocol message nothing but Sync (or
// Terminate) is processed; a simple Query always ends with ReadyForQuery.
// W5: Describe of a statement answers ParameterDescription then
// RowDescription or NoData; of a portal, RowDescription or NoData.
// W6: a session's socket is read and written with raw system calls
// (sockio_linux.go) only because it is non-blocking: a call never sleeps
// in the kernel, so holding the P through it is safe, and on EAGAIN the
// runtime's poller waits as for net.Conn; before that, a read that finds
// nothing yields the CPU once, so that the client its last write woke
// runs first, as it does when a PostgreSQL backend sleeps. TLS,
// non-socket conns and race-detector builds keep net.Conn.
package pgwire
