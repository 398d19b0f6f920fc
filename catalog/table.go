package catalog

import (
	"sort"

	"github.com/shale-db/shale/sql/types"
	"github.com/shale-db/shale/storage"
)

// KeyColumn is the name of the row-key column.
const KeyColumn = "_key"

// Family is a column family as SQL sees it.
type Family struct {
	Name string
	// Int64 marks an Int64 aggregate family: cells hold 8-byte big-endian
	// integers and read as INT64.
	Int64 bool
}

// ValueType is the type of one cell value of the family.
func (f Family) ValueType() *types.Type {
	if f.Int64 {
		return types.Int64
	}
	return types.Bytes
}

// VersionType is STRUCT<timestamp TIMESTAMP, value V>, one cell version.
func (f Family) VersionType() *types.Type {
	if f.Int64 {
		return int64Version
	}
	return types.CellVersion
}

var int64Version = types.StructOf(types.Field{Name: "timestamp", Type: types.Timestamp},
	types.Field{Name: "value", Type: types.Int64})

// Type is the family column's type: MAP<BYTES, V>, or with history
// MAP<BYTES, ARRAY<STRUCT<timestamp, value>>>.
func (f Family) Type(history bool) *types.Type {
	if history {
		return types.MapOf(types.Bytes, types.ArrayOf(f.VersionType()))
	}
	return types.MapOf(types.Bytes, f.ValueType())
}

// Table is a table's SQL descriptor.
type Table struct {
	Instance string
	Name     string
	// ID is the storage id; it changes when a table is dropped and
	// recreated under the same name.
	ID       uint64
	Families []Family // sorted by name (C1)
}

// Column is one column of a table.
type Column struct {
	Name string
	Type *types.Type
	// Family is the index into Table.Families, or -1 for `_key`.
	Family int
}

// Columns returns the table's columns (C1).
func (t *Table) Columns(history bool) []Column {
	cols := make([]Column, 0, 1+len(t.Families))
	cols = append(cols, Column{Name: KeyColumn, Type: types.Bytes, Family: -1})
	for i, f := range t.Families {
		cols = append(cols, Column{Name: f.Name, Type: f.Type(history), Family: i})
	}
	return cols
}

// FromStorage builds the descriptor of a storage table.
func FromStorage(st *storage.Table) *Table {
	t := &Table{Instance: st.Instance, Name: st.Name, ID: st.ID}
	for _, f := range st.Families {
		t.Families = append(t.Families, Family{Name: f.Name, Int64: f.Aggregate != storage.NoAggregate})
	}
	sort.Slice(t.Families, func(i, j int) bool { return t.Families[i].Name < t.Families[j].Name })
	return t
}
