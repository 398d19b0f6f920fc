package btserver

import (
	"context"
	"fmt"
	"regexp"
	"slices"

	adminpb "cloud.google.com/go/bigtable/admin/apiv2/adminpb"
	"cloud.google.com/go/longrunning/autogen/longrunningpb"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/shale-db/shale/protoschema"
	"github.com/shale-db/shale/storage"
)

// Schema bundles (spec §3.3) are serialized FileDescriptorSets stored in
// the table descriptor (storage.Table.Bundles) through Engine.AlterTable.

// Limits of spec §3.3.
const (
	maxBundlesPerTable = 10
	maxBundleBytes     = 4 << 20
)

// bundleIDPattern: like a table id, but without '.'.
var bundleIDPattern = regexp.MustCompile(`^[_a-zA-Z0-9][-_a-zA-Z0-9]{0,49}$`)

// CreateSchemaBundle adds a bundle to a table.
func (a *tableAdmin) CreateSchemaBundle(ctx context.Context, req *adminpb.CreateSchemaBundleRequest) (*longrunningpb.Operation, error) {
	ref, err := parseTable(req.GetParent())
	if err != nil {
		return nil, grpcStatus(err)
	}
	id := req.GetSchemaBundleId()
	if !bundleIDPattern.MatchString(id) {
		return nil, grpcStatus(fmt.Errorf("%w: invalid schema bundle id %q", storage.ErrInvalidArgument, id))
	}
	desc, err := bundleDescriptors(req.GetSchemaBundle())
	if err != nil {
		return nil, grpcStatus(err)
	}
	b := storage.SchemaBundle{Name: id, Descriptors: desc, Etag: a.s.newEtag()}
	_, err = a.s.e.AlterTable(ctx, ref.instance, ref.table, func(t *storage.Table) error {
		if t.Bundle(id) != nil {
			return fmt.Errorf("%w: schema bundle %q", storage.ErrAlreadyExists, id)
		}
		if len(t.Bundles) >= maxBundlesPerTable {
			return fmt.Errorf("%w: table %q already has %d schema bundles", storage.ErrResourceExhausted, t.Name, len(t.Bundles))
		}
		t.Bundles = append(t.Bundles, b)
		return nil
	})
	if err != nil {
		return nil, grpcStatus(err)
	}
	op, err := a.s.doneOperation(bundleName(ref, id), bundleProto(ref, &b))
	return op, grpcStatus(err)
}

// bundleDescriptors returns a bundle's validated descriptor set.
func bundleDescriptors(sb *adminpb.SchemaBundle) ([]byte, error) {
	switch x := sb.GetType().(type) {
	case *adminpb.SchemaBundle_ProtoSchema:
		b := x.ProtoSchema.GetProtoDescriptors()
		return b, validateDescriptorSet(b)
	case *adminpb.SchemaBundle_AvroSchema:
		return nil, unimplemented("Avro schema bundles")
	}
	return nil, fmt.Errorf("%w: schema bundle needs a proto_schema", storage.ErrInvalidArgument)
}

// validateDescriptorSet requires b to be a FileDescriptorSet of at most
// maxBundleBytes that holds every file it imports.
func validateDescriptorSet(b []byte) error {
	if len(b) == 0 {
		return fmt.Errorf("%w: proto_descriptors is empty", storage.ErrInvalidArgument)
	}
	if len(b) > maxBundleBytes {
		return fmt.Errorf("%w: proto_descriptors is %d bytes, the limit is %d", storage.ErrInvalidArgument, len(b), maxBundleBytes)
	}
	var fds descriptorpb.FileDescriptorSet
	if err := proto.Unmarshal(b, &fds); err != nil {
		return fmt.Errorf("%w: proto_descriptors is not a FileDescriptorSet: %v", storage.ErrInvalidArgument, err)
	}
	if len(fds.GetFile()) == 0 {
		return fmt.Errorf("%w: proto_descriptors holds no files", storage.ErrInvalidArgument)
	}
	if _, err := protodesc.NewFiles(&fds); err != nil {
		return fmt.Errorf("%w: proto_descriptors: %v", storage.ErrInvalidArgument, err)
	}
	return nil
}

func bundleProto(ref tableRef, b *storage.SchemaBundle) *adminpb.SchemaBundle {
	return &adminpb.SchemaBundle{
		Name: bundleName(ref, b.Name),
		Type: &adminpb.SchemaBundle_ProtoSchema{ProtoSchema: &adminpb.ProtoSchema{ProtoDescriptors: b.Descriptors}},
		Etag: b.Etag,
	}
}

// GetSchemaBundle returns a bundle.
func (a *tableAdmin) GetSchemaBundle(ctx context.Context, req *adminpb.GetSchemaBundleRequest) (*adminpb.SchemaBundle, error) {
	ref, id, err := parseBundle(req.GetName())
	if err != nil {
		return nil, grpcStatus(err)
	}
	t, err := a.s.e.GetTable(ref.instance, ref.table)
	if err != nil {
		return nil, grpcStatus(err)
	}
	b, err := findBundle(t, id, "")
	if err != nil {
		return nil, grpcStatus(err)
	}
	return bundleProto(ref, b), nil
}

// ListSchemaBundles lists a table's bundles.
func (a *tableAdmin) ListSchemaBundles(ctx context.Context, req *adminpb.ListSchemaBundlesRequest) (*adminpb.ListSchemaBundlesResponse, error) {
	ref, err := parseTable(req.GetParent())
	if err != nil {
		return nil, grpcStatus(err)
	}
	t, err := a.s.e.GetTable(ref.instance, ref.table)
	if err != nil {
		return nil, grpcStatus(err)
	}
	names := make([]string, len(t.Bundles))
	for i := range t.Bundles {
		names[i] = t.Bundles[i].Name
	}
	lo, hi, next, err := page(names, req.GetPageSize(), req.GetPageToken())
	if err != nil {
		return nil, grpcStatus(err)
	}
	resp := &adminpb.ListSchemaBundlesResponse{NextPageToken: next}
	for i := lo; i < hi; i++ {
		resp.SchemaBundles = append(resp.SchemaBundles, bundleProto(ref, &t.Bundles[i]))
	}
	return resp, nil
}

// UpdateSchemaBundle replaces a bundle's descriptors. A set etag must
// match (ABORTED otherwise). New descriptors must be backward compatible
// with the stored ones (spec §6.5, protoschema.CheckUpdate) unless
// ignore_warnings is set: INVALID_ARGUMENT lists the incompatible changes.
func (a *tableAdmin) UpdateSchemaBundle(ctx context.Context, req *adminpb.UpdateSchemaBundleRequest) (*longrunningpb.Operation, error) {
	sb := req.GetSchemaBundle()
	ref, id, err := parseBundle(sb.GetName())
	if err != nil {
		return nil, grpcStatus(err)
	}
	paths := req.GetUpdateMask().GetPaths()
	for _, p := range paths {
		if p != "proto_schema" && p != "proto_schema.proto_descriptors" && p != "*" {
			return nil, grpcStatus(fmt.Errorf("%w: cannot update schema bundle field %q", storage.ErrInvalidArgument, p))
		}
	}
	var desc []byte
	if len(paths) > 0 || sb.GetType() != nil {
		if desc, err = bundleDescriptors(sb); err != nil {
			return nil, grpcStatus(err)
		}
	}
	var out storage.SchemaBundle
	_, err = a.s.e.AlterTable(ctx, ref.instance, ref.table, func(t *storage.Table) error {
		b, err := findBundle(t, id, sb.GetEtag())
		if err != nil {
			return err
		}
		if desc != nil {
			if !req.GetIgnoreWarnings() {
				incompat, err := protoschema.CheckUpdate(b.Descriptors, desc)
				if err != nil {
					return fmt.Errorf("%w: %v", storage.ErrInvalidArgument, err)
				}
				if len(incompat) > 0 {
					return fmt.Errorf("%w: schema bundle %q: the update is not backward compatible (set ignore_warnings to apply it): %s",
						storage.ErrInvalidArgument, id, protoschema.FormatIncompatibilities(incompat))
				}
			}
			b.Descriptors = desc
		}
		b.Etag = a.s.newEtag()
		out = *b
		return nil
	})
	if err != nil {
		return nil, grpcStatus(err)
	}
	op, err := a.s.doneOperation(bundleName(ref, id), bundleProto(ref, &out))
	return op, grpcStatus(err)
}

// findBundle returns the table's bundle id, checking etag when it is set.
func findBundle(t *storage.Table, id, etag string) (*storage.SchemaBundle, error) {
	b := t.Bundle(id)
	if b == nil {
		return nil, fmt.Errorf("%w: schema bundle %q of table %q", storage.ErrNotFound, id, t.Name)
	}
	if etag != "" && etag != b.Etag {
		return nil, fmt.Errorf("%w: etag %q of schema bundle %q does not match", storage.ErrAborted, etag, id)
	}
	return b, nil
}

// DeleteSchemaBundle removes a bundle; a set etag must match.
func (a *tableAdmin) DeleteSchemaBundle(ctx context.Context, req *adminpb.DeleteSchemaBundleRequest) (*emptypb.Empty, error) {
	ref, id, err := parseBundle(req.GetName())
	if err != nil {
		return nil, grpcStatus(err)
	}
	_, err = a.s.e.AlterTable(ctx, ref.instance, ref.table, func(t *storage.Table) error {
		if _, err := findBundle(t, id, req.GetEtag()); err != nil {
			return err
		}
		t.Bundles = slices.DeleteFunc(t.Bundles, func(b storage.SchemaBundle) bool { return b.Name == id })
		return nil
	})
	if err != nil {
		return nil, grpcStatus(err)
	}
	return &emptypb.Empty{}, nil
}
