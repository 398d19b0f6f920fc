package btserver

import (
	"testing"

	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"

	"github.com/shale-db/shale/sql/types"
)

// BenchmarkResultWriter measures encoding rows into batches, without gRPC:
// a row of (BYTES key, MAP<BYTES, BYTES> with two entries, INT64).
func BenchmarkResultWriter(b *testing.B) {
	m := types.MapOf(types.Bytes, types.Bytes)
	row := []types.Value{
		types.BytesValue([]byte("phone#4c410523#20200501")),
		types.MapValue(m, []types.Value{
			types.BytesValue([]byte("connected_cell")), types.BytesValue([]byte("1")),
			types.BytesValue([]byte("os_build")), types.BytesValue([]byte("PQ2A.190405.003")),
		}),
		types.Int64Value(1588291200000000),
	}
	w := &resultWriter{send: func(*btpb.ExecuteQueryResponse) error { return nil }}
	b.ReportAllocs()
	for b.Loop() {
		if err := w.addRow(row); err != nil {
			b.Fatal(err)
		}
	}
}
