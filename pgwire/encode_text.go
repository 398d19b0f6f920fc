package pgwire

import (
	"bytes"
	"encoding/hex"
	"math"
	"strconv"
	"time"

	"github.com/shale-db/shale/pgwire/pgcatalog"
	"github.com/shale-db/shale/sql/types"
)

// appendText appends the text form (PostgreSQL's output functions, with
// DateStyle ISO, bytea_output hex and the session's TimeZone).
func (e *encoder) appendText(dst []byte, v types.Value, oid uint32) ([]byte, error) {
	switch oid {
	case oidJSONB, oidJSON:
		return e.appendJSON(dst, v), nil
	case oidBytea:
		return appendByteaHex(dst, v.Bytes()), nil
	}
	if elem, ok := elemOIDs[oid]; ok && v.Kind() == types.KindArray {
		return e.appendTextArray(dst, v, elem)
	}
	switch v.Kind() {
	case types.KindBool:
		if v.Bool() {
			return append(dst, 't'), nil
		}
		return append(dst, 'f'), nil
	case types.KindInt64, types.KindEnum:
		return strconv.AppendInt(dst, v.Int64(), 10), nil
	case types.KindFloat32:
		return appendFloat(dst, v.Float64(), 32, e.floatDigits), nil
	case types.KindFloat64:
		return appendFloat(dst, v.Float64(), 64, e.floatDigits), nil
	case types.KindString:
		return append(dst, v.Bytes()...), nil
	case types.KindBytes, types.KindProto:
		return appendByteaHex(dst, v.Bytes()), nil
	case types.KindDate:
		return appendDate(dst, v.Int64()), nil
	case types.KindTimestamp:
		if oid == oidTimestamp {
			return v.Time().AppendFormat(dst, "2006-01-02 15:04:05.999999"), nil
		}
		return appendTimestamptz(dst, v.Time().In(e.loc)), nil
	}
	return e.appendJSON(dst, v), nil
}

func appendByteaHex(dst, b []byte) []byte {
	dst = append(dst, '\\', 'x')
	return hex.AppendEncode(dst, b)
}

func appendDate(dst []byte, days int64) []byte {
	return time.Unix(days*86400, 0).UTC().AppendFormat(dst, "2006-01-02")
}

// appendTimestamptz appends t as timestamptz_out does with DateStyle ISO:
// "2019-05-01 02:00:00.5+02", "+05:30" when the offset has minutes.
func appendTimestamptz(dst []byte, t time.Time) []byte {
	return t.AppendFormat(dst, pgcatalog.TimestamptzLayout(t))
}

// appendFloat appends f as float8out/float4out do: with extra_float_digits
// > 0 (the default, 1) the shortest text that reads back exactly, in
// exponent form when the exponent is < -4 or >= the type's precision (15
// or 6 digits); otherwise rounded to precision+extra significant digits.
func appendFloat(dst []byte, f float64, bits, extra int) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	}
	digits := 15
	if bits == 32 {
		digits = 6
	}
	if extra <= 0 {
		return strconv.AppendFloat(dst, f, 'g', max(1, digits+extra), bits)
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, f, 'e', -1, bits)
	i := bytes.LastIndexByte(dst[start:], 'e')
	exp, _ := strconv.Atoi(string(dst[start+i+1:]))
	if exp < -4 || exp >= digits {
		return dst
	}
	return strconv.AppendFloat(dst[:start], f, 'f', -1, bits)
}

// appendTextArray appends a one-dimensional array literal: {1,2,NULL},
// quoting elements that are empty, look like NULL or contain a delimiter,
// a quote, a backslash or white space.
func (e *encoder) appendTextArray(dst []byte, v types.Value, elem uint32) ([]byte, error) {
	dst = append(dst, '{')
	for i, x := range v.Elems() {
		if i > 0 {
			dst = append(dst, ',')
		}
		if x.IsNull() {
			dst = append(dst, "NULL"...)
			continue
		}
		var err error
		e.scratch, err = e.appendText(e.scratch[:0], x, elem)
		if err != nil {
			return nil, err
		}
		dst = appendArrayElem(dst, e.scratch)
	}
	return append(dst, '}'), nil
}

func appendArrayElem(dst, s []byte) []byte {
	quote := len(s) == 0 || bytes.EqualFold(s, []byte("NULL"))
	for _, c := range s {
		switch c {
		case '{', '}', ',', '"', '\\', ' ', '\t', '\n', '\r', '\v', '\f':
			quote = true
		}
	}
	if !quote {
		return append(dst, s...)
	}
	dst = append(dst, '"')
	for _, c := range s {
		if c == '"' || c == '\\' {
			dst = append(dst, '\\')
		}
		dst = append(dst, c)
	}
	return append(dst, '"')
}
