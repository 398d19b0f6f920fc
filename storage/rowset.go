package storage

import (
	"bytes"
	"fmt"
	"sort"
)

// RowRange is a range of row keys. A nil or empty Start means "" inclusive;
// a nil or empty End means +∞.
type RowRange struct {
	Start     []byte
	StartOpen bool
	End       []byte
	EndClosed bool
}

// RowSet is a set of row keys and ranges. An empty RowSet means every row.
type RowSet struct {
	Keys   [][]byte
	Ranges []RowRange
}

// PrefixRange returns the range of rows that start with p.
func PrefixRange(p []byte) RowRange {
	return RowRange{Start: p, End: prefixSuccessor(p)}
}

// IsEmpty reports whether the set names nothing, which means the whole table.
func (s RowSet) IsEmpty() bool { return len(s.Keys) == 0 && len(s.Ranges) == 0 }

// validate checks a range's bounds (spec §2.1): a start after the end is an
// error, while a range that holds no key (such as (k, k)) is simply empty.
func (r RowRange) validate() error {
	if len(r.Start) > 0 && len(r.End) > 0 && bytes.Compare(r.Start, r.End) > 0 {
		return fmt.Errorf("%w: row range start %q is after end %q", ErrInvalidArgument, r.Start, r.End)
	}
	return nil
}

// span is a range of Pebble keys [lower, upper); a nil upper is the end of
// the table.
type span struct{ lower, upper []byte }

// spans turns a row set into sorted, non-overlapping Pebble key spans of the
// table. Keys and ranges are de-duplicated and merged.
func (s RowSet) spans(id uint64) ([]span, error) {
	tp := tablePrefix(id)
	tableEnd := prefixSuccessor(tp)
	if s.IsEmpty() {
		return []span{{lower: tp, upper: tableEnd}}, nil
	}
	out := make([]span, 0, len(s.Keys)+len(s.Ranges))
	for _, k := range s.Keys {
		lo := appendRowPrefix(nil, id, k)
		out = append(out, span{lower: lo, upper: prefixSuccessor(lo)})
	}
	for i, r := range s.Ranges {
		if err := r.validate(); err != nil {
			return nil, fmt.Errorf("error in element #%d: %w", i, err)
		}
		sp := span{lower: tp, upper: tableEnd}
		if len(r.Start) > 0 {
			if r.StartOpen {
				sp.lower = prefixSuccessor(appendRowPrefix(nil, id, r.Start))
			} else {
				sp.lower = appendEscapedOpen(appendTablePrefix(nil, id), r.Start)
			}
		}
		if len(r.End) > 0 {
			if r.EndClosed {
				sp.upper = prefixSuccessor(appendRowPrefix(nil, id, r.End))
			} else {
				sp.upper = appendEscapedOpen(appendTablePrefix(nil, id), r.End)
			}
		}
		if bytes.Compare(sp.lower, sp.upper) < 0 {
			out = append(out, sp)
		}
	}
	sort.Slice(out, func(i, j int) bool { return bytes.Compare(out[i].lower, out[j].lower) < 0 })
	merged := out[:0]
	for _, sp := range out {
		if n := len(merged); n > 0 && bytes.Compare(sp.lower, merged[n-1].upper) <= 0 {
			if bytes.Compare(sp.upper, merged[n-1].upper) > 0 {
				merged[n-1].upper = sp.upper
			}
			continue
		}
		merged = append(merged, sp)
	}
	return merged, nil
}

// intersectSpans returns the parts of a that lie inside some span of b; both
// are sorted and non-overlapping.
func intersectSpans(a, b []span) []span {
	var out []span
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		lo := a[i].lower
		if bytes.Compare(b[j].lower, lo) > 0 {
			lo = b[j].lower
		}
		up, adv := a[i].upper, 0
		if bytes.Compare(b[j].upper, up) < 0 {
			up, adv = b[j].upper, 1
		}
		if bytes.Compare(lo, up) < 0 {
			out = append(out, span{lower: lo, upper: up})
		}
		if adv == 0 {
			i++
		} else {
			j++
		}
	}
	return out
}
