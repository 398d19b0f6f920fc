package pgwire

import (
	"context"

	"github.com/shale-db/shale/sql/types"
)

// Executor prepares GoogleSQL queries for a database. pgwire declares it and
// package server supplies the adapter over the engine; pgwire never imports
// the engine (STYLE P3).
type Executor interface {
	// Prepare parses, binds and plans query (GoogleSQL; parameters are
	// @name, pgwire has already rewritten $n to @pn) against the database a
	// client named in its StartupMessage. params declares the type of every
	// parameter the query text mentions (nil when there are none). Errors
	// should be *sqlerr.Error (their Code picks the SQLSTATE, their Offset
	// the Position).
	Prepare(ctx context.Context, database, query string, params map[string]*types.Type) (Statement, error)
}

// Statement is a prepared query. It must be safe to Run more than once.
type Statement interface {
	// Columns describes the result; an empty slice means the statement
	// returns no rows (Describe answers NoData).
	Columns() []types.Field
	// Run starts the statement. ctx governs the whole life of the
	// returned Rows: pgwire cancels it on CancelRequest, on a client
	// disconnect and when the portal closes. params belong to the caller
	// again once the Rows are closed (or Run failed): pgwire reuses the
	// map for the statement's next Bind.
	Run(ctx context.Context, params map[string]types.Value) (Rows, error)
}

// Rows is a result stream, consumed one row at a time: pgwire never holds a
// whole result in memory.
type Rows interface {
	// Next advances; false at the end or on an error (see Err).
	Next() bool
	// Row is the current row, valid until the next call to Next. Its
	// values must match Columns in number and type (or be NULL).
	Row() []types.Value
	// Err is the error that ended the stream, if any.
	Err() error
	// Close releases the stream; it may be called before the end and more
	// than once.
	Close() error
}

// Session is what a Catalog may read of the connection that asks.
type Session interface {
	// User and Database are the StartupMessage's user and database.
	User() string
	Database() string
	// Setting returns a run-time parameter as SHOW prints it (search_path,
	// server_version_num, TimeZone, ...); ok is false for an unknown name.
	Setting(name string) (value string, ok bool)
	// Settings lists every run-time parameter of the session.
	Settings() []SettingValue
}

// SettingValue is a run-time parameter: its name as SHOW spells it, its
// value, and where the value came from, as pg_settings.source says:
// "default", "client" (the StartupMessage) or "session" (SET).
type SettingValue struct{ Name, Value, Source string }

// Catalog answers the PostgreSQL-dialect statements that tools send to
// introspect a database (pg_catalog, information_schema, pg_* functions).
// The connection consults it before the Executor for every statement that
// pgwire does not handle itself (the session statements of session.go).
type Catalog interface {
	// Prepare returns ok=false, and no error, when query is not a catalog
	// query: the connection then hands it to the Executor. query is the
	// client's text, with PostgreSQL $n placeholders untouched; paramOIDs
	// are the OIDs from Parse (0: unspecified; may be shorter than the
	// number of placeholders).
	Prepare(ctx context.Context, s Session, query string, paramOIDs []uint32) (st CatalogStatement, ok bool, err error)
}

// FallbackCatalog is a Catalog that can also evaluate PostgreSQL-dialect
// queries over the database's own tables, which BI tools send
// (`SELECT TRUE AS "_" FROM "public"."t" WHERE 1 <> 1 LIMIT 0`). GoogleSQL
// stays first: the connection offers it only a statement the Executor
// rejected with a syntax error or as not supported.
type FallbackCatalog interface {
	Catalog
	// PrepareFallback takes query (the client's text, as for Prepare) and
	// returns ok=false, and no error, when the Executor's error should be
	// reported; ok=true with an error when that error should be reported
	// instead (the query clearly is PostgreSQL); else the statement.
	PrepareFallback(ctx context.Context, s Session, query string, paramOIDs []uint32) (st CatalogStatement, ok bool, err error)
}

// CatalogStatement is a Statement whose columns and parameters have
// PostgreSQL types of their own (oid, name, regclass, "char", text[]...).
// Parameter $n is bound under the name "pn", as for the Executor.
type CatalogStatement interface {
	Statement
	// ColumnOIDs gives one type OID per column (see types.go for the
	// encodings pgwire knows; an oid column holds INT64 values, a name
	// column STRING values, a json or jsonb column STRING values that are
	// JSON text, or values of any type, rendered as jsonb).
	ColumnOIDs() []uint32
	// ParamOIDs gives one type OID per $n placeholder.
	ParamOIDs() []uint32
}
