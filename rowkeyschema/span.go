package rowkeyschema

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"

	"github.com/shale-db/shale/sql/types"
)

// Span is the key range [Start, End); a nil End is +∞.
type Span struct {
	Start, End []byte
}

// Bound is one end of a range on a field; a NULL Value (the zero Bound)
// is unbounded.
type Bound struct {
	Value     types.Value
	Inclusive bool
}

// Spans appends to dst key ranges that hold every key whose leading fields
// equal eq and whose next field, when lo or hi is set, lies between lo and
// hi (spec §5.4 and §4.9 rule 7). The ranges are a superset: callers keep
// the predicates as a residual. They may overlap and are not sorted.
// Values of eq or bounds that cannot be encoded (NULL, or holding the
// delimiter) select nothing under equality; a bound that cannot be
// encoded widens the range to the prefix.
func (s *Schema) Spans(dst []Span, eq []types.Value, lo, hi Bound) ([]Span, error) {
	k := len(eq)
	for _, v := range eq {
		if v.IsNull() {
			return dst, nil
		}
	}
	if k >= len(s.Fields) {
		key, err := s.AppendKey(nil, eq)
		if errors.Is(err, ErrUnencodable) {
			return dst, nil
		}
		if err != nil {
			return dst, err
		}
		return append(dst, Span{Start: key, End: append(key[:len(key):len(key)], 0)}), nil
	}
	p, err := s.AppendPrefix(nil, eq)
	if errors.Is(err, ErrUnencodable) {
		return dst, nil
	}
	if err != nil {
		return dst, err
	}
	if s.Encoding == OrderedCodeBytes && k > 0 && s.restCanBeEmpty(k) {
		// The key of eq with every later field empty has no separator
		// after eq, so it is not under the prefix.
		full := append(append([]types.Value(nil), eq...), s.emptyValues(k)...)
		if key, err := s.AppendKey(nil, full); err == nil {
			dst = append(dst, Span{Start: key, End: append(key[:len(key):len(key)], 0)})
		}
	}
	if lo.Value.IsNull() && hi.Value.IsNull() {
		return append(dst, Span{Start: p, End: PrefixEnd(p)}), nil
	}
	f := &s.Fields[k]
	if f.selfDelimiting() {
		return s.intSpans(dst, p, f, lo, hi), nil
	}
	if sp := s.bytesSpan(p, k, lo, hi); sp.End == nil || bytes.Compare(sp.Start, sp.End) < 0 {
		dst = append(dst, sp)
	}
	return dst, nil
}

func (s *Schema) restCanBeEmpty(k int) bool {
	for i := k; i < len(s.Fields); i++ {
		if !s.Fields[i].canBeEmpty() {
			return false
		}
	}
	return true
}

func (s *Schema) emptyValues(k int) []types.Value {
	out := make([]types.Value, 0, len(s.Fields)-k)
	for i := k; i < len(s.Fields); i++ {
		out = append(out, emptyValue(&s.Fields[i], []byte{}))
	}
	return out
}

// intSpans covers an INT64 or TIMESTAMP field between lo and hi. Big-endian
// bytes order only values of one sign, so a range that crosses zero gives
// two spans.
func (s *Schema) intSpans(dst []Span, p []byte, f *Field, lo, hi Bound) []Span {
	a, b := int64(math.MinInt64), int64(math.MaxInt64)
	loSet, hiSet := !lo.Value.IsNull() && isInt(lo.Value), !hi.Value.IsNull() && isInt(hi.Value)
	if loSet {
		a = lo.Value.Int64()
		if !lo.Inclusive {
			if a == math.MaxInt64 {
				return dst
			}
			a++
		}
	}
	if hiSet {
		b = hi.Value.Int64()
		if !hi.Inclusive {
			if b == math.MinInt64 {
				return dst
			}
			b--
		}
	}
	if a > b {
		return dst
	}
	if f.Encoding == OrderedCodeInt {
		return append(dst, s.intSpan(p, f, a, b, !loSet, !hiSet))
	}
	if b >= 0 {
		dst = append(dst, s.intSpan(p, f, max(a, 0), b, false, false))
	}
	if a < 0 {
		dst = append(dst, s.intSpan(p, f, a, min(b, -1), false, false))
	}
	return dst
}

func isInt(v types.Value) bool {
	return v.Kind() == types.KindInt64 || v.Kind() == types.KindTimestamp
}

// intSpan is [p enc(a), p enc(b+1)), or [.., after p enc(b)) when b+1
// overflows or changes sign (big-endian); an open side is the prefix's.
// Integer encodings are prefix-free, so a key whose field is ≤ b sorts
// below p enc(b+1).
func (s *Schema) intSpan(p []byte, f *Field, a, b int64, openLo, openHi bool) Span {
	sp := Span{Start: p, End: PrefixEnd(p)}
	if !openLo {
		sp.Start = s.appendFieldBytes(clone(p), f, a)
	}
	switch {
	case openHi:
	case b == math.MaxInt64 || (b == -1 && f.Encoding == BigEndianBytes):
		sp.End = PrefixEnd(s.appendFieldBytes(clone(p), f, b))
	default:
		sp.End = s.appendFieldBytes(clone(p), f, b+1)
	}
	return sp
}

func (s *Schema) appendFieldBytes(dst []byte, f *Field, x int64) []byte {
	var buf [10]byte
	var raw []byte
	if f.Encoding == BigEndianBytes {
		raw = binary.BigEndian.AppendUint64(buf[:0], uint64(x))
	} else {
		raw = appendOCInt64(buf[:0], x)
	}
	if s.Encoding == OrderedCodeBytes {
		return appendEscape(dst, raw)
	}
	return append(dst, raw...)
}

// bytesSpan covers a BYTES or STRING field k between lo and hi; it may be
// empty (End <= Start).
//
// The start p enc(lo) is below every key whose field is ≥ lo. The end:
// under OrderedCodeBytes p esc(hi) (exclusive) or p esc(hi) 00 02
// (inclusive); under DelimitedBytes p hi (exclusive) or after p hi d
// (inclusive), which needs every byte of hi above the delimiter's first
// byte when the field is not last (a shorter value is followed by the
// delimiter), else the end falls back to after p hi[:j], j the first byte
// that is not.
func (s *Schema) bytesSpan(p []byte, k int, lo, hi Bound) Span {
	sp := Span{Start: p, End: PrefixEnd(p)}
	if v := lo.Value; !v.IsNull() && isBytes(v) {
		sp.Start = s.appendRaw(clone(p), v.Bytes())
	}
	v := hi.Value
	if v.IsNull() || !isBytes(v) {
		return sp
	}
	h := v.Bytes()
	switch {
	case s.Encoding == OrderedCodeBytes:
		sp.End = appendEscape(clone(p), h)
		if hi.Inclusive {
			sp.End = append(sp.End, 0, 2)
		}
	case s.Encoding == DelimitedBytes && k < len(s.Fields)-1:
		j := 0
		for j < len(h) && h[j] > s.Delimiter[0] {
			j++
		}
		switch {
		case j < len(h):
			sp.End = PrefixEnd(append(clone(p), h[:j]...))
		case hi.Inclusive:
			sp.End = PrefixEnd(append(append(clone(p), h...), s.Delimiter...))
		default:
			sp.End = append(clone(p), h...)
		}
	default: // the last field: the key ends with the value
		sp.End = append(clone(p), h...)
		if hi.Inclusive {
			sp.End = append(sp.End, 0)
		}
	}
	return sp
}

func isBytes(v types.Value) bool {
	return v.Kind() == types.KindBytes || v.Kind() == types.KindString
}

func (s *Schema) appendRaw(dst, b []byte) []byte {
	if s.Encoding == OrderedCodeBytes {
		return appendEscape(dst, b)
	}
	return append(dst, b...)
}

func clone(b []byte) []byte { return append(make([]byte, 0, len(b)+16), b...) }

// PrefixEnd is the first key after every key starting with p: p with its
// last non-0xFF byte incremented and the rest truncated; nil (+∞) when there
// is none.
func PrefixEnd(p []byte) []byte {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] != 0xff {
			out := append([]byte(nil), p[:i+1]...)
			out[i]++
			return out
		}
	}
	return nil
}
