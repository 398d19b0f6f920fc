package pgcatalog

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// JSON values for the json and jsonb operators and functions (jsonops.go):
// a family column is jsonb, so `cf->>'q'` and jsonb_each(cf) are how
// PostgreSQL-dialect queries reach a column's value. A json value keeps its
// text as written (json operators return it so, as PostgreSQL's do); jsonb
// prints normalized, as jsonb stores it: object keys sorted by length and
// then bytes, the last of duplicate keys kept, ", " and ": " between items.

type jsonKind uint8

const (
	jsonNull jsonKind = iota
	jsonBool
	jsonNumber
	jsonString
	jsonArray
	jsonObject
)

// jsonNode is a parsed JSON value.
type jsonNode struct {
	kind  jsonKind
	raw   string // the value's text as written
	b     bool
	str   string      // a string's decoded text, a number's text
	elems []*jsonNode // an array's elements
	keys  []string    // an object's keys, in written order (jsonb: normalized)
	vals  []*jsonNode
}

// parseJSON parses JSON text; jsonb normalizes objects (see above).
func parseJSON(text string, jsonb bool) (*jsonNode, error) {
	p := jsonParser{s: text, jsonb: jsonb}
	n, err := p.value(0)
	if err == nil {
		p.space()
		if p.i < len(p.s) {
			err = p.expected("end of input")
		}
	}
	if err != nil {
		return nil, err
	}
	return n, nil
}

// controlEscapes are the one-letter escapes of control characters JSON
// strings share with jsonpath's: \b \f \n \r \t.
var controlEscapes = [256]byte{'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// maxJSONDepth bounds nesting, as PostgreSQL's stack depth check does.
const maxJSONDepth = 1000

type jsonParser struct {
	s     string
	i     int
	jsonb bool
}

// jsonDelimiters end a run of other characters, one token for the lexer.
const jsonDelimiters = " \t\r\n,:[]{}\""

// tokenEnds reports whether a token ending at i ends there, at the end of
// the text or a delimiter, rather than running on.
func (p *jsonParser) tokenEnds(i int) bool {
	return i >= len(p.s) || strings.IndexByte(jsonDelimiters, p.s[i]) >= 0
}

// token is the lexer's token at p.i and whether it is a well-formed one:
// punctuation, a string, a number or a literal; "" at the end.
func (p *jsonParser) token() (string, bool) {
	rest := p.s[p.i:]
	switch {
	case rest == "":
		return "", false
	case strings.IndexByte("{}[],:", rest[0]) >= 0:
		return rest[:1], true
	case rest[0] == '"':
		for i := 1; i < len(rest); i++ {
			switch rest[i] {
			case '\\':
				i++
			case '"':
				return rest[:i+1], true
			}
		}
		return rest, false
	}
	n := strings.IndexAny(rest, jsonDelimiters)
	if n < 0 {
		n = len(rest)
	}
	if n == 0 {
		n = 1
	}
	tok := rest[:n]
	return tok, isJSONNumber(tok) || tok == "true" || tok == "false" || tok == "null"
}

// isJSONNumber reports whether s is one JSON number: -?(0|[1-9]d*)(.d+)?([eE][+-]?d+)?
func isJSONNumber(s string) bool {
	i := 0
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i, n = i+1, n+1
		}
		return n
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	if i < len(s) && s[i] == '0' {
		i++
	} else if digits() == 0 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// expected is the syntax error for a token other than what the grammar
// wants at p.i: "Expected what, but found ..." for a well-formed token,
// the lexer's complaint for one that is not.
func (p *jsonParser) expected(what string) error {
	p.space()
	if tok, ok := p.token(); ok {
		return p.failDetail(tok, fmt.Sprintf("Expected %s, but found \"%s\".", what, tok))
	}
	return p.fail()
}

func (p *jsonParser) fail() error {
	tok, _ := p.token()
	detail := "The input string ended unexpectedly."
	if tok != "" {
		detail = fmt.Sprintf("Token \"%s\" is invalid.", tok)
	}
	return p.failDetail(tok, detail)
}

// failDetail is the syntax error at token tok (at p.i).
func (p *jsonParser) failDetail(tok, detail string) *Error {
	e := errorf(CodeInvalidText, noPos, "invalid input syntax for type json")
	e.Detail = detail
	// CONTEXT shows the line up to the bad token's end, as PostgreSQL's
	// json_errdetail context does, with ... when text follows it.
	end := p.i + len(tok)
	start := strings.LastIndexByte(p.s[:p.i], '\n') + 1
	e.Context = fmt.Sprintf("JSON data, line %d: %s", strings.Count(p.s[:start], "\n")+1, p.s[start:end])
	if end < len(p.s) && p.s[end] != '\n' && p.s[end] != '\r' {
		e.Context += "..."
	}
	return e
}

func (p *jsonParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n' || p.s[p.i] == '\r') {
		p.i++
	}
}

func (p *jsonParser) value(depth int) (*jsonNode, error) {
	if depth > maxJSONDepth {
		return nil, errorf("54001", noPos, "stack depth limit exceeded")
	}
	p.space()
	if p.i >= len(p.s) {
		return nil, p.expected("JSON value")
	}
	start := p.i
	var n *jsonNode
	var err error
	switch c := p.s[p.i]; {
	case c == '{':
		n, err = p.object(depth)
	case c == '[':
		n, err = p.array(depth)
	case c == '"':
		var s string
		if s, err = p.string(); err == nil {
			n = &jsonNode{kind: jsonString, str: s}
		}
	case c == '-' || c >= '0' && c <= '9':
		n, err = p.number()
	default:
		for _, lit := range []struct {
			word string
			node jsonNode
		}{{"true", jsonNode{kind: jsonBool, b: true}}, {"false", jsonNode{kind: jsonBool}}, {"null", jsonNode{kind: jsonNull}}} {
			if strings.HasPrefix(p.s[p.i:], lit.word) && p.tokenEnds(p.i+len(lit.word)) {
				p.i += len(lit.word)
				n = &lit.node
				break
			}
		}
		if n == nil {
			return nil, p.expected("JSON value")
		}
	}
	if err != nil {
		return nil, err
	}
	n.raw = p.s[start:p.i]
	return n, nil
}

func (p *jsonParser) object(depth int) (*jsonNode, error) {
	n := &jsonNode{kind: jsonObject}
	p.i++ // {
	p.space()
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return n, nil
	}
	for {
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return nil, p.expected(map[bool]string{true: `string or "}"`, false: "string"}[len(n.keys) == 0])
		}
		k, err := p.string()
		if err != nil {
			return nil, err
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, p.expected(`":"`)
		}
		p.i++
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		n.keys, n.vals = append(n.keys, k), append(n.vals, v)
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == '}' {
			p.i++
			break
		}
		return nil, p.expected(`"," or "}"`)
	}
	if p.jsonb {
		n.normalize()
	}
	return n, nil
}

// normalize orders an object's keys as jsonb does, keeping the last of
// duplicates.
func (n *jsonNode) normalize() {
	last := make(map[string]int, len(n.keys))
	for i, k := range n.keys {
		last[k] = i
	}
	keys := make([]string, 0, len(last))
	for k := range last {
		keys = append(keys, k)
	}
	sortJSONBKeys(keys)
	vals := make([]*jsonNode, len(keys))
	for i, k := range keys {
		vals[i] = n.vals[last[k]]
	}
	n.keys, n.vals = keys, vals
}

func sortJSONBKeys(keys []string) {
	slices.SortFunc(keys, func(a, b string) int {
		if len(a) != len(b) {
			return cmp.Compare(len(a), len(b))
		}
		return strings.Compare(a, b)
	})
}

func (p *jsonParser) array(depth int) (*jsonNode, error) {
	n := &jsonNode{kind: jsonArray}
	p.i++ // [
	p.space()
	if p.i < len(p.s) && p.s[p.i] == ']' {
		p.i++
		return n, nil
	}
	for {
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		n.elems = append(n.elems, v)
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == ']' {
			p.i++
			return n, nil
		}
		return nil, p.expected(`"," or "]"`)
	}
}

func (p *jsonParser) number() (*jsonNode, error) {
	start := p.i
	digits := func() int {
		n := 0
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	if p.s[p.i] == '-' {
		p.i++
	}
	if p.i < len(p.s) && p.s[p.i] == '0' {
		p.i++
	} else if digits() == 0 {
		p.i = start
		return nil, p.fail()
	}
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if digits() == 0 {
			p.i = start
			return nil, p.fail()
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			p.i = start
			return nil, p.fail()
		}
	}
	if !p.tokenEnds(p.i) { // 01, 1x: one invalid token
		p.i = start
		return nil, p.fail()
	}
	text := p.s[start:p.i]
	if p.jsonb && (strings.ContainsAny(text, "eE") || strings.HasPrefix(text, "-0") && strings.Trim(text, "-0.") == "") {
		// jsonb keeps a numeric: 1e2 is 100, -0 is 0, as numeric_out
		// prints them. Other numbers print as written.
		n, err := parseNumeric(text)
		if err != nil {
			return nil, err
		}
		text = n.String()
	}
	return &jsonNode{kind: jsonNumber, str: text}, nil
}

// string reads a string literal at p.i and returns its decoded text. Like
// PostgreSQL's, it refuses \u0000, which text cannot hold.
func (p *jsonParser) string() (string, error) {
	open := p.i
	p.i++ // "
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), nil
		case c < 0x20:
			return "", p.failDetail("", fmt.Sprintf("Character with value 0x%02x must be escaped.", c))
		case c != '\\':
			b.WriteByte(c)
			p.i++
			continue
		}
		if p.i+1 >= len(p.s) {
			return "", p.fail()
		}
		esc := p.s[p.i+1]
		p.i += 2
		switch {
		case esc == '"' || esc == '\\' || esc == '/':
			b.WriteByte(esc)
		case controlEscapes[esc] != 0:
			b.WriteByte(controlEscapes[esc])
		case esc == 'u':
			r, ok := p.hex4()
			if !ok {
				return "", p.badUnicodeEscape()
			}
			const loneLow = "Unicode low surrogate must follow a high surrogate."
			switch {
			case r >= 0xdc00 && r <= 0xdfff:
				return "", p.failDetail("", loneLow)
			case r >= 0xd800 && r < 0xdc00 && !strings.HasPrefix(p.s[p.i:], `\u`):
				if p.i < len(p.s) { // the error is reported at the next character
					_, size := utf8.DecodeRuneInString(p.s[p.i:])
					p.i += size
				}
				return "", p.failDetail("", loneLow)
			case r >= 0xd800 && r < 0xdc00:
				p.i += 2
				lo, ok := p.hex4()
				switch {
				case !ok:
					return "", p.badUnicodeEscape()
				case lo >= 0xd800 && lo < 0xdc00:
					return "", p.failDetail("", "Unicode high surrogate must not follow a high surrogate.")
				case lo < 0xdc00 || lo > 0xdfff:
					return "", p.failDetail("", loneLow)
				}
				r = utf16.DecodeRune(r, lo)
			}
			if r == 0 {
				e := p.failDetail("", `\u0000 cannot be converted to text.`)
				e.Code, e.Message = "22P05", "unsupported Unicode escape sequence"
				return "", e
			}
			if r == utf8.RuneError {
				return "", errorf(CodeInvalidText, noPos, "invalid input syntax for type json: Unicode escape values cannot be used for code point values above 007F when the encoding is not UTF8.")
			}
			b.WriteRune(r)
		default:
			r, size := utf8.DecodeRuneInString(p.s[p.i-1:])
			p.i += size - 1
			return "", p.failDetail("", fmt.Sprintf("Escape sequence \"\\%c\" is invalid.", r))
		}
	}
	p.i = open // unterminated: the whole rest is one invalid token
	return "", p.fail()
}

// badUnicodeEscape is the error for \u without four hex digits after it
// (p.i just after the \u).
func (p *jsonParser) badUnicodeEscape() error {
	for n := 0; n < 4 && p.i < len(p.s); n++ { // the hex digits and the first other character
		c, size := utf8.DecodeRuneInString(p.s[p.i:])
		p.i += size
		if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			break
		}
	}
	return p.failDetail("", `"\u" must be followed by four hexadecimal digits.`)
}

func (p *jsonParser) hex4() (rune, bool) {
	if p.i+4 > len(p.s) {
		return 0, false
	}
	v, err := strconv.ParseUint(p.s[p.i:p.i+4], 16, 32)
	if err != nil {
		return 0, false
	}
	p.i += 4
	return rune(v), true
}

// text is n printed: as written for json, normalized for jsonb.
func (n *jsonNode) text(jsonb bool) string {
	if !jsonb {
		return n.raw
	}
	var b strings.Builder
	n.writeJSONB(&b)
	return b.String()
}

func (n *jsonNode) writeJSONB(b *strings.Builder) { n.write(b, ", ", ": ") }

// write prints n with comma between items and colon after keys: jsonb's
// ", " and ": ", or "," and ":" for the functions that rebuild json.
func (n *jsonNode) write(b *strings.Builder, comma, colon string) {
	switch n.kind {
	case jsonNull:
		b.WriteString("null")
	case jsonBool:
		b.WriteString(strconv.FormatBool(n.b))
	case jsonNumber:
		b.WriteString(n.str)
	case jsonString:
		writeJSONString(b, n.str)
	case jsonArray:
		b.WriteByte('[')
		for i, e := range n.elems {
			if i > 0 {
				b.WriteString(comma)
			}
			e.write(b, comma, colon)
		}
		b.WriteByte(']')
	case jsonObject:
		b.WriteByte('{')
		for i, k := range n.keys {
			if i > 0 {
				b.WriteString(comma)
			}
			writeJSONString(b, k)
			b.WriteString(colon)
			n.vals[i].write(b, comma, colon)
		}
		b.WriteByte('}')
	}
}

// field returns an object's member named key (the last, for json's
// duplicates), or nil.
func (n *jsonNode) field(key string) *jsonNode {
	if n.kind != jsonObject {
		return nil
	}
	for i := len(n.keys) - 1; i >= 0; i-- {
		if n.keys[i] == key {
			return n.vals[i]
		}
	}
	return nil
}

// index returns an array's element i, counting from the end when negative,
// or nil.
func (n *jsonNode) index(i int64) *jsonNode {
	if n.kind != jsonArray {
		return nil
	}
	if i < 0 {
		i += int64(len(n.elems))
	}
	if i < 0 || i >= int64(len(n.elems)) {
		return nil
	}
	return n.elems[i]
}

// typeName is jsonb_typeof's name for n's kind.
func (n *jsonNode) typeName() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[n.kind]
}
