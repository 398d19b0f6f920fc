package rowkeyschema_test

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"

	"github.com/shale-db/shale/rowkeyschema"
	"github.com/shale-db/shale/sql/types"
)

// TestDataDriven runs testdata/*. Commands:
//
//	schema [families=(a,b)]
//	<schema text>
//	----
//	the schema's String, or the Validate / CheckFamilies error
//
//	encode
//	(v1, v2, ...)           one tuple per line
//	----
//	tuple → hex "quoted", then whether it decodes back to the tuple;
//	then whether byte order matches tuple order across the lines
//
//	decode
//	"quoted key" | hex:0102  one key per line
//	----
//	key → tuple, or the error
//
//	prefix
//	"quoted key"              one range bound per line
//	----
//	the complete leading fields, then the bytes after them
//
//	spans
//	[eq (v1, ...)] [range <[|(>lo, hi<]|)>]   lo or hi "-" is unbounded
//	----
//	the normalized spans
//
// Values are typed by the schema's fields: BYTES b"..." (or "..."), STRING
// "...", INT64 decimal, TIMESTAMP "RFC 3339" or decimal microseconds.
func TestDataDriven(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		if strings.Contains(path, "fuzz") {
			t.Skip()
		}
		var s *rowkeyschema.Schema
		datadriven.RunTest(t, path, func(t *testing.T, td *datadriven.TestData) string {
			switch td.Cmd {
			case "schema":
				return runSchema(t, td, &s)
			case "encode":
				return runEncode(t, td, s)
			case "decode":
				return runDecode(t, td, s)
			case "spans":
				return runSpans(t, td, s)
			case "prefix":
				return runPrefix(t, td, s)
			}
			td.Fatalf(t, "unknown command %s", td.Cmd)
			return ""
		})
	})
}

func runSchema(t *testing.T, td *datadriven.TestData, out **rowkeyschema.Schema) string {
	s, err := rowkeyschema.Parse(strings.TrimSpace(td.Input))
	if err != nil {
		return "error: " + err.Error()
	}
	if err := s.Validate(); err != nil {
		return "error: " + err.Error()
	}
	var fams []string
	if td.HasArg("families") {
		td.ScanArgs(t, "families", &fams)
	}
	if err := s.CheckFamilies(fams); err != nil {
		return "error: " + err.Error()
	}
	*out = s
	var b strings.Builder
	b.WriteString(s.String() + "\n")
	for i, f := range s.Fields {
		fmt.Fprintf(&b, "%s: order-preserving=%t\n", f.Name, s.OrderPreserving(i))
	}
	return b.String()
}

func runEncode(t *testing.T, td *datadriven.TestData, s *rowkeyschema.Schema) string {
	var b strings.Builder
	var tuples [][]types.Value
	var keys [][]byte
	for _, line := range lines(td.Input) {
		vals, err := parseTuple(s, line)
		if err != nil {
			td.Fatalf(t, "%s: %v", line, err)
		}
		key, err := s.AppendKey(nil, vals)
		if err != nil {
			fmt.Fprintf(&b, "%s → error: %v\n", line, err)
			continue
		}
		rt := "round-trip ok"
		if got, err := s.DecodeKey(nil, key); err != nil {
			rt = "round-trip error: " + err.Error()
		} else if !equalTuples(got, vals) {
			rt = "round-trip gives " + tupleText(got)
		}
		fmt.Fprintf(&b, "%s → %s %s  %s\n", line, hexText(key), strconv.Quote(string(key)), rt)
		tuples, keys = append(tuples, vals), append(keys, key)
	}
	if len(keys) > 1 {
		b.WriteString("order: " + orderText(tuples, keys) + "\n")
	}
	return b.String()
}

func orderText(tuples [][]types.Value, keys [][]byte) string {
	for i := range keys {
		for j := range keys {
			if c, d := cmpTuples(tuples[i], tuples[j]), bytes.Compare(keys[i], keys[j]); c != d {
				return fmt.Sprintf("byte order differs from tuple order: %s vs %s", tupleText(tuples[i]), tupleText(tuples[j]))
			}
		}
	}
	return "byte order matches tuple order"
}

func runDecode(t *testing.T, td *datadriven.TestData, s *rowkeyschema.Schema) string {
	var b strings.Builder
	for _, line := range lines(td.Input) {
		key, err := parseKey(line)
		if err != nil {
			td.Fatalf(t, "%s: %v", line, err)
		}
		vals, err := s.DecodeKey(nil, key)
		if err != nil {
			fmt.Fprintf(&b, "%s → error: %v\n", line, err)
			continue
		}
		fmt.Fprintf(&b, "%s → %s\n", line, tupleText(vals))
	}
	return b.String()
}

func runSpans(t *testing.T, td *datadriven.TestData, s *rowkeyschema.Schema) string {
	var b strings.Builder
	for _, line := range lines(td.Input) {
		eq, lo, hi, err := parseSpansLine(s, line)
		if err != nil {
			td.Fatalf(t, "%s: %v", line, err)
		}
		sp, err := s.Spans(nil, eq, lo, hi)
		if err != nil {
			fmt.Fprintf(&b, "%s → error: %v\n", line, err)
			continue
		}
		fmt.Fprintf(&b, "%s → %s\n", line, spansText(sp))
	}
	return b.String()
}

func parseSpansLine(s *rowkeyschema.Schema, line string) (eq []types.Value, lo, hi rowkeyschema.Bound, err error) {
	line = strings.TrimSpace(line)
	if rest, ok := strings.CutPrefix(line, "eq "); ok {
		end := strings.Index(rest, ")")
		if eq, err = parseTuple(&rowkeyschema.Schema{Fields: s.Fields[:min(len(s.Fields), strings.Count(rest[:end], ",")+1)]}, rest[:end+1]); err != nil {
			return
		}
		line = strings.TrimSpace(rest[end+1:])
	}
	rest, ok := strings.CutPrefix(line, "range ")
	if !ok {
		return
	}
	rest = strings.TrimSpace(rest)
	f := s.Fields[len(eq)]
	parts := splitTop(rest[1 : len(rest)-1])
	if len(parts) != 2 {
		err = fmt.Errorf("bad range %q", rest)
		return
	}
	if parts[0] != "-" {
		lo.Value, err = parseValue(f.Type, parts[0])
		lo.Inclusive = rest[0] == '['
	}
	if err == nil && parts[1] != "-" {
		hi.Value, err = parseValue(f.Type, parts[1])
		hi.Inclusive = rest[len(rest)-1] == ']'
	}
	return
}

func spansText(sp []rowkeyschema.Span) string {
	if len(sp) == 0 {
		return "EMPTY"
	}
	sort.Slice(sp, func(i, j int) bool { return bytes.Compare(sp[i].Start, sp[j].Start) < 0 })
	parts := make([]string, len(sp))
	for i, x := range sp {
		end := "∞"
		if x.End != nil {
			end = keyText(x.End)
		}
		parts[i] = "[" + keyText(x.Start) + ", " + end + ")"
	}
	return strings.Join(parts, " ∪ ")
}

func keyText(k []byte) string {
	for _, c := range k {
		if c < 0x21 || c > 0x7e || c == ',' || c == '"' {
			return strconv.QuoteToASCII(string(k))
		}
	}
	return string(k)
}

func hexText(b []byte) string {
	if len(b) == 0 {
		return "(empty)"
	}
	return strings.ToUpper(hex.EncodeToString(b))
}

func lines(in string) []string {
	var out []string
	for _, l := range strings.Split(in, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

func parseKey(s string) ([]byte, error) {
	if h, ok := strings.CutPrefix(s, "hex:"); ok {
		return hex.DecodeString(strings.ReplaceAll(h, " ", ""))
	}
	u, err := strconv.Unquote(s)
	return []byte(u), err
}

// parseTuple reads (v1, v2, ...) typed by s's fields.
func parseTuple(s *rowkeyschema.Schema, text string) ([]types.Value, error) {
	text = strings.TrimSpace(text)
	if !strings.HasPrefix(text, "(") || !strings.HasSuffix(text, ")") {
		return nil, fmt.Errorf("not a tuple: %q", text)
	}
	parts := splitTop(text[1 : len(text)-1])
	if len(parts) != len(s.Fields) {
		return nil, fmt.Errorf("%d values for %d fields", len(parts), len(s.Fields))
	}
	out := make([]types.Value, len(parts))
	for i, p := range parts {
		v, err := parseValue(s.Fields[i].Type, p)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// splitTop splits on commas outside quoted strings.
func splitTop(s string) []string {
	var out []string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		tok := s
		if q := strings.TrimPrefix(s, "b"); strings.HasPrefix(q, `"`) {
			p, err := strconv.QuotedPrefix(q)
			if err == nil {
				tok = s[:len(s)-len(q)+len(p)]
			}
		} else if i := strings.Index(s, ","); i >= 0 {
			tok = s[:i]
		}
		out = append(out, strings.TrimSpace(tok))
		s = strings.TrimPrefix(strings.TrimSpace(s[len(tok):]), ",")
	}
	return out
}

func parseValue(t *types.Type, s string) (types.Value, error) {
	switch t.Kind {
	case types.KindBytes, types.KindString:
		u, err := strconv.Unquote(strings.TrimPrefix(s, "b"))
		if err != nil {
			return types.Value{}, fmt.Errorf("bad string %q", s)
		}
		if t.Kind == types.KindString {
			return types.StringValue(u), nil
		}
		return types.BytesValue([]byte(u)), nil
	case types.KindInt64:
		n, err := strconv.ParseInt(s, 10, 64)
		return types.Int64Value(n), err
	case types.KindTimestamp:
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return types.TimestampValue(n), nil
		}
		u, err := strconv.Unquote(s)
		if err != nil {
			return types.Value{}, err
		}
		tm, err := time.Parse(time.RFC3339Nano, u)
		return types.TimeValue(tm), err
	}
	return types.Value{}, fmt.Errorf("type %s", t)
}

func tupleText(vals []types.Value) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = v.String()
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func equalTuples(a, b []types.Value) bool { return cmpTuples(a, b) == 0 && len(a) == len(b) }

func cmpTuples(a, b []types.Value) int {
	for i := range a {
		if c := types.Compare(a[i], b[i]); c != 0 {
			return c
		}
	}
	return 0
}

func runPrefix(t *testing.T, td *datadriven.TestData, s *rowkeyschema.Schema) string {
	var b strings.Builder
	for _, line := range lines(td.Input) {
		key, err := parseKey(line)
		if err != nil {
			td.Fatalf(t, "%s: %v", line, err)
		}
		vals, rest := s.DecodePrefix(nil, key)
		fmt.Fprintf(&b, "%s → %s + %q\n", line, tupleText(vals), rest)
	}
	return b.String()
}
