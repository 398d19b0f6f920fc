// Package pgjson writes JSON text as PostgreSQL's json and jsonb output
// functions do. It is shared by pgwire, which renders Shale's maps, structs
// and protos as jsonb, and pgwire/pgcatalog, which builds and extracts json
// values in PostgreSQL-dialect queries, so that both print a string alike.
package pgjson
