package btserver

import (
	"errors"
	"testing"

	adminpb "cloud.google.com/go/bigtable/admin/apiv2/adminpb"

	"github.com/shale-db/shale/rowkeyschema"
	"github.com/shale-db/shale/storage"
)

// TestRowKeySchemaConvert: a schema survives proto → Schema → proto, and
// the full rowkeyschema check runs at create time.
func TestRowKeySchemaConvert(t *testing.T) {
	for _, text := range []string{
		`delimited_bytes("#") (user_id BYTES raw, purchase_date STRING utf8_bytes, n INT64 big_endian_bytes)`,
		`ordered_code_bytes (tenant STRING utf8_bytes, seq INT64 ordered_code_bytes, ts TIMESTAMP unix_micros_int64(ordered_code_bytes))`,
		`singleton (ts TIMESTAMP unix_micros_int64(big_endian_bytes))`,
	} {
		ks, err := rowkeyschema.Parse(text)
		if err != nil {
			t.Fatal(err)
		}
		stored, err := encodeRowKeySchema(RowKeySchemaProto(ks), nil)
		if err != nil || string(stored) != text {
			t.Errorf("%s: stored %q, %v", text, stored, err)
		}
		if back := rowKeySchemaProto(stored); back == nil || len(back.GetFields()) != len(ks.Fields) {
			t.Errorf("%s: back to proto: %v", text, back)
		}
	}
	str := &adminpb.Type{Kind: &adminpb.Type_StringType{StringType: &adminpb.Type_String{Encoding: &adminpb.Type_String_Encoding{
		Encoding: &adminpb.Type_String_Encoding_Utf8Raw_{Utf8Raw: &adminpb.Type_String_Encoding_Utf8Raw{}}}}}}
	oc := &adminpb.Type_Struct_Encoding{Encoding: &adminpb.Type_Struct_Encoding_OrderedCodeBytes_{OrderedCodeBytes: &adminpb.Type_Struct_Encoding_OrderedCodeBytes{}}}
	for name, s := range map[string]*adminpb.Type_Struct{
		"reserved name":              {Fields: []*adminpb.Type_Struct_Field{{FieldName: "_Key", Type: str}}, Encoding: oc},
		"bool field":                 {Fields: []*adminpb.Type_Struct_Field{{FieldName: "b", Type: &adminpb.Type{Kind: &adminpb.Type_BoolType{BoolType: &adminpb.Type_Bool{}}}}}, Encoding: oc},
		"array field":                {Fields: []*adminpb.Type_Struct_Field{{FieldName: "a", Type: &adminpb.Type{Kind: &adminpb.Type_ArrayType{ArrayType: &adminpb.Type_Array{ElementType: str}}}}}, Encoding: oc},
		"timestamp without encoding": {Fields: []*adminpb.Type_Struct_Field{{FieldName: "ts", Type: &adminpb.Type{Kind: &adminpb.Type_TimestampType{TimestampType: &adminpb.Type_Timestamp{}}}}}, Encoding: oc},
		"family name":                {Fields: []*adminpb.Type_Struct_Field{{FieldName: "cf", Type: str}}, Encoding: oc},
	} {
		_, err := encodeRowKeySchema(s, []storage.Family{{Name: "cf"}})
		if !errors.Is(err, storage.ErrInvalidArgument) {
			t.Errorf("%s: %v", name, err)
		}
	}
	// utf8_raw (deprecated) is stored as utf8_bytes.
	b, err := encodeRowKeySchema(&adminpb.Type_Struct{Fields: []*adminpb.Type_Struct_Field{{FieldName: "s", Type: str}}, Encoding: oc}, nil)
	if err != nil || string(b) != "ordered_code_bytes (s STRING utf8_bytes)" {
		t.Errorf("utf8_raw: %q %v", b, err)
	}
}
