package pgwire

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/shale-db/shale/pgwire/pgcatalog"
	"github.com/shale-db/shale/sql/types"
)

// A catalog statement (pgcatalog) gives most of its values as PostgreSQL's
// text: an oid[] column's value is the string "{16,17}", an interval's
// "1 day 02:00:00". Drivers that read results in binary (asyncpg always,
// psycopg 3 and pgJDBC when asked) need the binary forms of those types,
// which appendBinaryFromText makes from the text.

// appendBinaryFromText appends the binary form of a value of type oid
// given as its text s.
func (e *encoder) appendBinaryFromText(dst []byte, s string, oid uint32) ([]byte, error) {
	be := binary.BigEndian
	bad := fmt.Errorf("pgwire: %q is not a binary-encodable %s", s, typeName(oid))
	switch oid {
	case oidBool:
		b, ok := pgcatalog.ParseBool(s)
		if !ok {
			return nil, bad
		}
		if b {
			return append(dst, 1), nil
		}
		return append(dst, 0), nil
	case oidInt2, oidInt4, oidInt8, oidOID:
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if err != nil {
			return nil, bad
		}
		switch oid {
		case oidInt2:
			return be.AppendUint16(dst, uint16(n)), nil
		case oidInt8:
			return be.AppendUint64(dst, uint64(n)), nil
		}
		return be.AppendUint32(dst, uint32(n)), nil
	case oidFloat4, oidFloat8:
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil {
			return nil, bad
		}
		if oid == oidFloat4 {
			return be.AppendUint32(dst, math.Float32bits(float32(f))), nil
		}
		return be.AppendUint64(dst, math.Float64bits(f)), nil
	case oidDate:
		t, err := time.Parse("2006-01-02", s)
		if err != nil {
			return nil, bad
		}
		return be.AppendUint32(dst, uint32(int32(t.Unix()/86400-pgEpochDays))), nil
	case oidTimestamp, oidTimestamptz:
		for _, layout := range []string{"2006-01-02 15:04:05.999999-07", "2006-01-02 15:04:05.999999-07:00",
			"2006-01-02 15:04:05.999999-07:00:00", "2006-01-02 15:04:05.999999"} {
			if t, err := time.Parse(layout, s); err == nil {
				return be.AppendUint64(dst, uint64(t.UnixMicro()-pgEpochMicros)), nil
			}
		}
		switch s {
		case "infinity":
			return be.AppendUint64(dst, math.MaxInt64), nil
		case "-infinity":
			return be.AppendUint64(dst, 1<<63), nil
		}
		return nil, bad
	case oidTime:
		t, err := time.Parse("15:04:05.999999", s)
		if s == "24:00:00" {
			return be.AppendUint64(dst, uint64(86400e6)), nil
		}
		if err != nil {
			return nil, bad
		}
		return be.AppendUint64(dst, uint64(t.Hour()*3600e6+t.Minute()*60e6+t.Second()*1e6+t.Nanosecond()/1e3)), nil
	case oidInterval:
		months, days, micros, err := pgcatalog.ParseInterval(s)
		if err != nil {
			return nil, bad
		}
		dst = be.AppendUint64(dst, uint64(micros))
		dst = be.AppendUint32(dst, uint32(int32(days)))
		return be.AppendUint32(dst, uint32(int32(months))), nil
	case oidVoid: // void_send: nothing
		return dst, nil
	case oidUUID:
		b, err := hex.DecodeString(strings.ReplaceAll(s, "-", ""))
		if err != nil || len(b) != 16 {
			return nil, bad
		}
		return append(dst, b...), nil
	}
	if elem, ok := elemOIDs[oid]; ok {
		arr, err := decodeTextArray(stringArray, s)
		if err != nil {
			return nil, err
		}
		return e.appendBinaryArray(dst, arr.Elems(), elem, e.appendTextElem)
	}
	return nil, fmt.Errorf("pgwire: no binary encoding of text as %s", typeName(oid))
}

// stringArray is the type an array's text reads as, element by element.
var stringArray = types.ArrayOf(types.String)

// appendTextElem appends an element of an array read from its text (a
// STRING): from that text for the types whose appendBinary case reads
// another kind, else as appendBinary does.
func (e *encoder) appendTextElem(dst []byte, x types.Value, oid uint32) ([]byte, error) {
	switch oid {
	case oidBool, oidInt2, oidInt4, oidInt8, oidOID, oidFloat4, oidFloat8:
		return e.appendBinaryFromText(dst, x.Str(), oid)
	}
	return e.appendBinary(dst, x, oid)
}
