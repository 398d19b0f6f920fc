package rowkeyschema

import (
	"bytes"

	"github.com/shale-db/shale/sql/types"
)

// DecodePrefix decodes the leading fields of key that are complete and
// returns them with the bytes after them: the start of a field that is cut
// short or does not decode. It never fails; it serves to show range bounds
// (EXPLAIN), which are often not whole keys. Values alias key (escaped
// OrderedCodeBytes fields are copied).
func (s *Schema) DecodePrefix(out []types.Value, key []byte) ([]types.Value, []byte) {
	out = out[:0]
	switch s.Encoding {
	case Singleton:
		if v, ok := s.Fields[0].decodeField(key); ok && len(key) > 0 {
			return append(out, v), nil
		}
		return out, key
	case DelimitedBytes:
		return s.delimitedPrefix(out, key)
	case OrderedCodeBytes:
		return s.orderedPrefix(out, key)
	}
	return out, key
}

func (s *Schema) delimitedPrefix(out []types.Value, key []byte) ([]types.Value, []byte) {
	d := s.Delimiter
	rest := key
	for i := range s.Fields {
		if len(rest) == 0 {
			return out, rest
		}
		f := &s.Fields[i]
		last := i == len(s.Fields)-1
		end, next := len(rest), len(rest)
		if f.selfDelimiting() {
			n, ok := f.intLen(rest)
			if !ok || (n < len(rest) && (last || !bytes.HasPrefix(rest[n:], d))) {
				return out, rest
			}
			end, next = n, min(n+len(d), len(rest))
		} else if idx := bytes.Index(rest, d); idx >= 0 && !last {
			end, next = idx, idx+len(d)
		} else if !last {
			return out, rest
		}
		v, ok := f.decodeField(rest[:end:end])
		if !ok {
			return out, rest
		}
		out = append(out, v)
		rest = rest[next:]
	}
	return out, rest
}

func (s *Schema) orderedPrefix(out []types.Value, key []byte) ([]types.Value, []byte) {
	pos := 0
	for i := 0; i < len(s.Fields) && pos < len(key); i++ {
		f := &s.Fields[i]
		end, escaped, empty, ok := scanField(key, pos)
		if !ok {
			return out, key[pos:]
		}
		var v types.Value
		if empty {
			if !f.canBeEmpty() {
				return out, key[pos:]
			}
			v = emptyValue(f, key[pos:pos])
		} else if v, ok = f.decodeEscaped(key[pos:end], escaped); !ok {
			return out, key[pos:]
		}
		out = append(out, v)
		pos = min(end+2, len(key))
	}
	return out, key[pos:]
}
