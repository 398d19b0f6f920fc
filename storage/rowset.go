package storage

import (
	"bytes"
	"fmt"
	"slices"
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
	var b spanBuilder
	return b.build(s, id)
}

// spanBuilder turns row sets into spans, reusing its memory from one build
// to the next: a read keeps one, so that a point read's two span keys cost
// no allocation. The spans of a build are valid until the next build.
type spanBuilder struct {
	spans []span
	keys  []byte // the bytes of every span bound, end to end
}

// build is spans with the builder's memory.
func (b *spanBuilder) build(s RowSet, id uint64) ([]span, error) {
	b.keys = b.keys[:0]
	b.spans = b.spans[:0]
	tp := b.key(appendTablePrefix(b.keys, id))
	tableEnd := b.successor(tp)
	if s.IsEmpty() {
		b.spans = append(b.spans, span{lower: tp, upper: tableEnd})
		return b.spans, nil
	}
	out := b.spans
	for _, k := range s.Keys {
		lo := b.key(appendRowPrefix(b.keys, id, k))
		out = append(out, span{lower: lo, upper: b.successor(lo)})
	}
	for i, r := range s.Ranges {
		if err := r.validate(); err != nil {
			return nil, fmt.Errorf("error in element #%d: %w", i, err)
		}
		sp := span{lower: tp, upper: tableEnd}
		if len(r.Start) > 0 {
			if r.StartOpen {
				sp.lower = b.successor(b.key(appendRowPrefix(b.keys, id, r.Start)))
			} else {
				sp.lower = b.key(appendEscapedOpen(appendTablePrefix(b.keys, id), r.Start))
			}
		}
		if len(r.End) > 0 {
			if r.EndClosed {
				sp.upper = b.successor(b.key(appendRowPrefix(b.keys, id, r.End)))
			} else {
				sp.upper = b.key(appendEscapedOpen(appendTablePrefix(b.keys, id), r.End))
			}
		}
		if bytes.Compare(sp.lower, sp.upper) < 0 {
			out = append(out, sp)
		}
	}
	b.spans = out
	if len(out) > 1 {
		slices.SortFunc(out, func(x, y span) int { return bytes.Compare(x.lower, y.lower) })
	}
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

// key takes grown, which is b.keys with one key appended, and returns that
// key. The key is capped so that no append reaches the bytes after it; a
// key written before grown moved to a new array stays valid in the old one.
func (b *spanBuilder) key(grown []byte) []byte {
	start := len(b.keys)
	b.keys = grown
	return grown[start:len(grown):len(grown)]
}

// successor returns prefixSuccessor(p) in the builder's memory.
func (b *spanBuilder) successor(p []byte) []byte {
	s := b.key(append(b.keys, p...))
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] != 0xff {
			s[i]++
			return s[: i+1 : i+1]
		}
	}
	return nil
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
