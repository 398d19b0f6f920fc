package pgjson

import (
	"encoding/json"
	"testing"
)

// TestAppendString: the literal is PostgreSQL's (to_json('…'::text) in
// PostgreSQL 15), and encoding/json reads it back as the text it was given.
func TestAppendString(t *testing.T) {
	for in, want := range map[string]string{
		"":                  `""`,
		"plain é€😀":         `"plain é€😀"`,
		`"quoted" back\sl`:  `"\"quoted\" back\\sl"`,
		"\b\f\n\r\t":        `"\b\f\n\r\t"`,
		"\x00\x01\x1f\x7f/": `"\u0000\u0001\u001f` + "\x7f" + `/"`,
	} {
		got := string(AppendString([]byte("x"), in))[1:]
		if got != want {
			t.Errorf("%q: got %s, want %s", in, got, want)
		}
		var back string
		if err := json.Unmarshal([]byte(got), &back); err != nil || back != in {
			t.Errorf("%s reads back as %q, %v", got, back, err)
		}
	}
}

// TestAppendStringRoundTrip: any UTF-8 text reads back (as encoding/json
// reads it) as itself, escapes and all.
func TestAppendStringRoundTrip(t *testing.T) {
	for _, s := range []string{"", "plain", `"quoted"`, `back\slash`, "tab\tnl\ncr\r", "\x00\x01\x1f\x7f", "é€😀", "a\"\\\b\f"} {
		lit := AppendString([]byte("x"), []byte(s))[1:]
		var got string
		if err := json.Unmarshal(lit, &got); err != nil || got != s {
			t.Errorf("%q → %s → %q, %v", s, lit, got, err)
		}
	}
}
