package btserver

import (
	"fmt"

	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"

	"github.com/shale-db/shale/storage"
)

// Data-plane conversions: mutations, row sets, ReadModifyWrite rules and
// rows. Row filters are in convert_filter.go; admin resources in
// convert_table.go.

// toMutations converts the mutations of one row, appending to dst.
func toMutations(dst []storage.Mutation, ms []*btpb.Mutation) ([]storage.Mutation, error) {
	for i, m := range ms {
		sm, err := toMutation(m)
		if err != nil {
			return nil, fmt.Errorf("mutation #%d: %w", i, err)
		}
		dst = append(dst, sm)
	}
	return dst, nil
}

// toMutation converts one mutation (spec §2.4). Byte slices alias the
// request, which outlives the storage call.
func toMutation(m *btpb.Mutation) (storage.Mutation, error) {
	if m == nil {
		return storage.Mutation{}, fmt.Errorf("%w: mutation is empty", storage.ErrInvalidArgument)
	}
	auto := m.GetTimestampOrigin() == btpb.Mutation_CLIENT_AUTO_GENERATED
	switch x := m.GetMutation().(type) {
	case *btpb.Mutation_SetCell_:
		c := x.SetCell
		return storage.Mutation{
			Kind: storage.SetCell, Family: c.GetFamilyName(), Qualifier: c.GetColumnQualifier(),
			Timestamp: c.GetTimestampMicros(), AutoTimestamp: auto, Value: c.GetValue(),
		}, nil
	case *btpb.Mutation_DeleteFromColumn_:
		c := x.DeleteFromColumn
		tr := c.GetTimeRange()
		return storage.Mutation{
			Kind: storage.DeleteFromColumn, Family: c.GetFamilyName(), Qualifier: c.GetColumnQualifier(),
			TimeRange: storage.TimeRange{Start: tr.GetStartTimestampMicros(), End: tr.GetEndTimestampMicros()},
		}, nil
	case *btpb.Mutation_DeleteFromFamily_:
		return storage.Mutation{Kind: storage.DeleteFromFamily, Family: x.DeleteFromFamily.GetFamilyName()}, nil
	case *btpb.Mutation_DeleteFromRow_:
		return storage.Mutation{Kind: storage.DeleteFromRow}, nil
	case *btpb.Mutation_AddToCell_:
		c := x.AddToCell
		sm, err := aggregateCoordinates(storage.AddToCell, c.GetFamilyName(), c.GetColumnQualifier(), c.GetTimestamp(), auto)
		if err != nil {
			return sm, err
		}
		in, ok := c.GetInput().GetKind().(*btpb.Value_IntValue)
		if !ok {
			return sm, fmt.Errorf("%w: AddToCell input must be an int_value", storage.ErrInvalidArgument)
		}
		sm.Int64Input = in.IntValue
		return sm, nil
	case *btpb.Mutation_MergeToCell_:
		c := x.MergeToCell
		sm, err := aggregateCoordinates(storage.MergeToCell, c.GetFamilyName(), c.GetColumnQualifier(), c.GetTimestamp(), auto)
		if err != nil {
			return sm, err
		}
		switch in := c.GetInput().GetKind().(type) {
		case nil:
			sm.Value = nil // merging NULL is a no-op
		case *btpb.Value_RawValue:
			sm.Value = in.RawValue
			if sm.Value == nil {
				sm.Value = []byte{}
			}
		default:
			return sm, fmt.Errorf("%w: MergeToCell input must be a raw_value", storage.ErrInvalidArgument)
		}
		return sm, nil
	}
	return storage.Mutation{}, fmt.Errorf("%w: mutation has no kind set", storage.ErrInvalidArgument)
}

// aggregateCoordinates converts the family, qualifier and timestamp of
// AddToCell and MergeToCell, which carry them as Values.
func aggregateCoordinates(kind storage.MutationKind, family string, qual, ts *btpb.Value, auto bool) (storage.Mutation, error) {
	m := storage.Mutation{Kind: kind, Family: family, AutoTimestamp: auto}
	switch q := qual.GetKind().(type) {
	case nil:
	case *btpb.Value_RawValue:
		m.Qualifier = q.RawValue
	default:
		return m, fmt.Errorf("%w: %s column_qualifier must be a raw_value", storage.ErrInvalidArgument, kind)
	}
	t, ok := ts.GetKind().(*btpb.Value_RawTimestampMicros)
	if !ok {
		return m, fmt.Errorf("%w: %s timestamp must be a raw_timestamp_micros", storage.ErrInvalidArgument, kind)
	}
	m.Timestamp = t.RawTimestampMicros
	return m, nil
}

// toRules converts ReadModifyWrite rules.
func toRules(rs []*btpb.ReadModifyWriteRule) ([]storage.ReadModifyWriteRule, error) {
	out := make([]storage.ReadModifyWriteRule, len(rs))
	for i, r := range rs {
		out[i] = storage.ReadModifyWriteRule{Family: r.GetFamilyName(), Qualifier: r.GetColumnQualifier()}
		switch x := r.GetRule().(type) {
		case *btpb.ReadModifyWriteRule_AppendValue:
			out[i].Append = x.AppendValue
		case *btpb.ReadModifyWriteRule_IncrementAmount:
			out[i].IsIncrement, out[i].Increment = true, x.IncrementAmount
		default:
			return nil, fmt.Errorf("%w: rule #%d sets neither append_value nor increment_amount", storage.ErrInvalidArgument, i)
		}
	}
	return out, nil
}

// toRowSet converts a RowSet; nil is the whole table.
func toRowSet(rs *btpb.RowSet) (storage.RowSet, error) {
	out := storage.RowSet{Keys: rs.GetRowKeys()}
	for i, k := range out.Keys {
		if len(k) == 0 {
			return out, fmt.Errorf("%w: error in element #%d: row keys must be non-empty", storage.ErrInvalidArgument, i)
		}
	}
	if n := len(rs.GetRowRanges()); n > 0 {
		out.Ranges = make([]storage.RowRange, n)
		for i, r := range rs.GetRowRanges() {
			out.Ranges[i] = toRowRange(r)
		}
	}
	return out, nil
}

// toRowRange converts a RowRange: an unset start is "" inclusive and an
// unset (or empty) end is +∞.
func toRowRange(r *btpb.RowRange) storage.RowRange {
	var out storage.RowRange
	switch s := r.GetStartKey().(type) {
	case *btpb.RowRange_StartKeyClosed:
		out.Start = s.StartKeyClosed
	case *btpb.RowRange_StartKeyOpen:
		out.Start, out.StartOpen = s.StartKeyOpen, true
	}
	switch e := r.GetEndKey().(type) {
	case *btpb.RowRange_EndKeyOpen:
		out.End = e.EndKeyOpen
	case *btpb.RowRange_EndKeyClosed:
		out.End, out.EndClosed = e.EndKeyClosed, true
	}
	return out
}

// rowProto converts a row (cells in family, qualifier, timestamp-desc
// order) into the nested Row message.
func rowProto(r *storage.Row) *btpb.Row {
	out := &btpb.Row{Key: r.Key}
	var fam *btpb.Family
	var col *btpb.Column
	for i := range r.Cells {
		c := &r.Cells[i]
		if fam == nil || fam.Name != c.Family {
			fam = &btpb.Family{Name: c.Family}
			out.Families = append(out.Families, fam)
			col = nil
		}
		if col == nil || string(col.Qualifier) != string(c.Qualifier) {
			col = &btpb.Column{Qualifier: c.Qualifier}
			fam.Columns = append(fam.Columns, col)
		}
		col.Cells = append(col.Cells, &btpb.Cell{TimestampMicros: c.Timestamp, Value: c.Value, Labels: c.Labels})
	}
	return out
}
