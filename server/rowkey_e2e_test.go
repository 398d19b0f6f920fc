package server_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"cloud.google.com/go/bigtable"
	"google.golang.org/grpc/codes"

	"github.com/shale-db/shale/rowkeyschema"
	"github.com/shale-db/shale/sql/types"
)

// TestServeStructuredKeys sets row-key schemas through the official Go
// client (CreateTableFromConf and UpdateTableWithRowKeySchema) and reads
// the key fields as typed columns through ExecuteQuery (spec §5).
func TestServeStructuredKeys(t *testing.T) {
	ctx := context.Background()
	p := startShale(t, t.TempDir())
	c, ac := p.clients(t)
	str := bigtable.StringType{Encoding: bigtable.StringUtf8BytesEncoding{}}
	oc := bigtable.Int64OrderedCodeBytesEncoding{}

	// sales (spec §5.4): created with its schema.
	sales := bigtable.StructType{
		Fields: []bigtable.StructField{{FieldName: "user_id", FieldType: bigtable.BytesType{Encoding: bigtable.RawBytesEncoding{}}},
			{FieldName: "purchase_date", FieldType: str}, {FieldName: "order_number", FieldType: str}},
		Encoding: bigtable.StructDelimitedBytesEncoding{Delimiter: []byte("#")},
	}
	if err := ac.CreateTableFromConf(ctx, &bigtable.TableConf{TableID: "sales",
		Families: map[string]bigtable.GCPolicy{"product": bigtable.NoGcPolicy()}, RowKeySchema: &sales}); err != nil {
		t.Fatal(err)
	}
	// events: the schema set afterwards; an invalid one is refused.
	if err := ac.CreateTableFromConf(ctx, &bigtable.TableConf{TableID: "events",
		Families: map[string]bigtable.GCPolicy{"e": bigtable.NoGcPolicy()}}); err != nil {
		t.Fatal(err)
	}
	events := bigtable.StructType{
		Fields: []bigtable.StructField{{FieldName: "tenant", FieldType: str},
			{FieldName: "seq", FieldType: bigtable.Int64Type{Encoding: oc}},
			{FieldName: "ts", FieldType: bigtable.TimestampType{Encoding: bigtable.TimestampUnixMicrosInt64Encoding{UnixMicrosInt64Encoding: oc}}}},
		Encoding: bigtable.StructOrderedCodeBytesEncoding{},
	}
	bad := events
	bad.Fields = append([]bigtable.StructField{{FieldName: "e", FieldType: str}}, events.Fields[1:]...)
	wantCode(t, "a key field named like a family", ac.UpdateTableWithRowKeySchema(ctx, "events", bad), codes.InvalidArgument)
	if err := ac.UpdateTableWithRowKeySchema(ctx, "events", events); err != nil {
		t.Fatal(err)
	}
	ti, err := ac.TableInfo(ctx, "events")
	if err != nil || ti.RowKeySchema == nil || len(ti.RowKeySchema.Fields) != 3 {
		t.Fatalf("TableInfo: %+v, %v", ti, err)
	}
	if _, ok := ti.RowKeySchema.Encoding.(bigtable.StructOrderedCodeBytesEncoding); !ok {
		t.Errorf("TableInfo encoding %T", ti.RowKeySchema.Encoding)
	}

	for table, rows := range map[string][][2]string{
		"sales":  {{"user1#2025-05-20#abcd1233", "phone"}, {"user1#2025-05-20#abcd1235", "shoes"}, {"user2#2025-05-24#defg456", "headphones"}},
		"events": {{eventKey(t, "acme", 101, time.Date(2020, 5, 1, 0, 0, 0, 0, time.UTC)), "a"}, {eventKey(t, "acme", 7, time.Unix(0, 0)), "b"}},
	} {
		fam := map[string]string{"sales": "product", "events": "e"}[table]
		for _, r := range rows {
			if err := c.Open(table).Apply(ctx, r[0], mutSet(fam, "v", r[1])); err != nil {
				t.Fatal(err)
			}
		}
	}

	rows := execute(t, c, "SELECT * FROM sales WHERE user_id = @u", map[string]bigtable.SQLType{"u": bigtable.BytesSQLType{}},
		map[string]any{"u": []byte("user1")})
	if len(rows) != 2 {
		t.Fatalf("got %d rows, want 2", len(rows))
	}
	if got, want := columnTypes(rows[0]), "user_id Bytes, purchase_date String, order_number String, product Map"; got != want {
		t.Errorf("columns %q, want %q", got, want)
	}
	var uid []byte
	var date, order string
	for i, dst := range []any{&uid, &date, &order} {
		if err := rows[1].GetByIndex(i, dst); err != nil {
			t.Fatal(err)
		}
	}
	if string(uid) != "user1" || date != "2025-05-20" || order != "abcd1235" {
		t.Errorf("row 2: %q %q %q", uid, date, order)
	}

	rows = execute(t, c, "SELECT tenant, seq, ts FROM events WHERE tenant = 'acme' AND seq > 100", nil, nil)
	if got, want := columnTypes(rows[0]), "tenant String, seq Int64, ts Timestamp"; len(rows) != 1 || got != want {
		t.Fatalf("%d rows, columns %q, want %q", len(rows), got, want)
	}
	var tenant string
	var seq int64
	var at time.Time
	for i, dst := range []any{&tenant, &seq, &at} {
		if err := rows[0].GetByIndex(i, dst); err != nil {
			t.Fatal(err)
		}
	}
	if tenant != "acme" || seq != 101 || !at.Equal(time.Date(2020, 5, 1, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("events row: %q %d %v", tenant, seq, at)
	}

	// A key that does not decode fails a query that reads key fields.
	if err := c.Open("events").Apply(ctx, "acme", mutSet("e", "v", "x")); err != nil {
		t.Fatal(err)
	}
	ps, err := c.PrepareStatement(ctx, "SELECT seq FROM events", nil)
	if err != nil {
		t.Fatal(err)
	}
	bs, err := ps.Bind(nil)
	if err != nil {
		t.Fatal(err)
	}
	err = bs.Execute(ctx, func(bigtable.ResultRow) bool { return true })
	if err == nil || !strings.Contains(err.Error(), `row key "acme"`) {
		t.Errorf("undecodable key: %v", err)
	}
	wantCode(t, "undecodable key", err, codes.OutOfRange)
}

// eventKey encodes an events key with the schema the test sets.
func eventKey(t *testing.T, tenant string, seq int64, at time.Time) string {
	ks, err := rowkeyschema.Parse(`ordered_code_bytes (tenant STRING utf8_bytes, seq INT64 ordered_code_bytes, ts TIMESTAMP unix_micros_int64(ordered_code_bytes))`)
	if err != nil {
		t.Fatal(err)
	}
	k, err := ks.AppendKey(nil, []types.Value{types.StringValue(tenant), types.Int64Value(seq), types.TimeValue(at)})
	if err != nil {
		t.Fatal(err)
	}
	return string(k)
}

func columnTypes(r bigtable.ResultRow) string {
	parts := make([]string, len(r.Metadata.Columns))
	for i, c := range r.Metadata.Columns {
		parts[i] = c.Name + " " + strings.TrimSuffix(strings.TrimPrefix(fmt.Sprintf("%T", c.SQLType), "bigtable."), "SQLType")
	}
	return strings.Join(parts, ", ")
}
