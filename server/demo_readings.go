package server

import (
	"context"
	"fmt"
	"time"

	adminpb "cloud.google.com/go/bigtable/admin/apiv2/adminpb"

	"github.com/shale-db/shale/btserver"
	"github.com/shale-db/shale/rowkeyschema"
	"github.com/shale-db/shale/sql/types"
	"github.com/shale-db/shale/storage"
)

// The readings table: a structured row key (spec §5). Keys are
// device_type#device_id#<8-byte big-endian µs timestamp>, and the row-key
// schema makes the three segments the typed columns device_type STRING,
// device_id STRING and ts TIMESTAMP, so SQL filters and groups on them and
// turns equality on leading fields into row ranges.

// readingsKeySchema is the schema as a client sends it (CreateTable's
// Table.row_key_schema).
func readingsKeySchema() *adminpb.Type_Struct {
	str := &adminpb.Type{Kind: &adminpb.Type_StringType{StringType: &adminpb.Type_String{Encoding: &adminpb.Type_String_Encoding{
		Encoding: &adminpb.Type_String_Encoding_Utf8Bytes_{Utf8Bytes: &adminpb.Type_String_Encoding_Utf8Bytes{}}}}}}
	ts := &adminpb.Type{Kind: &adminpb.Type_TimestampType{TimestampType: &adminpb.Type_Timestamp{Encoding: &adminpb.Type_Timestamp_Encoding{
		Encoding: &adminpb.Type_Timestamp_Encoding_UnixMicrosInt64{UnixMicrosInt64: &adminpb.Type_Int64_Encoding{
			Encoding: &adminpb.Type_Int64_Encoding_BigEndianBytes_{BigEndianBytes: &adminpb.Type_Int64_Encoding_BigEndianBytes{}}}}}}}}
	return &adminpb.Type_Struct{
		Fields: []*adminpb.Type_Struct_Field{{FieldName: "device_type", Type: str}, {FieldName: "device_id", Type: str}, {FieldName: "ts", Type: ts}},
		Encoding: &adminpb.Type_Struct_Encoding{Encoding: &adminpb.Type_Struct_Encoding_DelimitedBytes_{
			DelimitedBytes: &adminpb.Type_Struct_Encoding_DelimitedBytes{Delimiter: []byte("#")}}},
	}
}

// readingsSpec stores the schema the way btserver's CreateTable does.
func readingsSpec() storage.TableSpec {
	spec := storage.TableSpec{Families: []storage.Family{{Name: "stats", GC: storage.GCPolicy{Kind: storage.GCMaxVersions, MaxVersions: 1}}}}
	b, err := btserver.EncodeRowKeySchema(readingsKeySchema(), spec.Families)
	if err != nil {
		panic(fmt.Sprintf("demo readings schema: %v", err)) // a constant schema: a bug if invalid
	}
	spec.RowKeySchema = b
	return spec
}

func loadReadings(ctx context.Context, e *storage.Engine, tgt storage.Target) error {
	t, err := e.GetTable(tgt.Instance, tgt.Table)
	if err != nil {
		return err
	}
	ks, err := rowkeyschema.Parse(string(t.RowKeySchema))
	if err != nil {
		return err
	}
	start := time.Date(2020, 5, 1, 0, 0, 0, 0, time.UTC)
	devices := []struct{ kind, id, os string }{
		{"phone", "4c410523", "PQ2A.190405.003"}, {"phone", "5c10102", "PQ2A.190401.002"}, {"tablet", "a0b81f74", "RQ1A.190412.001"},
	}
	var key []byte
	for d, dev := range devices {
		for h := 0; h < 6; h++ {
			ts := start.Add(time.Duration(h) * time.Hour)
			vals := []types.Value{types.StringValue(dev.kind), types.StringValue(dev.id), types.TimeValue(ts)}
			if key, err = ks.AppendKey(key[:0], vals); err != nil {
				return err
			}
			set := func(q, v string) storage.Mutation {
				return storage.Mutation{Kind: storage.SetCell, Family: "stats", Qualifier: []byte(q), Timestamp: ts.UnixMicro(), Value: []byte(v)}
			}
			battery := fmt.Sprint(100 - 7*h - 3*d)
			if err := e.MutateRow(ctx, tgt, key, []storage.Mutation{set("battery", battery), set("os_build", dev.os)}); err != nil {
				return err
			}
		}
	}
	return nil
}
