// Package pgcatalog answers the PostgreSQL-dialect catalog queries that
// tools send over the wire endpoint — psql's meta-commands (\l \dn \dt \d
// \d+), pgJDBC's DatabaseMetaData, Grafana, Metabase and DBeaver
// introspection, and session probes such as SELECT version() — from
// Shale's live catalog.
//
// # Evaluation model
//
// A statement is parsed by PostgreSQL's own parser (pg_query_go), then bound
// and evaluated by a small relational engine; nothing matches query text.
//
//	Prepare: parse (parse.go) → bind (select.go, from.go, expr.go, ops.go…)
//	         names resolve against the fixed shapes of the emulated
//	         relations (shapes.go, transcribed from PostgreSQL 15), every
//	         expression gets a static type OID, untyped literals and $n
//	         parameters take their type from context, as in PostgreSQL
//	Run:     the Source is read once into a snapshot (catalog.go); each
//	         relation's rows are computed from it on first use (rel_*.go);
//	         plans (plan.go, selectplan.go, cross.go, setop.go) materialize
//	         rows and expressions evaluate over an env chain (the current
//	         row, its aggregates, window and set-returning-function
//	         results, and the enclosing query's env for correlation)
//	Result:  values render in PostgreSQL's text output format (format.go)
//	         with the column type OIDs for RowDescription
//
// Joins are nested loops, hash joins when a conjunct equates the two sides,
// and comma-separated FROM lists are ordered greedily with each WHERE
// conjunct applied where its inputs meet (cross.go): catalog relations are
// small, but pgJDBC's getImportedKeys joins nine of them.
//
// Values (value.go) are a small tagged union: NULL, bool, integer (int2/4/8,
// oid and the reg* types), float, text (text, name, "char", json…), array
// (also int2vector/oidvector) and record (for _pg_expandarray's .x/.n).
//
// # The emulated catalog
//
// Schemas pg_catalog, public and information_schema. Shale tables are
// relkind 'r' in public, with their columns and a primary-key index
// <table>_pkey plus its constraint. The emulated relations themselves
// appear in pg_class and pg_attribute, so 'pg_class'::regclass and
// \d pg_class work. pg_description is empty (Shale keeps no comments).
//
// # Invariants
//
// C1: one statement reads the Source at most once; all its relations and
// functions see the same snapshot.
// C2: a table's OID is a hash of its name into [1<<30, 1<<30 + 1<<28),
// probed forward in name order on collision, so OIDs are stable across
// statements while the set of tables is; the table's index and constraint
// take the next two OIDs.
// C3: prepared statements hold no catalog data; Run may be called
// concurrently and after catalog changes.
// C4: no input panics (FuzzQuery); errors are *Error with a SQLSTATE.
package pgcatalog
