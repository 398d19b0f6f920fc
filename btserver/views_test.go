package btserver_test

import (
	"fmt"
	"strings"
	"testing"

	"cloud.google.com/go/bigtable"
	adminpb "cloud.google.com/go/bigtable/admin/apiv2/adminpb"
	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
)

// TestAuthorizedViews runs the worked example of spec §2.6: a view with row
// prefix r1 and family subset fam1:{col1,col2}.
func TestAuthorizedViews(t *testing.T) {
	env := newEnv(t)
	ctx := testCtx(t)
	env.createTable(t, "t", map[string]bigtable.GCPolicy{"fam1": bigtable.MaxVersionsPolicy(1), "fam2": bigtable.MaxVersionsPolicy(2)}, "r0", "r11", "r12", "r2")
	conf := bigtable.AuthorizedViewConf{
		TableID:          "t",
		AuthorizedViewID: "v",
		AuthorizedView: &bigtable.SubsetViewConf{
			RowPrefixes:   [][]byte{[]byte("r1")},
			FamilySubsets: map[string]bigtable.FamilySubset{"fam1": {Qualifiers: [][]byte{[]byte("col1"), []byte("col2")}}},
		},
		DeletionProtection: bigtable.Protected,
	}
	if err := env.admin.CreateAuthorizedView(ctx, &conf); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "create existing view", env.admin.CreateAuthorizedView(ctx, &conf), codes.AlreadyExists)
	views, err := env.admin.AuthorizedViews(ctx, "t")
	if err != nil || len(views) != 1 || views[0] != "v" {
		t.Errorf("AuthorizedViews = %v, %v", views, err)
	}
	info, err := env.admin.AuthorizedViewInfo(ctx, "t", "v")
	if err != nil {
		t.Fatal(err)
	}
	sv, ok := info.AuthorizedView.(*bigtable.SubsetViewInfo)
	if !ok || len(sv.RowPrefixes) != 1 || len(sv.FamilySubsets["fam1"].Qualifiers) != 2 || info.DeletionProtection != bigtable.Protected {
		t.Errorf("AuthorizedViewInfo = %+v", info)
	}
	wantCode(t, "delete protected view", env.admin.DeleteAuthorizedView(ctx, "t", "v"), codes.FailedPrecondition)
	wantCode(t, "delete table with protected view", env.admin.DeleteTable(ctx, "t"), codes.FailedPrecondition)

	av := env.client.OpenAuthorizedView("t", "v")
	tbl := env.client.OpenTable("t")
	mut := func(fam, col string) *bigtable.Mutation {
		m := bigtable.NewMutation()
		m.Set(fam, col, 1000, []byte("1"))
		return m
	}
	if err := av.Apply(ctx, "r1", mut("fam1", "col1")); err != nil {
		t.Fatalf("write inside the view: %v", err)
	}
	wantCode(t, "write outside the view's rows", av.Apply(ctx, "r2", mut("fam1", "col1")), codes.PermissionDenied)
	wantCode(t, "write outside the view's columns", av.Apply(ctx, "r1", mut("fam2", "column")), codes.PermissionDenied)
	if err := tbl.Apply(ctx, "r2", mut("fam1", "col1")); err != nil {
		t.Fatal(err)
	}
	errs, err := av.ApplyBulk(ctx, []string{"r1", "r2", "r1"}, []*bigtable.Mutation{mut("fam1", "col2"), mut("fam1", "col2"), mut("fam2", "column")})
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) != 3 || errs[0] != nil {
		t.Fatalf("ApplyBulk errs = %v", errs)
	}
	wantCode(t, "bulk entry outside rows", errs[1], codes.PermissionDenied)
	wantCode(t, "bulk entry outside columns", errs[2], codes.PermissionDenied)

	var got []string
	collect := func(r bigtable.Row) bool { got = append(got, r.Key()+":"+strings.Join(rowText(r), ",")); return true }
	if err := av.ReadRows(ctx, bigtable.RowRange{}, collect); err != nil {
		t.Fatal(err)
	}
	if g := strings.Join(got, "|"); g != "r1:fam1:col1@1000=1,fam1:col2@1000=1" {
		t.Errorf("view read: %s", g)
	}
	got = nil
	if err := tbl.ReadRows(ctx, bigtable.RowRange{}, collect); err != nil {
		t.Fatal(err)
	}
	if g := strings.Join(got, "|"); g != "r1:fam1:col1@1000=1,fam1:col2@1000=1|r2:fam1:col1@1000=1" {
		t.Errorf("table read: %s", g)
	}
	if r, err := av.ReadRow(ctx, "r2"); err != nil || len(r) != 0 {
		t.Errorf("ReadRow outside the view = %v, %v", r, err)
	}
	rmw := bigtable.NewReadModifyWrite()
	rmw.AppendValue("fam1", "col1", []byte("1"))
	if r, err := av.ApplyReadModifyWrite(ctx, "r1", rmw); err != nil || string(r["fam1"][0].Value) != "11" {
		t.Errorf("ReadModifyWrite in the view = %v, %v", r, err)
	}
	_, err = av.ApplyReadModifyWrite(ctx, "r2", rmw)
	wantCode(t, "ReadModifyWrite outside the view", err, codes.PermissionDenied)
	keys, err := av.SampleRowKeys(ctx)
	if got := fmt.Sprint(keys); err != nil || got != "[r11 r12 r2]" {
		t.Errorf("SampleRowKeys through the view = %s, %v", got, err)
	}

	// Etags: a stale etag is ABORTED; the current one works.
	v1, err := env.tadmin.GetAuthorizedView(ctx, &adminpb.GetAuthorizedViewRequest{Name: tableName("t") + "/authorizedViews/v"})
	if err != nil {
		t.Fatal(err)
	}
	update := func(etag string, protect bool) error {
		_, err := env.tadmin.UpdateAuthorizedView(ctx, &adminpb.UpdateAuthorizedViewRequest{
			AuthorizedView: &adminpb.AuthorizedView{Name: v1.GetName(), Etag: etag, DeletionProtection: protect},
			UpdateMask:     &fieldmaskpb.FieldMask{Paths: []string{"deletion_protection"}},
		})
		return err
	}
	if err := update(v1.GetEtag(), false); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "update with a stale etag", update(v1.GetEtag(), false), codes.Aborted)
	_, err = env.tadmin.DeleteAuthorizedView(ctx, &adminpb.DeleteAuthorizedViewRequest{Name: v1.GetName(), Etag: v1.GetEtag()})
	wantCode(t, "delete with a stale etag", err, codes.Aborted)
	// The subset survived the deletion_protection update.
	info, err = env.admin.AuthorizedViewInfo(ctx, "t", "v")
	if sv, ok := info.AuthorizedView.(*bigtable.SubsetViewInfo); err != nil || !ok || len(sv.RowPrefixes) != 1 || info.DeletionProtection != bigtable.Unprotected {
		t.Errorf("after update: %+v, %v", info, err)
	}
	// Too many qualifier prefixes.
	many := &bigtable.SubsetViewConf{RowPrefixes: [][]byte{[]byte("")}}
	for i := range 11 {
		many.AddFamilySubsetQualifierPrefix("fam2", []byte{byte('a' + i)})
	}
	wantCode(t, "11 qualifier prefixes", env.admin.CreateAuthorizedView(ctx, &bigtable.AuthorizedViewConf{TableID: "t", AuthorizedViewID: "w", AuthorizedView: many}), codes.InvalidArgument)
	if err := env.admin.DeleteAuthorizedView(ctx, "t", "v"); err != nil {
		t.Fatal(err)
	}
	_, err = env.data.MutateRow(ctx, &btpb.MutateRowRequest{AuthorizedViewName: v1.GetName(), RowKey: []byte("r1"), Mutations: []*btpb.Mutation{{Mutation: &btpb.Mutation_DeleteFromRow_{DeleteFromRow: &btpb.Mutation_DeleteFromRow{}}}}})
	wantCode(t, "write through a deleted view", err, codes.NotFound)
}
