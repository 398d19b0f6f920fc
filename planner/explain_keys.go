package planner

import (
	"strconv"
	"strings"
	"time"

	"github.com/shale-db/shale/rowkeyschema"
	"github.com/shale-db/shale/sql/types"
)

// DecodedSpans renders spans with their bounds decoded by a row-key
// schema, one /field/field... path per bound (the complete leading fields,
// then any bytes left): [/phone/4c410523 - /phone/4c410524). A point is
// {/a/b/c}; a missing end is +∞.
func DecodedSpans(ks *rowkeyschema.Schema, s Spans) string {
	parts := make([]string, len(s))
	for i, sp := range s {
		n := len(sp.End)
		switch {
		case n > 0 && sp.End[n-1] == 0 && string(sp.End[:n-1]) == string(sp.Start):
			parts[i] = "{" + keyPath(ks, sp.Start) + "}"
		case sp.End == nil:
			parts[i] = "[" + keyPath(ks, sp.Start) + " - +∞)"
		default:
			parts[i] = "[" + keyPath(ks, sp.Start) + " - " + keyPath(ks, sp.End) + ")"
		}
	}
	return strings.Join(parts, ", ")
}

// RawSpans renders spans as raw bytes, [start, end) or {point}, without
// the successor-key shorthand of Spans.String (a structured key's bound
// often ends in 0x00 by itself); non-printable keys are Go-quoted.
func RawSpans(s Spans) string {
	parts := make([]string, len(s))
	for i, sp := range s {
		n := len(sp.End)
		switch {
		case n > 0 && sp.End[n-1] == 0 && string(sp.End[:n-1]) == string(sp.Start):
			parts[i] = "{" + rawKey(sp.Start) + "}"
		case sp.End == nil:
			parts[i] = "[" + rawKey(sp.Start) + ", +∞)"
		default:
			parts[i] = "[" + rawKey(sp.Start) + ", " + rawKey(sp.End) + ")"
		}
	}
	return strings.Join(parts, ", ")
}

func rawKey(k []byte) string {
	for _, c := range k {
		if c < 0x21 || c > 0x7e || strings.IndexByte(`,"[](){}`, c) >= 0 {
			return quoteBytes(k)
		}
	}
	return string(k)
}

// quoteBytes Go-quotes bytes, escaping every byte outside printable ASCII
// as \xNN (never as a rune).
func quoteBytes(b []byte) string {
	const hex = "0123456789abcdef"
	out := []byte{'"'}
	for _, c := range b {
		switch {
		case c == '"' || c == '\\':
			out = append(out, '\\', c)
		case c >= 0x20 && c <= 0x7e:
			out = append(out, c)
		default:
			out = append(out, '\\', 'x', hex[c>>4], hex[c&15])
		}
	}
	return string(append(out, '"'))
}

func keyPath(ks *rowkeyschema.Schema, k []byte) string {
	if len(k) == 0 {
		return "/"
	}
	vals, rest := ks.DecodePrefix(nil, k)
	var b strings.Builder
	for _, v := range vals {
		b.WriteString("/" + pathValue(v))
	}
	if len(rest) > 0 {
		b.WriteString("/" + pathBytes(rest))
	}
	return b.String()
}

func pathValue(v types.Value) string {
	switch v.Kind() {
	case types.KindBytes, types.KindString:
		return pathBytes(v.Bytes())
	case types.KindTimestamp:
		return v.Time().Format(time.RFC3339Nano)
	}
	return strconv.FormatInt(v.Int64(), 10)
}

// pathBytes prints bytes bare when they are printable and free of the
// path's punctuation, else Go-quoted.
func pathBytes(b []byte) string {
	if len(b) == 0 {
		return `""`
	}
	for _, c := range b {
		if c < 0x21 || c > 0x7e || strings.IndexByte(`/,"[](){}`, c) >= 0 || c == ' ' {
			return quoteBytes(b)
		}
	}
	return string(b)
}
