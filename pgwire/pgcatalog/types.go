package pgcatalog

import (
	"strconv"
	"strings"
)

// Type OIDs the evaluator reasons about.
const (
	tBool         = 16
	tBytea        = 17
	tChar         = 18
	tName         = 19
	tInt8         = 20
	tInt2         = 21
	tInt2Vector   = 22
	tInt4         = 23
	tRegproc      = 24
	tText         = 25
	tOid          = 26
	tXid          = 28
	tOidVector    = 30
	tJSON         = 114
	tNodeTree     = 194
	tFloat4       = 700
	tFloat8       = 701
	tUnknown      = 705
	tBpchar       = 1042
	tVarchar      = 1043
	tDate         = 1082
	tTime         = 1083
	tTimetz       = 1266
	tTimestamp    = 1114
	tTimestamptz  = 1184
	tInterval     = 1186
	tNumeric      = 1700
	tRegprocedure = 2202
	tRegclass     = 2205
	tRegtype      = 2206
	tRecord       = 2249
	tAnyArray     = 2277
	tVoid         = 2278
	tJSONB        = 3802
	tUUID         = 2950
	tJSONPath     = 4072
	tRegnamespace = 4089
	tRegrole      = 4096
	tBoolArray    = 1000
	tInt2Array    = 1005
	tInt4Array    = 1007
	tTextArray    = 1009
	tOidArray     = 1028
	tNameArray    = 1003
	tCharArray    = 1002
	tACLArray     = 1034
)

// pgType is a row of pg_type (see types_data.go).
type pgType struct {
	oid        uint32
	name       string
	length     int
	byVal      bool
	typtype    byte
	category   byte
	elem       uint32
	array      uint32
	input      string
	output     string
	receive    string // "" for none (a pseudo-type's)
	send       string
	align      byte
	storage    byte
	collation  uint32
	formatName string
}

var (
	typeByOID  = map[uint32]*pgType{}
	typeByName = map[string]*pgType{}
)

func init() {
	for i := range builtinTypes {
		t := &builtinTypes[i]
		typeByOID[t.oid] = t
		typeByName[t.name] = t
	}
	for alias, name := range typeAliases {
		typeByName[alias] = typeByName[name]
	}
}

// typeAliases are the SQL spellings of types (the grammar already maps most
// keywords: INTEGER → pg_catalog.int4).
var typeAliases = map[string]string{
	"integer": "int4", "int": "int4", "smallint": "int2", "bigint": "int8",
	"boolean": "bool", "real": "float4", "double precision": "float8",
	"character varying": "varchar", "character": "bpchar", "decimal": "numeric",
	"timestamp with time zone": "timestamptz", "timestamp without time zone": "timestamp",
	"time without time zone": "time", "time with time zone": "timetz",
	"\"char\"": "char", "float": "float8",
}

// isArrayType reports whether oid is an array (or vector) type.
func isArrayType(oid uint32) bool {
	t := typeByOID[oid]
	return t != nil && t.category == 'A' || oid == tAnyArray
}

// elemType returns an array type's element type (text when unknown).
func elemType(oid uint32) uint32 {
	if t := typeByOID[oid]; t != nil && t.elem != 0 && t.category == 'A' {
		return t.elem
	}
	return tText
}

// errMultiDim refuses an array of arrays: PostgreSQL makes one array of
// more dimensions, which the dialect does not build (it would print
// {"{1,2}","{3,4}"} for {{1,2},{3,4}}).
func errMultiDim(pos int32) *Error {
	return errorf(CodeNotSupported, pos, "multidimensional arrays are not supported")
}

// multiDim reports whether an array of oid would be multidimensional: oid
// is an array type with no array type of its own (a vector such as
// int2vector has one).
func multiDim(oid uint32) bool {
	return isArrayType(oid) && arrayOf(oid) == tTextArray
}

// arrayOf returns the array type of an element type.
func arrayOf(oid uint32) uint32 {
	if t := typeByOID[oid]; t != nil && t.array != 0 {
		return t.array
	}
	return tTextArray
}

// kindOf is the runtime kind that values of a type take.
func kindOf(oid uint32) kind {
	switch oid {
	case tBool:
		return kBool
	case tInt2, tInt4, tInt8, tOid, tXid, 29, tRegproc, tRegprocedure, tRegclass, tRegtype,
		tRegnamespace, tRegrole, 2203, 2204:
		return kInt
	case tFloat4, tFloat8:
		return kFloat
	case tNumeric:
		return kNumeric
	case tRecord:
		return kRecord
	}
	if isArrayType(oid) {
		return kArray
	}
	return kText
}

// isRegType reports the OID-alias types whose text form is a name.
func isRegType(oid uint32) bool {
	switch oid {
	case tRegproc, tRegprocedure, tRegclass, tRegtype, tRegnamespace, tRegrole:
		return true
	}
	return false
}

func isNumericType(oid uint32) bool {
	k := kindOf(oid)
	return k == kInt || k == kFloat || k == kNumeric
}

func isTextType(oid uint32) bool {
	switch oid {
	case tText, tName, tVarchar, tBpchar, tChar, tUnknown:
		return true
	}
	return false
}

// formatType renders a type as format_type(oid, typmod) does.
func formatType(oid uint32, typmod int64) string {
	t := typeByOID[oid]
	if t == nil {
		if name, ok := infoDomainName(oid); ok {
			return name
		}
		return "???"
	}
	if t.category == 'A' && t.elem != 0 && oid != tInt2Vector && oid != tOidVector {
		return formatType(t.elem, typmod) + "[]"
	}
	name := t.formatName
	if typmod >= 0 {
		switch oid {
		case tVarchar, tBpchar:
			if typmod >= 4 {
				name += "(" + strconv.FormatInt(typmod-4, 10) + ")"
			}
		case tNumeric:
			if typmod >= 4 {
				m := typmod - 4
				name += "(" + strconv.FormatInt(m>>16, 10) + "," + strconv.FormatInt(m&0xffff, 10) + ")"
			}
		case 16, 20, 21, 23, 700, 701: // boolean, the integers and floats: no typmod shown
		case 1083, 1266, 1114, 1184: // time[tz], timestamp[tz]: the precision before the zone words
			name = strings.Replace(name, " with", "("+strconv.FormatInt(typmod, 10)+") with", 1)
		case 1186:
			name += intervalTypmod(typmod)
		default: // bit, bit varying and types without a typmodout: (typmod)
			name += "(" + strconv.FormatInt(typmod, 10) + ")"
		}
	}
	return name
}

// intervalTypmod is an interval typmod's text, as intervaltypmodout: its
// fields (" day to second"; none for all) then its precision, if any.
func intervalTypmod(typmod int64) string {
	const (
		month, year, day = 1 << 1, 1 << 2, 1 << 3
		hour, minute     = 1 << 10, 1 << 11
		second           = 1 << 12
	)
	fields := map[int64]string{year: " year", month: " month", day: " day", hour: " hour", minute: " minute",
		second: " second", year | month: " year to month", day | hour: " day to hour",
		day | hour | minute: " day to minute", day | hour | minute | second: " day to second",
		hour | minute: " hour to minute", hour | minute | second: " hour to second",
		minute | second: " minute to second", 0x7fff: ""}
	s := fields[typmod>>16&0x7fff] // PostgreSQL refuses other fields (XX000); they are left out
	if p := typmod & 0xffff; p != 0xffff {
		s += "(" + strconv.FormatInt(p, 10) + ")"
	}
	return s
}

// lookupTypeName resolves a type name as written in a cast or ::regtype.
func lookupTypeName(name string) (*pgType, bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	n = strings.TrimPrefix(n, "pg_catalog.")
	if strings.HasSuffix(n, "[]") {
		t, ok := lookupTypeName(strings.TrimSuffix(n, "[]"))
		if !ok || t.array == 0 {
			return nil, false
		}
		return typeByOID[t.array], typeByOID[t.array] != nil
	}
	if i := strings.IndexByte(n, '('); i > 0 {
		n = strings.TrimSpace(n[:i])
	}
	if t, ok := typeByName[n]; ok {
		return t, true
	}
	for _, t := range builtinTypes {
		if t.formatName == n {
			return typeByOID[t.oid], true
		}
	}
	return nil, false
}
