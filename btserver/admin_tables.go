package btserver

import (
	"bytes"
	"context"
	"fmt"

	adminpb "cloud.google.com/go/bigtable/admin/apiv2/adminpb"
	"cloud.google.com/go/longrunning/autogen/longrunningpb"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/shale-db/shale/storage"
)

// CreateTable creates a table with its families, granularity, initial
// splits, deletion protection and row-key schema (spec §3.1). The instance
// is created on first use.
func (a *tableAdmin) CreateTable(ctx context.Context, req *adminpb.CreateTableRequest) (*adminpb.Table, error) {
	inst, err := parseInstance(req.GetParent())
	if err != nil {
		return nil, grpcStatus(err)
	}
	spec, err := toTableSpec(req)
	if err != nil {
		return nil, grpcStatus(err)
	}
	t, err := a.s.e.CreateTable(ctx, inst, req.GetTableId(), spec)
	if err != nil {
		return nil, grpcStatus(err)
	}
	return tableProto(t, adminpb.Table_SCHEMA_VIEW), nil
}

func toTableSpec(req *adminpb.CreateTableRequest) (storage.TableSpec, error) {
	tbl := req.GetTable()
	var spec storage.TableSpec
	if tbl.GetChangeStreamConfig().GetRetentionPeriod().AsDuration() != 0 {
		return spec, unimplemented("change streams")
	}
	if tbl.GetAutomatedBackupConfig() != nil {
		return spec, unimplemented("automated backups")
	}
	if tbl.GetTieredStorageConfig() != nil {
		return spec, unimplemented("tiered storage")
	}
	for _, name := range sortedKeys(tbl.GetColumnFamilies()) {
		f, err := toFamily(name, tbl.GetColumnFamilies()[name])
		if err != nil {
			return spec, err
		}
		spec.Families = append(spec.Families, f)
	}
	var err error
	if spec.Granularity, err = toGranularity(tbl.GetGranularity()); err != nil {
		return spec, err
	}
	for _, s := range req.GetInitialSplits() {
		spec.InitialSplits = append(spec.InitialSplits, s.GetKey())
	}
	spec.DeletionProtection = tbl.GetDeletionProtection()
	spec.RowKeySchema, err = encodeRowKeySchema(tbl.GetRowKeySchema(), spec.Families)
	return spec, err
}

// GetTable returns a table in the requested view (default SCHEMA_VIEW).
func (a *tableAdmin) GetTable(ctx context.Context, req *adminpb.GetTableRequest) (*adminpb.Table, error) {
	ref, err := parseTable(req.GetName())
	if err != nil {
		return nil, grpcStatus(err)
	}
	t, err := a.s.e.GetTable(ref.instance, ref.table)
	if err != nil {
		return nil, grpcStatus(err)
	}
	return tableProto(t, req.GetView()), nil
}

// ListTables lists an instance's tables by name, NAME_ONLY by default.
func (a *tableAdmin) ListTables(ctx context.Context, req *adminpb.ListTablesRequest) (*adminpb.ListTablesResponse, error) {
	inst, err := parseInstance(req.GetParent())
	if err != nil {
		return nil, grpcStatus(err)
	}
	tables := a.s.e.ListTables(inst)
	names := make([]string, len(tables))
	for i, t := range tables {
		names[i] = t.Name
	}
	lo, hi, next, err := page(names, req.GetPageSize(), req.GetPageToken())
	if err != nil {
		return nil, grpcStatus(err)
	}
	view := req.GetView()
	if view == adminpb.Table_VIEW_UNSPECIFIED {
		view = adminpb.Table_NAME_ONLY
	}
	resp := &adminpb.ListTablesResponse{NextPageToken: next}
	for _, t := range tables[lo:hi] {
		resp.Tables = append(resp.Tables, tableProto(t, view))
	}
	return resp, nil
}

// DeleteTable deletes a table and its data; deletion protection (of the
// table or one of its views) is FAILED_PRECONDITION.
func (a *tableAdmin) DeleteTable(ctx context.Context, req *adminpb.DeleteTableRequest) (*emptypb.Empty, error) {
	ref, err := parseTable(req.GetName())
	if err != nil {
		return nil, grpcStatus(err)
	}
	if err := a.s.e.DeleteTable(ctx, ref.instance, ref.table); err != nil {
		return nil, grpcStatus(err)
	}
	return &emptypb.Empty{}, nil
}

// UpdateTable changes deletion protection and the row-key schema (spec
// §3.1); the mask is required. It answers a done operation whose response
// is the table.
func (a *tableAdmin) UpdateTable(ctx context.Context, req *adminpb.UpdateTableRequest) (*longrunningpb.Operation, error) {
	tbl := req.GetTable()
	ref, err := parseTable(tbl.GetName())
	if err != nil {
		return nil, grpcStatus(err)
	}
	var setProtection, setSchema bool
	if len(req.GetUpdateMask().GetPaths()) == 0 {
		return nil, grpcStatus(fmt.Errorf("%w: update_mask is required", storage.ErrInvalidArgument))
	}
	for _, p := range req.GetUpdateMask().GetPaths() {
		switch p {
		case "deletion_protection":
			setProtection = true
		case "row_key_schema":
			setSchema = true
		case "column_families":
			return nil, unimplemented("updating column_families with UpdateTable (use ModifyColumnFamilies)")
		case "change_stream_config", "change_stream_config.retention_period":
			if tbl.GetChangeStreamConfig() != nil {
				return nil, unimplemented("change streams")
			}
		case "automated_backup_policy":
			if tbl.GetAutomatedBackupConfig() != nil {
				return nil, unimplemented("automated backups")
			}
		case "tiered_storage_config":
			if tbl.GetTieredStorageConfig() != nil {
				return nil, unimplemented("tiered storage")
			}
		case "*":
			return nil, grpcStatus(fmt.Errorf("%w: the update_mask wildcard is not supported", storage.ErrInvalidArgument))
		default:
			return nil, grpcStatus(fmt.Errorf("%w: cannot update field %q", storage.ErrInvalidArgument, p))
		}
	}
	t, err := a.s.e.AlterTable(ctx, ref.instance, ref.table, func(t *storage.Table) error {
		if setProtection {
			t.DeletionProtection = tbl.GetDeletionProtection()
		}
		if setSchema {
			return updateRowKeySchema(t, tbl.GetRowKeySchema(), req.GetIgnoreWarnings())
		}
		return nil
	})
	if err != nil {
		return nil, grpcStatus(err)
	}
	op, err := a.s.doneOperation(ref.name(), tableProto(t, adminpb.Table_SCHEMA_VIEW))
	return op, grpcStatus(err)
}

// updateRowKeySchema sets a schema on a table that has none, clears it
// with ignoreWarnings, and rejects any other change (spec §3.1).
func updateRowKeySchema(t *storage.Table, s *adminpb.Type_Struct, ignoreWarnings bool) error {
	if s == nil {
		if len(t.RowKeySchema) > 0 && !ignoreWarnings {
			return fmt.Errorf("%w: removing the row key schema of table %q needs ignore_warnings", storage.ErrInvalidArgument, t.Name)
		}
		t.RowKeySchema = nil
		return nil
	}
	b, err := encodeRowKeySchema(s, t.Families)
	if err != nil {
		return err
	}
	if len(t.RowKeySchema) > 0 && !bytes.Equal(b, t.RowKeySchema) {
		return fmt.Errorf("%w: table %q already has a row key schema; it cannot be changed, only cleared", storage.ErrInvalidArgument, t.Name)
	}
	t.RowKeySchema = b
	return nil
}

// ModifyColumnFamilies creates, updates and drops families atomically and
// in order, and returns the table.
func (a *tableAdmin) ModifyColumnFamilies(ctx context.Context, req *adminpb.ModifyColumnFamiliesRequest) (*adminpb.Table, error) {
	ref, err := parseTable(req.GetName())
	if err != nil {
		return nil, grpcStatus(err)
	}
	cur, err := a.s.e.GetTable(ref.instance, ref.table)
	if err != nil {
		return nil, grpcStatus(err)
	}
	mods, err := toFamilyModifications(cur, req.GetModifications())
	if err != nil {
		return nil, grpcStatus(err)
	}
	t, err := a.s.e.ModifyFamilies(ctx, ref.instance, ref.table, mods)
	if err != nil {
		return nil, grpcStatus(err)
	}
	return tableProto(t, adminpb.Table_SCHEMA_VIEW), nil
}

// toFamilyModifications converts modifications, tracking the families as
// each one leaves them, so an update sees an earlier create of the same
// request. An update changes only the masked fields (gc_rule when the mask
// is empty); the value type is immutable.
func toFamilyModifications(cur *storage.Table, ms []*adminpb.ModifyColumnFamiliesRequest_Modification) ([]storage.FamilyModification, error) {
	fams := make(map[string]storage.Family, len(cur.Families))
	for _, f := range cur.Families {
		fams[f.Name] = f
	}
	out := make([]storage.FamilyModification, 0, len(ms))
	for _, m := range ms {
		id := m.GetId()
		switch x := m.GetMod().(type) {
		case *adminpb.ModifyColumnFamiliesRequest_Modification_Create:
			f, err := toFamily(id, x.Create)
			if err != nil {
				return nil, err
			}
			if _, ok := fams[id]; !ok {
				fams[id] = f
			}
			out = append(out, storage.FamilyModification{Op: storage.CreateFamily, Family: f})
		case *adminpb.ModifyColumnFamiliesRequest_Modification_Update:
			old, ok := fams[id]
			if !ok {
				return nil, fmt.Errorf("%w: column family %q", storage.ErrNotFound, id)
			}
			f, err := updateFamily(old, x.Update, m.GetUpdateMask().GetPaths())
			if err != nil {
				return nil, err
			}
			fams[id] = f
			out = append(out, storage.FamilyModification{Op: storage.UpdateFamily, Family: f, CheckAggregate: true})
		case *adminpb.ModifyColumnFamiliesRequest_Modification_Drop:
			if !x.Drop {
				return nil, fmt.Errorf("%w: drop must be true when set (family %q)", storage.ErrInvalidArgument, id)
			}
			delete(fams, id)
			out = append(out, storage.FamilyModification{Op: storage.DropFamily, Family: storage.Family{Name: id}})
		default:
			return nil, fmt.Errorf("%w: modification of family %q sets none of create, update, drop", storage.ErrInvalidArgument, id)
		}
	}
	return out, nil
}

func updateFamily(old storage.Family, cf *adminpb.ColumnFamily, paths []string) (storage.Family, error) {
	if len(paths) == 0 {
		paths = []string{"gc_rule"}
	}
	f := old
	for _, p := range paths {
		switch p {
		case "gc_rule":
			gc, err := toGCPolicy(cf.GetGcRule())
			if err != nil {
				return f, err
			}
			f.GC = gc
		case "value_type":
			agg, err := toAggregator(cf.GetValueType())
			if err != nil || agg != old.Aggregate {
				return f, fmt.Errorf("%w: Immutable fields 'value_type.aggregate_type.*' cannot be updated (column family %q)", storage.ErrInvalidArgument, old.Name)
			}
			if f.ValueType, err = marshalValueType(cf.GetValueType()); err != nil {
				return f, err
			}
		default:
			return f, fmt.Errorf("%w: cannot update column family field %q", storage.ErrInvalidArgument, p)
		}
	}
	return f, nil
}

// DropRowRange deletes the rows with a prefix, or all rows.
func (a *tableAdmin) DropRowRange(ctx context.Context, req *adminpb.DropRowRangeRequest) (*emptypb.Empty, error) {
	ref, err := parseTable(req.GetName())
	if err != nil {
		return nil, grpcStatus(err)
	}
	switch x := req.GetTarget().(type) {
	case *adminpb.DropRowRangeRequest_RowKeyPrefix:
		err = a.s.e.DropRowRange(ctx, ref.instance, ref.table, x.RowKeyPrefix, false)
	case *adminpb.DropRowRangeRequest_DeleteAllDataFromTable:
		if x.DeleteAllDataFromTable {
			err = a.s.e.DropRowRange(ctx, ref.instance, ref.table, nil, true)
		} else {
			_, err = a.s.e.GetTable(ref.instance, ref.table) // a no-op, but the table must exist
		}
	default:
		err = fmt.Errorf("%w: DropRowRange needs row_key_prefix or delete_all_data_from_table", storage.ErrInvalidArgument)
	}
	if err != nil {
		return nil, grpcStatus(err)
	}
	return &emptypb.Empty{}, nil
}

// GenerateConsistencyToken issues a token for the table (see lro.go).
func (a *tableAdmin) GenerateConsistencyToken(ctx context.Context, req *adminpb.GenerateConsistencyTokenRequest) (*adminpb.GenerateConsistencyTokenResponse, error) {
	ref, err := parseTable(req.GetName())
	if err != nil {
		return nil, grpcStatus(err)
	}
	if _, err := a.s.e.GetTable(ref.instance, ref.table); err != nil {
		return nil, grpcStatus(err)
	}
	return &adminpb.GenerateConsistencyTokenResponse{ConsistencyToken: a.s.consistencyToken(ref.name())}, nil
}

// CheckConsistency answers consistent for any token issued for the table:
// a single node has no replication lag.
func (a *tableAdmin) CheckConsistency(ctx context.Context, req *adminpb.CheckConsistencyRequest) (*adminpb.CheckConsistencyResponse, error) {
	ref, err := parseTable(req.GetName())
	if err != nil {
		return nil, grpcStatus(err)
	}
	if _, err := a.s.e.GetTable(ref.instance, ref.table); err != nil {
		return nil, grpcStatus(err)
	}
	if err := checkConsistencyToken(ref.name(), req.GetConsistencyToken()); err != nil {
		return nil, grpcStatus(err)
	}
	return &adminpb.CheckConsistencyResponse{Consistent: true}, nil
}
