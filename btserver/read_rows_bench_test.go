package btserver_test

import (
	"fmt"
	"io"
	"testing"

	"cloud.google.com/go/bigtable"
	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
)

// BenchmarkReadRowsScan scans 100,000 rows × 3 cells over a raw stream
// that only counts chunks (the server's cost, not the client's).
func BenchmarkReadRowsScan(b *testing.B) {
	env := newEnv(b)
	if err := env.admin.CreateTableFromConf(b.Context(), &bigtable.TableConf{TableID: "t", Families: map[string]bigtable.GCPolicy{"f": bigtable.NoGcPolicy(), "g": bigtable.NoGcPolicy()}}); err != nil {
		b.Fatal(err)
	}
	const rows = 100_000
	for i := 0; i < rows; i += 10_000 {
		var entries []*btpb.MutateRowsRequest_Entry
		for j := i; j < i+10_000; j++ {
			entries = append(entries, &btpb.MutateRowsRequest_Entry{RowKey: []byte(fmt.Sprintf("row%07d", j)), Mutations: []*btpb.Mutation{
				setCell("f", "a", 1000), setCell("f", "b", 1000), setCell("g", "c", 1000),
			}})
		}
		s, err := env.data.MutateRows(b.Context(), &btpb.MutateRowsRequest{TableName: tableName("t"), Entries: entries})
		if err != nil {
			b.Fatal(err)
		}
		if err := drain(s.Recv); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		s, err := env.data.ReadRows(b.Context(), &btpb.ReadRowsRequest{TableName: tableName("t")})
		if err != nil {
			b.Fatal(err)
		}
		chunks := 0
		for {
			resp, err := s.Recv()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			chunks += len(resp.GetChunks())
		}
		if chunks != 3*rows {
			b.Fatalf("%d chunks", chunks)
		}
	}
	b.ReportMetric(float64(rows*b.N)/b.Elapsed().Seconds(), "rows/s")
}
