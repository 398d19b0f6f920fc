package pgcatalog

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
)

// json_build_object, json_build_array and their jsonb twins: SQLAlchemy's
// column reflection (and so Superset's table browser) calls
// json_build_object. Values become JSON as PostgreSQL's to_json makes them:
// numbers and booleans as themselves, json as it is, arrays as JSON arrays,
// timestamps in ISO 8601, anything else as the JSON string of its text.
// json output keeps PostgreSQL's spacing ({"a" : 1, "b" : [1,2]}); jsonb
// output is normalized as jsonb stores it: keys sorted by length and then
// bytes, the last of duplicate keys kept, ", " and ": " between items.

func init() {
	register("json_build_object", jsonBuilder("json_build_object", tJSON, true))
	register("json_build_array", jsonBuilder("json_build_array", tJSON, false))
	register("jsonb_build_object", jsonBuilder("jsonb_build_object", tJSONB, true))
	register("jsonb_build_array", jsonBuilder("jsonb_build_array", tJSONB, false))
}

func jsonBuilder(name string, ret uint32, object bool) *builtin {
	return &builtin{min: 0, max: -1, ret: ret, lenient: true, fn: func(ev *evaluator, a []Value, t []uint32) (Value, error) {
		var b strings.Builder
		if !object {
			b.WriteByte('[')
			for i := range a {
				if i > 0 {
					b.WriteString(", ")
				}
				ev.writeJSON(&b, a[i], t[i])
			}
			b.WriteByte(']')
			return jsonValue(b.String(), ret)
		}
		if len(a)%2 != 0 {
			return null, &Error{Code: CodeInvalidParameter, Message: "argument list must have even number of elements",
				Hint: fmt.Sprintf("The arguments of %s() must consist of alternating keys and values.", name)}
		}
		b.WriteByte('{')
		for i := 0; i < len(a); i += 2 {
			if a[i].isNull() {
				return null, &Error{Code: CodeInvalidParameter, Message: fmt.Sprintf("argument %d cannot be null", i+1),
					Hint: "Object keys should be text."}
			}
			if i > 0 {
				b.WriteString(", ")
			}
			writeJSONString(&b, ev.text(a[i], t[i]))
			b.WriteString(" : ")
			ev.writeJSON(&b, a[i+1], t[i+1])
		}
		b.WriteByte('}')
		return jsonValue(b.String(), ret)
	}}
}

// jsonValue is text as a value of type ret: jsonb is normalized.
func jsonValue(text string, ret uint32) (Value, error) {
	if ret != tJSONB {
		return textV(text), nil
	}
	norm, err := normalizeJSONB(text)
	if err != nil {
		return null, &Error{Code: CodeInvalidText, Message: fmt.Sprintf("invalid input syntax for type json: %v", err)}
	}
	return textV(norm), nil
}

// writeJSON writes v of type typ as JSON (arrays without spaces, as
// PostgreSQL's array_to_json writes them).
func (ev *evaluator) writeJSON(b *strings.Builder, v Value, typ uint32) {
	switch {
	case v.isNull():
		b.WriteString("null")
	case v.k == kArray:
		elem := elemType(typ)
		b.WriteByte('[')
		for i, e := range v.a {
			if i > 0 {
				b.WriteByte(',')
			}
			ev.writeJSON(b, e, elem)
		}
		b.WriteByte(']')
	case v.k == kBool:
		b.WriteString(map[bool]string{true: "true", false: "false"}[v.b])
	case v.k == kInt && !isRegType(typ) && typ != tOid:
		b.WriteString(ev.text(v, typ))
	case v.k == kFloat && !math.IsNaN(v.f) && !math.IsInf(v.f, 0):
		b.WriteString(ev.text(v, typ))
	case typ == tJSON || typ == tJSONB:
		b.WriteString(v.s)
	case typ == tTimestamptz || typ == tTimestamp:
		writeJSONString(b, isoTimestamp(ev.text(v, typ)))
	default:
		writeJSONString(b, ev.text(v, typ))
	}
}

// isoTimestamp turns PostgreSQL's timestamp text (2024-01-02 03:04:05+00)
// into JSON's ISO 8601 form (2024-01-02T03:04:05+00:00).
func isoTimestamp(s string) string {
	s = strings.Replace(s, " ", "T", 1)
	if n := len(s); n >= 3 && (s[n-3] == '+' || s[n-3] == '-') && strings.IndexByte(s, 'T') < n-3 {
		s += ":00"
	}
	return s
}

// writeJSONString writes s as a JSON string, escaping as PostgreSQL does
// (quotes, backslashes and control characters; nothing else).
func writeJSONString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				fmt.Fprintf(b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

// normalizeJSONB prints JSON text as jsonb does.
func normalizeJSONB(text string) (string, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var b strings.Builder
	if err := writeJSONB(&b, dec); err != nil {
		return "", err
	}
	if _, err := dec.Token(); err == nil {
		return "", fmt.Errorf("trailing data")
	}
	return b.String(), nil
}

// writeJSONB reads one JSON value from dec and writes it normalized.
func writeJSONB(b *strings.Builder, dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok := tok.(type) {
	case json.Delim:
		if tok == '[' {
			b.WriteByte('[')
			for i := 0; dec.More(); i++ {
				if i > 0 {
					b.WriteString(", ")
				}
				if err := writeJSONB(b, dec); err != nil {
					return err
				}
			}
			b.WriteByte(']')
			_, err := dec.Token()
			return err
		}
		type member struct{ key, value string }
		var members []member
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return err
			}
			var v strings.Builder
			if err := writeJSONB(&v, dec); err != nil {
				return err
			}
			key := k.(string)
			if i := slices.IndexFunc(members, func(m member) bool { return m.key == key }); i >= 0 {
				members[i].value = v.String() // the last duplicate wins
				continue
			}
			members = append(members, member{key, v.String()})
		}
		if _, err := dec.Token(); err != nil {
			return err
		}
		slices.SortFunc(members, func(x, y member) int {
			if len(x.key) != len(y.key) {
				return len(x.key) - len(y.key)
			}
			return strings.Compare(x.key, y.key)
		})
		b.WriteByte('{')
		for i, m := range members {
			if i > 0 {
				b.WriteString(", ")
			}
			writeJSONString(b, m.key)
			b.WriteString(": ")
			b.WriteString(m.value)
		}
		b.WriteByte('}')
	case string:
		writeJSONString(b, tok)
	case json.Number:
		b.WriteString(tok.String())
	case bool:
		b.WriteString(map[bool]string{true: "true", false: "false"}[tok])
	case nil:
		b.WriteString("null")
	}
	return nil
}
