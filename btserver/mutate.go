package btserver

import (
	"context"
	"fmt"

	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
	"google.golang.org/genproto/googleapis/rpc/status"
	grpcstatus "google.golang.org/grpc/status"

	"github.com/shale-db/shale/storage"
)

// MutateRow applies the mutations of one row atomically.
func (d *dataService) MutateRow(ctx context.Context, req *btpb.MutateRowRequest) (*btpb.MutateRowResponse, error) {
	tgt, err := dataTarget(req.GetTableName(), req.GetAuthorizedViewName())
	if err != nil {
		return nil, grpcStatus(err)
	}
	muts, err := toMutations(nil, req.GetMutations())
	if err != nil {
		return nil, grpcStatus(err)
	}
	if err := d.s.e.MutateRow(ctx, tgt, req.GetRowKey(), muts); err != nil {
		return nil, grpcStatus(err)
	}
	d.s.opts.Observer.Wrote(1, int64(len(muts)))
	return &btpb.MutateRowResponse{}, nil
}

// MutateRows applies each entry atomically and answers one status per
// entry. An error of the whole request (a missing table, too many
// mutations) fails the call instead.
func (d *dataService) MutateRows(req *btpb.MutateRowsRequest, stream btpb.Bigtable_MutateRowsServer) error {
	tgt, err := dataTarget(req.GetTableName(), req.GetAuthorizedViewName())
	if err != nil {
		return grpcStatus(err)
	}
	entries := req.GetEntries()
	if len(entries) == 0 {
		return grpcStatus(fmt.Errorf("%w: MutateRows needs at least one entry", storage.ErrInvalidArgument))
	}
	errs := make([]error, len(entries))
	rows := make([]storage.RowMutations, 0, len(entries))
	idx := make([]int, 0, len(entries)) // rows[k] is entries[idx[k]]
	total := 0
	for _, e := range entries {
		total += len(e.GetMutations())
	}
	muts := make([]storage.Mutation, 0, total) // one backing array for all rows
	for i, e := range entries {
		n := len(muts)
		more, err := toMutations(muts, e.GetMutations())
		if err != nil {
			errs[i] = err
			continue
		}
		muts = more
		rows = append(rows, storage.RowMutations{Key: e.GetRowKey(), Mutations: muts[n:len(muts):len(muts)]})
		idx = append(idx, i)
	}
	if len(rows) > 0 {
		rowErrs, err := d.s.e.MutateRows(stream.Context(), tgt, rows)
		if err != nil {
			return grpcStatus(err)
		}
		var wroteRows, wroteCells int64
		for k, err := range rowErrs {
			errs[idx[k]] = err
			if err == nil {
				wroteRows++
				wroteCells += int64(len(rows[k].Mutations))
			}
		}
		d.s.opts.Observer.Wrote(wroteRows, wroteCells)
	}
	resp := &btpb.MutateRowsResponse{Entries: make([]*btpb.MutateRowsResponse_Entry, len(entries))}
	ok := &status.Status{}
	for i, err := range errs {
		st := ok
		if err != nil {
			st = grpcstatus.Convert(grpcStatus(err)).Proto()
		}
		resp.Entries[i] = &btpb.MutateRowsResponse_Entry{Index: int64(i), Status: st}
	}
	return grpcStatus(stream.Send(resp))
}

// CheckAndMutateRow applies the true or false mutations depending on the
// predicate, atomically for the row.
func (d *dataService) CheckAndMutateRow(ctx context.Context, req *btpb.CheckAndMutateRowRequest) (*btpb.CheckAndMutateRowResponse, error) {
	tgt, err := dataTarget(req.GetTableName(), req.GetAuthorizedViewName())
	if err != nil {
		return nil, grpcStatus(err)
	}
	pred, err := toFilter(req.GetPredicateFilter())
	if err != nil {
		return nil, grpcStatus(err)
	}
	trueMuts, err := toMutations(nil, req.GetTrueMutations())
	if err != nil {
		return nil, grpcStatus(err)
	}
	falseMuts, err := toMutations(nil, req.GetFalseMutations())
	if err != nil {
		return nil, grpcStatus(err)
	}
	matched, err := d.s.e.CheckAndMutateRow(ctx, tgt, req.GetRowKey(), pred, trueMuts, falseMuts)
	if err != nil {
		return nil, grpcStatus(err)
	}
	applied := falseMuts
	if matched {
		applied = trueMuts
	}
	if len(applied) > 0 {
		d.s.opts.Observer.Wrote(1, int64(len(applied)))
	}
	return &btpb.CheckAndMutateRowResponse{PredicateMatched: matched}, nil
}

// ReadModifyWriteRow applies append and increment rules atomically and
// returns the new cells.
func (d *dataService) ReadModifyWriteRow(ctx context.Context, req *btpb.ReadModifyWriteRowRequest) (*btpb.ReadModifyWriteRowResponse, error) {
	tgt, err := dataTarget(req.GetTableName(), req.GetAuthorizedViewName())
	if err != nil {
		return nil, grpcStatus(err)
	}
	rules, err := toRules(req.GetRules())
	if err != nil {
		return nil, grpcStatus(err)
	}
	row, err := d.s.e.ReadModifyWriteRow(ctx, tgt, req.GetRowKey(), rules)
	if err != nil {
		return nil, grpcStatus(err)
	}
	d.s.opts.Observer.Wrote(1, int64(len(row.Cells)))
	return &btpb.ReadModifyWriteRowResponse{Row: rowProto(row)}, nil
}
