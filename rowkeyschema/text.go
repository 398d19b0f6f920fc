package rowkeyschema

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/shale-db/shale/sql/types"
)

// The text form of a schema, which String writes, Parse reads, tests use
// and storage keeps (the bytes of storage.Table.RowKeySchema):
//
//	delimited_bytes("#") (user_id BYTES raw, n INT64 big_endian_bytes)
//	ordered_code_bytes (tenant STRING utf8_bytes, ts TIMESTAMP unix_micros_int64(ordered_code_bytes))
//	singleton (id INT64 ordered_code_bytes)
//
// A struct or field encoding may be `none` (missing). Field names that
// are not identifiers are Go-quoted, as is the delimiter.

// String renders the schema in its text form.
func (s *Schema) String() string {
	var b strings.Builder
	b.WriteString(s.Encoding.String())
	if s.Encoding == DelimitedBytes {
		b.WriteString("(" + strconv.Quote(string(s.Delimiter)) + ")")
	}
	b.WriteString(" (")
	for i, f := range s.Fields {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quoteName(f.Name) + " " + f.Type.String() + " ")
		if f.Type != nil && f.Type.Kind == types.KindTimestamp && f.Encoding != NoEncoding {
			b.WriteString("unix_micros_int64(" + f.Encoding.String() + ")")
		} else {
			b.WriteString(f.Encoding.String())
		}
	}
	b.WriteString(")")
	return b.String()
}

// MarshalText returns the text form.
func (s *Schema) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

func quoteName(n string) string {
	if isIdent(n) {
		return n
	}
	return strconv.Quote(n)
}

func isIdent(n string) bool {
	if n == "" || (n[0] >= '0' && n[0] <= '9') {
		return false
	}
	for _, c := range []byte(n) {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

var scalarTypes = map[string]*types.Type{"BOOL": types.Bool, "INT64": types.Int64, "FLOAT32": types.Float32,
	"FLOAT64": types.Float64, "STRING": types.String, "BYTES": types.Bytes, "DATE": types.Date,
	"TIMESTAMP": types.Timestamp}

var fieldEncodings = map[string]Encoding{"none": NoEncoding, "raw": Raw, "utf8_bytes": UTF8Bytes,
	"utf8_raw": UTF8Bytes, "big_endian_bytes": BigEndianBytes, "ordered_code_bytes": OrderedCodeInt}

// Parse reads a schema's text form. It does not validate (see Validate).
func Parse(text string) (*Schema, error) {
	p := &textParser{s: text}
	s, err := p.schema()
	if err != nil {
		return nil, fmt.Errorf("%w: parse %q: %v", ErrInvalidSchema, text, err)
	}
	return s, nil
}

type textParser struct {
	s   string
	pos int
}

func (p *textParser) schema() (*Schema, error) {
	s := &Schema{}
	enc := p.word()
	switch enc {
	case "none":
	case "singleton":
		s.Encoding = Singleton
	case "ordered_code_bytes":
		s.Encoding = OrderedCodeBytes
	case "delimited_bytes":
		s.Encoding = DelimitedBytes
		if err := p.expect("("); err != nil {
			return nil, err
		}
		d, err := p.quoted()
		if err != nil {
			return nil, err
		}
		s.Delimiter = []byte(d)
		if err := p.expect(")"); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("unknown struct encoding %q", enc)
	}
	if err := p.expect("("); err != nil {
		return nil, err
	}
	for !p.peek(")") {
		if len(s.Fields) > 0 {
			if err := p.expect(","); err != nil {
				return nil, err
			}
		}
		f, err := p.field()
		if err != nil {
			return nil, err
		}
		s.Fields = append(s.Fields, f)
	}
	if err := p.expect(")"); err != nil {
		return nil, err
	}
	if p.skip(); p.pos != len(p.s) {
		return nil, fmt.Errorf("unexpected %q", p.s[p.pos:])
	}
	return s, nil
}

func (p *textParser) field() (Field, error) {
	var f Field
	if p.skip(); p.pos < len(p.s) && p.s[p.pos] == '"' {
		n, err := p.quoted()
		if err != nil {
			return f, err
		}
		f.Name = n
	} else {
		f.Name = p.word()
	}
	tn := p.word()
	if f.Type = scalarTypes[tn]; f.Type == nil {
		return f, fmt.Errorf("field %s: unknown type %q", f.Name, tn)
	}
	en := p.word()
	if en == "unix_micros_int64" && f.Type.Kind == types.KindTimestamp {
		if err := p.expect("("); err != nil {
			return f, err
		}
		en = p.word()
		if en == "none" {
			return f, fmt.Errorf("field %s: unix_micros_int64 needs an int64 encoding", f.Name)
		}
		if err := p.expect(")"); err != nil {
			return f, err
		}
	}
	e, ok := fieldEncodings[en]
	if !ok {
		return f, fmt.Errorf("field %s: unknown encoding %q", f.Name, en)
	}
	f.Encoding = e
	return f, nil
}

func (p *textParser) skip() {
	for p.pos < len(p.s) && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t' || p.s[p.pos] == '\n') {
		p.pos++
	}
}

func (p *textParser) word() string {
	p.skip()
	start := p.pos
	for p.pos < len(p.s) && isIdent(p.s[p.pos:p.pos+1]) || p.pos > start && p.pos < len(p.s) && p.s[p.pos] >= '0' && p.s[p.pos] <= '9' {
		p.pos++
	}
	return p.s[start:p.pos]
}

func (p *textParser) peek(tok string) bool {
	p.skip()
	return strings.HasPrefix(p.s[p.pos:], tok)
}

func (p *textParser) expect(tok string) error {
	if !p.peek(tok) {
		if p.pos == len(p.s) {
			return fmt.Errorf("expected %q at the end", tok)
		}
		return fmt.Errorf("expected %q at %q", tok, p.s[p.pos:])
	}
	p.pos += len(tok)
	return nil
}

func (p *textParser) quoted() (string, error) {
	p.skip()
	q, err := strconv.QuotedPrefix(p.s[p.pos:])
	if err != nil {
		return "", fmt.Errorf("bad quoted string at %q", p.s[p.pos:])
	}
	p.pos += len(q)
	return strconv.Unquote(q)
}
