package server_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"cloud.google.com/go/bigtable"
	"github.com/jackc/pgx/v5"
)

// TestKeyFieldOrderOverPostgres orders a PostgreSQL-dialect query by the
// leading fields of an OrderedCodeBytes row-key schema (after those WHERE
// fixes by an equality), whose byte order is the fields' order: the rows
// come back sorted with no sort, in either direction, and LIMIT stops the
// scan at the rows it keeps (EXPLAIN ANALYZE's rows read).
func TestKeyFieldOrderOverPostgres(t *testing.T) {
	ctx := context.Background()
	p, addr := startShalePG(t, "serve", t.TempDir())
	c, ac := p.clients(t)
	oc := bigtable.Int64OrderedCodeBytesEncoding{}
	schema := bigtable.StructType{
		Fields: []bigtable.StructField{{FieldName: "tenant", FieldType: bigtable.StringType{Encoding: bigtable.StringUtf8BytesEncoding{}}},
			{FieldName: "seq", FieldType: bigtable.Int64Type{Encoding: oc}},
			{FieldName: "ts", FieldType: bigtable.TimestampType{Encoding: bigtable.TimestampUnixMicrosInt64Encoding{UnixMicrosInt64Encoding: oc}}}},
		Encoding: bigtable.StructOrderedCodeBytesEncoding{},
	}
	if err := ac.CreateTableFromConf(ctx, &bigtable.TableConf{TableID: "events",
		Families: map[string]bigtable.GCPolicy{"e": bigtable.NoGcPolicy()}, RowKeySchema: &schema}); err != nil {
		t.Fatal(err)
	}
	var keys []string
	var muts []*bigtable.Mutation
	for _, tenant := range []string{"zeta", "acme", "a b"} {
		for seq := int64(-3); seq <= 3; seq++ {
			keys = append(keys, eventKey(t, tenant, seq*1000, time.Unix(seq, 0)))
			muts = append(muts, mutSet("e", "v", fmt.Sprint(tenant, seq)))
		}
	}
	if errs, err := c.Open("events").ApplyBulk(ctx, keys, muts); err != nil || errs != nil {
		t.Fatal(err, errs)
	}

	pg, err := pgx.Connect(ctx, "postgres://metabase@"+addr+"/proj.inst?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close(ctx)
	for _, tc := range []struct {
		tail, want string
		read       int
	}{
		{"ORDER BY tenant, seq LIMIT 4", "a b -3000, a b -2000, a b -1000, a b 0", 4},
		{"ORDER BY tenant DESC, seq DESC LIMIT 2", "zeta 3000, zeta 2000", 2},
		{"ORDER BY tenant, seq, ts, e->>'v' OFFSET 19", "zeta 2000, zeta 3000", 21},
		{"ORDER BY tenant, seq DESC LIMIT 2", "a b 3000, a b 2000", 21},                // mixed directions sort
		{"WHERE tenant = 'acme' ORDER BY seq DESC LIMIT 2", "acme 3000, acme 2000", 2}, // a fixed field is skipped
	} {
		q := `SELECT format('%s %s', tenant, seq) FROM public.events ` + tc.tail
		got := queryLines(t, pg, q)
		if strings.Join(got, ", ") != tc.want {
			t.Errorf("%s: %q, want %s", q, got, tc.want)
		}
		plan := strings.Join(queryLines(t, pg, "EXPLAIN ANALYZE "+q), "\n")
		if !strings.Contains(plan, fmt.Sprintf("rows read: %d\n", tc.read)) {
			t.Errorf("%s:\n%s", q, plan)
		}
	}
}
