package types

import (
	"strings"
)

// Kind is the kind of a SQL type.
type Kind uint8

// The kinds of GoogleSQL for Bigtable (spec §4.5).
const (
	KindInvalid Kind = iota
	KindBool
	KindInt64
	KindFloat32
	KindFloat64
	KindString
	KindBytes
	KindDate
	KindTimestamp
	KindArray
	KindStruct
	KindMap
	KindProto
	KindEnum
)

// Type is a SQL type; immutable once built.
type Type struct {
	Kind Kind
	// Elem is the element type of an ARRAY and the value type of a MAP.
	Elem *Type
	// Key is the key type of a MAP.
	Key *Type
	// Fields are the fields of a STRUCT, in order.
	Fields []Field
	// Name is the full name of a PROTO or ENUM type (bundle.package.Message).
	Name string
	// AppendJSON, optional and only on a PROTO type, appends the JSON
	// rendering of a serialized message of this type to dst (protoschema
	// sets it to protojson over the bundle's descriptor). It returns an
	// error, and dst unchanged, for bytes it cannot render; the caller then
	// renders the value as it would without the hook. It is not part of
	// the type's identity: Equal and String ignore it, and a PROTO type
	// built by ProtoOf has none. It must be safe for concurrent use.
	AppendJSON func(dst, wire []byte) ([]byte, error)
	// EnumName and EnumNumber, optional and only on an ENUM type, map its
	// values to their names and back (protoschema sets them from the
	// enum's descriptor), for CAST between ENUM and STRING. Like
	// AppendJSON they are not part of the type's identity.
	EnumName   func(n int64) (string, bool)
	EnumNumber func(name string) (int64, bool)
}

// Field is one field of a STRUCT type; Name may be empty.
type Field struct {
	Name string
	Type *Type
}

// The scalar types.
var (
	Bool      = &Type{Kind: KindBool}
	Int64     = &Type{Kind: KindInt64}
	Float32   = &Type{Kind: KindFloat32}
	Float64   = &Type{Kind: KindFloat64}
	String    = &Type{Kind: KindString}
	Bytes     = &Type{Kind: KindBytes}
	Date      = &Type{Kind: KindDate}
	Timestamp = &Type{Kind: KindTimestamp}
)

// ArrayOf returns ARRAY<elem>.
func ArrayOf(elem *Type) *Type { return &Type{Kind: KindArray, Elem: elem} }

// MapOf returns MAP<key, value>.
func MapOf(key, value *Type) *Type { return &Type{Kind: KindMap, Key: key, Elem: value} }

// StructOf returns STRUCT<fields...>.
func StructOf(fields ...Field) *Type { return &Type{Kind: KindStruct, Fields: fields} }

// ProtoOf returns the PROTO type of a message full name.
func ProtoOf(name string) *Type { return &Type{Kind: KindProto, Name: name} }

// EnumOf returns the ENUM type of an enum full name.
func EnumOf(name string) *Type { return &Type{Kind: KindEnum, Name: name} }

// CellVersion is STRUCT<timestamp TIMESTAMP, value BYTES>, one version of a
// cell in a with_history read (spec §4.2).
var CellVersion = StructOf(Field{"timestamp", Timestamp}, Field{"value", Bytes})

// Equal reports whether two types are the same type (AppendJSON aside).
func (t *Type) Equal(u *Type) bool {
	if t == u {
		return true
	}
	if t == nil || u == nil || t.Kind != u.Kind || t.Name != u.Name || len(t.Fields) != len(u.Fields) {
		return false
	}
	if (t.Elem != nil || u.Elem != nil) && !t.Elem.Equal(u.Elem) {
		return false
	}
	if (t.Key != nil || u.Key != nil) && !t.Key.Equal(u.Key) {
		return false
	}
	for i := range t.Fields {
		if t.Fields[i].Name != u.Fields[i].Name || !t.Fields[i].Type.Equal(u.Fields[i].Type) {
			return false
		}
	}
	return true
}

// IsScalar reports whether t is one of the scalar kinds (orderable and
// groupable, spec §4.5).
func (t *Type) IsScalar() bool {
	switch t.Kind {
	case KindArray, KindStruct, KindMap, KindProto:
		return false
	}
	return t.Kind != KindInvalid
}

// IsNumeric reports whether t is INT64, FLOAT32 or FLOAT64.
func (t *Type) IsNumeric() bool {
	return t.Kind == KindInt64 || t.Kind == KindFloat32 || t.Kind == KindFloat64
}

// String renders the type in GoogleSQL syntax: INT64, ARRAY<BYTES>,
// MAP<BYTES, BYTES>, STRUCT<timestamp TIMESTAMP, value BYTES>.
func (t *Type) String() string {
	if t == nil {
		return "NULL"
	}
	var b strings.Builder
	t.format(&b)
	return b.String()
}

func (t *Type) format(b *strings.Builder) {
	switch t.Kind {
	case KindBool:
		b.WriteString("BOOL")
	case KindInt64:
		b.WriteString("INT64")
	case KindFloat32:
		b.WriteString("FLOAT32")
	case KindFloat64:
		b.WriteString("FLOAT64")
	case KindString:
		b.WriteString("STRING")
	case KindBytes:
		b.WriteString("BYTES")
	case KindDate:
		b.WriteString("DATE")
	case KindTimestamp:
		b.WriteString("TIMESTAMP")
	case KindArray:
		b.WriteString("ARRAY<")
		t.Elem.format(b)
		b.WriteByte('>')
	case KindMap:
		b.WriteString("MAP<")
		t.Key.format(b)
		b.WriteString(", ")
		t.Elem.format(b)
		b.WriteByte('>')
	case KindStruct:
		b.WriteString("STRUCT<")
		for i, f := range t.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			if f.Name != "" {
				b.WriteString(f.Name)
				b.WriteByte(' ')
			}
			f.Type.format(b)
		}
		b.WriteByte('>')
	case KindProto:
		b.WriteString("PROTO<" + t.Name + ">")
	case KindEnum:
		b.WriteString("ENUM<" + t.Name + ">")
	default:
		b.WriteString("INVALID")
	}
}
