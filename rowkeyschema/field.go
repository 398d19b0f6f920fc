package rowkeyschema

import (
	"encoding/binary"
	"fmt"
	"unicode/utf8"

	"github.com/shale-db/shale/sql/types"
)

// appendField appends the field encoding of v (before any struct-level
// escaping).
func (f *Field) appendField(dst []byte, v types.Value) ([]byte, error) {
	if err := f.check(v); err != nil {
		return dst, err
	}
	switch f.Encoding {
	case Raw, UTF8Bytes:
		return append(dst, v.Bytes()...), nil
	case BigEndianBytes:
		return binary.BigEndian.AppendUint64(dst, uint64(v.Int64())), nil
	case OrderedCodeInt:
		return appendOCInt64(dst, v.Int64()), nil
	}
	return dst, fmt.Errorf("%w: field %s has no encoding", ErrUnencodable, f.Name)
}

// check reports whether v is a non-NULL value of the field's type.
func (f *Field) check(v types.Value) error {
	if v.IsNull() {
		return fmt.Errorf("%w: field %s is NULL", ErrUnencodable, f.Name)
	}
	if v.Kind() != f.Type.Kind {
		return fmt.Errorf("%w: field %s is %s, got %s", ErrUnencodable, f.Name, f.Type, v.Type())
	}
	return nil
}

// selfDelimiting reports the encoded length a field's encoding always has, or
// whether it is self-delimiting (OrderedCode integers): such fields are
// decoded by length, not by searching for a delimiter.
func (f *Field) selfDelimiting() bool {
	return f.Encoding == BigEndianBytes || f.Encoding == OrderedCodeInt
}

// intLen returns the length of the integer encoding at the start of b, or
// false when there is none.
func (f *Field) intLen(b []byte) (int, bool) {
	switch f.Encoding {
	case BigEndianBytes:
		return 8, len(b) >= 8
	case OrderedCodeInt:
		_, n, ok := decodeOCInt64(b)
		return n, ok
	}
	return 0, false
}

// decodeField decodes exactly b as a value of the field. BYTES and STRING
// values alias b.
func (f *Field) decodeField(b []byte) (types.Value, bool) {
	switch f.Encoding {
	case Raw:
		return types.BytesValue(b), true
	case UTF8Bytes:
		if !utf8.Valid(b) {
			return types.Value{}, false
		}
		return types.StringBytesValue(b), true
	case BigEndianBytes, OrderedCodeInt:
		x, ok := f.decodeInt(b)
		return f.intValue(x), ok
	}
	return types.Value{}, false
}

// decodeInt decodes exactly b as the field's integer encoding.
func (f *Field) decodeInt(b []byte) (int64, bool) {
	if f.Encoding == BigEndianBytes {
		if len(b) != 8 {
			return 0, false
		}
		return int64(binary.BigEndian.Uint64(b)), true
	}
	x, n, ok := decodeOCInt64(b)
	return x, ok && n == len(b)
}

func (f *Field) intValue(x int64) types.Value {
	if f.Type.Kind == types.KindTimestamp {
		return types.TimestampValue(x)
	}
	return types.Int64Value(x)
}

// canBeEmpty reports whether some value of the field encodes to "".
func (f *Field) canBeEmpty() bool { return f.Encoding == Raw || f.Encoding == UTF8Bytes }
