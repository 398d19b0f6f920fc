package sql

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/shale-db/shale/sql/types"
)

// TO_JSON_STRING(value[, pretty_print]): any SQL value as JSON text, with
// GoogleSQL's JSON encodings. NULL (also inside arrays and structs) is
// null; BOOL true or false; INT64 a number within ±2^53 (what a double
// holds exactly), else a string of its digits; FLOAT32 and FLOAT64 a
// number in the fewest of 15 (float32: 6) or 17 (9) significant digits
// that read back the same, and "Infinity", "-Infinity" or "NaN"; STRING a
// string with ", \, the control characters and U+2028/U+2029 escaped
// (appendJSONString, jsonpath.go); BYTES
// a string in base64; DATE "2017-03-06"; TIMESTAMP "2017-03-06T12:34:56Z"
// in UTC with 3 or 6 fractional digits where needed; ARRAY an array;
// STRUCT an object with the fields in order (an anonymous field is "", a
// repeated name repeats).
//
// Where GoogleSQL has no encoding, Shale chose one:
//   - MAP (a Bigtable column family): an object with one member per entry in
//     key order, named by the key's JSON encoding as text. A family's keys
//     are BYTES, so its qualifiers are base64, like the values next to them.
//   - PROTO: the message in protobuf's JSON mapping when its schema bundle
//     provides one (types.Type.AppendJSON), else its serialized bytes in
//     base64. ENUM: its number (GoogleSQL writes the name).
//
// pretty_print TRUE puts each member and element on a line of its own,
// indented by two spaces; a NULL pretty_print gives NULL.
func init() {
	Register("TO_JSON_STRING",
		&Overload{Args: []*types.Type{nil}, Ret: types.String, Eval: toJSONString, NullCalls: true},
		&Overload{Args: []*types.Type{nil, types.Bool}, Ret: types.String, Eval: toJSONString, NullCalls: true})
}

func toJSONString(a []types.Value, _ *types.Type) (types.Value, error) {
	w := jsonWriter{}
	if len(a) > 1 {
		if a[1].IsNull() {
			return types.NullOf(types.String), nil
		}
		w.pretty = a[1].Bool()
	}
	w.value(a[0])
	return types.StringBytesValue(w.b), nil
}

// jsonWriter appends JSON text to b; pretty breaks lines and indents depth
// levels of two spaces.
type jsonWriter struct {
	b      []byte
	pretty bool
	depth  int
}

// newline starts a new line at the current depth when pretty printing.
func (w *jsonWriter) newline() {
	if !w.pretty {
		return
	}
	w.b = append(w.b, '\n')
	for range w.depth {
		w.b = append(w.b, "  "...)
	}
}

// maxLosslessInt is 2^53: integers up to it in magnitude are exact doubles.
const maxLosslessInt = 1 << 53

func (w *jsonWriter) value(v types.Value) {
	if v.IsNull() {
		w.b = append(w.b, "null"...)
		return
	}
	switch v.Kind() {
	case types.KindBool:
		w.b = strconv.AppendBool(w.b, v.Bool())
	case types.KindInt64, types.KindEnum:
		n := v.Int64()
		if n < -maxLosslessInt || n > maxLosslessInt {
			w.b = append(strconv.AppendInt(append(w.b, '"'), n, 10), '"')
		} else {
			w.b = strconv.AppendInt(w.b, n, 10)
		}
	case types.KindFloat32:
		w.b = appendJSONFloat(w.b, v.Float64(), 32)
	case types.KindFloat64:
		w.b = appendJSONFloat(w.b, v.Float64(), 64)
	case types.KindString:
		w.b = appendJSONString(w.b, v.Bytes())
	case types.KindBytes:
		w.b = appendJSONBase64(w.b, v.Bytes())
	case types.KindDate:
		w.b = append(w.b, '"')
		w.b = time.Unix(v.Int64()*86400, 0).UTC().AppendFormat(w.b, "2006-01-02")
		w.b = append(w.b, '"')
	case types.KindTimestamp:
		w.b = appendJSONTimestamp(w.b, v.Int64())
	case types.KindArray:
		w.list('[', ']', len(v.Elems()), func(i int) { w.value(v.Elems()[i]) })
	case types.KindStruct:
		fields := v.Type().Fields
		w.list('{', '}', len(fields), func(i int) {
			w.member([]byte(fields[i].Name))
			w.value(v.Elems()[i])
		})
	case types.KindMap:
		w.list('{', '}', v.Len(), func(i int) {
			k, val := v.MapEntry(i)
			w.mapKey(k)
			w.value(val)
		})
	case types.KindProto:
		w.proto(v)
	default:
		w.b = append(w.b, "null"...)
	}
}

// list writes n items between open and close, an item per line when pretty
// printing; an empty list is [] or {}.
func (w *jsonWriter) list(open, close byte, n int, item func(int)) {
	w.b = append(w.b, open)
	if n > 0 {
		w.depth++
		for i := range n {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.newline()
			item(i)
		}
		w.depth--
		w.newline()
	}
	w.b = append(w.b, close)
}

// member writes an object member's name and the separator.
func (w *jsonWriter) member(name []byte) {
	w.b = appendJSONString(w.b, name)
	w.b = append(w.b, ':')
	if w.pretty {
		w.b = append(w.b, ' ')
	}
}

// mapKey writes a MAP key as a member name: a STRING as is, other keys as
// the text of their JSON encoding (BYTES in base64).
func (w *jsonWriter) mapKey(k types.Value) {
	if k.Kind() == types.KindString {
		w.member(k.Bytes())
		return
	}
	kw := jsonWriter{}
	kw.value(k)
	if len(kw.b) >= 2 && kw.b[0] == '"' {
		kw.b = kw.b[1 : len(kw.b)-1] // already escaped
	}
	w.b = append(append(append(w.b, '"'), kw.b...), '"', ':')
	if w.pretty {
		w.b = append(w.b, ' ')
	}
}

// proto writes a message with its type's JSON hook, laid out like the rest
// (compact, or indented to the current depth), else its bytes in base64.
func (w *jsonWriter) proto(v types.Value) {
	if hook := v.Type().AppendJSON; hook != nil {
		if out, err := hook(nil, v.Bytes()); err == nil {
			// protojson spaces its output unpredictably: re-lay it out.
			buf := bytes.NewBuffer(w.b)
			if w.pretty {
				err = json.Indent(buf, out, strings.Repeat("  ", w.depth), "  ")
			} else {
				err = json.Compact(buf, out)
			}
			if err == nil {
				w.b = buf.Bytes()
				return
			}
		}
	}
	w.b = appendJSONBase64(w.b, v.Bytes())
}

// appendJSONFloat appends f as GoogleSQL's JSON does: "%.15g" (float32:
// "%.6g") when that reads back as f, else "%.17g" ("%.9g"); non-finite
// values as the strings "Infinity", "-Infinity" and "NaN".
func appendJSONFloat(b []byte, f float64, bits int) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(b, `"Infinity"`...)
	case math.IsInf(f, -1):
		return append(b, `"-Infinity"`...)
	}
	short, long := 15, 17
	if bits == 32 {
		short, long = 6, 9
	}
	start := len(b)
	b = strconv.AppendFloat(b, f, 'g', short, bits)
	if g, err := strconv.ParseFloat(string(b[start:]), bits); err != nil || g != f {
		b = strconv.AppendFloat(b[:start], f, 'g', long, bits)
	}
	return b
}

// appendJSONTimestamp appends a TIMESTAMP as "2006-01-02T15:04:05Z" in UTC,
// with 3 or 6 fractional digits when the value has milli- or microseconds.
func appendJSONTimestamp(b []byte, micros int64) []byte {
	t := time.UnixMicro(micros).UTC()
	layout := "2006-01-02T15:04:05Z"
	switch us := t.Nanosecond() / 1000; {
	case us == 0:
	case us%1000 == 0:
		layout = "2006-01-02T15:04:05.000Z"
	default:
		layout = "2006-01-02T15:04:05.000000Z"
	}
	b = append(b, '"')
	return append(t.AppendFormat(b, layout), '"')
}

func appendJSONBase64(b, data []byte) []byte {
	b = append(b, '"')
	b = base64.StdEncoding.AppendEncode(b, data)
	return append(b, '"')
}
