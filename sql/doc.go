// Package sql is the GoogleSQL front end: it parses a query with memefish
// (the only package that imports it) and binds names and types against the
// catalog into a typed IR that the planner consumes.
//
// # Data flow
//
//	text → parse (memefish, plus EXPLAIN [ANALYZE] and NULLS FIRST|LAST,
//	       which memefish does not parse) → binder (scope.go, bind_*.go)
//	     → Statement{Query{From Source, Where, GroupBy, Aggs, Having,
//	       Select, Distinct, OrderBy, Limit}}
//
// Expressions (ir.go) and sources (query.go) are sealed sum types. Scalar
// functions, operators and aggregates live in one registry (funcs.go:
// name → overloads → implementation) that the function-library issue
// extends with Register and RegisterAgg. Eval (eval.go) is the evaluator
// of the IR that package exec runs.
//
// # Invariants
//
// Q1: every Expr has a non-nil type; literal coercions (a string literal
// to BYTES, DATE or TIMESTAMP, NULL to any type, INT64 to FLOAT64) are
// applied at bind time, so operands of an operator have its signature's
// types.
// Q2: a ColRef indexes the row of the expression's scope: the From row,
// or after aggregation [GroupBy..., Aggs...].
// Q3: every error is a *sqlerr.Error; binder errors carry the byte offset
// and line:column of the construct they concern, run-time errors the
// offset of the failing expression (the engine adds line:column).
// Q4: JOIN, UNION and other set operations, CTEs and subqueries (except
// inside UNPACK) are refused with sqlerr.NotSupported at the construct.
// Q5: proto access (proto.go) goes through package protoschema only:
// CAST(x AS bundle.pkg.Msg) resolves against the bundles of the FROM
// table (catalog.Table.Bundle) and, with .a.b, binds to one ProtoGet
// whose Path names the fields; Eval decodes just that path from the wire
// bytes. sql never imports the protobuf runtime.
// Q6: a parameter named with LiteralParamPrefix stands for a literal
// (Literalize, the engine's plan cache) and coerces as that literal would;
// nothing may depend on a literal's value at bind time where Literalize
// replaces one (comparison and CAST operands).
package sql

//go:generate go run ../internal/tools/funcdoc -o ../docs/functions.md
