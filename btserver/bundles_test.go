package btserver_test

import (
	"strings"
	"testing"

	"cloud.google.com/go/bigtable"
	adminpb "cloud.google.com/go/bigtable/admin/apiv2/adminpb"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"
)

// descriptorSet builds a FileDescriptorSet with one file holding message
// Author with the given string fields, importing imports.
func descriptorSet(t *testing.T, fields []string, imports ...string) []byte {
	t.Helper()
	msg := &descriptorpb.DescriptorProto{Name: proto.String("Author")}
	for i, f := range fields {
		msg.Field = append(msg.Field, &descriptorpb.FieldDescriptorProto{
			Name:   proto.String(f),
			Number: proto.Int32(int32(i + 1)),
			Type:   descriptorpb.FieldDescriptorProto_TYPE_STRING.Enum(),
			Label:  descriptorpb.FieldDescriptorProto_LABEL_OPTIONAL.Enum(),
		})
	}
	fd := &descriptorpb.FileDescriptorProto{
		Name:        proto.String("author.proto"),
		Package:     proto.String("books"),
		Syntax:      proto.String("proto3"),
		Dependency:  imports,
		MessageType: []*descriptorpb.DescriptorProto{msg},
	}
	b, err := proto.Marshal(&descriptorpb.FileDescriptorSet{File: []*descriptorpb.FileDescriptorProto{fd}})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSchemaBundles covers create/get/list/update/delete with etags.
func TestSchemaBundles(t *testing.T) {
	env := newEnv(t)
	ctx := testCtx(t)
	env.createTable(t, "t", map[string]bigtable.GCPolicy{"f": bigtable.NoGcPolicy()})
	v1 := descriptorSet(t, []string{"first_name"})
	conf := &bigtable.SchemaBundleConf{TableID: "t", SchemaBundleID: "b", ProtoSchema: &bigtable.ProtoSchemaInfo{ProtoDescriptors: v1}}
	if err := env.admin.CreateSchemaBundle(ctx, conf); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "create existing bundle", env.admin.CreateSchemaBundle(ctx, conf), codes.AlreadyExists)
	for name, desc := range map[string][]byte{
		"garbage":        []byte("not a descriptor set \xff\xff"),
		"missing import": descriptorSet(t, []string{"x"}, "google/protobuf/timestamp.proto"),
	} {
		bad := &bigtable.SchemaBundleConf{TableID: "t", SchemaBundleID: "bad", ProtoSchema: &bigtable.ProtoSchemaInfo{ProtoDescriptors: desc}}
		wantCode(t, "bundle: "+name, env.admin.CreateSchemaBundle(ctx, bad), codes.InvalidArgument)
	}
	dotted := &bigtable.SchemaBundleConf{TableID: "t", SchemaBundleID: "a.b", ProtoSchema: &bigtable.ProtoSchemaInfo{ProtoDescriptors: v1}}
	wantCode(t, "bundle id with a dot", env.admin.CreateSchemaBundle(ctx, dotted), codes.InvalidArgument)

	info, err := env.admin.GetSchemaBundle(ctx, "t", "b")
	if err != nil || !proto.Equal(mustFDS(t, info.SchemaBundle), mustFDS(t, v1)) || info.Etag == "" {
		t.Fatalf("GetSchemaBundle = %+v, %v", info, err)
	}
	names, err := env.admin.SchemaBundles(ctx, "t")
	if err != nil || len(names) != 1 || names[0] != "b" {
		t.Errorf("SchemaBundles = %v, %v", names, err)
	}
	v2 := descriptorSet(t, []string{"first_name", "last_name"})
	up := bigtable.UpdateSchemaBundleConf{SchemaBundleConf: bigtable.SchemaBundleConf{TableID: "t", SchemaBundleID: "b", Etag: info.Etag, ProtoSchema: &bigtable.ProtoSchemaInfo{ProtoDescriptors: v2}}}
	if err := env.admin.UpdateSchemaBundle(ctx, up); err != nil {
		t.Fatal(err)
	}
	// The old etag is now stale.
	wantCode(t, "update with a stale etag", env.admin.UpdateSchemaBundle(ctx, up), codes.Aborted)
	_, err = env.tadmin.DeleteSchemaBundle(ctx, &adminpb.DeleteSchemaBundleRequest{Name: tableName("t") + "/schemaBundles/b", Etag: info.Etag})
	wantCode(t, "delete with a stale etag", err, codes.Aborted)
	info2, err := env.admin.GetSchemaBundle(ctx, "t", "b")
	if err != nil || !proto.Equal(mustFDS(t, info2.SchemaBundle), mustFDS(t, v2)) || info2.Etag == info.Etag {
		t.Fatalf("after update: %+v, %v", info2, err)
	}
	if err := env.admin.DeleteSchemaBundle(ctx, "t", "b"); err != nil {
		t.Fatal(err)
	}
	_, err = env.admin.GetSchemaBundle(ctx, "t", "b")
	wantCode(t, "get a deleted bundle", err, codes.NotFound)
	// At most 10 bundles per table.
	for i := range 10 {
		c := &bigtable.SchemaBundleConf{TableID: "t", SchemaBundleID: "b" + itoa(int64(i)), ProtoSchema: &bigtable.ProtoSchemaInfo{ProtoDescriptors: v1}}
		if err := env.admin.CreateSchemaBundle(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	c := &bigtable.SchemaBundleConf{TableID: "t", SchemaBundleID: "b10", ProtoSchema: &bigtable.ProtoSchemaInfo{ProtoDescriptors: v1}}
	wantCode(t, "11th bundle", env.admin.CreateSchemaBundle(ctx, c), codes.ResourceExhausted)
}

func mustFDS(t *testing.T, b []byte) *descriptorpb.FileDescriptorSet {
	t.Helper()
	var fds descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(b, &fds); err != nil {
		t.Fatal(err)
	}
	return &fds
}

// TestSchemaBundleUpdateCompatibility: spec §6.5 through the Go client —
// adding a field passes; removing one, or reusing its number with
// another name, is INVALID_ARGUMENT listing the changes unless
// IgnoreWarnings.
func TestSchemaBundleUpdateCompatibility(t *testing.T) {
	env := newEnv(t)
	ctx := testCtx(t)
	env.createTable(t, "t", map[string]bigtable.GCPolicy{"f": bigtable.NoGcPolicy()})
	conf := bigtable.SchemaBundleConf{TableID: "t", SchemaBundleID: "b",
		ProtoSchema: &bigtable.ProtoSchemaInfo{ProtoDescriptors: descriptorSet(t, []string{"first_name"})}}
	if err := env.admin.CreateSchemaBundle(ctx, &conf); err != nil {
		t.Fatal(err)
	}
	update := func(fields []string, ignore bool) error {
		c := conf
		c.ProtoSchema = &bigtable.ProtoSchemaInfo{ProtoDescriptors: descriptorSet(t, fields)}
		return env.admin.UpdateSchemaBundle(ctx, bigtable.UpdateSchemaBundleConf{SchemaBundleConf: c, IgnoreWarnings: ignore})
	}
	// Compatible: first_name=1 → first_name=1, last_name=2.
	if err := update([]string{"first_name", "last_name"}, false); err != nil {
		t.Fatalf("compatible update: %v", err)
	}
	// Incompatible: last_name removed, number 1 renamed.
	err := update([]string{"given_name"}, false)
	wantCode(t, "incompatible update", err, codes.InvalidArgument)
	for _, want := range []string{
		"books.Author.first_name: field number 1 renamed to given_name",
		"books.Author.last_name: field removed (number 2)",
		"ignore_warnings",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("incompatible update error %v lacks %q", err, want)
		}
	}
	info, err := env.admin.GetSchemaBundle(ctx, "t", "b")
	if err != nil || !proto.Equal(mustFDS(t, info.SchemaBundle), mustFDS(t, descriptorSet(t, []string{"first_name", "last_name"}))) {
		t.Fatalf("a refused update changed the bundle: %v", err)
	}
	if err := update([]string{"given_name"}, true); err != nil {
		t.Fatalf("incompatible update with ignore_warnings: %v", err)
	}
	info, err = env.admin.GetSchemaBundle(ctx, "t", "b")
	if err != nil || !proto.Equal(mustFDS(t, info.SchemaBundle), mustFDS(t, descriptorSet(t, []string{"given_name"}))) {
		t.Fatalf("after the forced update: %v", err)
	}
	// Re-sending the same descriptors is compatible.
	if err := update([]string{"given_name"}, false); err != nil {
		t.Fatalf("identical update: %v", err)
	}
}
