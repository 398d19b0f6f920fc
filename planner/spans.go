package planner

import (
	"bytes"
	"slices"
	"strconv"
	"strings"

	"github.com/shale-db/shale/rowkeyschema"
	"github.com/shale-db/shale/sql"
	"github.com/shale-db/shale/sql/types"
)

// Span is the half-open key range [Start, End); a nil End is +∞. Closed
// ends and open starts are expressed with the successor key k+"\x00".
type Span struct {
	Start, End []byte
}

// Spans are sorted, disjoint and non-adjacent; nil means no key at all,
// and FullSpans the whole table.
type Spans []Span

// FullSpans is every key.
var FullSpans = Spans{{Start: []byte{}}}

// IsFull reports whether s is the whole table.
func (s Spans) IsFull() bool { return len(s) == 1 && len(s[0].Start) == 0 && s[0].End == nil }

// Resolve computes the spans of k, evaluating its leaves with eval. A NULL
// bound or point selects nothing, as the comparison it came from would.
func Resolve(k KeySet, eval func(sql.Expr) (types.Value, error)) (Spans, error) {
	var r Resolver
	return r.Resolve(k, eval)
}

// Resolve is the package's Resolve, building the spans of points in r's
// memory. The sets under a KeyAnd or KeyOr get memory of their own, since
// their spans must outlive one another's.
func (r *Resolver) Resolve(k KeySet, eval func(sql.Expr) (types.Value, error)) (Spans, error) {
	switch k := k.(type) {
	case AllKeys:
		return FullSpans, nil
	case *KeyPoints, *KeyArray:
		return r.points(k, eval)
	case *KeyRange:
		return resolveRange(k, eval)
	case *KeyFields:
		return resolveKeyFields(k, eval)
	case *KeyPrefix:
		v, err := eval(k.Prefix)
		if err != nil || v.IsNull() {
			return nil, err
		}
		p := v.Bytes()
		if k.Like {
			p, _ = sql.LikePrefix(p)
		}
		return Spans{{Start: p, End: PrefixEnd(p)}}, nil
	case *KeyAnd:
		out := FullSpans
		for _, s := range k.Sets {
			r, err := Resolve(s, eval)
			if err != nil {
				return nil, err
			}
			out = Intersect(out, r)
		}
		return out, nil
	case *KeyOr:
		var out Spans
		for _, s := range k.Sets {
			r, err := Resolve(s, eval)
			if err != nil {
				return nil, err
			}
			out = append(out, r...)
		}
		return normalize(out), nil
	}
	return FullSpans, nil
}

func resolveRange(k *KeyRange, eval func(sql.Expr) (types.Value, error)) (Spans, error) {
	sp := Span{Start: []byte{}}
	if k.Lo != nil {
		v, err := eval(k.Lo)
		if err != nil || v.IsNull() {
			return nil, err
		}
		sp.Start = v.Bytes()
		if !k.LoIncl {
			sp.Start = succ(sp.Start)
		}
	}
	if k.Hi != nil {
		v, err := eval(k.Hi)
		if err != nil || v.IsNull() {
			return nil, err
		}
		sp.End = v.Bytes()
		if k.HiIncl {
			sp.End = succ(sp.End)
		}
	}
	if sp.End != nil && bytes.Compare(sp.Start, sp.End) >= 0 {
		return nil, nil
	}
	return Spans{sp}, nil
}

// Resolver is Resolve with memory: it builds the spans of a set of
// points (=, IN, IN UNNEST: every point read) in memory it reuses from one
// call to the next, so that a point read's Resolve allocates nothing once
// the memory has grown. The spans it returns are valid until its next
// Resolve or Reset. The zero Resolver is ready; it is not safe for
// concurrent use.
type Resolver struct {
	spans Spans
	keys  []byte // the ends of spans, end to end
}

// The memory Reset keeps at most: a few points' worth.
const (
	maxResolverSpans    = 16
	maxResolverKeyBytes = 4 << 10
)

// Reset empties r, so that it keeps no key of the last Resolve alive, and
// drops its memory when a large set of points has grown it.
func (r *Resolver) Reset() {
	if cap(r.spans) > maxResolverSpans || cap(r.keys) > maxResolverKeyBytes {
		*r = Resolver{}
		return
	}
	clear(r.spans[:cap(r.spans)])
	r.spans, r.keys = r.spans[:0], r.keys[:0]
}

// points resolves a KeyPoints or KeyArray in r's memory, over the spans
// of the call before.
func (r *Resolver) points(k KeySet, eval func(sql.Expr) (types.Value, error)) (Spans, error) {
	r.spans, r.keys = r.spans[:0], r.keys[:0]
	switch k := k.(type) {
	case *KeyPoints:
		for _, e := range k.Values {
			v, err := eval(e)
			if err != nil {
				return nil, err
			}
			r.addPoint(v)
		}
	case *KeyArray:
		v, err := eval(k.Array)
		if err != nil || v.IsNull() {
			return nil, err
		}
		for _, e := range v.Elems() {
			r.addPoint(e)
		}
	}
	return normalize(r.spans), nil
}

// addPoint adds the span of key v, or nothing for NULL (as = NULL
// selects nothing). The end is a capped slice of keys, which later keys
// never overwrite.
func (r *Resolver) addPoint(v types.Value) {
	if v.IsNull() {
		return
	}
	k, start := v.Bytes(), len(r.keys)
	r.keys = append(append(slices.Grow(r.keys, len(k)+1), k...), 0)
	r.spans = append(r.spans, Span{Start: k, End: r.keys[start:len(r.keys):len(r.keys)]})
}

// succ is the smallest key after k.
func succ(k []byte) []byte { return append(append(make([]byte, 0, len(k)+1), k...), 0) }

// PrefixEnd returns the first key after every key starting with p; nil
// (+∞) when there is none.
func PrefixEnd(p []byte) []byte { return rowkeyschema.PrefixEnd(p) }

func less(a, b []byte) bool { return bytes.Compare(a, b) < 0 }

// endLess compares ends where nil is +∞.
func endLess(a, b []byte) bool {
	switch {
	case a == nil:
		return false
	case b == nil:
		return true
	}
	return less(a, b)
}

// normalize sorts and merges overlapping or adjacent spans, in place:
// every caller passes spans it has just built.
func normalize(s Spans) Spans {
	if len(s) == 0 {
		return nil
	}
	sortSpans(s)
	merged := s[:1]
	for _, sp := range s[1:] {
		last := &merged[len(merged)-1]
		if last.End == nil || !less(last.End, sp.Start) {
			if endLess(last.End, sp.End) {
				last.End = sp.End
			}
			continue
		}
		merged = append(merged, sp)
	}
	return merged
}

func sortSpans(s Spans) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && less(s[j].Start, s[j-1].Start); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// Intersect returns the keys in both a and b.
func Intersect(a, b Spans) Spans {
	var out Spans
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		start := a[i].Start
		if less(start, b[j].Start) {
			start = b[j].Start
		}
		end, adv := a[i].End, 0
		if endLess(b[j].End, end) {
			end, adv = b[j].End, 1
		}
		if end == nil || less(start, end) {
			out = append(out, Span{Start: start, End: end})
		}
		if adv == 0 {
			i++
		} else {
			j++
		}
	}
	return out
}

// Contains reports whether key lies in s.
func (s Spans) Contains(key []byte) bool {
	for _, sp := range s {
		if !less(key, sp.Start) && (sp.End == nil || less(key, sp.End)) {
			return true
		}
	}
	return false
}

// String renders spans: {k} for a point, [a, b) for a range, [a, b] when
// the end is a successor key, FULL for the whole table, EMPTY for none.
func (s Spans) String() string {
	if s.IsFull() {
		return "FULL"
	}
	if len(s) == 0 {
		return "EMPTY"
	}
	parts := make([]string, len(s))
	for i, sp := range s {
		parts[i] = sp.String()
	}
	return strings.Join(parts, ", ")
}

func (sp Span) String() string {
	lo := "[" + keyText(sp.Start)
	if m := len(sp.Start); m > 0 && sp.Start[m-1] == 0 {
		lo = "(" + keyText(sp.Start[:m-1])
	}
	n := len(sp.End)
	if n > 0 && sp.End[n-1] == 0 {
		if bytes.Equal(sp.End[:n-1], sp.Start) {
			return "{" + keyText(sp.Start) + "}"
		}
		return lo + ", " + keyText(sp.End[:n-1]) + "]"
	}
	end := ""
	if sp.End != nil {
		end = keyText(sp.End)
	}
	return lo + ", " + end + ")"
}

// keyText prints printable ASCII bare and anything else Go-quoted.
func keyText(k []byte) string {
	for _, c := range k {
		if c < 0x21 || c > 0x7e || c == ',' || c == '"' || c == '[' || c == ']' || c == '{' || c == '}' {
			return strconv.Quote(string(k))
		}
	}
	return string(k)
}
