// Package pgcatalog answers the PostgreSQL-dialect catalog queries that
// tools send over the wire endpoint — psql's meta-commands (\l \dn \dt \d
// \d+), pgJDBC's DatabaseMetaData, Grafana, Metabase and DBeaver
// introspection, and session probes such as SELECT version() — from
// Shale's live catalog, and the PostgreSQL-dialect queries BI tools send
// over Shale tables (Metabase's `SELECT TRUE AS "_" FROM "public"."t" WHERE
// 1 <> 1 LIMIT 0` probe and its row samples, DBeaver's `SELECT t.* FROM
// public.t t LIMIT 200`), which the server hands over when GoogleSQL
// rejects them.
//
// # Evaluation model
//
// A statement is parsed by PostgreSQL's own parser (pg_query_go), then bound
// and evaluated by a small relational engine; nothing matches query text.
//
//	Prepare: parse (parse.go) → bind (select.go, from.go, expr.go, ops.go…)
//	         names resolve against the fixed shapes of the emulated
//	         relations (shapes.go, transcribed from PostgreSQL 15) and, with
//	         PrepareWith, the shapes of the Shale tables (Source.Tables,
//	         read once, only if the statement names a relation that is not
//	         a catalog relation); every expression gets a static type OID,
//	         untyped literals and $n parameters take their type from
//	         context, as in PostgreSQL
//	Run:     the Source is read once into a snapshot (catalog.go); each
//	         relation's rows are computed from it on first use (rel_*.go);
//	         a Shale table's rows come from Source.Scan (usertable.go);
//	         plans (plan.go, selectplan.go, cross.go, setop.go) materialize
//	         rows, except a SELECT without grouping, aggregates, windows,
//	         set-returning functions, DISTINCT or ORDER BY, which streams;
//	         expressions evaluate over an env chain (the current row, its
//	         aggregates, window and set-returning-function results, and
//	         the enclosing query's env for correlation)
//	Result:  Rows (Statement.Open) render values in PostgreSQL's text
//	         output format (format.go) with the column type OIDs for
//	         RowDescription; Run collects them
//
// Joins are nested loops, hash joins when a conjunct equates the two sides,
// and comma-separated FROM lists are ordered greedily with each WHERE
// conjunct applied where its inputs meet (cross.go): catalog relations are
// small, but pgJDBC's getImportedKeys joins nine of them.
//
// Beyond joins the engine has what analysts' queries use: subqueries (row
// IN too; an uncorrelated one runs once per statement and x IN it is a
// hash lookup, subquery.go; an EXISTS correlated by equalities is a hashed
// semi-join, semijoin.go), LATERAL (lateralPlan in from.go), WITH RECURSIVE, set
// operations, DISTINCT ON, GROUP BY with grouping sets (grouping.go),
// window functions over named windows and frames (window.go), functions
// in FROM with column definition lists and ROWS FROM (from.go,
// json_records.go), and jsonpath over jsonb (jsonpath.go parses and prints
// a path, jsonpath_eval.go evaluates it, funcs_jsonpath.go has @?, @@ and
// the jsonb_path_* functions).
//
// Values (value.go) are a small tagged union: NULL, bool, integer (int2/4/8,
// oid and the reg* types), float, numeric (an exact decimal held as its
// text, numeric.go), text (text, name, "char", json, and dates, times and
// intervals in their output form), array (also int2vector/oidvector) and
// record (a ROW, a whole-row reference, _pg_expandarray's .x/.n). A
// timestamptz is held as its UTC text; the session's TimeZone decides how
// it reads as local time (zone.go).
//
// # The emulated catalog
//
// Schemas pg_catalog, public and information_schema. Shale tables are
// relkind 'r' in public, with their columns and a primary-key index
// <table>_pkey plus its constraint. The emulated relations themselves
// appear in pg_class and pg_attribute, so 'pg_class'::regclass and
// \d pg_class work. Each table also has its row type in pg_type. pg_proc
// (procs.go) and pg_settings (settingsRows) hold PostgreSQL 15's own rows
// and descriptions for what Shale evaluates and keeps, transcribed by
// scripts/gen-pg-catalog.sh into proc_data.go and settings_data.go.
// pg_operator and pg_cast (rel_operator.go) hold PostgreSQL 15's rows for
// the operators and casts Shale evaluates, which scripts/gen-pg-operators.sh
// finds by probing a running Shale and transcribes into operator_data.go
// with the functions implementing them (pg_proc lists those too).
// pg_description holds the schemas', the built-in functions', the
// operators' and the types' comments (Shale keeps no others).
//
// # Shale tables
//
// A Shale table is the relation public.<name> (also unqualified, after
// pg_catalog's relations, as on PostgreSQL's default search path). Its
// columns are exactly those Source.Tables describes (and pg_attribute
// shows): `_key bytea` unless the table has a row-key schema, one column
// per key field with its type, one jsonb column per family. Source.Scan
// reads its rows in key order; each value arrives as its text (what
// expressions see: bytea as \x hex, jsonb as JSON text, int8 as a number,
// timestamptz as text) and the Source's native value, which Rows.Natives
// returns while the value reaches a result column of its type unchanged,
// so the server sends it exactly as its GoogleSQL path would. A scan asks
// only for the columns some expression references (colRef marks them) and
// stops when the statement stops reading:
//
//   - LIMIT 0, or a WHERE that references no column of its query level and
//     is not true (Metabase's WHERE 1 <> 1), reads nothing;
//   - a streaming SELECT (above) pulls rows one at a time and stops at
//     LIMIT + OFFSET; without a WHERE over columns the scan itself is
//     limited to LIMIT + OFFSET rows;
//   - a grouped select, SELECT DISTINCT, ORDER BY with a LIMIT, a join's
//     left side and a subquery in FROM read it as it is scanned
//     (groupstream.go, join.go), and ORDER BY without one sorts within
//     work_mem, spilling sorted runs to a temporary file (sortspill.go);
//   - anything else (windows, grouping sets, set operations, a join's right
//     side) reads the table whole, each row counting against the
//     statement's 5,000,000-row budget; a table read whole is kept for the
//     rest of the run, so a correlated subquery scans it once.
//
// The WHERE of a SELECT straight over a Shale table narrows what the scan
// reads (pushdown.go): its conjuncts comparing a key column (_key, or a
// row-key field of type text, int8 or timestamptz) with a literal or
// parameter of the column's type (=, <, <=, >, >=, BETWEEN, IN lists, an
// OR of equalities on one column) reach Source.Scan as its filter, each
// value evaluated when the scan starts and passed only in its type's
// canonical text form; the Source turns them into key ranges. Pushdown
// only narrows: a pushed condition selects every row its conjunct does,
// one that cannot (a NULL, a value in another spelling, another type, a
// function or cast of the column) is not pushed, and the whole WHERE is
// still evaluated over the rows read.
//
// A prepared statement keeps the shapes of the tables it reads: Run checks
// them against the snapshot (42P01 if the table is gone, 0A000 if a column
// it reads changed type). Comparisons follow the text (and numbers of
// int8 columns): timestamptz compares as its UTC text, bytea as its hex.
//
// # Invariants
//
// C1: one statement reads the Source's catalog (Tables, Databases) at most
// once per Prepare and once per Run; all its relations and functions see
// the same snapshot. Each Shale table reference is scanned at most twice
// per run (once streamed, then once whole if it is read again).
// C2: a table's OID is a hash of its name into [1<<30, 1<<30 + 1<<28),
// probed forward in name order on collision, so OIDs are stable across
// statements while the set of tables is; the table's index, constraint
// and row type take the next three OIDs.
// C3: prepared statements hold no catalog data beyond the shapes of the
// Shale tables they read (checked by Run); Run and Open may be called
// concurrently and after catalog changes.
// C4: no input panics (FuzzQuery); errors are *Error with a SQLSTATE.
package pgcatalog
