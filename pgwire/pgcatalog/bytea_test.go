package pgcatalog

import (
	"regexp"
	"testing"
	"unicode/utf8"
)

func TestByteaIn(t *testing.T) {
	for _, tc := range []struct{ in, want, err string }{
		{in: ``, want: `\x`},
		{in: `abc`, want: `\x616263`},
		{in: `\x`, want: `\x`},
		{in: `\x0aFF`, want: `\x0aff`},
		{in: "\\x 0a\tff\n", want: `\x0aff`},
		{in: `a\\b`, want: `\x615c62`},
		{in: `\000\377\101`, want: `\x00ff41`},
		{in: `\x0`, err: "invalid hexadecimal data: odd number of digits"},
		{in: `\x0g`, err: `invalid hexadecimal digit: "g"`},
		{in: `\x0 a`, err: `invalid hexadecimal digit: " "`},
		{in: `\X62`, err: "invalid input syntax for type bytea"},
		{in: `\400`, err: "invalid input syntax for type bytea"},
		{in: `\12`, err: "invalid input syntax for type bytea"},
		{in: `a\`, err: "invalid input syntax for type bytea"},
	} {
		v, err := byteaIn(tc.in)
		switch {
		case tc.err != "":
			if err == nil || err.Error() != tc.err {
				t.Errorf("byteaIn(%q) = %q, %v; want error %q", tc.in, v.s, err, tc.err)
			}
		case err != nil || v.s != tc.want:
			t.Errorf("byteaIn(%q) = %q, %v; want %q", tc.in, v.s, err, tc.want)
		}
	}
}

func TestLikeBytes(t *testing.T) {
	for _, tc := range []struct {
		s, p string
		want bool
		err  bool
	}{
		{"", "", true, false},
		{"", "%", true, false},
		{"", "_", false, false},
		{"abc", "abc", true, false},
		{"abc", "a_c", true, false},
		{"abc", "a%", true, false},
		{"abc", "%c", true, false},
		{"abc", "%b%", true, false},
		{"abc", "%d%", false, false},
		{"aaab", "%ab", true, false},    // the % takes more after a false start
		{"abcabd", "%ab_", true, false}, // and again
		{"ab", "a%%%b%", true, false},
		{"a%c", `a\%c`, true, false},
		{"abc", `a\%c`, false, false},
		{"\xff\x00", "_\x00", true, false}, // _ is one byte, not one character
		{"\xe2\x82\xac", "_", false, false},
		{"a", `a\`, false, true},
		{"b", `a\`, false, true}, // a bad pattern fails whatever it meets
		{"abc", `%\`, false, true},
	} {
		got, err := likeBytes([]byte(tc.s), []byte(tc.p))
		if got != tc.want || (err != nil) != tc.err {
			t.Errorf("likeBytes(%q, %q) = %v, %v; want %v (error: %v)", tc.s, tc.p, got, err, tc.want, tc.err)
		}
	}
}

// FuzzLikeBytes requires that likeBytes agrees with text LIKE (likeToRegex)
// wherever a byte is a character, on ASCII, and wherever the pattern has no
// _, on any UTF-8 text (likeTextExpr).
func FuzzLikeBytes(f *testing.F) {
	for _, seed := range [][2]string{{"abc", "a%c"}, {"aaab", "%ab"}, {"a%c", `a\%_`}, {"", `\`}, {"xyx", "%x_x%"},
		{"héé", "%é"}, {"日本語", "%本%"}, {"é", `\é`}} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, s, p string) {
		if !(ascii(s) && ascii(p)) && !(utf8.ValidString(s) && utf8.ValidString(p) && !likeHasAnyChar(p)) {
			return
		}
		got, err := likeBytes([]byte(s), []byte(p))
		expr, rerr := likeToRegex(p)
		if (err != nil) != (rerr != nil) {
			t.Fatalf("likeBytes(%q, %q) error %v; likeToRegex error %v", s, p, err, rerr)
		}
		if rerr != nil {
			return
		}
		if want := regexp.MustCompile(expr).MatchString(s); got != want {
			t.Fatalf("likeBytes(%q, %q) = %v; LIKE on text says %v", s, p, got, want)
		}
	})
}

func ascii(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
