package pgwire

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shale-db/shale/pgwire/pgcatalog"
	"github.com/shale-db/shale/sql/types"
)

// param is one parameter of a prepared statement.
type param struct {
	name string      // GoogleSQL name (p1 for $1)
	oid  uint32      // the type the client is told (ParameterDescription)
	typ  *types.Type // the type the Executor was told
	// raw: the client declared a text type but the query needs BYTES; the
	// text is taken as the bytes themselves.
	raw bool
}

// decodeParam decodes a Bind value. nil is NULL. The result owns its bytes
// (Bind's buffer is reused by the next message).
func decodeParam(p *param, format int16, b []byte) (types.Value, error) {
	if b == nil {
		return types.NullOf(p.typ), nil
	}
	if p.raw {
		if format == formatBinary && p.oid == oidJSONB && len(b) > 0 {
			b = b[1:]
		}
		return types.BytesValue(bytes.Clone(b)), nil
	}
	if format == formatBinary {
		return decodeBinary(p.oid, p.typ, b)
	}
	// Fast paths for the common parameter types, allocating at most the
	// value's own bytes; anything they turn down gets decodeText's result
	// and error.
	switch p.typ.Kind {
	case types.KindString:
		if utf8.Valid(b) {
			return types.StringBytesValue(bytes.Clone(b)), nil
		}
	case types.KindInt64:
		if p.oid == oidInt2 || p.oid == oidInt4 {
			v, err := decodeText(p.typ, string(b))
			return narrowInt(p.oid, string(b), v, err)
		}
		if n, err := strconv.ParseInt(string(b), 10, 64); err == nil { // string(b) is not kept: no copy
			return types.Int64Value(n), nil
		}
	}
	return decodeText(p.typ, string(b))
}

// narrowInt checks a smallint or integer parameter's text s, read as an
// INT64 (v, err), as int2in and int4in do: its range, and its type's name
// in the error.
func narrowInt(oid uint32, s string, v types.Value, err error) (types.Value, error) {
	name := typeName(oid)
	limit := int64(math.MaxInt32)
	if oid == oidInt2 {
		limit = math.MaxInt16
	}
	switch pe, _ := err.(*pgError); {
	case pe != nil && pe.code == codeInvalidText:
		pe.msg = fmt.Sprintf("invalid input syntax for type %s: \"%s\"", name, s)
	case pe != nil && pe.code == codeOutOfRange,
		err == nil && (v.Int64() > limit || v.Int64() < -limit-1):
		return types.Value{}, errorf(codeOutOfRange, fmt.Sprintf("value \"%s\" is out of range for type %s", s, name))
	}
	return v, err
}

// invalidText is the error of a parameter's text s that t's input function
// refuses: 22007 (invalid_datetime_format) for dates and timestamps, as
// PostgreSQL's date/time input reports it, 22P02 for the other types.
func invalidText(t *types.Type, s string) error {
	code := codeInvalidText
	if t.Kind == types.KindDate || t.Kind == types.KindTimestamp {
		code = codeInvalidDatetime
	}
	return errorf(code, fmt.Sprintf("invalid input syntax for type %s: \"%s\"", typeName(typeOID(t)), s))
}

// decodeText reads a parameter's text form (PostgreSQL's input functions).
func decodeText(t *types.Type, s string) (types.Value, error) {
	switch t.Kind {
	case types.KindBool:
		if b, ok := pgcatalog.ParseBool(s); ok {
			return types.BoolValue(b), nil
		}
	case types.KindInt64:
		if n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64); err == nil {
			return types.Int64Value(n), nil
		} else if strings.Contains(err.Error(), "range") {
			return types.Value{}, errorf(codeOutOfRange, fmt.Sprintf("value \"%s\" is out of range for type bigint", s))
		}
	case types.KindFloat32, types.KindFloat64:
		if f, ok := parseFloat(s); ok {
			if t.Kind == types.KindFloat32 {
				return types.Float32Value(float32(f)), nil
			}
			return types.Float64Value(f), nil
		}
	case types.KindString:
		if !utf8.ValidString(s) {
			return types.Value{}, errorf(codeCharacterNotInRep, "invalid byte sequence for encoding \"UTF8\"")
		}
		return types.StringValue(s), nil
	case types.KindBytes:
		if b, err := pgcatalog.ParseBytea(s); err == nil {
			return types.BytesValue(b), nil
		}
	case types.KindDate:
		if tm, err := time.Parse("2006-01-02", strings.TrimSpace(s)); err == nil {
			return types.DateValue(floorDiv(tm.Unix(), 86400)), nil
		}
	case types.KindTimestamp:
		if tm, ok := types.ParseTimestamp(s); ok {
			return types.TimeValue(tm), nil
		}
	case types.KindArray:
		return decodeTextArray(t, s)
	}
	return types.Value{}, invalidText(t, s)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func parseFloat(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	switch strings.ToLower(s) {
	case "nan":
		return math.NaN(), true
	case "infinity", "+infinity", "inf", "+inf":
		return math.Inf(1), true
	case "-infinity", "-inf":
		return math.Inf(-1), true
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil
}

// decodeTextArray reads a one-dimensional array literal {a,"b c",NULL}.
func decodeTextArray(t *types.Type, s string) (types.Value, error) {
	s = strings.TrimSpace(s)
	if len(s) < 2 || s[0] != '{' || s[len(s)-1] != '}' {
		return types.Value{}, invalidText(t, s)
	}
	body := s[1 : len(s)-1]
	elems := []types.Value{}
	for i := 0; i < len(body); {
		for i < len(body) && body[i] == ' ' {
			i++
		}
		var item string
		quoted := false
		if i < len(body) && body[i] == '"' {
			quoted = true
			var b strings.Builder
			i++
			for i < len(body) && body[i] != '"' {
				if body[i] == '\\' && i+1 < len(body) {
					i++
				}
				b.WriteByte(body[i])
				i++
			}
			if i >= len(body) {
				return types.Value{}, invalidText(t, s)
			}
			i++
			item = b.String()
		} else {
			j := i
			for j < len(body) && body[j] != ',' {
				if body[j] == '{' || body[j] == '"' {
					return types.Value{}, errorf(codeNotSupported, "only one-dimensional arrays are supported")
				}
				j++
			}
			item = strings.TrimSpace(body[i:j])
			i = j
		}
		for i < len(body) && body[i] == ' ' {
			i++
		}
		if i < len(body) && body[i] != ',' {
			return types.Value{}, invalidText(t, s)
		}
		i++
		if !quoted && strings.EqualFold(item, "NULL") {
			elems = append(elems, types.NullOf(t.Elem))
			continue
		}
		v, err := decodeText(t.Elem, item)
		if err != nil {
			return types.Value{}, err
		}
		elems = append(elems, v)
	}
	return types.ArrayValue(t, elems), nil
}

func badBinary(oid uint32) error {
	return errorf(codeInvalidBinary, "incorrect binary data format for type "+typeName(oid))
}

// errTrailingBinary is the error of a binary parameter with bytes left
// over once its type's receive function has read its value; bind reports
// it with the parameter's number, as PostgreSQL does.
var errTrailingBinary = errors.New("pgwire: binary parameter longer than its value")

// binaryLength checks the length of a binary value that must be want bytes
// long: shorter, its receive function runs out of data (08P01); longer,
// bytes are left over (errTrailingBinary).
func binaryLength(got, want int) error {
	switch {
	case got < want:
		return errorf(codeProtocolViolation, "insufficient data left in message")
	case got > want:
		return errTrailingBinary
	}
	return nil
}

// decodeBinary reads a parameter's binary form (PostgreSQL's receive
// functions) for the type the client was told, as a value of type t.
func decodeBinary(oid uint32, t *types.Type, b []byte) (types.Value, error) {
	if oid == oidNumeric && t.Kind == types.KindString {
		s, err := numericText(b)
		return types.StringValue(s), err
	}
	v, err := decodeBinaryOID(oid, b)
	if err != nil {
		return types.Value{}, err
	}
	if v.Type() != nil && !v.Type().Equal(t) {
		if t.Kind == types.KindBytes && (v.Kind() == types.KindString) {
			return types.BytesValue(v.Bytes()), nil
		}
		if !types.CanCast(v.Type(), t) {
			return types.Value{}, badBinary(oid)
		}
		return types.Cast(v, t)
	}
	return v, nil
}

// binarySize is the length of a fixed-size type's binary form (0: variable):
// its typlen, except that "char" and name are read as text.
func binarySize(oid uint32) int {
	if n := typeSize(oid); n > 0 && oid != oidChar && oid != oidName {
		return int(n)
	}
	return 0
}

func decodeBinaryOID(oid uint32, b []byte) (types.Value, error) {
	if n := binarySize(oid); n > 0 {
		if err := binaryLength(len(b), n); err != nil {
			return types.Value{}, err
		}
	}
	be := binary.BigEndian
	switch oid {
	case oidBool:
		return types.BoolValue(b[0] != 0), nil
	case oidInt2:
		return types.Int64Value(int64(int16(be.Uint16(b)))), nil
	case oidInt4:
		return types.Int64Value(int64(int32(be.Uint32(b)))), nil
	case oidOID:
		return types.Int64Value(int64(be.Uint32(b))), nil
	case oidInt8:
		return types.Int64Value(int64(be.Uint64(b))), nil
	case oidFloat4:
		return types.Float32Value(math.Float32frombits(be.Uint32(b))), nil
	case oidFloat8:
		return types.Float64Value(math.Float64frombits(be.Uint64(b))), nil
	case oidNumeric:
		return decodeNumeric(b)
	case oidText, oidVarchar, oidBpchar, oidName, oidChar, oidUnknown, oidJSON, oidJSONB:
		if oid == oidJSONB {
			if len(b) == 0 || b[0] != 1 {
				return types.Value{}, badBinary(oid)
			}
			b = b[1:]
		}
		if !utf8.Valid(b) {
			return types.Value{}, errorf(codeCharacterNotInRep, "invalid byte sequence for encoding \"UTF8\"")
		}
		return types.StringBytesValue(bytes.Clone(b)), nil
	case oidBytea:
		return types.BytesValue(bytes.Clone(b)), nil
	case oidUUID:
		h := hex.EncodeToString(b)
		return types.StringValue(h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]), nil
	case oidDate:
		return types.DateValue(int64(int32(be.Uint32(b))) + pgEpochDays), nil
	case oidTimestamp, oidTimestamptz:
		return types.TimestampValue(int64(be.Uint64(b)) + pgEpochMicros), nil
	case oidInterval: // as its text: a catalog statement's interval parameter (asyncpg sends binary)
		if err := binaryLength(len(b), 16); err != nil {
			return types.Value{}, err
		}
		return types.StringValue(pgcatalog.FormatInterval(int64(int32(be.Uint32(b[12:]))), int64(int32(be.Uint32(b[8:]))),
			int64(be.Uint64(b)))), nil
	case oidTime:
		if err := binaryLength(len(b), 8); err != nil {
			return types.Value{}, err
		}
		return types.StringValue(pgcatalog.FormatTime(int64(be.Uint64(b)))), nil
	}
	if elem, ok := elemOIDs[oid]; ok {
		return decodeBinaryArray(elem, b)
	}
	return types.Value{}, errorf(codeNotSupported, "binary format of "+typeName(oid)+" parameters is not supported")
}

// decodeBinaryArray reads array_send's format (one dimension at most).
func decodeBinaryArray(elem uint32, b []byte) (types.Value, error) {
	t := types.ArrayOf(oidType(elem))
	be := binary.BigEndian
	if len(b) < 12 {
		return types.Value{}, badBinary(arrayOIDs[elem])
	}
	ndim := be.Uint32(b)
	if ndim == 0 {
		return types.ArrayValue(t, nil), nil
	}
	if ndim != 1 {
		return types.Value{}, errorf(codeNotSupported, "only one-dimensional arrays are supported")
	}
	if len(b) < 20 {
		return types.Value{}, badBinary(arrayOIDs[elem])
	}
	n := int(be.Uint32(b[12:]))
	b = b[20:]
	if n < 0 || n > len(b)/4 {
		return types.Value{}, badBinary(arrayOIDs[elem])
	}
	elems := make([]types.Value, 0, n)
	for range n {
		if len(b) < 4 {
			return types.Value{}, badBinary(arrayOIDs[elem])
		}
		l := int32(be.Uint32(b))
		b = b[4:]
		if l < 0 {
			elems = append(elems, types.NullOf(t.Elem))
			continue
		}
		if int(l) > len(b) {
			return types.Value{}, badBinary(arrayOIDs[elem])
		}
		v, err := decodeBinary(elem, t.Elem, b[:l])
		if err == errTrailingBinary {
			return types.Value{}, badBinary(arrayOIDs[elem])
		}
		if err != nil {
			return types.Value{}, err
		}
		elems = append(elems, v)
		b = b[l:]
	}
	return types.ArrayValue(t, elems), nil
}

// decodeNumeric reads numeric_send's format into a FLOAT64: ndigits,
// weight, sign, dscale, then base-10000 digits.
// numericText is a binary numeric (numeric_send's form) as its exact
// text, with its display scale: a catalog statement reads a numeric
// parameter so, as PostgreSQL would (12.340 stays 12.340).
func numericText(b []byte) (string, error) {
	be := binary.BigEndian
	if err := binaryLength(len(b), max(len(b), 8)); err != nil {
		return "", err
	}
	n, weight, sign, dscale := int(be.Uint16(b)), int(int16(be.Uint16(b[2:]))), be.Uint16(b[4:]), int(be.Uint16(b[6:]))
	if err := binaryLength(len(b), 8+2*n); err != nil {
		return "", err
	}
	if dscale > 0x3fff {
		return "", badBinary(oidNumeric)
	}
	switch sign {
	case 0xC000:
		return "NaN", nil
	case 0xD000:
		return "Infinity", nil
	case 0xF000:
		return "-Infinity", nil
	}
	var digits strings.Builder
	for i := range n {
		fmt.Fprintf(&digits, "%04d", be.Uint16(b[8+2*i:]))
	}
	all, point := digits.String(), 4*(weight+1) // the point falls after point digits of all
	switch {
	case point <= 0:
		all, point = strings.Repeat("0", -point)+all, 0
	case point > len(all):
		all += strings.Repeat("0", point-len(all))
	}
	whole := strings.TrimLeft(all[:point], "0")
	if whole == "" {
		whole = "0"
	}
	frac := all[point:]
	if len(frac) < dscale {
		frac += strings.Repeat("0", dscale-len(frac))
	}
	out := whole
	if dscale > 0 {
		out += "." + frac[:dscale]
	}
	if sign == 0x4000 && strings.Trim(out, "0.") != "" {
		out = "-" + out
	}
	return out, nil
}

func decodeNumeric(b []byte) (types.Value, error) {
	be := binary.BigEndian
	if err := binaryLength(len(b), max(len(b), 8)); err != nil {
		return types.Value{}, err
	}
	n, weight, sign := int(be.Uint16(b)), int16(be.Uint16(b[2:])), be.Uint16(b[4:])
	if err := binaryLength(len(b), 8+2*n); err != nil {
		return types.Value{}, err
	}
	switch sign {
	case 0xC000:
		return types.Float64Value(math.NaN()), nil
	case 0xD000:
		return types.Float64Value(math.Inf(1)), nil
	case 0xF000:
		return types.Float64Value(math.Inf(-1)), nil
	}
	var sb strings.Builder
	for i := range n {
		d := be.Uint16(b[8+2*i:])
		if i == 0 {
			sb.WriteString(strconv.Itoa(int(d)))
		} else {
			fmt.Fprintf(&sb, "%04d", d)
		}
	}
	if n == 0 {
		sb.WriteString("0")
	}
	f, err := strconv.ParseFloat(sb.String()+"e"+strconv.Itoa(4*(int(weight)-n+1)), 64)
	if err != nil {
		return types.Value{}, badBinary(oidNumeric)
	}
	if sign == 0x4000 {
		f = -f
	}
	return types.Float64Value(f), nil
}
