package sql

import (
	"strings"
	"unicode/utf8"
)

// quoted scans the quoted text (a string or bytes literal, or a `quoted`
// identifier) whose delimiter q (a quote, three quotes or a backquote)
// starts at sc.text[start], as memefish's consumeQuotedContent does:
// escapes decoded unless raw, \u and \U only when unicode. It is false
// where memefish reports an error (an unclosed literal, a newline in a
// single-quoted one, a bad escape). With sc.keep, it appends the content
// to sc.content.
func (sc *litScanner) quoted(start int, q string, raw, unicode bool) bool {
	s := sc.text
	from := start + len(q) // the text not yet kept starts here
	for i := from; i < len(s); {
		switch c := s[i]; {
		case c == q[0] && strings.HasPrefix(s[i:], q):
			sc.pos = i + len(q)
			if sc.keep {
				sc.content = append(sc.content, s[from:i]...)
			}
			return true
		case c == '\\':
			if i+1 == len(s) {
				return false
			}
			if raw { // the content keeps the backslash and what follows it
				i += 2
				continue
			}
			v, isRune, size := unescape(s[i+1:], unicode)
			if size == 0 {
				return false
			}
			if sc.keep {
				sc.content = append(sc.content, s[from:i]...)
				if isRune {
					sc.content = utf8.AppendRune(sc.content, rune(v))
				} else {
					sc.content = append(sc.content, byte(v))
				}
			}
			i += 1 + size
			from = i
		case c == '\n' && len(q) != 3:
			return false
		default:
			i++
		}
	}
	return false
}

// unescape decodes the escape sequence at the start of s (after its
// backslash) as memefish does: v is a byte, or a code point to encode in
// UTF-8 when isRune; size is the sequence's length, 0 when memefish
// rejects it.
func unescape(s string, unicode bool) (v uint32, isRune bool, size int) {
	switch c := s[0]; c {
	case 'a':
		return '\a', false, 1
	case 'b':
		return '\b', false, 1
	case 'f':
		return '\f', false, 1
	case 'n':
		return '\n', false, 1
	case 'r':
		return '\r', false, 1
	case 't':
		return '\t', false, 1
	case 'v':
		return '\v', false, 1
	case '\\', '?', '"', '\'', '`':
		return uint32(c), false, 1
	case 'x', 'X':
		if v, ok := hexValue(s[1:], 2); ok {
			return v, false, 3
		}
	case 'u', 'U':
		n := 4
		if c == 'U' {
			n = 8
		}
		v, ok := hexValue(s[1:], n)
		if unicode && ok && (v < 0xD800 || 0xDFFF < v) && v <= utf8.MaxRune {
			return v, true, 1 + n
		}
	case '0', '1', '2', '3': // three octal digits
		if len(s) >= 3 && isOctalDigit(s[1]) && isOctalDigit(s[2]) {
			return uint32(c-'0')<<6 | uint32(s[1]-'0')<<3 | uint32(s[2]-'0'), false, 3
		}
	}
	return 0, false, 0
}

// hexValue is the value of the n hex digits s starts with (n <= 8).
func hexValue(s string, n int) (uint32, bool) {
	if len(s) < n {
		return 0, false
	}
	var v uint32
	for _, c := range []byte(s[:n]) {
		switch {
		case isDigit(c):
			v = v<<4 | uint32(c-'0')
		case 'a' <= c && c <= 'f':
			v = v<<4 | uint32(c-'a'+10)
		case 'A' <= c && c <= 'F':
			v = v<<4 | uint32(c-'A'+10)
		default:
			return 0, false
		}
	}
	return v, true
}
