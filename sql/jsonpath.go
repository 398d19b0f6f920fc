package sql

import (
	"math"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/shale-db/shale/sql/sqlerr"
)

// JSONPath parsing and evaluation over JSON text, for the JSON functions
// (funcs_json.go). Both follow GoogleSQL's STRING semantics:
//   - the path is `$` followed by `.name`, `[index]` and a quoted name:
//     `."a.b"` in standard mode (JSON_QUERY, JSON_VALUE, ...) or `['a.b']`
//     in legacy mode (JSON_EXTRACT, ...); legacy mode also reads `[name]`
//     and allows a trailing `.`;
//   - the text is scanned from its start and scanning stops at the first
//     match, so text after the match is never validated;
//   - the scanner is as lenient as GoogleSQL's: single-quoted strings,
//     trailing commas, an empty array element or member value is null,
//     and \x, \v and octal escapes.

// jsonStep is one path step after `$`: a member name and, when the name
// reads as an index the way GoogleSQL reads it, an array index (else -1).
// A step `[0]` still matches a member named "0", and `.0` element 0.
type jsonStep struct {
	key   string
	index int64
}

// jsonMaxDepth is GoogleSQL's limit on nested arrays and objects.
const jsonMaxDepth = 1000

// jsonPathCacheMax bounds each path cache; past it, paths are parsed per
// call.
const jsonPathCacheMax = 1024

type jsonPathCache struct {
	mu sync.RWMutex
	m  map[string][]jsonStep
}

// jsonPaths caches parsed paths: [0] legacy, [1] standard mode.
var jsonPaths [2]jsonPathCache

// cachedJSONPath returns the parsed path p, from the cache when it is there.
func cachedJSONPath(p []byte, standard bool) ([]jsonStep, error) {
	c := &jsonPaths[0]
	if standard {
		c = &jsonPaths[1]
	}
	c.mu.RLock()
	steps, ok := c.m[string(p)]
	c.mu.RUnlock()
	if ok {
		return steps, nil
	}
	steps, err := parseJSONPath(string(p), standard)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string][]jsonStep{}
	}
	if len(c.m) < jsonPathCacheMax {
		c.m[string(p)] = steps
	}
	c.mu.Unlock()
	return steps, nil
}

// parseJSONPath parses a JSONPath into its steps after `$`.
func parseJSONPath(p string, standard bool) ([]jsonStep, error) {
	if p == "" || p[0] != '$' {
		return nil, sqlerr.New(sqlerr.OutOfRange, "JSONPath must start with '$'")
	}
	steps := []jsonStep{}
	rest := p[1:]
	for rest != "" {
		tok, n := pathSubscript(rest, standard)
		if n == 0 {
			tok, n = pathMember(rest)
		}
		if n == 0 {
			tok, n = pathQuoted(rest, standard)
		}
		if n == 0 {
			if !standard && rest == "." {
				break
			}
			if op := pathUnsupported(rest); op != "" {
				return nil, sqlerr.New(sqlerr.OutOfRange, "Unsupported operator in JSONPath: %s", op)
			}
			return nil, sqlerr.New(sqlerr.OutOfRange, "Invalid token in JSONPath at: %s", rest)
		}
		steps = append(steps, jsonStep{key: tok, index: jsonIndex(tok)})
		rest = rest[n:]
	}
	return steps, nil
}

// pathMember matches `.name`: letters, digits, '_', '-', ':' and spaces.
func pathMember(s string) (string, int) {
	if s[0] != '.' {
		return "", 0
	}
	n := 1 + pathRun(s[1:], true, true)
	if n == 1 {
		return "", 0
	}
	return s[1:n], n
}

// pathSubscript matches `[ token ]`; the token is letters, digits, '_'
// and '-' (legacy) or digits, '_' and '-' (standard).
func pathSubscript(s string, standard bool) (string, int) {
	if s[0] != '[' {
		return "", 0
	}
	i := 1 + pathSpaces(s[1:])
	n := pathRun(s[i:], !standard, false)
	if n == 0 {
		return "", 0
	}
	tok := s[i : i+n]
	i += n
	i += pathSpaces(s[i:])
	if i >= len(s) || s[i] != ']' {
		return "", 0
	}
	return tok, i + 1
}

// pathQuoted matches `."name"` (standard) or `[ 'name' ]` (legacy). A
// backslash takes the next character with it; one before the quote
// character is dropped.
func pathQuoted(s string, standard bool) (string, int) {
	q, i := byte('\''), 0
	switch {
	case standard && len(s) > 1 && s[0] == '.' && s[1] == '"':
		q, i = '"', 2
	case !standard && s[0] == '[':
		i = 1 + pathSpaces(s[1:])
		if i >= len(s) || s[i] != '\'' {
			return "", 0
		}
		i++
	default:
		return "", 0
	}
	start, end := i, -1
	for i < len(s) {
		if s[i] == '\\' && i+1 < len(s) {
			i += 2
			continue
		}
		if s[i] == q {
			end = i
			break
		}
		if s[i] == '\\' {
			return "", 0
		}
		i++
	}
	if end < 0 {
		return "", 0
	}
	i++
	if !standard {
		i += pathSpaces(s[i:])
		if i >= len(s) || s[i] != ']' {
			return "", 0
		}
		i++
	}
	raw := s[start:end]
	tok := make([]byte, 0, len(raw))
	for j := 0; j < len(raw); j++ {
		if raw[j] == '\\' && j+1 < len(raw) && raw[j+1] == q {
			continue
		}
		tok = append(tok, raw[j])
	}
	return string(tok), i
}

// pathRun returns the length of the longest prefix of s made of digits,
// '_' and '-', plus letters when letters is set and ':' and spaces when
// member is set.
func pathRun(s string, letters, member bool) int {
	n := 0
	for n < len(s) {
		r, size := utf8.DecodeRuneInString(s[n:])
		ok := unicode.IsNumber(r) || r == '_' || r == '-' ||
			letters && unicode.IsLetter(r) ||
			member && (r == ':' || pathSpace(r))
		if !ok {
			break
		}
		n += size
	}
	return n
}

func pathSpaces(s string) int {
	n := 0
	for n < len(s) && pathSpace(rune(s[n])) {
		n++
	}
	return n
}

// pathSpace is RE2's \s.
func pathSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\f' || r == '\r'
}

// pathUnsupported names the first JSONPath operator GoogleSQL does not
// support (`*`, `..`, `@`) in s, or returns "".
func pathUnsupported(s string) string {
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '*':
			return "*"
		case s[i] == '@':
			return "@"
		case s[i] == '.' && i+1 < len(s) && s[i+1] == '.':
			return ".."
		}
	}
	return ""
}

// jsonIndex reads a path token as an array index the way GoogleSQL does
// (C's sscanf "%u"): leading spaces, an optional sign, then digits, the
// value taken modulo 2^32; -1 when the token does not start with a number.
func jsonIndex(tok string) int64 {
	i := 0
	for i < len(tok) && jsonSpace(tok[i]) {
		i++
	}
	neg := false
	if i < len(tok) && (tok[i] == '+' || tok[i] == '-') {
		neg = tok[i] == '-'
		i++
	}
	start := i
	var v uint64
	overflow := false
	for ; i < len(tok) && tok[i] >= '0' && tok[i] <= '9'; i++ {
		d := uint64(tok[i] - '0')
		if v > (math.MaxUint64-d)/10 {
			overflow = true
		}
		v = v*10 + d
	}
	if i == start {
		return -1
	}
	switch {
	case overflow:
		v = math.MaxUint64
	case neg:
		v = -v
	}
	return int64(uint32(v))
}

// jsonScanner walks JSON text. Its methods return false on a syntax error
// (the functions then return NULL); err is set when nesting is too deep,
// which is an error.
type jsonScanner struct {
	s     []byte
	i     int
	depth int
	err   error
	buf   []byte // scratch for decoding strings with escapes
}

// jsonSpace is C's isspace.
func jsonSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func (sc *jsonScanner) ws() {
	for sc.i < len(sc.s) && jsonSpace(sc.s[sc.i]) {
		sc.i++
	}
}

// peek skips spaces and returns the next byte, 0 at the end.
func (sc *jsonScanner) peek() byte {
	sc.ws()
	if sc.i >= len(sc.s) {
		return 0
	}
	return sc.s[sc.i]
}

// enter steps into an array or object.
func (sc *jsonScanner) enter() bool {
	sc.depth++
	if sc.depth > jsonMaxDepth {
		sc.err = sqlerr.New(sqlerr.OutOfRange,
			"JSON parsing failed due to deeply nested array/struct. Maximum nesting depth is %d", jsonMaxDepth)
		return false
	}
	sc.i++
	return true
}

// seek moves to the value at path, reporting whether it was found; when it
// is, the scanner is left at its start. Otherwise the current value has
// been scanned whole.
func (sc *jsonScanner) seek(path []jsonStep) (found, ok bool) {
	c := sc.peek()
	if len(path) == 0 {
		return true, true
	}
	switch c {
	case '{':
		return sc.seekMember(path)
	case '[':
		return sc.seekElem(path)
	}
	_, ok = sc.value(nil, false)
	return false, ok
}

func (sc *jsonScanner) seekMember(path []jsonStep) (found, ok bool) {
	if !sc.enter() {
		return false, false
	}
	if sc.peek() == '}' {
		sc.i++
		sc.depth--
		return false, true
	}
	for more := true; more; {
		if c := sc.peek(); c != '"' && c != '\'' {
			return false, false
		}
		key, ok := sc.str()
		if !ok {
			return false, false
		}
		match := string(key) == path[0].key
		if sc.peek() != ':' {
			return false, false
		}
		sc.i++
		if match {
			if found, ok := sc.seek(path[1:]); found || !ok {
				return found, ok
			}
		} else if _, ok := sc.value(nil, false); !ok {
			return false, false
		}
		if more, ok = sc.sep('}'); !ok {
			return false, false
		}
	}
	sc.depth--
	return false, true
}

func (sc *jsonScanner) seekElem(path []jsonStep) (found, ok bool) {
	if !sc.enter() {
		return false, false
	}
	if sc.peek() == ']' {
		sc.i++
		sc.depth--
		return false, true
	}
	for n, more := int64(0), true; more; n++ {
		if n == path[0].index {
			if found, ok := sc.seek(path[1:]); found || !ok {
				return found, ok
			}
		} else if _, ok := sc.value(nil, false); !ok {
			return false, false
		}
		if more, ok = sc.sep(']'); !ok {
			return false, false
		}
	}
	sc.depth--
	return false, true
}

// sep reads what follows a member or element: ',' (more follow), the
// closing bracket, or ',' before it.
func (sc *jsonScanner) sep(close byte) (more, ok bool) {
	switch sc.peek() {
	case close:
		sc.i++
		return false, true
	case ',':
		sc.i++
		if sc.peek() == close {
			sc.i++
			return false, true
		}
		return true, true
	}
	return false, false
}

// value scans one value, appending its normalized text (compact, strings
// re-escaped, numbers as written) to dst when emit is set.
func (sc *jsonScanner) value(dst []byte, emit bool) ([]byte, bool) {
	switch c := sc.peek(); c {
	case '{', '[':
		return sc.container(dst, emit)
	case '"', '\'':
		s, ok := sc.str()
		if ok && emit {
			dst = appendJSONString(dst, s)
		}
		return dst, ok
	}
	v, kind := sc.scalar()
	switch {
	case kind == jsonBad:
		return dst, false
	case !emit:
	case kind == jsonNull:
		dst = append(dst, "null"...)
	default:
		dst = append(dst, v...)
	}
	return dst, true
}

// container scans an array or object.
func (sc *jsonScanner) container(dst []byte, emit bool) ([]byte, bool) {
	open := sc.s[sc.i]
	close := byte(']')
	if open == '{' {
		close = '}'
	}
	if !sc.enter() {
		return dst, false
	}
	if emit {
		dst = append(dst, open)
	}
	more := sc.peek() != close
	if !more {
		sc.i++
	}
	for first := true; more; first = false {
		if emit && !first {
			dst = append(dst, ',')
		}
		if open == '{' {
			if c := sc.peek(); c != '"' && c != '\'' {
				return dst, false
			}
			key, ok := sc.str()
			if !ok || sc.peek() != ':' {
				return dst, false
			}
			sc.i++
			if emit {
				dst = append(appendJSONString(dst, key), ':')
			}
		}
		var ok bool
		if dst, ok = sc.value(dst, emit); !ok {
			return dst, false
		}
		if more, ok = sc.sep(close); !ok {
			return dst, false
		}
	}
	sc.depth--
	if emit {
		dst = append(dst, close)
	}
	return dst, true
}

// Kinds of scalar returns.
const (
	jsonBad    = 0
	jsonNull   = 'z'
	jsonBool   = 'b'
	jsonNumber = 'n'
)

// scalar scans a number, true, false or null and returns its text (nil
// for null); an empty value (',' or ']' where a value belongs) is null and
// is not consumed. It does not read strings, arrays or objects.
func (sc *jsonScanner) scalar() ([]byte, byte) {
	c := sc.peek()
	switch {
	case c == ',' || c == ']':
		return nil, jsonNull
	case c == '-' || c >= '0' && c <= '9':
		start := sc.i
		if !sc.number() {
			return nil, jsonBad
		}
		return sc.s[start:sc.i], jsonNumber
	}
	for _, lit := range [...]string{"true", "false", "null"} {
		if len(sc.s)-sc.i >= len(lit) && string(sc.s[sc.i:sc.i+len(lit)]) == lit {
			sc.i += len(lit)
			if lit == "null" {
				return nil, jsonNull
			}
			return sc.s[sc.i-len(lit) : sc.i], jsonBool
		}
	}
	return nil, jsonBad
}

// number scans -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?.
func (sc *jsonScanner) number() bool {
	s, i := sc.s, sc.i
	digits := func() bool {
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i > start
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case !digits():
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if !digits() {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if !digits() {
			return false
		}
	}
	sc.i = i
	return true
}

// str scans a string and returns its decoded text: a view of the input
// when it has no escapes, else the scratch buffer (valid until the next
// call).
func (sc *jsonScanner) str() ([]byte, bool) {
	q := sc.s[sc.i]
	for j := sc.i + 1; j < len(sc.s); j++ {
		switch sc.s[j] {
		case q:
			v := sc.s[sc.i+1 : j]
			sc.i = j + 1
			return v, true
		case '\\':
			v, ok := sc.decode(sc.buf[:0])
			sc.buf = v
			return v, ok
		}
	}
	return nil, false
}

// decode scans a string quoted with " or ' and appends its decoded text to
// dst. Escapes: \uXXXX (surrogate pairs combined, a lone surrogate becomes
// U+FFFD), \xXX and up to three octal digits (code points), \b \f \n \r \t
// \v, and a backslash before any other character stands for that
// character.
func (sc *jsonScanner) decode(dst []byte) ([]byte, bool) {
	s := sc.s
	q := s[sc.i]
	i := sc.i + 1
	for i < len(s) {
		c := s[i]
		if c == q {
			sc.i = i + 1
			return dst, true
		}
		if c != '\\' {
			start := i
			for i < len(s) && s[i] != q && s[i] != '\\' {
				i++
			}
			dst = append(dst, s[start:i]...)
			continue
		}
		if i+1 >= len(s) {
			return dst, false
		}
		switch e := s[i+1]; {
		case e == 'u':
			r, ok := hexRune(s, i+2, 4)
			if !ok {
				return dst, false
			}
			i += 6
			if utf16IsHigh(r) {
				if lo, ok := hexRune(s, i+2, 4); ok && s[i] == '\\' && s[i+1] == 'u' && utf16IsLow(lo) {
					r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
					i += 6
				}
			}
			dst = utf8.AppendRune(dst, r)
		case e == 'x':
			r, ok := hexRune(s, i+2, 2)
			if !ok {
				return dst, false
			}
			i += 4
			dst = utf8.AppendRune(dst, r)
		case e >= '0' && e <= '7':
			r, n := rune(0), 0
			for n < 3 && i+1+n < len(s) && s[i+1+n] >= '0' && s[i+1+n] <= '7' {
				r = r<<3 + rune(s[i+1+n]-'0')
				n++
			}
			i += 1 + n
			dst = utf8.AppendRune(dst, r)
		default:
			if b := jsonUnescape(e); b != 0 {
				dst = append(dst, b)
				i += 2
				continue
			}
			_, size := utf8.DecodeRune(s[i+1:])
			dst = append(dst, s[i+1:i+1+size]...)
			i += 1 + size
		}
	}
	return dst, false
}

// jsonUnescape maps the letter of a one-letter control escape (\n) to its
// byte, or returns 0.
func jsonUnescape(e byte) byte {
	switch e {
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	case 'v':
		return '\v'
	}
	return 0
}

func utf16IsHigh(r rune) bool { return r >= 0xD800 && r < 0xDC00 }
func utf16IsLow(r rune) bool  { return r >= 0xDC00 && r < 0xE000 }

// hexRune reads n hex digits at s[i:].
func hexRune(s []byte, i, n int) (rune, bool) {
	if i+n > len(s) {
		return 0, false
	}
	var r rune
	for _, c := range s[i : i+n] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// appendJSONString appends s as a JSON string the way GoogleSQL prints
// one: control characters, '"' and '\' escaped, and U+2028 and U+2029 as
// \u escapes.
func appendJSONString(dst, s []byte) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c < 0x20:
			switch c {
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
		case c == 0xE2 && i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9):
			dst = append(dst, `\u202`...)
			dst = append(dst, '8'+s[i+2]-0xA8)
			i += 2
		default:
			dst = append(dst, c)
		}
	}
	return append(dst, '"')
}
