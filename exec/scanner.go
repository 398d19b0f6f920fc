package exec

import (
	"context"

	"github.com/shale-db/shale/planner"
	"github.com/shale-db/shale/storage"
)

// ScanRequest is one table read: the narrow interface between exec and a
// storage backend.
type ScanRequest struct {
	Instance, Table string
	// Spans are the row keys to read; planner.FullSpans is the whole table
	// and an empty Spans reads nothing.
	Spans planner.Spans
	// Columns select what cells to return: a family with nil Qualifiers
	// is the whole family. With AllColumns unset and no Columns, no cells
	// are needed: only which rows exist.
	Columns    []ColumnSelection
	AllColumns bool
	// Time bounds: cells with MinTS <= ts < MaxTS (MaxTS 0: unbounded),
	// then at most CellsPerColumn newest cells per column (0: all).
	MinTS, MaxTS   int64
	CellsPerColumn int64
	// Limit stops after this many rows (0: no limit).
	Limit   int64
	Reverse bool
	// mem, set by a scan operator, is memory StorageScanner keeps from one
	// read of the operator to the next (storageMemory); the operator's
	// Columns are the same on every read.
	mem *storageMemory
}

// ColumnSelection is one family (and optionally some qualifiers).
type ColumnSelection struct {
	Family     string
	Qualifiers [][]byte
}

// Scanner opens table reads. Every row that has at least one cell in the
// table (within the spans) is returned, even when no selected cell
// remains: a row's SQL columns then read as empty maps.
type Scanner interface {
	Scan(ctx context.Context, req ScanRequest) (RowSource, error)
}

// RowSource streams the rows of one read in key order (descending when
// Reverse). The *storage.Row and its slices are valid until the next call
// to Next or Close. A row's cells are exactly the selected ones (possibly
// none), in row order.
type RowSource interface {
	Next() *storage.Row // nil at the end or on error
	Err() error
	// Stats reports the rows and cells the backend read so far.
	Stats() ScanStats
	Close() error
}

// ScanStats count a read's work.
type ScanStats struct {
	RowsRead  int64
	CellsRead int64
}
