package planner

import (
	"bytes"
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
	switch k := k.(type) {
	case AllKeys:
		return FullSpans, nil
	case *KeyPoints:
		var out Spans
		for _, e := range k.Values {
			v, err := eval(e)
			if err != nil {
				return nil, err
			}
			if !v.IsNull() {
				out = append(out, point(v.Bytes()))
			}
		}
		return normalize(out), nil
	case *KeyArray:
		v, err := eval(k.Array)
		if err != nil || v.IsNull() {
			return nil, err
		}
		var out Spans
		for _, e := range v.Elems() {
			if !e.IsNull() {
				out = append(out, point(e.Bytes()))
			}
		}
		return normalize(out), nil
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

func point(k []byte) Span { return Span{Start: k, End: succ(k)} }

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

// normalize sorts and merges overlapping or adjacent spans.
func normalize(s Spans) Spans {
	if len(s) == 0 {
		return nil
	}
	out := append(Spans(nil), s...)
	sortSpans(out)
	merged := out[:1]
	for _, sp := range out[1:] {
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
