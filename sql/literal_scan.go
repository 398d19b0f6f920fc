package sql

import (
	"strings"

	"github.com/cloudspannerecosystem/memefish/token"
)

// litScanner splits a query into tokens as memefish's lexer does, keeping
// only what Literalize looks at: each token's kind (litKind) and span. It
// allocates nothing (a literal's content is decoded only when Literalize
// replaces it, see keep). Where memefish would report an error, and
// wherever this scanner is not certain to lex as memefish does (a
// non-ASCII character outside a literal or comment, which may be a
// Unicode space, or an "@"), next returns false and Literalize asks
// memefish instead: correctness never depends on this scanner covering
// every corner.
type litScanner struct {
	text string
	pos  int
	// after tells how a "." after the last token lexes (see dot);
	// wordAt is where that token starts when it is a word.
	after  litAfter
	wordAt int
	// field: the last token was a "." that makes the next one a field
	// name (a.5 is a, ., 5 the identifier).
	field bool
	// keep: quoted appends each literal's content to content.
	keep    bool
	content []byte
}

// litKind is what Literalize needs to know of a token's kind.
type litKind uint8

const (
	litNone    litKind = iota // no token: before the first one
	litEOF                    // the end of the text
	litOther                  // any other operator or punctuation, or a `quoted` identifier
	litWord                   // an unquoted identifier or keyword
	litInt                    // 12, 0x1F
	litFloat                  // 1.5, .5, 1e3
	litString                 // 'a', "a", r'a', '''a'''
	litBytes                  // b'a', rb'a'
	litLParen                 // (
	litRParen                 // )
	litSemi                   // ;
	litCompare                // = != <> < <= > >=
)

// litAfter is what the last token means for a "." after it. memefish
// follows ZetaSQL: after an identifier, ")" or "]", a "." is a field
// access and the name after it lexes as an identifier even when it is a
// keyword or starts with a digit; elsewhere ".5" is a number.
type litAfter uint8

const (
	afterOther litAfter = iota
	afterIdent          // an identifier (quoted or a field name), ")" or "]"
	afterWord           // an unquoted word: an identifier unless a keyword
)

// litToken is a token of a query: its kind and span (no strings, so that
// the scanner copies tokens freely).
type litToken struct {
	kind     litKind
	pos, end int
}

// isLiteral reports whether t is a literal Literalize may replace.
func (t litToken) isLiteral() bool { return t.kind >= litInt && t.kind <= litBytes }

// isWord reports whether t is the unquoted word w of text (w in upper
// case), keyword or not: what memefish's isWord finds.
func (t litToken) isWord(text, w string) bool {
	return t.kind == litWord && t.end-t.pos == len(w) && strings.EqualFold(text[t.pos:t.end], w)
}

// next scans the next token (litEOF at the end); false where memefish
// would fail or this scanner is unsure.
func (sc *litScanner) next() (litToken, bool) {
	// Spaces, then what else may come before a token (skipComments); the
	// common case is here for speed.
	s, start := sc.text, sc.pos
	for start < len(s) && asciiSpace[s[start]] {
		start++
	}
	sc.pos = start
	if start < len(s) && !plainStart[s[start]] {
		if !sc.skipComments() {
			return litToken{}, false
		}
		start = sc.pos
	}
	field := sc.field
	sc.field = false
	kind, ok := litWord, true
	switch {
	case field && start < len(s) && identPart[s[start]]:
		// A field name: an identifier, even when a keyword or a number.
		sc.pos, sc.after = identEnd(s, start), afterIdent
	case start < len(s) && wordStart[s[start]]:
		sc.word() // the most common token, here for speed
	default:
		kind, ok = sc.token()
	}
	return litToken{kind, start, sc.pos}, ok
}

// skipComments skips ASCII spaces and comments (#, -- to the end of the
// line, /* */); false at a non-ASCII character (memefish skips Unicode
// spaces) or an unclosed comment.
func (sc *litScanner) skipComments() bool {
	s := sc.text
	for sc.pos < len(s) {
		c := s[sc.pos]
		if asciiSpace[c] {
			sc.pos++
			continue
		}
		switch {
		case c == '#' || c == '-' && strings.HasPrefix(s[sc.pos:], "--"):
			if i := strings.IndexByte(s[sc.pos:], '\n'); i >= 0 {
				sc.pos += i + 1
			} else {
				sc.pos = len(s)
			}
		case c == '/' && strings.HasPrefix(s[sc.pos:], "/*"):
			// memefish looks for the end from the "*", so "/*/" is a
			// whole comment.
			i := strings.Index(s[sc.pos+1:], "*/")
			if i < 0 {
				return false
			}
			sc.pos += 1 + i + 2
		default:
			return c < 0x80
		}
	}
	return true
}

// word scans the word (identifier or keyword) at sc.pos.
func (sc *litScanner) word() {
	sc.after, sc.wordAt = afterWord, sc.pos
	sc.pos = identEnd(sc.text, sc.pos)
}

// token scans the token at sc.pos, past spaces, as memefish's
// consumeToken does.
func (sc *litScanner) token() (litKind, bool) {
	s, i := sc.text, sc.pos
	if i == len(s) {
		return litEOF, true
	}
	after := sc.after
	sc.after = afterOther
	kind := litOther
	switch c := s[i]; c {
	case '(':
		kind = litLParen
	case ')':
		kind, sc.after = litRParen, afterIdent
	case ']':
		sc.after = afterIdent
	case ';':
		kind = litSemi
	case '{', '}', ',', '[', '~', '*', '/', '&', '^', '%', ':', '?', '\\', '$':
	case '.':
		return sc.dot(after)
	case '<', '>', '=', '!', '+', '-', '|':
		var n int
		kind, n = operator(s[i:])
		sc.pos += n
		return kind, true
	case '`':
		sc.after = afterIdent
		// memefish rejects an empty identifier; an escape is not empty.
		return litOther, sc.quoted(i, "`", false, true) && sc.pos > i+2
	case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return sc.number()
	case '"', '\'':
		return sc.literal(i, false, false)
	case 'B', 'b', 'R', 'r':
		if q, bytes, raw := quotePrefix(s[i:]); q >= 0 {
			return sc.literal(i+q, bytes, raw)
		}
		fallthrough
	default:
		if !isIdentStart(c) {
			return litOther, false // "@", a character memefish rejects, or non-ASCII
		}
		sc.word()
		return litWord, true
	}
	sc.pos++
	return kind, true
}

// operator returns the kind and length of the operator s starts with
// (one of < > = ! + - |), matching the longest as memefish does; "--"
// starts a comment, skipped before.
func operator(s string) (litKind, int) {
	if len(s) >= 2 {
		switch s[:2] {
		case "<=", "<>", ">=", "!=":
			return litCompare, 2
		case "<<", ">>", "=>", "+=", "-=", "->", "|>", "||":
			return litOther, 2
		}
	}
	switch s[0] {
	case '<', '>', '=':
		return litCompare, 1
	}
	return litOther, 1
}

// dot scans a token starting with ".": a number (.5) or a "." that may
// make the next token a field name.
func (sc *litScanner) dot(after litAfter) (litKind, bool) {
	s, i := sc.text, sc.pos
	field := after == afterIdent || after == afterWord && !isKeyword(s[sc.wordAt:identEnd(s, sc.wordAt)])
	if !field && i+1 < len(s) && isDigit(s[i+1]) {
		return sc.number()
	}
	sc.pos++
	sc.field = field
	return litOther, true
}

// isKeyword is memefish's token.IsKeyword without its allocation (a
// qualified name, t.x, asks it).
func isKeyword(w string) bool {
	var upper [24]byte // longer than the keywords
	if len(w) > len(upper) {
		return token.IsKeyword(w)
	}
	for i := range len(w) {
		c := w[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		upper[i] = c
	}
	_, ok := token.KeywordsMap[token.TokenKind(upper[:len(w)])]
	return ok
}

// number scans an integer or floating-point literal as memefish's
// consumeNumber does: 0x and hex digits, or decimal digits with at most
// one "." and an exponent; an identifier character right after it is an
// error.
func (sc *litScanner) number() (litKind, bool) {
	s, i := sc.text, sc.pos
	hex := strings.HasPrefix(s[i:], "0x") || strings.HasPrefix(s[i:], "0X")
	if hex {
		i += 2
	}
	isInt, exp := true, false
	for i < len(s) {
		c := s[i]
		switch {
		case hex && isHexDigit(c), !hex && isDigit(c):
			i++
			continue
		case !hex && !exp && isInt && c == '.':
			i++
			isInt = false
			continue
		case !hex && !exp && (c == 'e' || c == 'E'):
			j := i + 1
			if j < len(s) && (s[j] == '+' || s[j] == '-') {
				j++
			}
			if j < len(s) && isDigit(s[j]) {
				i, exp, isInt = j, true, false
				continue
			}
		}
		break
	}
	sc.pos = i
	kind := litFloat
	if isInt {
		kind = litInt
	}
	return kind, i == len(s) || !identPart[s[i]]
}

// quotePrefix finds the quote of a string or bytes literal that s starts
// with, after at most one b and one r in either case and order (memefish
// looks at no more than three characters); q is -1 when s starts a word.
func quotePrefix(s string) (q int, bytes, raw bool) {
	for i := 0; i < 3 && i < len(s); i++ {
		switch c := s[i]; {
		case !bytes && (c == 'B' || c == 'b'):
			bytes = true
		case !raw && (c == 'R' || c == 'r'):
			raw = true
		case c == '"' || c == '\'':
			return i, bytes, raw
		default:
			return -1, false, false
		}
	}
	return -1, false, false
}

// literal scans the string or bytes literal whose quote is at s[q].
func (sc *litScanner) literal(q int, bytes, raw bool) (litKind, bool) {
	s := sc.text
	delim := s[q : q+1]
	if q+2 < len(s) && s[q+1] == s[q] && s[q+2] == s[q] {
		delim = s[q : q+3]
	}
	ok := sc.quoted(q, delim, raw, !bytes)
	if bytes {
		return litBytes, ok
	}
	return litString, ok
}

// identEnd returns where the identifier characters from s[i] end.
func identEnd(s string, i int) int {
	for i < len(s) && identPart[s[i]] {
		i++
	}
	return i
}

// Byte classes for the scanner's hot paths: asciiSpace, the spaces
// memefish skips in ASCII; plainStart, a byte that starts neither a space
// nor a comment; wordStart, one that starts a word, never a literal
// (b'x', r'x'); identPart, one that continues an identifier.
var (
	asciiSpace = [256]bool{' ': true, '\t': true, '\n': true, '\v': true, '\f': true, '\r': true}
	plainStart = byteClass(func(c byte) bool { return c > ' ' && c < 0x80 && c != '#' && c != '-' && c != '/' })
	wordStart  = byteClass(func(c byte) bool { return isIdentStart(c) && !strings.ContainsRune("bBrR", rune(c)) })
	identPart  = byteClass(func(c byte) bool { return isIdentStart(c) || isDigit(c) })
)

func byteClass(in func(byte) bool) (class [256]bool) {
	for c := range class {
		class[c] = in(byte(c))
	}
	return class
}

func isDigit(c byte) bool      { return '0' <= c && c <= '9' }
func isOctalDigit(c byte) bool { return '0' <= c && c <= '7' }
func isHexDigit(c byte) bool {
	return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
func isIdentStart(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' }
