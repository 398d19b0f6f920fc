package types

import (
	"strconv"
	"strings"
	"time"
)

// String renders a value as a GoogleSQL literal, the form tests and EXPLAIN
// print: NULL, TRUE, 42, 1.5, "text", b"bytes", DATE "2024-06-01",
// TIMESTAMP "2024-06-01T00:00:00Z", [1, 2], {k: v}, (1, "a").
func (v Value) String() string {
	var b strings.Builder
	v.format(&b)
	return b.String()
}

func (v Value) format(b *strings.Builder) {
	if v.IsNull() {
		b.WriteString("NULL")
		return
	}
	switch v.Kind() {
	case KindBool:
		if v.Bool() {
			b.WriteString("TRUE")
		} else {
			b.WriteString("FALSE")
		}
	case KindInt64, KindEnum:
		b.WriteString(strconv.FormatInt(v.i, 10))
	case KindFloat32:
		b.WriteString(strconv.FormatFloat(v.Float64(), 'g', -1, 32))
	case KindFloat64:
		b.WriteString(strconv.FormatFloat(v.Float64(), 'g', -1, 64))
	case KindString:
		b.WriteString(strconv.Quote(string(v.b)))
	case KindBytes, KindProto:
		b.WriteString("b" + strconv.Quote(string(v.b)))
	case KindDate:
		b.WriteString(`DATE "` + time.Unix(v.i*86400, 0).UTC().Format("2006-01-02") + `"`)
	case KindTimestamp:
		b.WriteString(`TIMESTAMP "` + v.Time().Format(time.RFC3339Nano) + `"`)
	case KindArray:
		b.WriteByte('[')
		for i, e := range v.elems {
			if i > 0 {
				b.WriteString(", ")
			}
			e.format(b)
		}
		b.WriteByte(']')
	case KindStruct:
		b.WriteByte('(')
		for i, e := range v.elems {
			if i > 0 {
				b.WriteString(", ")
			}
			e.format(b)
		}
		b.WriteByte(')')
	case KindMap:
		b.WriteByte('{')
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			k, val := v.MapEntry(i)
			k.format(b)
			b.WriteString(": ")
			val.format(b)
		}
		b.WriteByte('}')
	default:
		b.WriteString("?")
	}
}
