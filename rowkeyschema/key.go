package rowkeyschema

import (
	"fmt"

	"github.com/shale-db/shale/sql/types"
)

// AppendKey appends to dst the row key of vals, one non-NULL value per
// field, of the field's type (TIMESTAMP as microseconds). It does not
// allocate when dst has room. On error dst is returned unchanged in
// length.
func (s *Schema) AppendKey(dst []byte, vals []types.Value) ([]byte, error) {
	if len(vals) != len(s.Fields) {
		return dst, fmt.Errorf("%w: %d values for %d fields", ErrUnencodable, len(vals), len(s.Fields))
	}
	n := len(dst)
	var err error
	switch s.Encoding {
	case Singleton:
		dst, err = s.Fields[0].appendField(dst, vals[0])
	case DelimitedBytes:
		dst, err = s.appendDelimited(dst, vals, true)
	case OrderedCodeBytes:
		dst, err = s.appendOrdered(dst, vals, true)
	default:
		err = fmt.Errorf("%w: the schema has no struct encoding", ErrUnencodable)
	}
	if err != nil {
		return dst[:n], err
	}
	return dst, nil
}

// DecodeKey decodes key into out[:0], one value per field. BYTES and
// STRING values alias key, except a BYTES or STRING field of an
// OrderedCodeBytes key that holds escaped bytes, which is copied. A key
// that does not decode gives an error wrapping ErrInvalidKey; a key that
// decodes re-encodes (AppendKey) to the same bytes.
func (s *Schema) DecodeKey(out []types.Value, key []byte) ([]types.Value, error) {
	out = out[:0]
	var ok bool
	switch s.Encoding {
	case Singleton:
		var v types.Value
		if v, ok = s.Fields[0].decodeField(key); ok {
			out = append(out, v)
		}
	case DelimitedBytes:
		out, ok = s.decodeDelimited(out, key)
	case OrderedCodeBytes:
		out, ok = s.decodeOrdered(out, key)
	}
	if !ok {
		return out[:0], fmt.Errorf("%w: %q does not match the row key schema", ErrInvalidKey, key)
	}
	return out, nil
}

// AppendPrefix appends the encoding of the leading fields vals (fewer than
// all fields) and what follows them when a later field is present: every
// key whose leading fields equal vals and that is not the OrderedCodeBytes
// encoding of vals with all later fields empty starts with it (spec §5.4).
// No vals give an empty prefix.
func (s *Schema) AppendPrefix(dst []byte, vals []types.Value) ([]byte, error) {
	k := len(vals)
	if k == 0 {
		return dst, nil
	}
	if k >= len(s.Fields) || s.Encoding == Singleton {
		return dst, fmt.Errorf("%w: a prefix has fewer values than the %d fields", ErrUnencodable, len(s.Fields))
	}
	n := len(dst)
	var err error
	switch s.Encoding {
	case DelimitedBytes:
		dst, err = s.appendDelimited(dst, vals, false)
		dst = append(dst, s.Delimiter...)
	case OrderedCodeBytes:
		dst, err = s.appendOrdered(dst, vals, false)
		dst = append(dst, 0, 1)
	default:
		err = fmt.Errorf("%w: the schema has no struct encoding", ErrUnencodable)
	}
	if err != nil {
		return dst[:n], err
	}
	return dst, nil
}
