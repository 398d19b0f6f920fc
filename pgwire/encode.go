package pgwire

import (
	"encoding/binary"
	"fmt"
	"math"
	"time"

	"github.com/shale-db/shale/sql/types"
)

// Wire formats of a value (Bind's format codes).
const (
	formatText   int16 = 0
	formatBinary int16 = 1
)

// pgEpochMicros and pgEpochDays are 2000-01-01, PostgreSQL's binary epoch,
// in microseconds and days since 1970-01-01.
const (
	pgEpochMicros = 946684800000000
	pgEpochDays   = 10957
)

// encoder turns values into their wire form. It carries the session
// settings that change the text form (TimeZone, extra_float_digits) and a
// scratch buffer; it is owned by one connection.
type encoder struct {
	loc         *time.Location
	floatDigits int // extra_float_digits
	scratch     []byte
	protoBuf    []byte   // protojson of a PROTO value (encode_json.go)
	keyOrder    []int    // a map's keys in jsonb's order (encode_json.go)
	keyTexts    [][]byte // their texts while they are ordered
}

func newEncoder() *encoder { return &encoder{loc: time.UTC, floatDigits: 1} }

// appendValue appends the text or binary form of a non-NULL v, described to
// the client as oid, to dst.
func (e *encoder) appendValue(dst []byte, v types.Value, oid uint32, format int16) ([]byte, error) {
	if (oid == oidJSONB || oid == oidJSON) && v.Kind() == types.KindString {
		// JSON text already: a CatalogStatement's json or jsonb column.
		if format == formatBinary && oid == oidJSONB {
			dst = append(dst, 1)
		}
		return append(dst, v.Bytes()...), nil
	}
	if format == formatBinary {
		return e.appendBinary(dst, v, oid)
	}
	return e.appendText(dst, v, oid)
}

// appendFields appends a row's field count, then each field as its length
// (-1: NULL) and its value in fmts[i]: the body of a DataRow, and a row of
// binary COPY.
func (e *encoder) appendFields(dst []byte, row []types.Value, cols []column, fmts []int16) ([]byte, error) {
	if len(row) != len(cols) {
		return dst, errorf(codeInternal, fmt.Sprintf("pgwire: row has %d values for %d columns", len(row), len(cols)))
	}
	dst = binary.BigEndian.AppendUint16(dst, uint16(len(row)))
	for i, v := range row {
		if v.IsNull() {
			dst = binary.BigEndian.AppendUint32(dst, 0xffffffff)
			continue
		}
		at := len(dst)
		dst = append(dst, 0, 0, 0, 0)
		var err error
		if dst, err = e.appendValue(dst, v, cols[i].oid, fmts[i]); err != nil {
			return dst, err
		}
		binary.BigEndian.PutUint32(dst[at:], uint32(len(dst)-at-4))
	}
	return dst, nil
}

// appendBinary appends the binary form (PostgreSQL's send functions).
// A STRING value of another type is a catalog statement's value in
// PostgreSQL's text (appendBinaryFromText): checked only where a type's
// case would misread it, so that the common kinds pay nothing for it.
func (e *encoder) appendBinary(dst []byte, v types.Value, oid uint32) ([]byte, error) {
	switch oid {
	case oidBool:
		if v.Bool() {
			return append(dst, 1), nil
		}
		return append(dst, 0), nil
	case oidInt8:
		return binary.BigEndian.AppendUint64(dst, uint64(v.Int64())), nil
	case oidInt4, oidOID:
		return binary.BigEndian.AppendUint32(dst, uint32(v.Int64())), nil
	case oidInt2:
		return binary.BigEndian.AppendUint16(dst, uint16(v.Int64())), nil
	case oidFloat4:
		return binary.BigEndian.AppendUint32(dst, math.Float32bits(float32(v.Float64()))), nil
	case oidFloat8:
		return binary.BigEndian.AppendUint64(dst, math.Float64bits(v.Float64())), nil
	case oidText, oidVarchar, oidBpchar, oidName, oidChar, oidBytea, oidUnknown:
		if v.Kind() == types.KindString || v.Kind() == types.KindBytes || v.Kind() == types.KindProto {
			return append(dst, v.Bytes()...), nil
		}
		return e.appendText(dst, v, oid)
	case oidDate:
		if v.Kind() == types.KindString { // text the catalog could not read as a date (infinity)
			return e.appendBinaryFromText(dst, v.Str(), oid)
		}
		return binary.BigEndian.AppendUint32(dst, uint32(int32(v.Int64()-pgEpochDays))), nil
	case oidTimestamptz, oidTimestamp:
		if v.Kind() == types.KindString {
			return e.appendBinaryFromText(dst, v.Str(), oid)
		}
		return binary.BigEndian.AppendUint64(dst, uint64(v.Int64()-pgEpochMicros)), nil
	case oidJSONB:
		return e.appendJSON(append(dst, 1), v), nil
	case oidJSON:
		return e.appendJSON(dst, v), nil
	case oidNumeric:
		return appendNumeric(dst, v)
	}
	if elem, ok := elemOIDs[oid]; ok && v.Kind() == types.KindArray {
		return e.appendBinaryArray(dst, v.Elems(), elem, e.appendBinary)
	}
	if v.Kind() == types.KindString {
		return e.appendBinaryFromText(dst, v.Str(), oid)
	}
	return nil, fmt.Errorf("pgwire: no binary encoding of %s as %s", v.Type(), typeName(oid))
}

// appendBinaryArray appends a one-dimensional array (array_send), each
// element through encode.
func (e *encoder) appendBinaryArray(dst []byte, elems []types.Value, elem uint32,
	encode func([]byte, types.Value, uint32) ([]byte, error)) ([]byte, error) {
	hasNull := uint32(0)
	for _, x := range elems {
		if x.IsNull() {
			hasNull = 1
		}
	}
	if len(elems) == 0 {
		dst = binary.BigEndian.AppendUint32(dst, 0) // ndim
		dst = binary.BigEndian.AppendUint32(dst, 0)
		return binary.BigEndian.AppendUint32(dst, elem), nil
	}
	dst = binary.BigEndian.AppendUint32(dst, 1)
	dst = binary.BigEndian.AppendUint32(dst, hasNull)
	dst = binary.BigEndian.AppendUint32(dst, elem)
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(elems)))
	dst = binary.BigEndian.AppendUint32(dst, 1) // lower bound
	for _, x := range elems {
		if x.IsNull() {
			dst = binary.BigEndian.AppendUint32(dst, math.MaxUint32) // -1
			continue
		}
		at := len(dst)
		dst = append(dst, 0, 0, 0, 0)
		var err error
		if dst, err = encode(dst, x, elem); err != nil {
			return nil, err
		}
		binary.BigEndian.PutUint32(dst[at:], uint32(len(dst)-at-4))
	}
	return dst, nil
}
