// Package sqlerr is the error vocabulary of the SQL layers: a stable Code
// and a source position on every error the parser, binder, planner and
// executor return. Protocol codes (SQLSTATE on pgwire, gRPC codes on
// ExecuteQuery) are chosen from Code at the edges, never here.
package sqlerr
