package btserver

import (
	"fmt"

	adminpb "cloud.google.com/go/bigtable/admin/apiv2/adminpb"

	"github.com/shale-db/shale/rowkeyschema"
	"github.com/shale-db/shale/sql/types"
	"github.com/shale-db/shale/storage"
)

// Row-key schemas (spec §5.1). btserver converts the proto to a
// rowkeyschema.Schema, which checks every invariant, and stores the
// schema's text form (storage keeps it as opaque bytes; catalog parses
// it). TableInfo converts back.

// encodeRowKeySchema validates a schema against the table's families and
// returns its stored form. A nil schema encodes to nil.
func encodeRowKeySchema(s *adminpb.Type_Struct, families []storage.Family) ([]byte, error) {
	if s == nil {
		return nil, nil
	}
	ks, err := toRowKeySchema(s)
	if err == nil {
		err = ks.Validate()
	}
	if err == nil {
		names := make([]string, len(families))
		for i, f := range families {
			names[i] = f.Name
		}
		err = ks.CheckFamilies(names)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: row_key_schema: %v", storage.ErrInvalidArgument, err)
	}
	return []byte(ks.String()), nil
}

// EncodeRowKeySchema is encodeRowKeySchema for callers that create tables
// in storage directly (the demo loader): the bytes to put in
// storage.TableSpec.RowKeySchema.
func EncodeRowKeySchema(s *adminpb.Type_Struct, families []storage.Family) ([]byte, error) {
	return encodeRowKeySchema(s, families)
}

// toRowKeySchema converts the proto. It refuses only what a Schema cannot
// represent (aggregate, array, map, struct and other non-scalar field
// types); Validate checks the rest.
func toRowKeySchema(s *adminpb.Type_Struct) (*rowkeyschema.Schema, error) {
	ks := &rowkeyschema.Schema{}
	switch e := s.GetEncoding().GetEncoding().(type) {
	case *adminpb.Type_Struct_Encoding_Singleton_:
		ks.Encoding = rowkeyschema.Singleton
	case *adminpb.Type_Struct_Encoding_DelimitedBytes_:
		ks.Encoding = rowkeyschema.DelimitedBytes
		ks.Delimiter = e.DelimitedBytes.GetDelimiter()
	case *adminpb.Type_Struct_Encoding_OrderedCodeBytes_:
		ks.Encoding = rowkeyschema.OrderedCodeBytes
	}
	for i, f := range s.GetFields() {
		t, enc, err := toKeyField(f.GetType())
		if err != nil {
			return nil, fmt.Errorf("%w: field #%d %q: %v", rowkeyschema.ErrInvalidSchema, i, f.GetFieldName(), err)
		}
		ks.Fields = append(ks.Fields, rowkeyschema.Field{Name: f.GetFieldName(), Type: t, Encoding: enc})
	}
	return ks, nil
}

func toKeyField(t *adminpb.Type) (*types.Type, rowkeyschema.Encoding, error) {
	switch k := t.GetKind().(type) {
	case *adminpb.Type_BytesType:
		if k.BytesType.GetEncoding().GetRaw() != nil {
			return types.Bytes, rowkeyschema.Raw, nil
		}
		return types.Bytes, rowkeyschema.NoEncoding, nil
	case *adminpb.Type_StringType:
		switch k.StringType.GetEncoding().GetEncoding().(type) {
		case *adminpb.Type_String_Encoding_Utf8Bytes_, *adminpb.Type_String_Encoding_Utf8Raw_:
			return types.String, rowkeyschema.UTF8Bytes, nil
		}
		return types.String, rowkeyschema.NoEncoding, nil
	case *adminpb.Type_Int64Type:
		return types.Int64, int64Encoding(k.Int64Type.GetEncoding()), nil
	case *adminpb.Type_TimestampType:
		um, ok := k.TimestampType.GetEncoding().GetEncoding().(*adminpb.Type_Timestamp_Encoding_UnixMicrosInt64)
		if !ok {
			return types.Timestamp, rowkeyschema.NoEncoding, nil
		}
		return types.Timestamp, int64Encoding(um.UnixMicrosInt64), nil
	case *adminpb.Type_BoolType:
		return types.Bool, rowkeyschema.NoEncoding, nil
	case *adminpb.Type_Float32Type:
		return types.Float32, rowkeyschema.NoEncoding, nil
	case *adminpb.Type_Float64Type:
		return types.Float64, rowkeyschema.NoEncoding, nil
	case *adminpb.Type_DateType:
		return types.Date, rowkeyschema.NoEncoding, nil
	case nil:
		return nil, 0, fmt.Errorf("a type is required")
	}
	return nil, 0, fmt.Errorf("type %T cannot be part of a row key", t.GetKind())
}

func int64Encoding(e *adminpb.Type_Int64_Encoding) rowkeyschema.Encoding {
	switch e.GetEncoding().(type) {
	case *adminpb.Type_Int64_Encoding_BigEndianBytes_:
		return rowkeyschema.BigEndianBytes
	case *adminpb.Type_Int64_Encoding_OrderedCodeBytes_:
		return rowkeyschema.OrderedCodeInt
	}
	return rowkeyschema.NoEncoding
}

// rowKeySchemaProto converts a stored row-key schema back to the proto
// (nil when absent or unreadable, which validation at write time rules
// out).
func rowKeySchemaProto(b []byte) *adminpb.Type_Struct {
	if len(b) == 0 {
		return nil
	}
	ks, err := rowkeyschema.Parse(string(b))
	if err != nil {
		return nil
	}
	return RowKeySchemaProto(ks)
}

// RowKeySchemaProto converts a schema to the admin proto.
func RowKeySchemaProto(ks *rowkeyschema.Schema) *adminpb.Type_Struct {
	out := &adminpb.Type_Struct{Encoding: &adminpb.Type_Struct_Encoding{}}
	switch ks.Encoding {
	case rowkeyschema.Singleton:
		out.Encoding.Encoding = &adminpb.Type_Struct_Encoding_Singleton_{Singleton: &adminpb.Type_Struct_Encoding_Singleton{}}
	case rowkeyschema.DelimitedBytes:
		out.Encoding.Encoding = &adminpb.Type_Struct_Encoding_DelimitedBytes_{
			DelimitedBytes: &adminpb.Type_Struct_Encoding_DelimitedBytes{Delimiter: ks.Delimiter}}
	case rowkeyschema.OrderedCodeBytes:
		out.Encoding.Encoding = &adminpb.Type_Struct_Encoding_OrderedCodeBytes_{OrderedCodeBytes: &adminpb.Type_Struct_Encoding_OrderedCodeBytes{}}
	default:
		out.Encoding = nil
	}
	for _, f := range ks.Fields {
		out.Fields = append(out.Fields, &adminpb.Type_Struct_Field{FieldName: f.Name, Type: keyFieldProto(f)})
	}
	return out
}

func keyFieldProto(f rowkeyschema.Field) *adminpb.Type {
	switch f.Type.Kind {
	case types.KindBytes:
		return &adminpb.Type{Kind: &adminpb.Type_BytesType{BytesType: &adminpb.Type_Bytes{Encoding: &adminpb.Type_Bytes_Encoding{
			Encoding: &adminpb.Type_Bytes_Encoding_Raw_{Raw: &adminpb.Type_Bytes_Encoding_Raw{}}}}}}
	case types.KindString:
		return &adminpb.Type{Kind: &adminpb.Type_StringType{StringType: &adminpb.Type_String{Encoding: &adminpb.Type_String_Encoding{
			Encoding: &adminpb.Type_String_Encoding_Utf8Bytes_{Utf8Bytes: &adminpb.Type_String_Encoding_Utf8Bytes{}}}}}}
	case types.KindInt64:
		return &adminpb.Type{Kind: &adminpb.Type_Int64Type{Int64Type: &adminpb.Type_Int64{Encoding: int64EncodingProto(f.Encoding)}}}
	case types.KindTimestamp:
		return &adminpb.Type{Kind: &adminpb.Type_TimestampType{TimestampType: &adminpb.Type_Timestamp{Encoding: &adminpb.Type_Timestamp_Encoding{
			Encoding: &adminpb.Type_Timestamp_Encoding_UnixMicrosInt64{UnixMicrosInt64: int64EncodingProto(f.Encoding)}}}}}
	}
	return &adminpb.Type{}
}

func int64EncodingProto(e rowkeyschema.Encoding) *adminpb.Type_Int64_Encoding {
	if e == rowkeyschema.OrderedCodeInt {
		return &adminpb.Type_Int64_Encoding{Encoding: &adminpb.Type_Int64_Encoding_OrderedCodeBytes_{
			OrderedCodeBytes: &adminpb.Type_Int64_Encoding_OrderedCodeBytes{}}}
	}
	return &adminpb.Type_Int64_Encoding{Encoding: &adminpb.Type_Int64_Encoding_BigEndianBytes_{
		BigEndianBytes: &adminpb.Type_Int64_Encoding_BigEndianBytes{}}}
}
