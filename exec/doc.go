// Package exec runs plans: it builds a tree of operators from a
// planner.Node tree and streams batches of rows through it.
//
// # Data flow
//
// Build(plan) → Operator tree (Prepare(plan).Start(params) for the runs
// of a prepared statement). The scan operator reads a table through the
// one narrow Scanner interface (scanner.go): resolved key spans,
// families/qualifiers, time bounds, cells per column, a row limit and a
// direction in; rows of cells out. StorageScanner implements it over
// storage.Engine; a Cloud Bigtable backend can implement it too. The scan
// turns cells into SQL values (`_key`, one MAP per family read, or the
// cell columns and extracted protobuf fields of planner invariant P4),
// applies the residual, and hands batches up through filter, unnest,
// unpack, aggregate, project, distinct, sort and limit operators.
//
// # Invariants
//
// E1: a Batch and every value in it are valid until the next call to Next
// of the operator that returned it; an operator that keeps values across
// calls (sort, aggregate) deep-copies them (sql.CopyValue); distinct keeps
// only encoded keys (copied bytes), never values.
// E2: scan, filter, project, unnest, unpack and limit hold O(batch) memory
// independent of table size; sort, aggregate and distinct count the bytes
// they hold and fail with sqlerr.ResourceExhausted past Options.MemoryLimit.
// E3: every error an operator returns is a *sqlerr.Error.
// E4: a run's operator tree serves one run at a time. A Prepared reuses
// the tree of a released run for a later one (prepared.go), so nothing a
// run returned may be used after its Release; a reusable operator keeps
// across runs only scratch memory, trimmed and zeroed on release.
package exec
