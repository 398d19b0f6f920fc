package rowkeyschema

import (
	"errors"
	"fmt"
	"strings"

	"github.com/shale-db/shale/sql/types"
)

// Errors. Every error of the package wraps one of them.
var (
	// ErrInvalidSchema marks a schema that breaks an invariant of spec §5.1.
	ErrInvalidSchema = errors.New("rowkeyschema: invalid schema")
	// ErrInvalidKey marks a row key that does not decode under the schema
	// (spec §5.5).
	ErrInvalidKey = errors.New("rowkeyschema: invalid key")
	// ErrUnencodable marks values that have no encoding under the schema:
	// NULL, a value of another type, or bytes a delimited encoding cannot
	// carry (the delimiter).
	ErrUnencodable = errors.New("rowkeyschema: value cannot be encoded")
)

// StructEncoding is how the encoded fields concatenate into a row key
// (spec §5.2).
type StructEncoding uint8

const (
	// NoStructEncoding is a missing encoding; Validate rejects it.
	NoStructEncoding StructEncoding = iota
	// Singleton: the key is the encoding of the only field.
	Singleton
	// DelimitedBytes: enc(f1) d enc(f2) d … enc(fn).
	DelimitedBytes
	// OrderedCodeBytes: fields joined by 00 01, with 00 → 00 FF and
	// FF → FF 00 inside a field and the empty-field rules.
	OrderedCodeBytes
)

// Encoding is how one field's value becomes bytes.
type Encoding uint8

const (
	// NoEncoding is a missing encoding; Validate rejects it.
	NoEncoding Encoding = iota
	// Raw: BYTES as-is.
	Raw
	// UTF8Bytes: STRING as its UTF-8 bytes (utf8_raw is an alias).
	UTF8Bytes
	// BigEndianBytes: INT64 as 8-byte two's complement; for TIMESTAMP, the
	// microseconds since the epoch encoded so (unix_micros_int64).
	BigEndianBytes
	// OrderedCodeInt: INT64 as the OrderedCode signed varint (spec §5.3);
	// for TIMESTAMP, the microseconds encoded so.
	OrderedCodeInt
)

// MaxDelimiterLen bounds a DelimitedBytes delimiter (spec §5.1).
const MaxDelimiterLen = 50

// Field is one field of a structured row key.
type Field struct {
	Name string
	// Type is BYTES, STRING, INT64 or TIMESTAMP; other types are
	// representable so that Validate can reject them.
	Type     *types.Type
	Encoding Encoding
}

// Schema is a row-key schema: the Type.Struct of Table.row_key_schema.
// A *Schema is immutable once validated; its methods are safe for
// concurrent use.
type Schema struct {
	Fields   []Field
	Encoding StructEncoding
	// Delimiter separates fields under DelimitedBytes.
	Delimiter []byte
}

// Validate checks the invariants of spec §5.1 that need no table: at least
// one field; non-empty, unique names that are not `_key` or `_timestamp`
// (in any case); scalar key types with an encoding of their type; a struct
// encoding; a 1–50 byte delimiter for DelimitedBytes; exactly one field
// for Singleton. CheckFamilies adds the family-name rule.
func (s *Schema) Validate() error {
	if len(s.Fields) == 0 {
		return invalid("at least one field is required")
	}
	seen := make(map[string]bool, len(s.Fields))
	for i, f := range s.Fields {
		switch {
		case f.Name == "":
			return invalid("field #%d has no name", i)
		case seen[f.Name]:
			return invalid("field name %q is used twice", f.Name)
		case strings.EqualFold(f.Name, "_key") || strings.EqualFold(f.Name, "_timestamp"):
			return invalid("field name %q is reserved", f.Name)
		}
		seen[f.Name] = true
		if err := f.validate(); err != nil {
			return err
		}
	}
	switch s.Encoding {
	case Singleton:
		if len(s.Fields) != 1 {
			return invalid("singleton encoding needs exactly one field, got %d", len(s.Fields))
		}
	case DelimitedBytes:
		if n := len(s.Delimiter); n < 1 || n > MaxDelimiterLen {
			return invalid("delimited_bytes delimiter must be 1 to %d bytes, got %d", MaxDelimiterLen, n)
		}
	case OrderedCodeBytes:
	default:
		return invalid("a struct encoding is required")
	}
	return nil
}

func (f Field) validate() error {
	if f.Type == nil {
		return invalid("field %q has no type", f.Name)
	}
	var ok bool
	switch f.Type.Kind {
	case types.KindBytes:
		ok = f.Encoding == Raw
	case types.KindString:
		ok = f.Encoding == UTF8Bytes
	case types.KindInt64, types.KindTimestamp:
		ok = f.Encoding == BigEndianBytes || f.Encoding == OrderedCodeInt
	default:
		return invalid("field %q: type %s cannot be part of a row key", f.Name, f.Type)
	}
	if !ok {
		if f.Encoding == NoEncoding {
			return invalid("field %q: type %s needs an encoding", f.Name, f.Type)
		}
		return invalid("field %q: encoding %s does not apply to %s", f.Name, f.Encoding, f.Type)
	}
	return nil
}

// CheckFamilies rejects a field named like a column family (spec §5.1
// invariant 4); family names are case-sensitive, so the match is exact.
func (s *Schema) CheckFamilies(families []string) error {
	for _, f := range s.Fields {
		for _, fam := range families {
			if f.Name == fam {
				return invalid("field name %q is also a column family", f.Name)
			}
		}
	}
	return nil
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalidSchema}, args...)...)
}

// Index returns the position of the field called name, or -1.
func (s *Schema) Index(name string) int {
	for i, f := range s.Fields {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// OrderPreserving reports whether, among keys whose fields before i are
// equal, byte order of the keys is the order of field i's values, for
// every value of the field: ORDER BY the leading fields can then be served
// by scan order. BYTES and STRING fields preserve order under Singleton
// and OrderedCodeBytes, and under DelimitedBytes only as the last field (a
// value may hold bytes below the delimiter: "a b#x" sorts before "a#y");
// OrderedCode integers always do; big-endian integers never (negative
// values sort after positive ones).
func (s *Schema) OrderPreserving(i int) bool {
	switch f := s.Fields[i]; f.Encoding {
	case OrderedCodeInt:
		return true
	case Raw, UTF8Bytes:
		return s.Encoding != DelimitedBytes || i == len(s.Fields)-1
	}
	return false
}

// String names the encoding as the proto does.
func (e Encoding) String() string {
	switch e {
	case Raw:
		return "raw"
	case UTF8Bytes:
		return "utf8_bytes"
	case BigEndianBytes:
		return "big_endian_bytes"
	case OrderedCodeInt:
		return "ordered_code_bytes"
	}
	return "none"
}

// String names the struct encoding as the proto does.
func (e StructEncoding) String() string {
	switch e {
	case Singleton:
		return "singleton"
	case DelimitedBytes:
		return "delimited_bytes"
	case OrderedCodeBytes:
		return "ordered_code_bytes"
	}
	return "none"
}
