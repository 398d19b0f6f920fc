package btserver

import (
	"fmt"
	"hash/crc32"
	"strconv"

	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
	"google.golang.org/protobuf/proto"

	"github.com/shale-db/shale/sql/types"
	"github.com/shale-db/shale/storage"
)

// Conversions between the protocol's Type and types.Type. Result metadata
// carries types without encodings, in the forms the official Go client can
// read (doc.go, "Query results"): PROTO as BYTES, ENUM as INT64, MAP keys
// other than BYTES, STRING and INT64 as ARRAY<STRUCT<key, value>>, and
// unnamed STRUCT fields named _field_N.

// resultMetadata describes the result columns.
func resultMetadata(cols []types.Field) (*btpb.ResultSetMetadata, error) {
	pcols := make([]*btpb.ColumnMetadata, len(cols))
	for i, c := range cols {
		if c.Type == nil {
			return nil, fmt.Errorf("column %d (%q) has no type", i, c.Name)
		}
		pcols[i] = &btpb.ColumnMetadata{Name: c.Name, Type: toProtoType(c.Type)}
	}
	return &btpb.ResultSetMetadata{Schema: &btpb.ResultSetMetadata_ProtoSchema{
		ProtoSchema: &btpb.ProtoSchema{Columns: pcols},
	}}, nil
}

// metadataChecksum is the CRC32C of md's deterministic serialization.
func metadataChecksum(md *btpb.ResultSetMetadata) (uint32, error) {
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(md)
	if err != nil {
		return 0, err
	}
	return crc32.Checksum(b, crc32c), nil
}

// toProtoType converts a result type to its metadata form.
func toProtoType(t *types.Type) *btpb.Type {
	switch t.Kind {
	case types.KindBool:
		return &btpb.Type{Kind: &btpb.Type_BoolType{BoolType: &btpb.Type_Bool{}}}
	case types.KindInt64, types.KindEnum:
		return &btpb.Type{Kind: &btpb.Type_Int64Type{Int64Type: &btpb.Type_Int64{}}}
	case types.KindFloat32:
		return &btpb.Type{Kind: &btpb.Type_Float32Type{Float32Type: &btpb.Type_Float32{}}}
	case types.KindFloat64:
		return &btpb.Type{Kind: &btpb.Type_Float64Type{Float64Type: &btpb.Type_Float64{}}}
	case types.KindString:
		return &btpb.Type{Kind: &btpb.Type_StringType{StringType: &btpb.Type_String{}}}
	case types.KindBytes, types.KindProto:
		return &btpb.Type{Kind: &btpb.Type_BytesType{BytesType: &btpb.Type_Bytes{}}}
	case types.KindDate:
		return &btpb.Type{Kind: &btpb.Type_DateType{DateType: &btpb.Type_Date{}}}
	case types.KindTimestamp:
		return &btpb.Type{Kind: &btpb.Type_TimestampType{TimestampType: &btpb.Type_Timestamp{}}}
	case types.KindArray:
		return arrayType(toProtoType(t.Elem))
	case types.KindStruct:
		fields := make([]*btpb.Type_Struct_Field, len(t.Fields))
		for i, f := range t.Fields {
			name := f.Name
			if name == "" {
				name = "_field_" + strconv.Itoa(i+1)
			}
			fields[i] = &btpb.Type_Struct_Field{FieldName: name, Type: toProtoType(f.Type)}
		}
		return &btpb.Type{Kind: &btpb.Type_StructType{StructType: &btpb.Type_Struct{Fields: fields}}}
	case types.KindMap:
		k, v := toProtoType(t.Key), toProtoType(t.Elem)
		switch t.Key.Kind {
		case types.KindBytes, types.KindString, types.KindInt64:
			return &btpb.Type{Kind: &btpb.Type_MapType{MapType: &btpb.Type_Map{KeyType: k, ValueType: v}}}
		}
		// The wire form of a map entry is the wire form of this struct.
		return arrayType(&btpb.Type{Kind: &btpb.Type_StructType{StructType: &btpb.Type_Struct{Fields: []*btpb.Type_Struct_Field{
			{FieldName: "key", Type: k}, {FieldName: "value", Type: v},
		}}}})
	}
	// Unreachable for the kinds sql/types defines; keep the stream readable.
	return &btpb.Type{Kind: &btpb.Type_BytesType{BytesType: &btpb.Type_Bytes{}}}
}

func arrayType(elem *btpb.Type) *btpb.Type {
	return &btpb.Type{Kind: &btpb.Type_ArrayType{ArrayType: &btpb.Type_Array{ElementType: elem}}}
}

// toParamTypes converts PrepareQuery's param_types. Parameters may be
// BYTES, STRING, INT64, FLOAT32, FLOAT64, BOOL, TIMESTAMP, DATE or an ARRAY
// of those (spec §4.7).
func toParamTypes(m map[string]*btpb.Type) (map[string]*types.Type, error) {
	out := make(map[string]*types.Type, len(m))
	for name, pt := range m {
		t, err := toParamType(pt)
		if err != nil {
			return nil, fmt.Errorf("%w: parameter %q: %v", storage.ErrInvalidArgument, name, err)
		}
		out[name] = t
	}
	return out, nil
}

func toParamType(pt *btpb.Type) (*types.Type, error) {
	if a := pt.GetArrayType(); a != nil {
		elem := a.GetElementType()
		if elem.GetArrayType() != nil {
			return nil, fmt.Errorf("arrays of arrays are not supported")
		}
		t, err := toScalarType(elem)
		if err != nil {
			return nil, err
		}
		return types.ArrayOf(t), nil
	}
	return toScalarType(pt)
}

// toScalarType converts the scalar parameter types.
func toScalarType(pt *btpb.Type) (*types.Type, error) {
	switch pt.GetKind().(type) {
	case *btpb.Type_BytesType:
		return types.Bytes, nil
	case *btpb.Type_StringType:
		return types.String, nil
	case *btpb.Type_Int64Type:
		return types.Int64, nil
	case *btpb.Type_Float32Type:
		return types.Float32, nil
	case *btpb.Type_Float64Type:
		return types.Float64, nil
	case *btpb.Type_BoolType:
		return types.Bool, nil
	case *btpb.Type_TimestampType:
		return types.Timestamp, nil
	case *btpb.Type_DateType:
		return types.Date, nil
	case nil:
		return nil, fmt.Errorf("type is not set")
	}
	return nil, fmt.Errorf("%s is not a valid parameter type", typeName(pt))
}

// typeName names a protocol type kind for error messages.
func typeName(pt *btpb.Type) string {
	switch pt.GetKind().(type) {
	case *btpb.Type_MapType:
		return "MAP"
	case *btpb.Type_StructType:
		return "STRUCT"
	case *btpb.Type_ProtoType:
		return "PROTO"
	case *btpb.Type_EnumType:
		return "ENUM"
	case *btpb.Type_AggregateType:
		return "an aggregate type"
	case *btpb.Type_ArrayType:
		return "ARRAY"
	}
	return fmt.Sprintf("%T", pt.GetKind())
}
