package btserver

import (
	"bytes"
	"context"

	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"

	"github.com/shale-db/shale/storage"
)

// SampleRowKeys streams the table's tablet boundaries (spec §2.5),
// restricted to the request's row range when it has one.
func (d *dataService) SampleRowKeys(req *btpb.SampleRowKeysRequest, stream btpb.Bigtable_SampleRowKeysServer) error {
	if req.GetMaterializedViewName() != "" {
		return unimplemented("reading materialized views")
	}
	tgt, err := dataTarget(req.GetTableName(), req.GetAuthorizedViewName())
	if err != nil {
		return grpcStatus(err)
	}
	samples, err := d.s.e.SampleRowKeys(stream.Context(), tgt)
	if err != nil {
		return grpcStatus(err)
	}
	if req.GetRowRange() != nil {
		samples = clipSamples(samples, toRowRange(req.GetRowRange()))
	}
	for _, s := range samples {
		if err := stream.Send(&btpb.SampleRowKeysResponse{RowKey: s.Key, OffsetBytes: s.Offset}); err != nil {
			return grpcStatus(err)
		}
	}
	return nil
}

// clipSamples keeps the samples strictly inside r and ends with r's end
// key, or with the table's end ("") when r is unbounded.
func clipSamples(samples []storage.Sample, r storage.RowRange) []storage.Sample {
	var out []storage.Sample
	var last int64
	for _, s := range samples {
		if len(s.Key) == 0 {
			last = s.Offset
			continue
		}
		if bytes.Compare(s.Key, r.Start) <= 0 {
			continue
		}
		if len(r.End) > 0 && bytes.Compare(s.Key, r.End) >= 0 {
			last = s.Offset
			break
		}
		out = append(out, s)
		last = s.Offset
	}
	end := r.End
	if end == nil {
		end = []byte{}
	}
	return append(out, storage.Sample{Key: end, Offset: last})
}

// PingAndWarm answers OK for any well-formed instance name: instances are
// created on first use.
func (d *dataService) PingAndWarm(ctx context.Context, req *btpb.PingAndWarmRequest) (*btpb.PingAndWarmResponse, error) {
	if _, err := parseInstance(req.GetName()); err != nil {
		return nil, grpcStatus(err)
	}
	return &btpb.PingAndWarmResponse{}, nil
}
