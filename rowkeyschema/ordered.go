package rowkeyschema

import (
	"github.com/shale-db/shale/sql/types"
)

// OrderedCodeBytes (spec §5.2): fields are encoded independently, escaped
// (00 → 00 FF and, by the OrderedCode convention, FF → FF 00; see doc.go)
// and joined by 00 01. A field that encodes to "" is written 00 00, except
// that trailing empty fields are omitted, and a struct whose fields are
// all empty is 00 00.

// appendOrdered encodes the leading len(vals) fields; whole says vals are
// all the fields, so trailing empty ones are omitted. Without whole every
// field is written (a prefix: a later field follows).
func (s *Schema) appendOrdered(dst []byte, vals []types.Value, whole bool) ([]byte, error) {
	last := len(vals) - 1
	if whole {
		for last >= 0 && s.Fields[last].canBeEmpty() && !vals[last].IsNull() && len(vals[last].Bytes()) == 0 {
			last--
		}
		if last < 0 {
			for i := range vals { // type-check the empty values
				if err := s.Fields[i].check(vals[i]); err != nil {
					return dst, err
				}
			}
			return append(dst, 0, 0), nil
		}
	}
	for i := 0; i <= last; i++ {
		if i > 0 {
			dst = append(dst, 0, 1)
		}
		var err error
		if dst, err = s.Fields[i].appendEscaped(dst, vals[i]); err != nil {
			return dst, err
		}
	}
	for i := last + 1; i < len(vals); i++ { // omitted, but still type-checked
		if err := s.Fields[i].check(vals[i]); err != nil {
			return dst, err
		}
	}
	return dst, nil
}

// appendEscaped appends the escaped encoding of one field, or 00 00 when
// it is empty.
func (f *Field) appendEscaped(dst []byte, v types.Value) ([]byte, error) {
	var buf [10]byte
	var raw []byte
	switch f.Encoding {
	case Raw, UTF8Bytes:
		if err := f.check(v); err != nil {
			return dst, err
		}
		raw = v.Bytes()
		if len(raw) == 0 {
			return append(dst, 0, 0), nil
		}
	default:
		var err error
		if raw, err = f.appendField(buf[:0], v); err != nil {
			return dst, err
		}
	}
	return appendEscape(dst, raw), nil
}

// appendEscape appends b with 00 → 00 FF and FF → FF 00.
func appendEscape(dst, b []byte) []byte {
	for len(b) > 0 {
		i := 0
		for i < len(b) && b[i] != 0 && b[i] != 0xff {
			i++
		}
		dst = append(dst, b[:i]...)
		if i == len(b) {
			break
		}
		if b[i] == 0 {
			dst = append(dst, 0, 0xff)
		} else {
			dst = append(dst, 0xff, 0)
		}
		b = b[i+1:]
	}
	return dst
}

func (s *Schema) decodeOrdered(out []types.Value, key []byte) ([]types.Value, bool) {
	if len(key) == 2 && key[0] == 0 && key[1] == 0 {
		for i := range s.Fields {
			if !s.Fields[i].canBeEmpty() {
				return out, false
			}
			out = append(out, emptyValue(&s.Fields[i], key[:0:0]))
		}
		return out, true
	}
	pos, i := 0, 0
	for ; pos < len(key) || i == 0; i++ {
		if i == len(s.Fields) {
			return out, false // more fields than the schema
		}
		f := &s.Fields[i]
		end, escaped, empty, ok := scanField(key, pos)
		if !ok {
			return out, false
		}
		next := end + 2
		if end == len(key) {
			next = end
			if empty {
				return out, false // a trailing empty field is omitted, not written
			}
		}
		var v types.Value
		if empty {
			if !f.canBeEmpty() {
				return out, false
			}
			v = emptyValue(f, key[pos:pos])
		} else if v, ok = f.decodeEscaped(key[pos:end], escaped); !ok {
			return out, false
		}
		out = append(out, v)
		pos = next
		if pos == len(key) && next != end {
			return out, false // a key ending in the separator
		}
	}
	for ; i < len(s.Fields); i++ { // omitted trailing empty fields
		if !s.Fields[i].canBeEmpty() {
			return out, false
		}
		out = append(out, emptyValue(&s.Fields[i], key[len(key):]))
	}
	return out, true
}

// scanField finds the end of the field starting at pos: the index of the
// next 00 01 separator or len(key). empty reports the 00 00 marker;
// escaped reports escape pairs inside the field.
func scanField(key []byte, pos int) (end int, escaped, empty, ok bool) {
	if pos+1 < len(key) && key[pos] == 0 && key[pos+1] == 0 {
		end = pos + 2
		if end < len(key) && !(end+1 < len(key) && key[end] == 0 && key[end+1] == 1) {
			return 0, false, false, false
		}
		return end, false, true, true
	}
	j := pos
	for j < len(key) {
		switch key[j] {
		case 0:
			if j+1 >= len(key) {
				return 0, false, false, false
			}
			switch key[j+1] {
			case 1:
				return j, escaped, false, j > pos
			case 0xff:
				escaped = true
				j += 2
				continue
			}
			return 0, false, false, false
		case 0xff:
			if j+1 >= len(key) || key[j+1] != 0 {
				return 0, false, false, false
			}
			escaped = true
			j += 2
			continue
		}
		j++
	}
	return j, escaped, false, j > pos
}

// decodeEscaped decodes one non-empty field's escaped bytes.
func (f *Field) decodeEscaped(b []byte, escaped bool) (types.Value, bool) {
	if !escaped {
		return f.decodeField(b)
	}
	if f.selfDelimiting() {
		var buf [10]byte
		n := 0
		for i := 0; i < len(b); i++ {
			if n == len(buf) {
				return types.Value{}, false
			}
			buf[n] = b[i]
			n++
			if b[i] == 0 || b[i] == 0xff {
				i++
			}
		}
		x, ok := f.decodeInt(buf[:n])
		return f.intValue(x), ok
	}
	return f.decodeField(unescape(make([]byte, 0, len(b)), b))
}

// unescape reverses appendEscape on well-formed input (scanField checked
// it).
func unescape(dst, b []byte) []byte {
	for i := 0; i < len(b); i++ {
		dst = append(dst, b[i])
		if b[i] == 0 || b[i] == 0xff {
			i++
		}
	}
	return dst
}

func emptyValue(f *Field, b []byte) types.Value {
	if f.Encoding == UTF8Bytes {
		return types.StringBytesValue(b)
	}
	return types.BytesValue(b)
}
