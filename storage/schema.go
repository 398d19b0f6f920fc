package storage

import (
	"fmt"
	"sort"
	"time"
)

// Granularity is the unit every timestamp written to a table must be a
// multiple of (spec §1.3). It is fixed when the table is created.
type Granularity uint8

const (
	// Millis requires timestamps to be multiples of 1000µs; the default.
	Millis Granularity = iota + 1
	// Micros accepts any timestamp.
	Micros
)

// unit returns the granularity in microseconds.
func (g Granularity) unit() int64 {
	if g == Micros {
		return 1
	}
	return 1000
}

func (g Granularity) String() string {
	if g == Micros {
		return "micros"
	}
	return "millis"
}

// Aggregator is the merge function of an aggregate family (spec §1.5). Only
// Int64 aggregates are supported; their state is 8 bytes big-endian.
type Aggregator uint8

const (
	// NoAggregate marks an ordinary family of raw bytes cells.
	NoAggregate Aggregator = iota
	// Sum adds inputs to the state.
	Sum
	// Min keeps the smallest input.
	Min
	// Max keeps the largest input.
	Max
)

func (a Aggregator) String() string {
	switch a {
	case Sum:
		return "sum"
	case Min:
		return "min"
	case Max:
		return "max"
	}
	return "none"
}

// merge combines an aggregate state with an input.
func (a Aggregator) merge(state, input int64) int64 {
	switch a {
	case Min:
		return min(state, input)
	case Max:
		return max(state, input)
	}
	return state + input // Sum wraps on overflow, as two's complement does.
}

// Family is a column family's schema.
type Family struct {
	Name      string     `json:"name"`
	GC        GCPolicy   `json:"gc"`
	Aggregate Aggregator `json:"aggregate,omitempty"`
	// ValueType is the family's declared value type as the layer above
	// serialized it (the Bigtable API's Type proto); the engine only keeps
	// it. Aggregate is what the engine enforces.
	ValueType []byte `json:"value_type,omitempty"`
}

// TableSpec is what a caller asks for when it creates a table.
type TableSpec struct {
	Families           []Family
	Granularity        Granularity // zero means Millis
	InitialSplits      [][]byte
	DeletionProtection bool
	// RowKeySchema is an opaque serialized row-key schema owned by the
	// layers above; the engine only stores it.
	RowKeySchema []byte
}

// Table is an immutable snapshot of a table's schema. Every change to a table
// produces a new *Table; holders of an old one keep a consistent view.
type Table struct {
	// ID is the internal id that addresses the table's data. It is never
	// reused, so a dropped and recreated name never sees old cells.
	ID                 uint64      `json:"id"`
	Instance           string      `json:"instance"`
	Name               string      `json:"name"`
	Families           []Family    `json:"families"` // sorted by name
	Granularity        Granularity `json:"granularity"`
	DeletionProtection bool        `json:"deletion_protection,omitempty"`
	Splits             [][]byte    `json:"splits,omitempty"` // sorted, unique, non-empty
	RowKeySchema       []byte      `json:"row_key_schema,omitempty"`
	CreateTime         time.Time   `json:"create_time"`
	// Views are the table's authorized views, sorted by name.
	Views []AuthorizedView `json:"views,omitempty"`
	// Bundles are the table's schema bundles, sorted by name.
	Bundles []SchemaBundle `json:"bundles,omitempty"`
}

// Family returns the named family, or nil.
func (t *Table) Family(name string) *Family {
	i := sort.Search(len(t.Families), func(i int) bool { return t.Families[i].Name >= name })
	if i < len(t.Families) && t.Families[i].Name == name {
		return &t.Families[i]
	}
	return nil
}

// clone returns a deep enough copy for copy-on-write changes: slices are
// fresh, their elements are values.
func (t *Table) clone() *Table {
	c := *t
	c.Families = append([]Family(nil), t.Families...)
	c.Splits = append([][]byte(nil), t.Splits...)
	c.Views = append([]AuthorizedView(nil), t.Views...)
	c.Bundles = append([]SchemaBundle(nil), t.Bundles...)
	return &c
}

func sortFamilies(fs []Family) {
	sort.Slice(fs, func(i, j int) bool { return fs[i].Name < fs[j].Name })
}

// Instance is a Bigtable instance: a namespace of tables.
type Instance struct {
	Name        string    `json:"name"`
	DisplayName string    `json:"display_name,omitempty"`
	CreateTime  time.Time `json:"create_time"`
}

func (f Family) String() string {
	s := f.Name + " gc=" + f.GC.String()
	if f.Aggregate != NoAggregate {
		s += fmt.Sprintf(" aggregate=%s", f.Aggregate)
	}
	return s
}
