package pgcatalog

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

func init() {
	register("unistr", &builtin{min: 1, ret: tText, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		s, err := unistr(a[0].s)
		if err != nil {
			return null, err
		}
		return textV(s), nil
	}})
}

// unistr decodes PostgreSQL's Unicode escapes: \XXXX, \+XXXXXX, \uXXXX and
// \UXXXXXXXX (hex digits; a UTF-16 surrogate pair as two escapes), and \\
// for a backslash.
func unistr(s string) (string, error) {
	var sb strings.Builder
	pending := rune(0) // a high surrogate waiting for its low half
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			if pending != 0 {
				return "", errUnicodeSurrogate()
			}
			sb.WriteByte(s[i])
			i++
			continue
		}
		if i+1 < len(s) && s[i+1] == '\\' {
			if pending != 0 {
				return "", errUnicodeSurrogate()
			}
			sb.WriteByte('\\')
			i += 2
			continue
		}
		digits, skip := 0, 1
		switch {
		case i+1 < len(s) && s[i+1] == '+':
			digits, skip = 6, 2
		case i+1 < len(s) && s[i+1] == 'u':
			digits, skip = 4, 2
		case i+1 < len(s) && s[i+1] == 'U':
			digits, skip = 8, 2
		default:
			digits = 4
		}
		hex := s[min(i+skip, len(s)):min(i+skip+digits, len(s))]
		n, err := strconv.ParseUint(hex, 16, 32)
		if len(hex) != digits || err != nil {
			e := errorf("22025", noPos, "invalid Unicode escape")
			e.Hint = `Unicode escapes must be \XXXX, \+XXXXXX, \uXXXX, or \UXXXXXXXX.`
			return "", e
		}
		i += skip + digits
		r := rune(n)
		switch {
		case utf16.IsSurrogate(r) && r < 0xDC00:
			if pending != 0 {
				return "", errUnicodeSurrogate()
			}
			pending = r
			continue
		case utf16.IsSurrogate(r):
			if pending == 0 {
				return "", errUnicodeSurrogate()
			}
			r, pending = utf16.DecodeRune(pending, r), 0
		case pending != 0:
			return "", errUnicodeSurrogate()
		}
		if r == 0 || r > utf8.MaxRune {
			return "", errorf("22025", noPos, "invalid Unicode code point: %04X", n)
		}
		sb.WriteRune(r)
	}
	if pending != 0 {
		return "", errUnicodeSurrogate()
	}
	return sb.String(), nil
}

func errUnicodeSurrogate() error {
	return errorf("22025", noPos, "invalid Unicode surrogate pair")
}
