package btserver

import (
	"fmt"
	"testing"

	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"

	"github.com/shale-db/shale/storage"
)

// TestChunkWriterAllocs checks that encoding cells allocates per response
// and per slab block, not per cell.
func TestChunkWriterAllocs(t *testing.T) {
	row := &storage.Row{Key: []byte("row")}
	for i := range 100 {
		row.Cells = append(row.Cells, storage.Cell{Family: fmt.Sprintf("f%d", i/50), Qualifier: []byte{byte(i / 2)}, Timestamp: int64(i), Value: []byte("value")})
	}
	sent := 0
	w := chunkWriter{send: func(*btpb.ReadRowsResponse) error { sent++; return nil }}
	allocs := testing.AllocsPerRun(200, func() {
		if err := w.addRow(row); err != nil {
			t.Fatal(err)
		}
	})
	// 100 cells per row: anything near one allocation per cell is a bug.
	if allocs > 10 {
		t.Errorf("%.1f allocations per 100-cell row", allocs)
	}
}

// BenchmarkChunkWriter measures encoding rows of 3 cells.
func BenchmarkChunkWriter(b *testing.B) {
	row := &storage.Row{Key: []byte("phone#4c410523#20200501"), Cells: []storage.Cell{
		{Family: "cf", Qualifier: []byte("a"), Timestamp: 1000, Value: []byte("value-a")},
		{Family: "cf", Qualifier: []byte("b"), Timestamp: 1000, Value: []byte("value-b")},
		{Family: "cg", Qualifier: []byte("c"), Timestamp: 1000, Value: []byte("value-c")},
	}}
	w := chunkWriter{send: func(*btpb.ReadRowsResponse) error { return nil }}
	b.ReportAllocs()
	for b.Loop() {
		if err := w.addRow(row); err != nil {
			b.Fatal(err)
		}
	}
}
