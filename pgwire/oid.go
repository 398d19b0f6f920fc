package pgwire

import "github.com/shale-db/shale/sql/types"

// PostgreSQL type OIDs (pg_type.dat) that pgwire encodes or decodes.
const (
	oidUnspecified uint32 = 0
	oidBool        uint32 = 16
	oidBytea       uint32 = 17
	oidChar        uint32 = 18
	oidName        uint32 = 19
	oidInt8        uint32 = 20
	oidInt2        uint32 = 21
	oidInt4        uint32 = 23
	oidText        uint32 = 25
	oidOID         uint32 = 26
	oidJSON        uint32 = 114
	oidFloat4      uint32 = 700
	oidFloat8      uint32 = 701
	oidUnknown     uint32 = 705
	oidBpchar      uint32 = 1042
	oidVarchar     uint32 = 1043
	oidDate        uint32 = 1082
	oidTime        uint32 = 1083
	oidTimestamp   uint32 = 1114
	oidTimestamptz uint32 = 1184
	oidInterval    uint32 = 1186
	oidNumeric     uint32 = 1700
	oidVoid        uint32 = 2278
	oidUUID        uint32 = 2950
	oidJSONB       uint32 = 3802

	oidBoolArray        uint32 = 1000
	oidByteaArray       uint32 = 1001
	oidCharArray        uint32 = 1002
	oidNameArray        uint32 = 1003
	oidInt2Array        uint32 = 1005
	oidInt4Array        uint32 = 1007
	oidTextArray        uint32 = 1009
	oidVarcharArray     uint32 = 1015
	oidOIDArray         uint32 = 1028
	oidInt8Array        uint32 = 1016
	oidFloat4Array      uint32 = 1021
	oidFloat8Array      uint32 = 1022
	oidTimestampArray   uint32 = 1115
	oidDateArray        uint32 = 1182
	oidTimestamptzArray uint32 = 1185
	oidIntervalArray    uint32 = 1187
	oidNumericArray     uint32 = 1231
	oidUUIDArray        uint32 = 2951
)

// arrayOIDs maps an element OID to its array OID, and elemOIDs the reverse.
var (
	arrayOIDs = map[uint32]uint32{
		oidBool: oidBoolArray, oidBytea: oidByteaArray, oidInt2: oidInt2Array, oidInt4: oidInt4Array,
		oidText: oidTextArray, oidVarchar: oidVarcharArray, oidInt8: oidInt8Array, oidFloat4: oidFloat4Array,
		oidFloat8: oidFloat8Array, oidTimestamp: oidTimestampArray, oidDate: oidDateArray,
		oidTimestamptz: oidTimestamptzArray, oidChar: oidCharArray, oidName: oidNameArray, oidOID: oidOIDArray,
		oidInterval: oidIntervalArray, oidNumeric: oidNumericArray, oidUUID: oidUUIDArray,
	}
	elemOIDs = func() map[uint32]uint32 {
		m := make(map[uint32]uint32, len(arrayOIDs))
		for e, a := range arrayOIDs {
			m[a] = e
		}
		return m
	}()
)

// typeOID is the OID a result column or parameter of type t is described
// with (the type table in doc.go). A nil type (the NULL literal) is text.
func typeOID(t *types.Type) uint32 {
	if t == nil {
		return oidText
	}
	switch t.Kind {
	case types.KindBool:
		return oidBool
	case types.KindInt64, types.KindEnum:
		return oidInt8
	case types.KindFloat32:
		return oidFloat4
	case types.KindFloat64:
		return oidFloat8
	case types.KindString:
		return oidText
	case types.KindBytes:
		return oidBytea
	case types.KindDate:
		return oidDate
	case types.KindTimestamp:
		return oidTimestamptz
	case types.KindArray:
		if t.Elem != nil && t.Elem.IsScalar() {
			if a, ok := arrayOIDs[typeOID(t.Elem)]; ok {
				return a
			}
		}
		return oidJSONB
	}
	return oidJSONB // MAP, STRUCT, PROTO, and arrays of them
}

// oidType is the SQL type a parameter the client declared with oid takes;
// nil when pgwire cannot decode that OID (the parameter is then inferred,
// and only the text format is accepted for it).
func oidType(oid uint32) *types.Type {
	switch oid {
	case oidBool:
		return types.Bool
	case oidInt2, oidInt4, oidInt8, oidOID:
		return types.Int64
	case oidFloat4:
		return types.Float32
	case oidFloat8, oidNumeric:
		return types.Float64
	case oidText, oidVarchar, oidBpchar, oidName, oidChar, oidJSON, oidJSONB, oidUUID:
		return types.String
	case oidBytea:
		return types.Bytes
	case oidDate:
		return types.Date
	case oidTimestamp, oidTimestamptz:
		return types.Timestamp
	}
	if e, ok := elemOIDs[oid]; ok {
		return types.ArrayOf(oidType(e))
	}
	return nil
}

// typeName is the PostgreSQL name of an OID, for error messages.
func typeName(oid uint32) string {
	switch oid {
	case oidBool:
		return "boolean"
	case oidBytea:
		return "bytea"
	case oidInt2:
		return "smallint"
	case oidInt4:
		return "integer"
	case oidInt8:
		return "bigint"
	case oidText:
		return "text"
	case oidFloat4:
		return "real"
	case oidFloat8:
		return "double precision"
	case oidDate:
		return "date"
	case oidTimestamptz:
		return "timestamp with time zone"
	case oidTimestamp:
		return "timestamp without time zone"
	case oidJSONB:
		return "jsonb"
	}
	if e, ok := elemOIDs[oid]; ok {
		return typeName(e) + "[]"
	}
	return "oid " + itoa(int64(oid))
}

// TypeOID returns the PostgreSQL type a SQL type travels as, and its name
// (the catalog the server shows tools uses it for its columns).
func TypeOID(t *types.Type) (oid uint32, name string) {
	oid = typeOID(t)
	return oid, typeName(oid)
}
