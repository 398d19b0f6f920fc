package btserver

import (
	"fmt"

	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
	"google.golang.org/protobuf/proto"

	"github.com/shale-db/shale/storage"
)

// Limits on a RowFilter (spec §2.3, §8).
const (
	maxFilterBytes = 20480
	maxFilterDepth = 20
)

// toFilter converts a RowFilter into a storage.Filter after checking its
// serialized size. A nil filter is nil (pass all). The semantic rules
// (chain length, labels, regexes, ranges, nesting depth) are checked again
// by storage.CompileFilter.
func toFilter(f *btpb.RowFilter) (storage.Filter, error) {
	if f == nil {
		return nil, nil
	}
	if n := proto.Size(f); n > maxFilterBytes {
		return nil, fmt.Errorf("%w: row filter is %d bytes serialized, the limit is %d", storage.ErrInvalidArgument, n, maxFilterBytes)
	}
	return convertFilter(f, 0)
}

// convertFilter converts f, whose enclosing composites number depth.
func convertFilter(f *btpb.RowFilter, depth int) (storage.Filter, error) {
	if f == nil {
		return nil, fmt.Errorf("%w: row filter is empty", storage.ErrInvalidArgument)
	}
	switch x := f.GetFilter().(type) {
	case *btpb.RowFilter_Chain_:
		fs, err := convertFilters(x.Chain.GetFilters(), depth+1)
		return &storage.Chain{Filters: fs}, err
	case *btpb.RowFilter_Interleave_:
		fs, err := convertFilters(x.Interleave.GetFilters(), depth+1)
		return &storage.Interleave{Filters: fs}, err
	case *btpb.RowFilter_Condition_:
		return convertCondition(x.Condition, depth+1)
	case *btpb.RowFilter_Sink:
		return flagFilter("sink", x.Sink, &storage.Sink{})
	case *btpb.RowFilter_PassAllFilter:
		return flagFilter("pass_all_filter", x.PassAllFilter, &storage.PassAll{})
	case *btpb.RowFilter_BlockAllFilter:
		return flagFilter("block_all_filter", x.BlockAllFilter, &storage.BlockAll{})
	case *btpb.RowFilter_StripValueTransformer:
		return flagFilter("strip_value_transformer", x.StripValueTransformer, &storage.StripValue{})
	case *btpb.RowFilter_RowKeyRegexFilter:
		return &storage.RowKeyRegex{Pattern: x.RowKeyRegexFilter}, nil
	case *btpb.RowFilter_RowSampleFilter:
		return &storage.RowSample{P: x.RowSampleFilter}, nil
	case *btpb.RowFilter_FamilyNameRegexFilter:
		return &storage.FamilyRegex{Pattern: x.FamilyNameRegexFilter}, nil
	case *btpb.RowFilter_ColumnQualifierRegexFilter:
		return &storage.QualifierRegex{Pattern: x.ColumnQualifierRegexFilter}, nil
	case *btpb.RowFilter_ValueRegexFilter:
		return &storage.ValueRegex{Pattern: x.ValueRegexFilter}, nil
	case *btpb.RowFilter_ColumnRangeFilter:
		return toColumnRange(x.ColumnRangeFilter), nil
	case *btpb.RowFilter_TimestampRangeFilter:
		r := x.TimestampRangeFilter
		return &storage.TimestampRange{Start: r.GetStartTimestampMicros(), End: r.GetEndTimestampMicros()}, nil
	case *btpb.RowFilter_ValueRangeFilter:
		return toValueRange(x.ValueRangeFilter), nil
	case *btpb.RowFilter_CellsPerRowOffsetFilter:
		return &storage.CellsPerRowOffset{N: int64(x.CellsPerRowOffsetFilter)}, nil
	case *btpb.RowFilter_CellsPerRowLimitFilter:
		return &storage.CellsPerRowLimit{N: int64(x.CellsPerRowLimitFilter)}, nil
	case *btpb.RowFilter_CellsPerColumnLimitFilter:
		return &storage.CellsPerColumnLimit{N: int64(x.CellsPerColumnLimitFilter)}, nil
	case *btpb.RowFilter_ApplyLabelTransformer:
		return &storage.ApplyLabel{Label: x.ApplyLabelTransformer}, nil
	case *btpb.RowFilter_ValueBitmaskFilter:
		return &storage.ValueBitmask{Mask: x.ValueBitmaskFilter.GetMask()}, nil
	}
	return nil, fmt.Errorf("%w: row filter has no kind set", storage.ErrInvalidArgument)
}

func convertFilters(fs []*btpb.RowFilter, depth int) ([]storage.Filter, error) {
	if depth > maxFilterDepth {
		return nil, fmt.Errorf("%w: row filter is nested deeper than %d", storage.ErrInvalidArgument, maxFilterDepth)
	}
	out := make([]storage.Filter, len(fs))
	for i, sub := range fs {
		var err error
		if out[i], err = convertFilter(sub, depth); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func convertCondition(c *btpb.RowFilter_Condition, depth int) (storage.Filter, error) {
	if depth > maxFilterDepth {
		return nil, fmt.Errorf("%w: row filter is nested deeper than %d", storage.ErrInvalidArgument, maxFilterDepth)
	}
	if c.GetPredicateFilter() == nil {
		return nil, fmt.Errorf("%w: condition needs a predicate_filter", storage.ErrInvalidArgument)
	}
	out := &storage.Condition{}
	var err error
	if out.Predicate, err = convertFilter(c.GetPredicateFilter(), depth); err != nil {
		return nil, err
	}
	if c.GetTrueFilter() != nil {
		if out.True, err = convertFilter(c.GetTrueFilter(), depth); err != nil {
			return nil, err
		}
	}
	if c.GetFalseFilter() != nil {
		if out.False, err = convertFilter(c.GetFalseFilter(), depth); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// flagFilter accepts a boolean filter only when it is true (setting it to
// false is INVALID_ARGUMENT, as in Bigtable).
func flagFilter(name string, set bool, f storage.Filter) (storage.Filter, error) {
	if !set {
		return nil, fmt.Errorf("%w: %s must be true when set", storage.ErrInvalidArgument, name)
	}
	return f, nil
}

// nonNil makes an explicitly set empty bound distinguishable from an unset
// one.
func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

func toColumnRange(r *btpb.ColumnRange) *storage.ColumnRange {
	out := &storage.ColumnRange{Family: r.GetFamilyName()}
	switch s := r.GetStartQualifier().(type) {
	case *btpb.ColumnRange_StartQualifierClosed:
		out.Start = nonNil(s.StartQualifierClosed)
	case *btpb.ColumnRange_StartQualifierOpen:
		out.Start, out.StartOpen = nonNil(s.StartQualifierOpen), true
	}
	switch e := r.GetEndQualifier().(type) {
	case *btpb.ColumnRange_EndQualifierClosed:
		out.End, out.EndClosed = nonNil(e.EndQualifierClosed), true
	case *btpb.ColumnRange_EndQualifierOpen:
		out.End = nonNil(e.EndQualifierOpen)
	}
	return out
}

func toValueRange(r *btpb.ValueRange) *storage.ValueRange {
	out := &storage.ValueRange{}
	switch s := r.GetStartValue().(type) {
	case *btpb.ValueRange_StartValueClosed:
		out.Start = nonNil(s.StartValueClosed)
	case *btpb.ValueRange_StartValueOpen:
		out.Start, out.StartOpen = nonNil(s.StartValueOpen), true
	}
	switch e := r.GetEndValue().(type) {
	case *btpb.ValueRange_EndValueClosed:
		out.End, out.EndClosed = nonNil(e.EndValueClosed), true
	case *btpb.ValueRange_EndValueOpen:
		out.End = nonNil(e.EndValueOpen)
	}
	return out
}
