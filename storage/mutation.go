package storage

import (
	"encoding/binary"
	"fmt"
)

// MutationKind says what a Mutation does (spec §2.4).
type MutationKind uint8

const (
	// SetCell writes Value at (Family, Qualifier, Timestamp).
	SetCell MutationKind = iota + 1
	// DeleteFromColumn deletes the column's cells in TimeRange.
	DeleteFromColumn
	// DeleteFromFamily deletes the row's cells in Family.
	DeleteFromFamily
	// DeleteFromRow deletes every cell of the row.
	DeleteFromRow
	// AddToCell merges Int64Input into an aggregate cell.
	AddToCell
	// MergeToCell merges the 8-byte state Value into an aggregate cell; a
	// nil Value is a no-op.
	MergeToCell
)

// ServerTime as a SetCell timestamp asks for the server's clock, truncated
// to the table's granularity.
const ServerTime = -1

// Mutation is one change to a row. Fields not used by Kind are ignored.
type Mutation struct {
	Kind      MutationKind
	Family    string
	Qualifier []byte
	// Timestamp in microseconds; ServerTime for SetCell means "now".
	Timestamp int64
	// AutoTimestamp marks a client-generated timestamp: the server truncates
	// it to the granularity instead of rejecting it.
	AutoTimestamp bool
	Value         []byte
	Int64Input    int64
	// TimeRange bounds DeleteFromColumn: [Start, End), End 0 is +∞.
	TimeRange TimeRange
}

// TimeRange is [Start, End) in microseconds; End 0 means unbounded.
type TimeRange struct{ Start, End int64 }

// contains reports whether ts lies in the range.
func (r TimeRange) contains(ts int64) bool {
	return ts >= r.Start && (r.End == 0 || ts < r.End)
}

// RowMutations is one entry of a bulk write: a row and its mutations,
// applied atomically.
type RowMutations struct {
	Key       []byte
	Mutations []Mutation
}

// ReadModifyWriteRule is one rule of ReadModifyWriteRow: append Append to the
// latest cell, or add Increment to it as an 8-byte big-endian integer.
type ReadModifyWriteRule struct {
	Family      string
	Qualifier   []byte
	IsIncrement bool
	Append      []byte
	Increment   int64
}

// needsRead reports whether applying m reads the row's existing cells.
func (m *Mutation) needsRead() bool {
	switch m.Kind {
	case DeleteFromColumn, DeleteFromFamily, DeleteFromRow, AddToCell, MergeToCell:
		return true
	}
	return false
}

// validateMutation checks m against the table schema and the limits of spec
// §8, and resolves ServerTime and AutoTimestamp. now is the server time in
// microseconds.
func validateMutation(t *Table, m *Mutation, now int64) error {
	unit := t.Granularity.unit()
	switch m.Kind {
	case DeleteFromRow:
		return nil
	case SetCell, AddToCell, MergeToCell, DeleteFromColumn, DeleteFromFamily:
	default:
		return fmt.Errorf("%w: unknown mutation kind %d", ErrInvalidArgument, m.Kind)
	}
	f := t.Family(m.Family)
	if f == nil {
		return fmt.Errorf("%w: unknown family %q", ErrInvalidArgument, m.Family)
	}
	if m.Kind == DeleteFromFamily {
		return nil
	}
	if len(m.Qualifier) > MaxQualifierSize {
		return fmt.Errorf("%w: column qualifier is %d bytes, the limit is %d", ErrInvalidArgument, len(m.Qualifier), MaxQualifierSize)
	}
	switch m.Kind {
	case DeleteFromColumn:
		r := m.TimeRange
		if r.Start < 0 || r.End < 0 {
			return fmt.Errorf("%w: negative time range [%d, %d)", ErrInvalidArgument, r.Start, r.End)
		}
		if r.End != 0 && r.Start >= r.End {
			return fmt.Errorf("%w: time range start %d must be before end %d", ErrInvalidArgument, r.Start, r.End)
		}
		return nil
	case SetCell:
		if f.Aggregate != NoAggregate {
			return fmt.Errorf("%w: SetCell on aggregate family %q; use AddToCell or MergeToCell", ErrInvalidArgument, f.Name)
		}
		if len(m.Value) > MaxValueSize {
			return fmt.Errorf("%w: cell value is %d bytes, the limit is %d", ErrInvalidArgument, len(m.Value), MaxValueSize)
		}
		if m.Timestamp == ServerTime {
			m.Timestamp = now - now%unit
			return nil
		}
	case AddToCell, MergeToCell:
		if f.Aggregate == NoAggregate {
			return fmt.Errorf("%w: %s on non-aggregate family %q", ErrInvalidArgument, m.Kind, f.Name)
		}
		if m.Kind == MergeToCell && m.Value != nil && len(m.Value) != 8 {
			return fmt.Errorf("%w: MergeToCell input for an Int64 aggregate must be 8 bytes, got %d", ErrInvalidArgument, len(m.Value))
		}
	}
	if m.Timestamp < 0 {
		return fmt.Errorf("%w: timestamp %d is negative", ErrInvalidArgument, m.Timestamp)
	}
	if m.Timestamp%unit != 0 {
		if !m.AutoTimestamp {
			return fmt.Errorf("%w: timestamp granularity mismatch: timestamp %d is not a multiple of %d microseconds", ErrInvalidArgument, m.Timestamp, unit)
		}
		m.Timestamp -= m.Timestamp % unit
	}
	return nil
}

func (k MutationKind) String() string {
	switch k {
	case SetCell:
		return "SetCell"
	case DeleteFromColumn:
		return "DeleteFromColumn"
	case DeleteFromFamily:
		return "DeleteFromFamily"
	case DeleteFromRow:
		return "DeleteFromRow"
	case AddToCell:
		return "AddToCell"
	case MergeToCell:
		return "MergeToCell"
	}
	return fmt.Sprintf("MutationKind(%d)", k)
}

// encodeInt64 returns v as 8 bytes big-endian, the state of Int64 aggregates
// and the operand of increments.
func encodeInt64(v int64) []byte {
	return binary.BigEndian.AppendUint64(make([]byte, 0, 8), uint64(v))
}
