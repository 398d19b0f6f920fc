package storage

// Filter is a Bigtable RowFilter (spec §2.3) as plain data. It is a sealed
// sum type: only this package defines filters. A nil Filter passes every
// cell. Filters are validated and compiled once per read by CompileFilter.
type Filter interface {
	filterNode()
}

// Chain feeds the output of each filter into the next.
type Chain struct{ Filters []Filter }

// Interleave gives every filter a copy of the input and merges the outputs
// in row order; duplicates are kept.
type Interleave struct{ Filters []Filter }

// Condition applies True to the input row when Predicate outputs at least one
// cell, else False. A nil branch outputs nothing.
type Condition struct{ Predicate, True, False Filter }

// Sink copies the cells that reach it to the final output, bypassing the
// filters that enclose it.
type Sink struct{}

// PassAll passes every cell.
type PassAll struct{}

// BlockAll passes no cell.
type BlockAll struct{}

// RowKeyRegex passes the whole row when its key full-matches Pattern
// (RE2, bytes as Latin-1).
type RowKeyRegex struct{ Pattern []byte }

// RowSample passes the whole row with probability P, 0 < P < 1.
type RowSample struct{ P float64 }

// FamilyRegex passes cells whose family name full-matches Pattern.
type FamilyRegex struct{ Pattern string }

// QualifierRegex passes cells whose qualifier full-matches Pattern.
type QualifierRegex struct{ Pattern []byte }

// ColumnRange passes cells of Family whose qualifier lies in the range. A nil
// Start means "" inclusive; a nil End means +∞.
type ColumnRange struct {
	Family    string
	Start     []byte
	StartOpen bool
	End       []byte
	EndClosed bool
}

// TimestampRange passes cells with Start <= ts < End; End 0 means +∞.
type TimestampRange struct{ Start, End int64 }

// ValueRegex passes cells whose value full-matches Pattern.
type ValueRegex struct{ Pattern []byte }

// ValueRange passes cells whose value lies in the byte-lexicographic range.
// A nil Start means "" inclusive; a nil End means +∞.
type ValueRange struct {
	Start     []byte
	StartOpen bool
	End       []byte
	EndClosed bool
}

// CellsPerRowOffset skips the first N cells of the row.
type CellsPerRowOffset struct{ N int64 }

// CellsPerRowLimit keeps the first N cells of the row.
type CellsPerRowLimit struct{ N int64 }

// CellsPerColumnLimit keeps the N newest cells of each column.
type CellsPerColumnLimit struct{ N int64 }

// StripValue replaces every value with "".
type StripValue struct{}

// ApplyLabel adds Label to every cell.
type ApplyLabel struct{ Label string }

// ValueBitmask passes cells whose value v has len(v) == len(Mask) and
// v & Mask == Mask.
type ValueBitmask struct{ Mask []byte }

func (*Chain) filterNode()               {}
func (*Interleave) filterNode()          {}
func (*Condition) filterNode()           {}
func (*Sink) filterNode()                {}
func (*PassAll) filterNode()             {}
func (*BlockAll) filterNode()            {}
func (*RowKeyRegex) filterNode()         {}
func (*RowSample) filterNode()           {}
func (*FamilyRegex) filterNode()         {}
func (*QualifierRegex) filterNode()      {}
func (*ColumnRange) filterNode()         {}
func (*TimestampRange) filterNode()      {}
func (*ValueRegex) filterNode()          {}
func (*ValueRange) filterNode()          {}
func (*CellsPerRowOffset) filterNode()   {}
func (*CellsPerRowLimit) filterNode()    {}
func (*CellsPerColumnLimit) filterNode() {}
func (*StripValue) filterNode()          {}
func (*ApplyLabel) filterNode()          {}
func (*ValueBitmask) filterNode()        {}
