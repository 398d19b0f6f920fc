package catalog

import (
	"fmt"
	"sort"

	"github.com/shale-db/shale/rowkeyschema"
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
// The four types are shared (types are immutable): the scan asks for one
// per row.
func (f Family) Type(history bool) *types.Type {
	switch {
	case history && f.Int64:
		return int64HistoryFamily
	case history:
		return bytesHistoryFamily
	case f.Int64:
		return int64Family
	}
	return bytesFamily
}

var (
	bytesFamily        = types.MapOf(types.Bytes, types.Bytes)
	int64Family        = types.MapOf(types.Bytes, types.Int64)
	bytesHistoryFamily = types.MapOf(types.Bytes, types.ArrayOf(types.CellVersion))
	int64HistoryFamily = types.MapOf(types.Bytes, types.ArrayOf(int64Version))
)

// Table is a table's SQL descriptor.
type Table struct {
	Instance string
	Name     string
	// ID is the storage id; it changes when a table is dropped and
	// recreated under the same name.
	ID       uint64
	Families []Family // sorted by name (C1)
	// KeySchema is the row-key schema (spec §5), or nil.
	KeySchema *rowkeyschema.Schema
	// Bundles are the table's protobuf schema bundles (spec §3.3).
	Bundles []Bundle
}

// Column is one column of a table.
type Column struct {
	Name string
	Type *types.Type
	// Family is the index into Table.Families, or -1.
	Family int
	// KeyField is the index into KeySchema.Fields, or -1.
	KeyField int
	// Hidden columns are selectable by name but not part of SELECT *:
	// `_key` when the table has a row-key schema (spec §5.4).
	Hidden bool
}

// Columns returns the table's columns (C1): `_key`, the key fields, the
// families. The visible ones, in order, are what SELECT * returns and
// what a PostgreSQL client sees as the table's columns.
func (t *Table) Columns(history bool) []Column {
	cols := make([]Column, 0, 1+t.NumKeyFields()+len(t.Families))
	cols = append(cols, Column{Name: KeyColumn, Type: types.Bytes, Family: -1, KeyField: -1, Hidden: t.KeySchema != nil})
	for i := 0; i < t.NumKeyFields(); i++ {
		f := t.KeySchema.Fields[i]
		cols = append(cols, Column{Name: f.Name, Type: f.Type, Family: -1, KeyField: i})
	}
	for i, f := range t.Families {
		cols = append(cols, Column{Name: f.Name, Type: f.Type(history), Family: i, KeyField: -1})
	}
	return cols
}

// NumKeyFields is the number of row-key schema fields (0 without one).
func (t *Table) NumKeyFields() int {
	if t.KeySchema == nil {
		return 0
	}
	return len(t.KeySchema.Fields)
}

// KeyFieldCol is the column index of key field i.
func (t *Table) KeyFieldCol(i int) int { return 1 + i }

// FamilyCol is the column index of family i.
func (t *Table) FamilyCol(i int) int { return 1 + t.NumKeyFields() + i }

// PrimaryKey names the columns that identify a row: the key fields in
// schema order, or `_key` without a row-key schema.
func (t *Table) PrimaryKey() []string {
	if t.KeySchema == nil {
		return []string{KeyColumn}
	}
	names := make([]string, len(t.KeySchema.Fields))
	for i, f := range t.KeySchema.Fields {
		names[i] = f.Name
	}
	return names
}

// FromStorage builds the descriptor of a storage table. A row-key schema
// is stored in its text form (package rowkeyschema); one that does not
// parse is an error.
func FromStorage(st *storage.Table) (*Table, error) {
	t := &Table{Instance: st.Instance, Name: st.Name, ID: st.ID}
	for _, f := range st.Families {
		t.Families = append(t.Families, Family{Name: f.Name, Int64: f.Aggregate != storage.NoAggregate})
	}
	sort.Slice(t.Families, func(i, j int) bool { return t.Families[i].Name < t.Families[j].Name })
	for _, b := range st.Bundles {
		t.Bundles = append(t.Bundles, loadBundle(b))
	}
	if len(st.RowKeySchema) > 0 {
		ks, err := rowkeyschema.Parse(string(st.RowKeySchema))
		if err == nil {
			err = ks.Validate()
		}
		if err != nil {
			return nil, fmt.Errorf("catalog: table %q: %w", st.Name, err)
		}
		t.KeySchema = ks
	}
	return t, nil
}
