package btserver

import (
	"fmt"

	adminpb "cloud.google.com/go/bigtable/admin/apiv2/adminpb"
	"google.golang.org/protobuf/proto"

	"github.com/shale-db/shale/storage"
)

// Row-key schemas (spec §5.1). Storage keeps the schema as opaque bytes;
// btserver validates its shape and stores the deterministic serialization
// of the Type.Struct. The rowkeyschema package interprets it.

// maxDelimiterLen bounds a delimited_bytes delimiter.
const maxDelimiterLen = 50

// encodeRowKeySchema validates a schema against the table's families and
// serializes it. A nil schema encodes to nil.
func encodeRowKeySchema(s *adminpb.Type_Struct, families []storage.Family) ([]byte, error) {
	if s == nil {
		return nil, nil
	}
	if err := validateRowKeySchema(s, families); err != nil {
		return nil, err
	}
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("%w: row_key_schema: %v", storage.ErrInvalidArgument, err)
	}
	return b, nil
}

func validateRowKeySchema(s *adminpb.Type_Struct, families []storage.Family) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: row_key_schema: "+format, append([]any{storage.ErrInvalidArgument}, args...)...)
	}
	if len(s.GetFields()) == 0 {
		return bad("at least one field is required")
	}
	seen := make(map[string]bool, len(s.GetFields()))
	for i, f := range s.GetFields() {
		name := f.GetFieldName()
		switch {
		case name == "":
			return bad("field #%d has no name", i)
		case seen[name]:
			return bad("field name %q is used twice", name)
		case name == "_key" || name == "_timestamp":
			return bad("field name %q is reserved", name)
		}
		for _, fam := range families {
			if fam.Name == name {
				return bad("field name %q is also a column family", name)
			}
		}
		seen[name] = true
		if err := validateKeyFieldType(f.GetType()); err != nil {
			return bad("field %q: %v", name, err)
		}
	}
	switch e := s.GetEncoding().GetEncoding().(type) {
	case *adminpb.Type_Struct_Encoding_Singleton_:
		if len(s.GetFields()) != 1 {
			return bad("singleton encoding needs exactly one field, got %d", len(s.GetFields()))
		}
	case *adminpb.Type_Struct_Encoding_DelimitedBytes_:
		if n := len(e.DelimitedBytes.GetDelimiter()); n < 1 || n > maxDelimiterLen {
			return bad("delimited_bytes delimiter must be 1 to %d bytes, got %d", maxDelimiterLen, n)
		}
	case *adminpb.Type_Struct_Encoding_OrderedCodeBytes_:
	default:
		return bad("an encoding is required")
	}
	return nil
}

// validateKeyFieldType accepts the scalar types that have an encoding:
// BYTES, STRING, INT64 and TIMESTAMP.
func validateKeyFieldType(t *adminpb.Type) error {
	switch k := t.GetKind().(type) {
	case *adminpb.Type_BytesType:
		if k.BytesType.GetEncoding().GetEncoding() == nil {
			return fmt.Errorf("bytes type needs an encoding")
		}
	case *adminpb.Type_StringType:
		if k.StringType.GetEncoding().GetEncoding() == nil {
			return fmt.Errorf("string type needs an encoding")
		}
	case *adminpb.Type_Int64Type:
		if k.Int64Type.GetEncoding().GetEncoding() == nil {
			return fmt.Errorf("int64 type needs an encoding")
		}
	case *adminpb.Type_TimestampType:
		e := k.TimestampType.GetEncoding().GetEncoding()
		um, ok := e.(*adminpb.Type_Timestamp_Encoding_UnixMicrosInt64)
		if !ok || um.UnixMicrosInt64.GetEncoding() == nil {
			return fmt.Errorf("timestamp type needs a unix_micros_int64 encoding")
		}
	default:
		return fmt.Errorf("type %T cannot be part of a row key", k)
	}
	return nil
}
