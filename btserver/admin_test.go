package btserver_test

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"cloud.google.com/go/bigtable"
	adminpb "cloud.google.com/go/bigtable/admin/apiv2/adminpb"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
)

func familyInfo(t *testing.T, env *env, table string) string {
	t.Helper()
	ti, err := env.admin.TableInfo(testCtx(t), table)
	if err != nil {
		t.Fatalf("TableInfo(%s): %v", table, err)
	}
	var out []string
	for _, f := range ti.FamilyInfos {
		s := f.Name + "=" + f.GCPolicy
		if agg, ok := f.ValueType.(bigtable.AggregateType); ok {
			s += fmt.Sprintf(" %T", agg.Aggregator)
		}
		out = append(out, s)
	}
	sort.Strings(out)
	return strings.Join(out, "; ")
}

// TestTableAdmin creates tables with families, GC rules, aggregates and
// splits, and changes them.
func TestTableAdmin(t *testing.T) {
	env := newEnv(t)
	ctx := testCtx(t)
	conf := &bigtable.TableConf{
		TableID:   "t",
		SplitKeys: []string{"m", "c"},
		ColumnFamilies: map[string]bigtable.Family{
			"never":  {GCPolicy: bigtable.NoGcPolicy()},
			"v2":     {GCPolicy: bigtable.MaxVersionsPolicy(2)},
			"age":    {GCPolicy: bigtable.MaxAgePolicy(time.Hour)},
			"union":  {GCPolicy: bigtable.UnionPolicy(bigtable.MaxVersionsPolicy(2), bigtable.MaxAgePolicy(30*24*time.Hour))},
			"inter":  {GCPolicy: bigtable.IntersectionPolicy(bigtable.MaxVersionsPolicy(1), bigtable.MaxAgePolicy(time.Hour))},
			"counts": {ValueType: bigtable.AggregateType{Input: bigtable.Int64Type{}, Aggregator: bigtable.SumAggregator{}}},
		},
		DeletionProtection: bigtable.Protected,
	}
	if err := env.admin.CreateTableFromConf(ctx, conf); err != nil {
		t.Fatal(err)
	}
	want := "age=age() > 1h; counts= bigtable.SumAggregator; inter=(versions() > 1 && age() > 1h); never=; union=(versions() > 2 || age() > 30d); v2=versions() > 2"
	if got := familyInfo(t, env, "t"); got != want {
		t.Errorf("families:\n got %s\nwant %s", got, want)
	}
	wantCode(t, "create existing table", env.admin.CreateTable(ctx, "t"), codes.AlreadyExists)
	if err := env.admin.CreateTable(ctx, "u"); err != nil {
		t.Fatal(err)
	}
	tables, err := env.admin.Tables(ctx)
	if err != nil || !slices.Equal(tables, []string{"t", "u"}) {
		t.Errorf("Tables = %v, %v", tables, err)
	}

	// Family changes.
	if err := env.admin.CreateColumnFamily(ctx, "u", "f"); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "create existing family", env.admin.CreateColumnFamily(ctx, "u", "f"), codes.AlreadyExists)
	if err := env.admin.SetGCPolicy(ctx, "u", "f", bigtable.MaxVersionsPolicy(3)); err != nil {
		t.Fatal(err)
	}
	if got := familyInfo(t, env, "u"); got != "f=versions() > 3" {
		t.Errorf("after SetGCPolicy: %s", got)
	}
	wantCode(t, "SetGCPolicy on a missing family", env.admin.SetGCPolicy(ctx, "u", "nope", bigtable.MaxVersionsPolicy(1)), codes.NotFound)
	err = env.admin.UpdateFamily(ctx, "t", "counts", bigtable.Family{ValueType: bigtable.StringType{}})
	wantCode(t, "changing an aggregate type", err, codes.InvalidArgument)
	if err == nil || !strings.Contains(err.Error(), "Immutable fields 'value_type.aggregate_type.*' cannot be updated") {
		t.Errorf("aggregate change error = %v", err)
	}
	wantCode(t, "drop family of protected table", env.admin.DeleteColumnFamily(ctx, "t", "v2"), codes.FailedPrecondition)
	if err := env.admin.DeleteColumnFamily(ctx, "u", "f"); err != nil {
		t.Fatal(err)
	}
	if got := familyInfo(t, env, "u"); got != "" {
		t.Errorf("after drop: %s", got)
	}

	// Deletion protection.
	wantCode(t, "delete protected table", env.admin.DeleteTable(ctx, "t"), codes.FailedPrecondition)
	if err := env.admin.UpdateTableWithDeletionProtection(ctx, "t", bigtable.Unprotected); err != nil {
		t.Fatal(err)
	}

	// Data then DropRowRange.
	tbl := env.client.Open("t")
	for _, k := range []string{"a1", "a2", "b1"} {
		m := bigtable.NewMutation()
		m.Set("never", "q", 1000, []byte(k))
		if err := tbl.Apply(ctx, k, m); err != nil {
			t.Fatal(err)
		}
	}
	if err := env.admin.DropRowRange(ctx, "t", "a"); err != nil {
		t.Fatal(err)
	}
	if got := readKeys(t, tbl); got != "b1" {
		t.Errorf("after DropRowRange(a): %s", got)
	}
	if err := env.admin.DropAllRows(ctx, "t"); err != nil {
		t.Fatal(err)
	}
	if got := readKeys(t, tbl); got != "" {
		t.Errorf("after DropAllRows: %s", got)
	}
	if err := env.admin.WaitForReplication(ctx, "t"); err != nil {
		t.Errorf("WaitForReplication: %v", err)
	}
	if err := env.admin.DeleteTable(ctx, "t"); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "TableInfo of a deleted table", func() error { _, err := env.admin.TableInfo(ctx, "t"); return err }(), codes.NotFound)
}

func readKeys(t *testing.T, tbl *bigtable.Table) string {
	t.Helper()
	var keys []string
	err := tbl.ReadRows(testCtx(t), bigtable.RowRange{}, func(r bigtable.Row) bool { keys = append(keys, r.Key()); return true })
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(keys, ",")
}

// TestRowKeySchema covers create-time validation and UpdateTable.
func TestRowKeySchema(t *testing.T) {
	env := newEnv(t)
	ctx := testCtx(t)
	str := bigtable.StringType{Encoding: bigtable.StringUtf8BytesEncoding{}}
	i64 := bigtable.Int64Type{Encoding: bigtable.BigEndianBytesEncoding{}}
	delimited := bigtable.StructType{
		Fields:   []bigtable.StructField{{FieldName: "id", FieldType: str}, {FieldName: "n", FieldType: i64}},
		Encoding: bigtable.StructDelimitedBytesEncoding{Delimiter: []byte("#")},
	}
	bad := map[string]bigtable.StructType{
		"family name":        {Fields: []bigtable.StructField{{FieldName: "fam1", FieldType: i64}}, Encoding: bigtable.StructOrderedCodeBytesEncoding{}},
		"missing encoding":   {Fields: []bigtable.StructField{{FieldName: "x", FieldType: i64}}},
		"no delimiter":       {Fields: []bigtable.StructField{{FieldName: "x", FieldType: str}}, Encoding: bigtable.StructDelimitedBytesEncoding{}},
		"singleton 2 fields": {Fields: []bigtable.StructField{{FieldName: "x", FieldType: str}, {FieldName: "y", FieldType: i64}}, Encoding: bigtable.StructSingletonEncoding{}},
		"duplicate field":    {Fields: []bigtable.StructField{{FieldName: "x", FieldType: str}, {FieldName: "x", FieldType: i64}}, Encoding: bigtable.StructOrderedCodeBytesEncoding{}},
		"no fields":          {Encoding: bigtable.StructOrderedCodeBytesEncoding{}},
	}
	for name, rks := range bad {
		rks := rks
		conf := &bigtable.TableConf{TableID: "bad", Families: map[string]bigtable.GCPolicy{"fam1": bigtable.NoGcPolicy()}, RowKeySchema: &rks}
		wantCode(t, "row key schema: "+name, env.admin.CreateTableFromConf(ctx, conf), codes.InvalidArgument)
	}
	conf := &bigtable.TableConf{TableID: "t", Families: map[string]bigtable.GCPolicy{"fam1": bigtable.NoGcPolicy()}, RowKeySchema: &delimited}
	if err := env.admin.CreateTableFromConf(ctx, conf); err != nil {
		t.Fatal(err)
	}
	ti, err := env.admin.TableInfo(ctx, "t")
	if err != nil || ti.RowKeySchema == nil || len(ti.RowKeySchema.Fields) != 2 || ti.RowKeySchema.Fields[1].FieldName != "n" {
		t.Fatalf("TableInfo row key schema = %+v, %v", ti, err)
	}
	other := bigtable.StructType{Fields: []bigtable.StructField{{FieldName: "z", FieldType: str}}, Encoding: bigtable.StructSingletonEncoding{}}
	wantCode(t, "changing a row key schema", env.admin.UpdateTableWithRowKeySchema(ctx, "t", other), codes.InvalidArgument)
	if err := env.admin.UpdateTableWithRowKeySchema(ctx, "t", delimited); err != nil {
		t.Errorf("setting the same schema again: %v", err)
	}
	// Clearing needs ignore_warnings.
	req := &adminpb.UpdateTableRequest{
		Table:      &adminpb.Table{Name: tableName("t")},
		UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"row_key_schema"}},
	}
	_, err = env.tadmin.UpdateTable(ctx, req)
	wantCode(t, "clear row key schema without ignore_warnings", err, codes.InvalidArgument)
	if err := env.admin.UpdateTableRemoveRowKeySchema(ctx, "t"); err != nil {
		t.Fatal(err)
	}
	if err := env.admin.UpdateTableWithRowKeySchema(ctx, "t", other); err != nil {
		t.Fatalf("setting a schema on a table without one: %v", err)
	}
	if ti, _ := env.admin.TableInfo(ctx, "t"); ti.RowKeySchema == nil || ti.RowKeySchema.Fields[0].FieldName != "z" {
		t.Errorf("schema after update: %+v", ti.RowKeySchema)
	}
}

// TestInstanceAdmin covers what the official instance admin client needs.
func TestInstanceAdmin(t *testing.T) {
	env := newEnv(t)
	ctx := testCtx(t)
	err := env.iadmin.CreateInstance(ctx, &bigtable.InstanceConf{InstanceId: "made", DisplayName: "Made", ClusterId: "c", Zone: "z"})
	if err != nil {
		t.Fatal(err)
	}
	wantCode(t, "create existing instance", env.iadmin.CreateInstance(ctx, &bigtable.InstanceConf{InstanceId: "made", ClusterId: "c", Zone: "z"}), codes.AlreadyExists)
	info, err := env.iadmin.InstanceInfo(ctx, "made")
	if err != nil || info.Name != "made" || info.DisplayName != "Made" {
		t.Errorf("InstanceInfo = %+v, %v", info, err)
	}
	// First use creates an instance.
	if err := env.admin.CreateTable(ctx, "t"); err != nil {
		t.Fatal(err)
	}
	insts, err := env.iadmin.Instances(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, in := range insts {
		names = append(names, in.Name)
	}
	if !slices.Equal(names, []string{"inst", "made"}) {
		t.Errorf("Instances = %v", names)
	}
	clusters, err := env.iadmin.Clusters(ctx, "inst")
	if err != nil || len(clusters) != 1 || clusters[0].Name != "inst-c1" || clusters[0].State != "READY" {
		t.Errorf("Clusters = %+v, %v", clusters, err)
	}
	if c, err := env.iadmin.GetCluster(ctx, "inst", "inst-c1"); err != nil || c.Name != "inst-c1" {
		t.Errorf("GetCluster = %+v, %v", c, err)
	}
	_, err = env.iadmin.GetCluster(ctx, "inst", "other")
	wantCode(t, "GetCluster of another cluster", err, codes.NotFound)
	if err := env.iadmin.DeleteInstance(ctx, "made"); err != nil {
		t.Fatal(err)
	}
}

// TestListPagingAndModifyOrder covers ListTables paging and
// ModifyColumnFamilies applying its modifications in order.
func TestListPagingAndModifyOrder(t *testing.T) {
	env := newEnv(t)
	ctx := testCtx(t)
	for _, id := range []string{"c", "a", "b"} {
		if err := env.admin.CreateTable(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	token := ""
	for {
		resp, err := env.tadmin.ListTables(ctx, &adminpb.ListTablesRequest{Parent: instName, PageSize: 2, PageToken: token})
		if err != nil {
			t.Fatal(err)
		}
		for _, tb := range resp.GetTables() {
			got = append(got, tb.GetName()[len(instName)+len("/tables/"):])
			if tb.GetColumnFamilies() != nil {
				t.Errorf("ListTables default view is NAME_ONLY, got families")
			}
		}
		if token = resp.GetNextPageToken(); token == "" {
			break
		}
	}
	if !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("paged tables = %v", got)
	}
	// Create then update the same family in one request; then drop it and
	// recreate it with an aggregate type.
	mods := []*adminpb.ModifyColumnFamiliesRequest_Modification{
		{Id: "f", Mod: &adminpb.ModifyColumnFamiliesRequest_Modification_Create{Create: &adminpb.ColumnFamily{}}},
		{Id: "f", Mod: &adminpb.ModifyColumnFamiliesRequest_Modification_Update{Update: &adminpb.ColumnFamily{
			GcRule: &adminpb.GcRule{Rule: &adminpb.GcRule_MaxNumVersions{MaxNumVersions: 4}},
		}}},
	}
	tbl, err := env.tadmin.ModifyColumnFamilies(ctx, &adminpb.ModifyColumnFamiliesRequest{Name: tableName("a"), Modifications: mods})
	if err != nil {
		t.Fatal(err)
	}
	if n := tbl.GetColumnFamilies()["f"].GetGcRule().GetMaxNumVersions(); n != 4 {
		t.Errorf("max versions = %d, want 4", n)
	}
	if err := env.admin.UpdateTableDisableChangeStream(ctx, "a"); err != nil {
		t.Errorf("disabling change streams (never enabled) should be a no-op: %v", err)
	}
}
