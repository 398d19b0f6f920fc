package pgwire

import (
	"bytes"
	"encoding/hex"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/shale-db/shale/internal/pgjson"
	"github.com/shale-db/shale/sql/types"
)

// appendJSON appends the jsonb rendering of v (doc.go, "Types"): MAP and
// STRUCT as objects, ARRAY as arrays, PROTO through its type's AppendJSON
// hook (protojson), BYTES — and a PROTO without a hook or whose hook fails
// — as strings (the text itself when it is UTF-8 and does not begin with
// \x, else "\x" and hex), TIMESTAMP and DATE as ISO 8601 strings,
// non-finite floats as "NaN", "Infinity" and "-Infinity".
func (e *encoder) appendJSON(dst []byte, v types.Value) []byte {
	if v.IsNull() {
		return append(dst, "null"...)
	}
	switch v.Kind() {
	case types.KindBool:
		if v.Bool() {
			return append(dst, "true"...)
		}
		return append(dst, "false"...)
	case types.KindInt64, types.KindEnum:
		return strconv.AppendInt(dst, v.Int64(), 10)
	case types.KindFloat32, types.KindFloat64:
		f := v.Float64()
		if math.IsNaN(f) || math.IsInf(f, 0) {
			dst = append(dst, '"')
			dst = appendFloat(dst, f, 64, 1)
			return append(dst, '"')
		}
		bits := 64
		if v.Kind() == types.KindFloat32 {
			bits = 32
		}
		return strconv.AppendFloat(dst, f, 'g', -1, bits)
	case types.KindString:
		return pgjson.AppendString(dst, v.Bytes())
	case types.KindBytes:
		return appendJSONBytes(dst, v.Bytes())
	case types.KindProto:
		return e.appendJSONProto(dst, v)
	case types.KindDate:
		dst = append(dst, '"')
		return append(appendDate(dst, v.Int64()), '"')
	case types.KindTimestamp:
		dst = append(dst, '"')
		dst = v.Time().In(e.loc).AppendFormat(dst, "2006-01-02T15:04:05.999999-07:00")
		return append(dst, '"')
	case types.KindArray:
		dst = append(dst, '[')
		for i, x := range v.Elems() {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			dst = e.appendJSON(dst, x)
		}
		return append(dst, ']')
	case types.KindStruct:
		dst = append(dst, '{')
		for i, x := range v.Elems() {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			name := v.Type().Fields[i].Name
			if name == "" {
				name = "_" + strconv.Itoa(i+1)
			}
			dst = pgjson.AppendString(dst, name)
			dst = append(dst, ": "...)
			dst = e.appendJSON(dst, x)
		}
		return append(dst, '}')
	case types.KindMap:
		dst = append(dst, '{')
		order := e.jsonbKeyOrder(v)
		for i := range v.Len() {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			j := i
			if order != nil {
				j = order[i]
			}
			k, x := v.MapEntry(j)
			dst = e.appendJSONKey(dst, k)
			dst = append(dst, ": "...)
			dst = e.appendJSON(dst, x)
		}
		return append(dst, '}')
	}
	return append(dst, "null"...)
}

// maxProtoBuf is the largest protojson buffer an encoder keeps between
// values.
const maxProtoBuf = 1 << 20

// appendJSONProto appends a PROTO value: the JSON its type's AppendJSON
// hook renders (protojson, set by protoschema), re-spaced as jsonb prints
// (", " and ": ", no other whitespace, so the text does not depend on
// protojson's deliberately unstable spacing). Without a hook, or when it
// fails (bytes that do not parse as the message), the value renders as
// BYTES do, so one bad cell never breaks a result stream.
func (e *encoder) appendJSONProto(dst []byte, v types.Value) []byte {
	hook := v.Type().AppendJSON
	if hook == nil {
		return appendJSONBytes(dst, v.Bytes())
	}
	js, err := hook(e.protoBuf[:0], v.Bytes())
	if err != nil {
		return appendJSONBytes(dst, v.Bytes())
	}
	if cap(js) <= maxProtoBuf {
		e.protoBuf = js[:0]
	}
	return appendJSONSpaced(dst, js)
}

// appendJSONSpaced appends src, JSON text, with the whitespace between
// tokens replaced by jsonb's: one space after each ',' and ':'. Strings
// are copied verbatim.
func appendJSONSpaced(dst, src []byte) []byte {
	inStr, esc := false, false
	for _, c := range src {
		if inStr {
			dst = append(dst, c)
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		switch c {
		case ' ', '\t', '\n', '\r':
		case ',', ':':
			dst = append(dst, c, ' ')
		case '"':
			inStr = true
			dst = append(dst, c)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// jsonbKeyOrder returns the order in which jsonb lists a map's keys
// (shorter keys first, equal lengths by their bytes), or nil when the map
// already has it. A family's qualifiers arrive in byte order, which is
// jsonb's unless their lengths vary: checking costs a pass over the keys,
// and sorting (an insertion sort into a buffer the encoder keeps: maps are
// small) only happens when it must.
func (e *encoder) jsonbKeyOrder(v types.Value) []int {
	kv := v.Elems() // keys and values alternate
	n := len(kv) / 2
	if n < 2 {
		return nil
	}
	if asciiKeysByLength(kv) {
		return nil
	}
	texts := e.keyTexts[:0]
	sorted := true
	for i := range n {
		texts = append(texts, jsonKeyText(kv[2*i]))
		sorted = sorted && (i == 0 || !jsonbKeyLess(texts[i], texts[i-1]))
	}
	e.keyTexts = texts[:0]
	if sorted {
		return nil
	}
	order := e.keyOrder[:0]
	for j := range n {
		order = append(order, j)
		for k := j; k > 0 && jsonbKeyLess(texts[order[k]], texts[order[k-1]]); k-- {
			order[k], order[k-1] = order[k-1], order[k]
		}
	}
	e.keyOrder = order
	return order
}

// asciiKeysByLength reports, cheaply, that a map's keys are already in
// jsonb's order: STRING or BYTES keys of ASCII without a NUL or a leading
// \x (each its own JSON text) whose lengths never decrease (a map's keys
// are sorted by their bytes, which orders keys of equal length).
func asciiKeysByLength(kv []types.Value) bool {
	prev := 0
	for i := 0; i < len(kv); i += 2 {
		k := kv[i]
		if kind := k.Kind(); kind != types.KindString && kind != types.KindBytes {
			return false
		}
		b := k.Bytes()
		if len(b) < prev || len(b) >= 2 && b[0] == '\\' && b[1] == 'x' {
			return false
		}
		for _, c := range b {
			if c == 0 || c >= utf8.RuneSelf {
				return false
			}
		}
		prev = len(b)
	}
	return true
}

func jsonbKeyLess(a, b []byte) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return bytes.Compare(a, b) < 0
}

// jsonKeyText is the text a map key has as a JSON object key (the string
// appendJSONKey writes, unescaped): a STRING's bytes, a BYTES key's bytes
// or its \x hex form (appendJSONBytes), another key's JSON rendering.
func jsonKeyText(k types.Value) []byte {
	switch k.Kind() {
	case types.KindString:
		return k.Bytes()
	case types.KindBytes:
		b := k.Bytes()
		if plainJSONBytes(b) {
			return b
		}
		return append([]byte(`\x`), hex.EncodeToString(b)...)
	}
	return []byte(k.String())
}

// QualifierOfKey is the qualifier whose cells a family's jsonb object key
// names: the inverse of the key text a BYTES map key renders as
// (jsonKeyText). That is key itself when it renders as itself, else the
// bytes its lowercase \x hex form spells; false when no qualifier renders
// as key.
func QualifierOfKey(key string) ([]byte, bool) {
	if h, ok := strings.CutPrefix(key, `\x`); ok {
		b, err := hex.DecodeString(h)
		if err != nil || plainJSONBytes(b) || strings.ToLower(h) != h {
			return nil, false
		}
		return b, true
	}
	b := []byte(key)
	return b, plainJSONBytes(b)
}

// plainJSONBytes reports whether appendJSONBytes writes b as itself: UTF-8
// without a NUL, not beginning with \x.
func plainJSONBytes(b []byte) bool {
	return utf8.Valid(b) && !bytes.HasPrefix(b, []byte(`\x`)) && bytes.IndexByte(b, 0) < 0
}

// appendJSONKey appends a map key as a JSON string.
func (e *encoder) appendJSONKey(dst []byte, k types.Value) []byte {
	switch k.Kind() {
	case types.KindString:
		return pgjson.AppendString(dst, k.Bytes())
	case types.KindBytes:
		return appendJSONBytes(dst, k.Bytes())
	}
	e.scratch = e.appendJSON(e.scratch[:0], k)
	if len(e.scratch) > 0 && e.scratch[0] == '"' {
		return append(dst, e.scratch...)
	}
	return pgjson.AppendString(dst, e.scratch)
}

// appendJSONBytes renders bytes as a JSON string: the bytes themselves when
// they are UTF-8 without a NUL and do not begin with `\x`, else `\x` and
// lowercase hex (so the rendering is reversible). PostgreSQL's jsonb cannot
// hold \u0000 ("cannot be converted to text"), so bytes with a NUL (an
// int64 counter's big-endian cells) are hex: a pg_dump of Shale then loads
// into PostgreSQL.
func appendJSONBytes(dst, b []byte) []byte {
	if jsonVerbatim(b) { // the common cell: one pass, no escapes
		dst = append(dst, '"')
		dst = append(dst, b...)
		return append(dst, '"')
	}
	if plainJSONBytes(b) {
		return pgjson.AppendString(dst, b)
	}
	dst = append(dst, `"\\x`...)
	dst = hex.AppendEncode(dst, b)
	return append(dst, '"')
}

// jsonVerbatim reports whether b is ASCII a JSON string holds as itself:
// no control character, quote or backslash (so no leading \x either).
func jsonVerbatim(b []byte) bool {
	for _, c := range b {
		if !verbatimJSON[c] {
			return false
		}
	}
	return true
}

var verbatimJSON = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()
