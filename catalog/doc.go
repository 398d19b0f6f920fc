// Package catalog is what SQL sees of a Bigtable table (spec §4.2): the
// columns `_key BYTES`, the typed fields of a row-key schema (spec §5.4)
// and one MAP column per column family, their types with and without
// history, and a small Reader interface through which the binder looks
// tables up.
//
// # Data flow
//
// storage.Table (schema snapshot) → FromStorage → *Table → sql binder
// (names and types) → planner (family indices for pruning) → exec (the
// family names and value kinds it decodes cells into).
//
// # Invariants
//
// C1: Columns(history)[0] is `_key`; the row-key schema's fields follow in
// schema order (column 1+i is KeySchema.Fields[i]), then the families in
// family-name order (column FamilyCol(i) = 1+NumKeyFields()+i is
// Families[i]). With a schema `_key` is Hidden: selectable, not in
// SELECT *. pgwire's catalog lists the visible columns and PrimaryKey.
// C2: a *Table is immutable; a schema change produces a new one.
// C3: a family's SQL value type is INT64 for Int64 aggregate families and
// BYTES otherwise; with history it is wrapped in
// ARRAY<STRUCT<timestamp TIMESTAMP, value V>>, newest first.
package catalog
