package exec

import (
	"context"

	"github.com/shale-db/shale/planner"
	"github.com/shale-db/shale/storage"
)

// StorageScanner is the Scanner over the local storage engine. A read of
// row existence only is a keys-only read (one cell per row, then a seek to
// the next row); otherwise the selected families restrict what storage
// copies, and qualifier, time and version selections become a storage
// filter.
type StorageScanner struct{ Store *storage.Engine }

var _ Scanner = StorageScanner{}

// Scan implements Scanner.
func (s StorageScanner) Scan(ctx context.Context, req ScanRequest) (RowSource, error) {
	if len(req.Spans) == 0 {
		return emptySource{}, nil
	}
	opts := storage.ReadOptions{Limit: req.Limit, Reversed: req.Reverse}
	if !req.AllColumns && len(req.Columns) == 0 {
		opts.KeysOnly = true // every row has a cell: existence is all we need
	} else {
		opts.KeepEmptyRows = true
		opts.Filter = scanFilter(req)
		if !req.AllColumns {
			opts.Families, opts.Qualifiers = req.mem.columns(req.Columns)
		}
		opts.LatestOnly = req.CellsPerColumn == 1 && req.MinTS == 0 && req.MaxTS == 0
		// Building and encoding a row costs about what reading it does.
		opts.ReadAhead = true
	}
	if !req.Spans.IsFull() {
		opts.Rows.Ranges = req.mem.rowRanges(req.Spans)
	}
	it, err := s.Store.ReadRows(ctx, storage.Target{Instance: req.Instance, Table: req.Table}, opts)
	if err != nil {
		return nil, err
	}
	return storageSource{it}, nil
}

// storageMemory is what StorageScanner keeps from one read of a scan
// operator to the next (ScanRequest.mem): the storage form of the
// operator's columns, converted once, and the memory of the row ranges,
// which a read reuses once the read before is closed (the operator reads
// once per run). A nil *storageMemory keeps nothing.
type storageMemory struct {
	converted  bool
	families   []string
	qualifiers map[string][][]byte
	ranges     []storage.RowRange
}

// columns returns cols as ReadOptions.Families and Qualifiers, which
// storage only reads.
func (m *storageMemory) columns(cols []ColumnSelection) ([]string, map[string][][]byte) {
	if m != nil && m.converted {
		return m.families, m.qualifiers
	}
	var families []string
	var quals map[string][][]byte
	for _, c := range cols {
		families = append(families, c.Family)
		if c.Qualifiers != nil {
			if quals == nil {
				quals = map[string][][]byte{}
			}
			quals[c.Family] = c.Qualifiers
		}
	}
	if m != nil {
		m.converted, m.families, m.qualifiers = true, families, quals
	}
	return families, quals
}

// rowRanges returns spans as storage row ranges.
func (m *storageMemory) rowRanges(spans planner.Spans) []storage.RowRange {
	var ranges []storage.RowRange
	if m != nil {
		ranges = m.ranges[:0]
	}
	for _, sp := range spans {
		ranges = append(ranges, storage.RowRange{Start: sp.Start, End: sp.End})
	}
	if m != nil {
		m.ranges = ranges
	}
	return ranges
}

// release drops the keys of the last read's ranges (a pooled operator's
// memory keeps nothing of its run alive).
func (m *storageMemory) release() {
	m.ranges = trim(m.ranges, maxPooledValues)
}

// scanFilter builds the storage filter of a request: the time bounds,
// then the versions per column; nil when there is none. The selected
// families and qualifiers are ReadOptions.Families and Qualifiers, and the
// newest cell alone (no time bounds) is ReadOptions.LatestOnly: storage
// steps over the other cells without copying them.
func scanFilter(req ScanRequest) storage.Filter {
	var chain []storage.Filter
	timed := req.MinTS != 0 || req.MaxTS != 0
	if timed {
		chain = append(chain, &storage.TimestampRange{Start: req.MinTS, End: req.MaxTS})
	}
	if req.CellsPerColumn > 1 || req.CellsPerColumn == 1 && timed {
		chain = append(chain, &storage.CellsPerColumnLimit{N: req.CellsPerColumn})
	}
	switch len(chain) {
	case 0:
		return nil
	case 1:
		return chain[0]
	}
	return &storage.Chain{Filters: chain}
}

type storageSource struct{ it *storage.RowIterator }

func (s storageSource) Next() *storage.Row { return s.it.Next() }
func (s storageSource) Err() error         { return s.it.Err() }
func (s storageSource) Close() error       { return s.it.Close() }
func (s storageSource) Stats() ScanStats {
	st := s.it.Stats()
	return ScanStats{RowsRead: st.RowsScanned, CellsRead: st.CellsScanned}
}

type emptySource struct{}

func (emptySource) Next() *storage.Row { return nil }
func (emptySource) Err() error         { return nil }
func (emptySource) Close() error       { return nil }
func (emptySource) Stats() ScanStats   { return ScanStats{} }
