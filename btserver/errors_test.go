package btserver_test

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"cloud.google.com/go/bigtable"
	adminpb "cloud.google.com/go/bigtable/admin/apiv2/adminpb"
	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
)

// drain reads a server stream to its end and returns its error.
func drain[T any](recv func() (T, error)) error {
	for {
		if _, err := recv(); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

func setCell(fam, qual string, ts int64) *btpb.Mutation {
	return &btpb.Mutation{Mutation: &btpb.Mutation_SetCell_{SetCell: &btpb.Mutation_SetCell{FamilyName: fam, ColumnQualifier: []byte(qual), TimestampMicros: ts, Value: []byte("v")}}}
}

func chainOf(fs ...*btpb.RowFilter) *btpb.RowFilter {
	return &btpb.RowFilter{Filter: &btpb.RowFilter_Chain_{Chain: &btpb.RowFilter_Chain{Filters: fs}}}
}

var passAll = &btpb.RowFilter{Filter: &btpb.RowFilter_PassAllFilter{PassAllFilter: true}}

// TestErrorCodes asserts the exact gRPC code of each error path (spec §10).
func TestErrorCodes(t *testing.T) {
	env := newEnv(t)
	env.createTable(t, "t", map[string]bigtable.GCPolicy{"f": bigtable.NoGcPolicy()})
	if err := env.admin.CreateColumnFamilyWithConfig(testCtx(t), "t", "sum", bigtable.Family{ValueType: bigtable.AggregateType{Input: bigtable.Int64Type{}, Aggregator: bigtable.SumAggregator{}}}); err != nil {
		t.Fatal(err)
	}
	tn := tableName("t")
	readRows := func(req *btpb.ReadRowsRequest) func(context.Context) error {
		return func(ctx context.Context) error {
			if req.TableName == "" && req.AuthorizedViewName == "" && req.MaterializedViewName == "" {
				req.TableName = tn
			}
			s, err := env.data.ReadRows(ctx, req)
			if err != nil {
				return err
			}
			return drain(s.Recv)
		}
	}
	mutateRow := func(key string, ms ...*btpb.Mutation) func(context.Context) error {
		return func(ctx context.Context) error {
			_, err := env.data.MutateRow(ctx, &btpb.MutateRowRequest{TableName: tn, RowKey: []byte(key), Mutations: ms})
			return err
		}
	}
	deep := passAll
	for range 21 {
		deep = chainOf(deep, passAll)
	}
	big := make([]*btpb.RowFilter, 0, 3000)
	for range 3000 {
		big = append(big, &btpb.RowFilter{Filter: &btpb.RowFilter_FamilyNameRegexFilter{FamilyNameRegexFilter: "abcdef"}})
	}
	bigGC := &adminpb.GcRule{Rule: &adminpb.GcRule_Union_{Union: &adminpb.GcRule_Union{}}}
	for range 200 {
		bigGC.GetUnion().Rules = append(bigGC.GetUnion().Rules, &adminpb.GcRule{Rule: &adminpb.GcRule_MaxNumVersions{MaxNumVersions: 1000}})
	}
	addToCellString := &btpb.Mutation{Mutation: &btpb.Mutation_AddToCell_{AddToCell: &btpb.Mutation_AddToCell{
		FamilyName: "sum", ColumnQualifier: &btpb.Value{Kind: &btpb.Value_RawValue{RawValue: []byte("c")}},
		Timestamp: &btpb.Value{Kind: &btpb.Value_RawTimestampMicros{RawTimestampMicros: 0}},
		Input:     &btpb.Value{Kind: &btpb.Value_StringValue{StringValue: "x"}},
	}}}
	autoTS := setCell("f", "q", 1001)
	autoTS.TimestampOrigin = btpb.Mutation_CLIENT_AUTO_GENERATED
	createTable := func(id string, fams map[string]*adminpb.ColumnFamily) func(context.Context) error {
		return func(ctx context.Context) error {
			_, err := env.tadmin.CreateTable(ctx, &adminpb.CreateTableRequest{Parent: instName, TableId: id, Table: &adminpb.Table{ColumnFamilies: fams}})
			return err
		}
	}
	updateTable := func(paths ...string) func(context.Context) error {
		return func(ctx context.Context) error {
			req := &adminpb.UpdateTableRequest{Table: &adminpb.Table{Name: tn}}
			if paths != nil {
				req.UpdateMask = &fieldmaskpb.FieldMask{Paths: paths}
			}
			_, err := env.tadmin.UpdateTable(ctx, req)
			return err
		}
	}

	cases := []struct {
		name string
		call func(context.Context) error
		want codes.Code
	}{
		// Data API.
		{"ReadRows ok", readRows(&btpb.ReadRowsRequest{}), codes.OK},
		{"ReadRows missing table", readRows(&btpb.ReadRowsRequest{TableName: tableName("nope")}), codes.NotFound},
		{"ReadRows bad table name", readRows(&btpb.ReadRowsRequest{TableName: "tables/t"}), codes.InvalidArgument},
		{"ReadRows table and view", readRows(&btpb.ReadRowsRequest{TableName: tn, AuthorizedViewName: tn + "/authorizedViews/v"}), codes.InvalidArgument},
		{"ReadRows missing view", readRows(&btpb.ReadRowsRequest{AuthorizedViewName: tn + "/authorizedViews/v"}), codes.NotFound},
		{"ReadRows materialized view", readRows(&btpb.ReadRowsRequest{MaterializedViewName: instName + "/materializedViews/m"}), codes.Unimplemented},
		{"ReadRows filter too deep", readRows(&btpb.ReadRowsRequest{Filter: deep}), codes.InvalidArgument},
		{"ReadRows filter too large", readRows(&btpb.ReadRowsRequest{Filter: chainOf(big...)}), codes.InvalidArgument},
		{"ReadRows pass_all false", readRows(&btpb.ReadRowsRequest{Filter: &btpb.RowFilter{Filter: &btpb.RowFilter_PassAllFilter{}}}), codes.InvalidArgument},
		{"ReadRows chain of one", readRows(&btpb.ReadRowsRequest{Filter: chainOf(passAll)}), codes.InvalidArgument},
		{"ReadRows bad regex", readRows(&btpb.ReadRowsRequest{Filter: &btpb.RowFilter{Filter: &btpb.RowFilter_ValueRegexFilter{ValueRegexFilter: []byte("(")}}}), codes.InvalidArgument},
		{"ReadRows empty filter", readRows(&btpb.ReadRowsRequest{Filter: &btpb.RowFilter{}}), codes.InvalidArgument},
		{"ReadRows bad label", readRows(&btpb.ReadRowsRequest{Filter: &btpb.RowFilter{Filter: &btpb.RowFilter_ApplyLabelTransformer{ApplyLabelTransformer: "UPPER"}}}), codes.InvalidArgument},
		{"ReadRows inverted range", readRows(&btpb.ReadRowsRequest{Rows: &btpb.RowSet{RowRanges: []*btpb.RowRange{{StartKey: &btpb.RowRange_StartKeyClosed{StartKeyClosed: []byte("b")}, EndKey: &btpb.RowRange_EndKeyOpen{EndKeyOpen: []byte("a")}}}}}), codes.InvalidArgument},
		{"ReadRows negative limit", readRows(&btpb.ReadRowsRequest{RowsLimit: -1}), codes.InvalidArgument},
		{"MutateRow ok", mutateRow("r", setCell("f", "q", 1000)), codes.OK},
		{"MutateRow client-generated timestamp is truncated", mutateRow("r", autoTS), codes.OK},
		{"MutateRow granularity mismatch", mutateRow("r", setCell("f", "q", 1001)), codes.InvalidArgument},
		{"MutateRow negative timestamp", mutateRow("r", setCell("f", "q", -5)), codes.InvalidArgument},
		{"MutateRow unknown family", mutateRow("r", setCell("nope", "q", 1000)), codes.InvalidArgument},
		{"MutateRow empty row key", mutateRow("", setCell("f", "q", 1000)), codes.InvalidArgument},
		{"MutateRow no mutations", mutateRow("r"), codes.InvalidArgument},
		{"MutateRow empty mutation", mutateRow("r", &btpb.Mutation{}), codes.InvalidArgument},
		{"MutateRow SetCell into aggregate", mutateRow("r", setCell("sum", "q", 1000)), codes.InvalidArgument},
		{"MutateRow AddToCell string input", mutateRow("r", addToCellString), codes.InvalidArgument},
		{"MutateRow missing table", func(ctx context.Context) error {
			_, err := env.data.MutateRow(ctx, &btpb.MutateRowRequest{TableName: tableName("nope"), RowKey: []byte("r"), Mutations: []*btpb.Mutation{setCell("f", "q", 0)}})
			return err
		}, codes.NotFound},
		{"MutateRows missing table", func(ctx context.Context) error {
			s, err := env.data.MutateRows(ctx, &btpb.MutateRowsRequest{TableName: tableName("nope"), Entries: []*btpb.MutateRowsRequest_Entry{{RowKey: []byte("r"), Mutations: []*btpb.Mutation{setCell("f", "q", 0)}}}})
			if err != nil {
				return err
			}
			return drain(s.Recv)
		}, codes.NotFound},
		{"CheckAndMutateRow without mutations", func(ctx context.Context) error {
			_, err := env.data.CheckAndMutateRow(ctx, &btpb.CheckAndMutateRowRequest{TableName: tn, RowKey: []byte("r")})
			return err
		}, codes.InvalidArgument},
		{"ReadModifyWriteRow without rules", func(ctx context.Context) error {
			_, err := env.data.ReadModifyWriteRow(ctx, &btpb.ReadModifyWriteRowRequest{TableName: tn, RowKey: []byte("r")})
			return err
		}, codes.InvalidArgument},
		{"ReadModifyWriteRow on aggregate family", func(ctx context.Context) error {
			_, err := env.data.ReadModifyWriteRow(ctx, &btpb.ReadModifyWriteRowRequest{TableName: tn, RowKey: []byte("r"), Rules: []*btpb.ReadModifyWriteRule{{FamilyName: "sum", ColumnQualifier: []byte("c"), Rule: &btpb.ReadModifyWriteRule_IncrementAmount{IncrementAmount: 1}}}})
			return err
		}, codes.InvalidArgument},
		{"PingAndWarm", func(ctx context.Context) error {
			_, err := env.data.PingAndWarm(ctx, &btpb.PingAndWarmRequest{Name: "projects/x/instances/y"})
			return err
		}, codes.OK},
		{"PingAndWarm bad name", func(ctx context.Context) error {
			_, err := env.data.PingAndWarm(ctx, &btpb.PingAndWarmRequest{Name: "instances/y"})
			return err
		}, codes.InvalidArgument},
		{"PrepareQuery", func(ctx context.Context) error {
			_, err := env.data.PrepareQuery(ctx, &btpb.PrepareQueryRequest{InstanceName: instName, Query: "SELECT 1"})
			return err
		}, codes.Unimplemented},
		{"ExecuteQuery", func(ctx context.Context) error {
			s, err := env.data.ExecuteQuery(ctx, &btpb.ExecuteQueryRequest{InstanceName: instName})
			if err != nil {
				return err
			}
			return drain(s.Recv)
		}, codes.Unimplemented},
		{"ReadChangeStream", func(ctx context.Context) error {
			s, err := env.data.ReadChangeStream(ctx, &btpb.ReadChangeStreamRequest{TableName: tn})
			if err != nil {
				return err
			}
			return drain(s.Recv)
		}, codes.Unimplemented},
		{"GetClientConfiguration", func(ctx context.Context) error {
			_, err := env.data.GetClientConfiguration(ctx, &btpb.GetClientConfigurationRequest{})
			return err
		}, codes.Unimplemented},

		// Table admin.
		{"CreateTable bad parent", func(ctx context.Context) error {
			_, err := env.tadmin.CreateTable(ctx, &adminpb.CreateTableRequest{Parent: "projects/p", TableId: "x"})
			return err
		}, codes.InvalidArgument},
		{"CreateTable bad id", createTable("-bad", nil), codes.InvalidArgument},
		{"CreateTable bad family name", createTable("x", map[string]*adminpb.ColumnFamily{"a:b": {}}), codes.InvalidArgument},
		{"CreateTable gc rule too large", createTable("x", map[string]*adminpb.ColumnFamily{"f": {GcRule: bigGC}}), codes.InvalidArgument},
		{"CreateTable max_age below 1ms", createTable("x", map[string]*adminpb.ColumnFamily{"f": {GcRule: &adminpb.GcRule{Rule: &adminpb.GcRule_MaxAge{MaxAge: durationpb.New(time.Microsecond)}}}}), codes.InvalidArgument},
		{"CreateTable hllpp aggregate", createTable("x", map[string]*adminpb.ColumnFamily{"f": {ValueType: &adminpb.Type{Kind: &adminpb.Type_AggregateType{AggregateType: &adminpb.Type_Aggregate{Aggregator: &adminpb.Type_Aggregate_HllppUniqueCount{}}}}}}), codes.Unimplemented},
		{"CreateTable existing", createTable("t", nil), codes.AlreadyExists},
		{"GetTable missing", func(ctx context.Context) error {
			_, err := env.tadmin.GetTable(ctx, &adminpb.GetTableRequest{Name: tableName("nope")})
			return err
		}, codes.NotFound},
		{"DeleteTable missing", func(ctx context.Context) error {
			_, err := env.tadmin.DeleteTable(ctx, &adminpb.DeleteTableRequest{Name: tableName("nope")})
			return err
		}, codes.NotFound},
		{"ListTables bad page token", func(ctx context.Context) error {
			_, err := env.tadmin.ListTables(ctx, &adminpb.ListTablesRequest{Parent: instName, PageToken: "!!"})
			return err
		}, codes.InvalidArgument},
		{"UpdateTable without mask", updateTable(), codes.InvalidArgument},
		{"UpdateTable column_families", updateTable("column_families"), codes.Unimplemented},
		{"UpdateTable wildcard", updateTable("*"), codes.InvalidArgument},
		{"UpdateTable unknown field", updateTable("granularity"), codes.InvalidArgument},
		{"UpdateTable deletion_protection", updateTable("deletion_protection"), codes.OK},
		{"ModifyColumnFamilies drop missing", func(ctx context.Context) error {
			_, err := env.tadmin.ModifyColumnFamilies(ctx, &adminpb.ModifyColumnFamiliesRequest{Name: tn, Modifications: []*adminpb.ModifyColumnFamiliesRequest_Modification{{Id: "nope", Mod: &adminpb.ModifyColumnFamiliesRequest_Modification_Drop{Drop: true}}}})
			return err
		}, codes.NotFound},
		{"ModifyColumnFamilies missing table", func(ctx context.Context) error {
			_, err := env.tadmin.ModifyColumnFamilies(ctx, &adminpb.ModifyColumnFamiliesRequest{Name: tableName("nope")})
			return err
		}, codes.NotFound},
		{"DropRowRange empty prefix", func(ctx context.Context) error {
			_, err := env.tadmin.DropRowRange(ctx, &adminpb.DropRowRangeRequest{Name: tn, Target: &adminpb.DropRowRangeRequest_RowKeyPrefix{}})
			return err
		}, codes.InvalidArgument},
		{"DropRowRange delete_all false is a no-op", func(ctx context.Context) error {
			_, err := env.tadmin.DropRowRange(ctx, &adminpb.DropRowRangeRequest{Name: tn, Target: &adminpb.DropRowRangeRequest_DeleteAllDataFromTable{}})
			return err
		}, codes.OK},
		{"CheckConsistency unknown token", func(ctx context.Context) error {
			_, err := env.tadmin.CheckConsistency(ctx, &adminpb.CheckConsistencyRequest{Name: tn, ConsistencyToken: "made-up"})
			return err
		}, codes.InvalidArgument},
		{"GetAuthorizedView missing", func(ctx context.Context) error {
			_, err := env.tadmin.GetAuthorizedView(ctx, &adminpb.GetAuthorizedViewRequest{Name: tn + "/authorizedViews/v"})
			return err
		}, codes.NotFound},
		{"CreateAuthorizedView without subset", func(ctx context.Context) error {
			_, err := env.tadmin.CreateAuthorizedView(ctx, &adminpb.CreateAuthorizedViewRequest{Parent: tn, AuthorizedViewId: "v", AuthorizedView: &adminpb.AuthorizedView{}})
			return err
		}, codes.InvalidArgument},
		{"CreateAuthorizedView unknown family", func(ctx context.Context) error {
			_, err := env.tadmin.CreateAuthorizedView(ctx, &adminpb.CreateAuthorizedViewRequest{Parent: tn, AuthorizedViewId: "v", AuthorizedView: &adminpb.AuthorizedView{
				AuthorizedView: &adminpb.AuthorizedView_SubsetView_{SubsetView: &adminpb.AuthorizedView_SubsetView{FamilySubsets: map[string]*adminpb.AuthorizedView_FamilySubsets{"nope": {}}}},
			}})
			return err
		}, codes.InvalidArgument},
		{"GetSchemaBundle missing", func(ctx context.Context) error {
			_, err := env.tadmin.GetSchemaBundle(ctx, &adminpb.GetSchemaBundleRequest{Name: tn + "/schemaBundles/b"})
			return err
		}, codes.NotFound},
		{"CreateSchemaBundle without schema", func(ctx context.Context) error {
			_, err := env.tadmin.CreateSchemaBundle(ctx, &adminpb.CreateSchemaBundleRequest{Parent: tn, SchemaBundleId: "b", SchemaBundle: &adminpb.SchemaBundle{}})
			return err
		}, codes.InvalidArgument},
		{"SnapshotTable", func(ctx context.Context) error {
			_, err := env.tadmin.SnapshotTable(ctx, &adminpb.SnapshotTableRequest{Name: tn})
			return err
		}, codes.Unimplemented},
		{"CreateBackup", func(ctx context.Context) error {
			_, err := env.tadmin.CreateBackup(ctx, &adminpb.CreateBackupRequest{Parent: instName + "/clusters/c"})
			return err
		}, codes.Unimplemented},
		{"UndeleteTable", func(ctx context.Context) error {
			_, err := env.tadmin.UndeleteTable(ctx, &adminpb.UndeleteTableRequest{Name: tn})
			return err
		}, codes.Unimplemented},

		// Instance admin.
		{"GetInstance bad name", func(ctx context.Context) error {
			_, err := env.inst.GetInstance(ctx, &adminpb.GetInstanceRequest{Name: "projects/p"})
			return err
		}, codes.InvalidArgument},
		{"CreateInstance bad id", func(ctx context.Context) error {
			_, err := env.inst.CreateInstance(ctx, &adminpb.CreateInstanceRequest{Parent: "projects/p", InstanceId: "Bad_Id"})
			return err
		}, codes.InvalidArgument},
		{"DeleteInstance missing", func(ctx context.Context) error {
			_, err := env.inst.DeleteInstance(ctx, &adminpb.DeleteInstanceRequest{Name: "projects/p/instances/nope"})
			return err
		}, codes.NotFound},
		{"GetAppProfile", func(ctx context.Context) error {
			_, err := env.inst.GetAppProfile(ctx, &adminpb.GetAppProfileRequest{Name: instName + "/appProfiles/default"})
			return err
		}, codes.Unimplemented},
		{"CreateMaterializedView", func(ctx context.Context) error {
			_, err := env.inst.CreateMaterializedView(ctx, &adminpb.CreateMaterializedViewRequest{Parent: instName})
			return err
		}, codes.Unimplemented},
	}
	for _, c := range cases {
		err := c.call(testCtx(t))
		wantCode(t, c.name, err, c.want)
		if err != nil && strings.Contains(err.Error(), "storage: ") {
			t.Errorf("%s: message leaks the storage sentinel: %v", c.name, err)
		}
	}
}
