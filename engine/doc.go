// Package engine is a query's life: parse and bind (package sql), plan
// (package planner), build operators (package exec) and run them against
// the storage engine, with prepared statements and EXPLAIN [ANALYZE].
//
// # Data flow
//
//	Prepare(instance, text, param types) → sql.Analyze → planner.New → *Statement
//	Statement.Run(param values) → exec.Prepared.Start → Operator tree → *Rows
//
// A Statement is immutable and safe for concurrent Runs; each Run has
// operators of its own, so a prepared plan is reused without re-planning.
// The trees of closed runs are reset for later runs (exec.Prepared), so a
// run of a small query builds nothing and allocates little.
//
// # Plan cache
//
// A query prepared without parameters whose literal operands
// sql.Literalize can turn into parameters (WHERE _key = 'k1') shares the
// plan of its literalized text with every query that differs only in
// those literals (plancache.go): PostgreSQL's simple protocol sends every
// point lookup as new text. Entries live while storage's catalog epoch is
// unchanged. When the literalized text does not prepare, the client's
// text is prepared as is, so errors are never the cache's; run-time error
// offsets are mapped back to the client's text.
//
// # Invariants
//
// G1: every error returned (by Prepare, Run, or Rows.Err) is a
// *sqlerr.Error; when it concerns part of the query text it carries a
// line:column position.
// G2: Rows.Row and its values are valid until the next call to Next or
// Close (a later run of the statement may reuse their memory); Close
// releases the read and may be called at any time, also before the end.
// G3: a Run checks the parameter values against the declared types: every
// declared parameter the query uses must be bound, with a value of its
// type or NULL.
// G4: a panic while a statement is prepared, opened, read or closed fails
// that statement alone with a sqlerr.Internal error and is logged with its
// stack (recover.go); the run it broke is never reused.
package engine
