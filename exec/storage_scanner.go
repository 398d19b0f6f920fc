package exec

import (
	"context"

	"github.com/shale-db/shale/storage"
)

// existsLabel marks the one cell per row StorageScanner adds so that rows
// without any selected cell are still returned.
const existsLabel = "shale-exists"

// StorageScanner is the Scanner over the local storage engine. Column,
// time and version selections become a storage filter; unrestricted reads
// use none.
type StorageScanner struct{ Store *storage.Engine }

var _ Scanner = StorageScanner{}

// Scan implements Scanner.
func (s StorageScanner) Scan(ctx context.Context, req ScanRequest) (RowSource, error) {
	opts := storage.ReadOptions{Filter: scanFilter(req), Limit: req.Limit, Reversed: req.Reverse}
	if len(req.Spans) == 0 {
		return emptySource{}, nil
	}
	if !req.Spans.IsFull() {
		for _, sp := range req.Spans {
			opts.Rows.Ranges = append(opts.Rows.Ranges, storage.RowRange{Start: sp.Start, End: sp.End})
		}
	}
	it, err := s.Store.ReadRows(ctx, storage.Target{Instance: req.Instance, Table: req.Table}, opts)
	if err != nil {
		return nil, err
	}
	return storageSource{it}, nil
}

// scanFilter builds the storage filter of a request: the selected cells,
// interleaved with one labelled, value-stripped cell that keeps the row.
func scanFilter(req ScanRequest) storage.Filter {
	var chain []storage.Filter
	if req.MinTS != 0 || req.MaxTS != 0 {
		chain = append(chain, &storage.TimestampRange{Start: req.MinTS, End: req.MaxTS})
	}
	if req.CellsPerColumn > 0 {
		chain = append(chain, &storage.CellsPerColumnLimit{N: req.CellsPerColumn})
	}
	if !req.AllColumns {
		var cols []storage.Filter
		for _, c := range req.Columns {
			if c.Qualifiers == nil {
				cols = append(cols, &storage.ColumnRange{Family: c.Family})
				continue
			}
			for _, q := range c.Qualifiers {
				cols = append(cols, &storage.ColumnRange{Family: c.Family, Start: q, End: q, EndClosed: true})
			}
		}
		if len(cols) == 0 {
			if len(chain) == 0 {
				return nil // row existence only: every row has a cell
			}
			return &storage.Chain{Filters: []storage.Filter{&storage.CellsPerRowLimit{N: 1}, &storage.StripValue{}}}
		}
		if len(cols) == 1 {
			chain = append(chain, cols[0])
		} else {
			chain = append(chain, &storage.Interleave{Filters: cols})
		}
	} else if len(chain) == 0 {
		return nil
	}
	marker := &storage.Chain{Filters: []storage.Filter{&storage.CellsPerRowLimit{N: 1}, &storage.StripValue{},
		&storage.ApplyLabel{Label: existsLabel}}}
	return &storage.Interleave{Filters: []storage.Filter{chainOf(chain), marker}}
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

// chainOf returns the filters in sequence (storage requires a Chain of at
// least two).
func chainOf(fs []storage.Filter) storage.Filter {
	if len(fs) == 1 {
		return fs[0]
	}
	return &storage.Chain{Filters: fs}
}
