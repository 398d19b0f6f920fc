package sql

import (
	"strings"
	"testing"
)

func TestLiteralize(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"SELECT _key, cf['a'] FROM t WHERE _key = 'k1'", "SELECT _key, cf['a'] FROM t WHERE _key = @__lit1"},
		{"SELECT _key FROM t WHERE _key = CAST(CAST(12 AS STRING) AS BYTES);", "SELECT _key FROM t WHERE _key = CAST(CAST(@__lit1 AS STRING) AS BYTES);"},
		{"SELECT * FROM t WHERE x >= 1.5 AND y < b'z' ORDER BY x", "SELECT * FROM t WHERE x >= @__val1 AND y < @__val2 ORDER BY x"},
		// Not operands that end there, or positions that need constants.
		{"SELECT cf['a'] FROM t WHERE x = 1 + y", ""},
		{"SELECT x FROM t WHERE STARTS_WITH(_key, 'a') LIMIT 5", ""},
		{"SELECT x FROM t WHERE x IN (1, 2)", ""},
		{"SELECT x FROM t WHERE x = @p", ""},
		{"EXPLAIN SELECT x FROM t WHERE x = 1", ""},
		{"SELECT x FROM t WHERE x = 99999999999999999999", ""},
		// Edges of the token stream.
		{"SELECT 1", ""},
		{"5", ""},
		{"x = 5", "x = @__lit1"},
		{"= 'a'", "= @__lit1"},
		{"CAST(5 AS STRING)", "CAST(@__lit1 AS STRING)"},
		{"SELECT a FROM t WHERE a = 1 AND b = 2 OR c < 'z'", "SELECT a FROM t WHERE a = @__lit1 AND b = @__lit2 OR c < @__lit3"},
		{"SELECT a FROM t WHERE a = 'it''s' AND b = \"x\"", "SELECT a FROM t WHERE a = 'it''s' AND b = @__lit1"},
	} {
		l, ok := Literalize(tc.in)
		if got := l.Text; ok != (tc.want != "") || got != tc.want {
			t.Errorf("Literalize(%q) = %q, %v; want %q", tc.in, got, ok, tc.want)
		}
	}
	l, _ := Literalize("SELECT a FROM t WHERE a = 'xy' AND b = 7 AND DIV(1, 0) = 1")
	if off := l.OriginalOffset(strings.Index(l.Text, "DIV")); off != strings.Index("SELECT a FROM t WHERE a = 'xy' AND b = 7 AND DIV(1, 0) = 1", "DIV") {
		t.Errorf("OriginalOffset: %d", off)
	}
}

// FuzzLiteralize: offsets map into the original text, in order, and the
// text outside the replaced literals is unchanged.
func FuzzLiteralize(f *testing.F) {
	f.Add("SELECT a FROM t WHERE a = 'xy' AND b = 7")
	f.Add("SELECT a FROM t WHERE a = CAST(5 AS STRING) OR b = 1.5")
	f.Fuzz(func(t *testing.T, text string) {
		l, ok := Literalize(text)
		if !ok {
			return
		}
		prev := 0
		for off := 0; off <= len(l.Text); off++ {
			o := l.OriginalOffset(off)
			if o < prev || o > len(text) {
				t.Fatalf("%q: offset %d maps to %d (previous %d)", text, off, o, prev)
			}
			prev = o
		}
		if len(l.Params) != len(l.Values) || len(l.Params) == 0 {
			t.Fatalf("%q: %d params, %d values", text, len(l.Params), len(l.Values))
		}
	})
}
