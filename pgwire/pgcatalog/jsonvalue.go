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
			err = p.fail()
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

func (p *jsonParser) fail() error {
	tok := p.s[p.i:]
	if n := strings.IndexAny(tok, " \t\r\n,:]}"); n > 0 {
		tok = tok[:n]
	}
	e := errorf(CodeInvalidText, noPos, "invalid input syntax for type json")
	e.Detail = "The input string ended unexpectedly."
	if tok != "" {
		e.Detail = fmt.Sprintf("Token \"%s\" is invalid.", tok)
	}
	// CONTEXT shows the line up to the bad token's end, as PostgreSQL's
	// json_errdetail context does, with ... when text follows it.
	end := p.i + len(tok)
	start := strings.LastIndexByte(p.s[:p.i], '\n') + 1
	e.Context = fmt.Sprintf("JSON data, line %d: %s", strings.Count(p.s[:start], "\n")+1, p.s[start:end])
	if end < len(p.s) {
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
		return nil, p.fail()
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
			if strings.HasPrefix(p.s[p.i:], lit.word) {
				p.i += len(lit.word)
				n = &lit.node
				break
			}
		}
		if n == nil {
			return nil, p.fail()
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
			return nil, p.fail()
		}
		k, err := p.string()
		if err != nil {
			return nil, err
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, p.fail()
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
		return nil, p.fail()
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
		return nil, p.fail()
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
	p.i++ // "
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), nil
		case c < 0x20:
			return "", p.fail()
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
				return "", p.fail()
			}
			if utf16.IsSurrogate(r) {
				if !strings.HasPrefix(p.s[p.i:], `\u`) {
					return "", errorf(CodeInvalidText, noPos, "invalid input syntax for type json: Unicode low surrogate must follow a high surrogate.")
				}
				p.i += 2
				lo, ok := p.hex4()
				if !ok {
					return "", p.fail()
				}
				r = utf16.DecodeRune(r, lo)
			}
			if r == 0 {
				return "", errorf("22P05", noPos, "unsupported Unicode escape sequence: \\u0000 cannot be converted to text.")
			}
			if r == utf8.RuneError {
				return "", errorf(CodeInvalidText, noPos, "invalid input syntax for type json: Unicode escape values cannot be used for code point values above 007F when the encoding is not UTF8.")
			}
			b.WriteRune(r)
		default:
			p.i -= 2
			return "", p.fail()
		}
	}
	return "", p.fail()
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
