package pgcatalog

import (
	"encoding/hex"
	"strings"
	"unicode/utf8"
)

// A bytea value is held as its text output, hex format (`\x` and two
// lowercase digits per byte), so that bytea values compare as text the way
// their bytes compare. byteaIn reads bytea input (ParseBytea) into that
// form; input already in it (every bytea a table scan returns) is kept as
// it is.
func byteaIn(s string) (Value, error) {
	if isCanonicalBytea(s) {
		return textV(s), nil
	}
	b, err := ParseBytea(s)
	if err != nil {
		return null, err
	}
	return byteaV(b), nil
}

// ParseBytea reads PostgreSQL's two bytea input formats, with PostgreSQL's
// errors (an *Error: 22023 for bad hex, 22P02 for a bad escape):
//   - hex: `\x` then pairs of hex digits, either case, with white space
//     allowed between pairs;
//   - escape: any other text, where `\\` is a backslash, `\ooo` (octal, at
//     most 377) is that byte, and every other byte stands for itself.
func ParseBytea(s string) ([]byte, error) {
	if strings.HasPrefix(s, `\x`) {
		return parseByteaHex(s[2:])
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		switch {
		case i+1 < len(s) && s[i+1] == '\\':
			out = append(out, '\\')
			i++
		case i+3 < len(s) && isOctal(s[i+1]) && s[i+1] <= '3' && isOctal(s[i+2]) && isOctal(s[i+3]):
			out = append(out, (s[i+1]-'0')<<6|(s[i+2]-'0')<<3|(s[i+3]-'0'))
			i += 3
		default:
			return nil, errorf(CodeInvalidText, noPos, "invalid input syntax for type bytea")
		}
	}
	return out, nil
}

// isCanonicalBytea reports whether s is a bytea value's form: \x and
// lowercase hex digit pairs.
func isCanonicalBytea(s string) bool {
	if len(s) < 2 || s[:2] != `\x` || len(s)%2 != 0 {
		return false
	}
	for i := 2; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

func isOctal(c byte) bool { return '0' <= c && c <= '7' }

// parseByteaHex reads the digits of hex-format bytea input.
func parseByteaHex(s string) ([]byte, error) {
	out := make([]byte, 0, len(s)/2)
	for i := 0; i < len(s); {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
			i++
			continue
		}
		hi, ok := unhex(s[i])
		if !ok {
			return nil, badHexDigit(s[i:])
		}
		if i+1 == len(s) {
			return nil, errorf(CodeInvalidParameter, noPos, "invalid hexadecimal data: odd number of digits")
		}
		lo, ok := unhex(s[i+1])
		if !ok {
			return nil, badHexDigit(s[i+1:])
		}
		out = append(out, hi<<4|lo)
		i += 2
	}
	return out, nil
}

// badHexDigit is the error for the character s starts with, not a hex
// digit: the whole character, unquoted inside, as PostgreSQL's get_hex.
func badHexDigit(s string) error {
	r, size := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError {
		size = 1
	}
	return errorf(CodeInvalidParameter, noPos, "invalid hexadecimal digit: \"%s\"", s[:size])
}

// byteaArg is argument i of a function whose arguments are bytea when its
// first is: a bytea's bytes, or text (an untyped literal) read as bytea
// input.
func byteaArg(a []Value, t []uint32, i int) ([]byte, error) {
	if t[i] == tBytea {
		return byteaBytes(a[i]), nil
	}
	return ParseBytea(a[i].s)
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// byteaV is the value of bytes b.
func byteaV(b []byte) Value {
	return textV(`\x` + hex.EncodeToString(b))
}

// byteaBytes returns the bytes of a bytea value (byteaV's form).
func byteaBytes(v Value) []byte {
	b, _ := hex.DecodeString(strings.TrimPrefix(v.s, `\x`))
	return b
}

// likeBytes reports whether s matches LIKE pattern p, byte by byte: % is
// any run of bytes, _ one byte, and \ makes the byte after it literal (a
// pattern ending in it is an error, as in PostgreSQL). It is bytea's LIKE,
// where a byte is not a character, and text's for a pattern without _
// (likeTextExpr), where matching bytes is matching characters.
func likeBytes[T string | []byte](s, p T) (bool, error) {
	// Greedy matching that remembers the last %: when a later literal
	// fails, that % takes one more byte and matching resumes after it.
	si, pi := 0, 0
	star, mark := -1, 0
	for si < len(s) {
		if pi < len(p) {
			switch c := p[pi]; c {
			case '%':
				star, mark = pi, si
				pi++
				continue
			case '_':
				si, pi = si+1, pi+1
				continue
			case '\\':
				if pi+1 == len(p) {
					return false, errTrailingEscape()
				}
				if p[pi+1] == s[si] {
					si, pi = si+1, pi+2
					continue
				}
			default:
				if c == s[si] {
					si, pi = si+1, pi+1
					continue
				}
			}
		}
		if star < 0 {
			return false, likeTail(p[pi:])
		}
		mark++
		si, pi = mark, star+1
	}
	for pi < len(p) && p[pi] == '%' {
		pi++
	}
	if err := likeTail(p[pi:]); err != nil {
		return false, err
	}
	return pi == len(p), nil
}

// likeTail checks the unread rest of a pattern for a trailing escape, so
// that a bad pattern is an error whatever it is matched against.
func likeTail[T string | []byte](p T) error {
	for i := 0; i < len(p); i++ {
		if p[i] == '\\' {
			if i+1 == len(p) {
				return errTrailingEscape()
			}
			i++
		}
	}
	return nil
}
