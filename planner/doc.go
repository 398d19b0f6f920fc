// Package planner turns an analyzed query (package sql) into a logical
// plan: immutable nodes that package exec builds operators from. It does no
// I/O and is deterministic, so plans are golden-tested as text.
//
// # Data flow
//
// sql.Statement → Plan → Node tree:
//
//	Limit? ─ Sort? ─ Distinct? ─ Project ─ Filter(HAVING)? ─ Aggregate? ─ Filter? ─ Unnest* ─ Scan | Unpack | Values
//
// The WHERE clause is split into conjuncts. Those over the table row go to
// the Scan: Derive turns them into a KeySet (spec §4.9) and a residual;
// the rest become a Filter above the UNNEST joins. Family and qualifier
// pruning (prune.go) records which families, and for cf['q'] which
// qualifiers, the query reads. Order by `_key` is served by scan order
// (reverse for DESC), which a Distinct keeps; LIMIT is pushed into the
// scan when nothing between the scan and the limit can drop or reorder
// rows (no filter, aggregate or Distinct).
//
// # Key sets
//
// A KeySet is a tree (points, ranges, prefixes, IN UNNEST arrays, AND, OR)
// whose leaves are constant expressions, so the shape is fixed at prepare
// time and parameters are bound per execution: Resolve evaluates the leaves
// and computes sorted, disjoint half-open Spans (a Resolver does so in
// memory it reuses, for the runs of a prepared scan). A later
// structured-row-key source adds leaves (an encoded key prefix) without
// changing the tree.
//
// # Invariants
//
// P1: a plan never changes after Plan returns; exec only reads it.
// P2: rows inside Resolve(keys) that pass Residual are exactly the rows the
// scan's conjuncts select (property-tested in exec).
// P3: every expression of a node is over its input's row layout; Scan rows
// are catalog columns (`_key`, key fields, families in name order); what
// is not read holds NULL, and key fields are decoded only when the query
// reads them (Scan.DecodeKey).
// P4: in a query straight over a table (no UNNEST), a family read only
// as cf['literal'] is read as cells (cells.go): each qualifier gets a
// column after the catalog columns and cf['q'] becomes a reference to it;
// protobuf fields read from such a cell get columns of their own that the
// scan fills in one pass per cell (Scan.ExtractGroups), read above through
// sql.Precomputed, which falls back to decoding the field itself when the
// scan could not (so errors and SAFE_CAST behave as without the rule).
package planner
