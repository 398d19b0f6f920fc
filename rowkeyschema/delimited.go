package rowkeyschema

import (
	"bytes"
	"fmt"

	"github.com/shale-db/shale/sql/types"
)

// DelimitedBytes (spec §5.2): enc(f1) d enc(f2) d … enc(fn).
//
// Integer fields are read by their length (8 bytes, or the OrderedCode
// length), so their bytes may contain the delimiter. A BYTES or STRING
// field ends at the first delimiter; the last one takes the rest of the
// key, which must not contain the delimiter. So a value cannot be encoded
// when the delimiter occurs in it (or, for a multi-byte delimiter, across
// its end).

// appendDelimited encodes the leading len(vals) fields; whole says vals
// are all the fields (the last one is then checked to the key's end).
func (s *Schema) appendDelimited(dst []byte, vals []types.Value, whole bool) ([]byte, error) {
	d := s.Delimiter
	for i, v := range vals {
		if i > 0 {
			dst = append(dst, d...)
		}
		f := &s.Fields[i]
		start := len(dst)
		var err error
		if dst, err = f.appendField(dst, v); err != nil {
			return dst, err
		}
		if f.selfDelimiting() {
			continue
		}
		n := len(dst) - start
		if whole && i == len(vals)-1 {
			if bytes.Contains(dst[start:], d) {
				return dst, fmt.Errorf("%w: field %s contains the delimiter %q", ErrUnencodable, f.Name, d)
			}
			continue
		}
		dst = append(dst, d...)
		idx := bytes.Index(dst[start:], d)
		dst = dst[:len(dst)-len(d)]
		if idx != n {
			return dst, fmt.Errorf("%w: field %s contains the delimiter %q", ErrUnencodable, f.Name, d)
		}
	}
	return dst, nil
}

func (s *Schema) decodeDelimited(out []types.Value, key []byte) ([]types.Value, bool) {
	d := s.Delimiter
	pos := 0
	for i := range s.Fields {
		f := &s.Fields[i]
		last := i == len(s.Fields)-1
		rest := key[pos:]
		var end, next int // field bytes rest[:end]; the next field at pos+next
		switch {
		case f.selfDelimiting():
			n, ok := f.intLen(rest)
			if !ok {
				return out, false
			}
			end, next = n, n+len(d)
			if last {
				next = n
				if n != len(rest) {
					return out, false
				}
			} else if !bytes.HasPrefix(rest[n:], d) {
				return out, false
			}
		case last:
			if bytes.Contains(rest, d) {
				return out, false
			}
			end, next = len(rest), len(rest)
		default:
			idx := bytes.Index(rest, d)
			if idx < 0 {
				return out, false
			}
			end, next = idx, idx+len(d)
		}
		v, ok := f.decodeField(rest[:end:end])
		if !ok {
			return out, false
		}
		out = append(out, v)
		pos += next
	}
	return out, true
}
