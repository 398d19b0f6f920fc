package btserver_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"testing"

	"cloud.google.com/go/bigtable"
	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
)

// loadRows writes n rows "row%05d" with cells f:a, f:b, g:c, and one large
// row "row%05d-big" after row big (if big >= 0) with three 600 KiB values.
func loadRows(t *testing.T, env *env, n, big int) {
	t.Helper()
	ctx := testCtx(t)
	var entries []*btpb.MutateRowsRequest_Entry
	for i := range n {
		k := fmt.Sprintf("row%05d", i)
		entries = append(entries, &btpb.MutateRowsRequest_Entry{RowKey: []byte(k), Mutations: []*btpb.Mutation{
			setCell("f", "a", 1000), setCell("f", "b", 1000), setCell("g", "c", 1000),
		}})
		if i == big {
			m := func(fam, q string) *btpb.Mutation {
				return &btpb.Mutation{Mutation: &btpb.Mutation_SetCell_{SetCell: &btpb.Mutation_SetCell{
					FamilyName: fam, ColumnQualifier: []byte(q), TimestampMicros: 1000, Value: bytes.Repeat([]byte(q), 600<<10),
				}}}
			}
			entries = append(entries, &btpb.MutateRowsRequest_Entry{RowKey: []byte(k + "-big"), Mutations: []*btpb.Mutation{m("f", "x"), m("f", "y"), m("g", "z")}})
		}
	}
	s, err := env.data.MutateRows(ctx, &btpb.MutateRowsRequest{TableName: tableName("t"), Entries: entries})
	if err != nil {
		t.Fatal(err)
	}
	for {
		resp, err := s.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range resp.GetEntries() {
			if e.GetStatus().GetCode() != 0 {
				t.Fatalf("entry %d: %v", e.GetIndex(), e.GetStatus())
			}
		}
	}
}

// chunkStats checks the chunk rules of spec §2.2 on a raw ReadRows stream
// and reports what it saw.
type chunkStats struct {
	rows, cells, responses int
	keys                   []string
	maxResponse            int
	stats                  *btpb.RequestStats
}

func readRaw(t *testing.T, env *env, req *btpb.ReadRowsRequest) chunkStats {
	t.Helper()
	req.TableName = tableName("t")
	s, err := env.data.ReadRows(testCtx(t), req)
	if err != nil {
		t.Fatal(err)
	}
	var st chunkStats
	inRow := false
	var fam string
	var qual []byte
	var prevKey []byte
	for {
		resp, err := s.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		st.responses++
		st.maxResponse = max(st.maxResponse, proto.Size(resp))
		if resp.GetRequestStats() != nil {
			st.stats = resp.GetRequestStats()
		}
		for _, ch := range resp.GetChunks() {
			if !inRow {
				if len(ch.GetRowKey()) == 0 || ch.GetFamilyName() == nil || ch.GetQualifier() == nil {
					t.Fatalf("first chunk of a row lacks key/family/qualifier: %v", ch)
				}
				if prevKey != nil && (bytes.Compare(ch.GetRowKey(), prevKey) > 0) == req.GetReversed() {
					t.Fatalf("rows out of order: %q after %q", ch.GetRowKey(), prevKey)
				}
				prevKey = ch.GetRowKey()
				st.keys = append(st.keys, string(prevKey))
				inRow, fam, qual = true, "", nil
			} else if len(ch.GetRowKey()) > 0 {
				t.Fatalf("row key on a non-first chunk: %v", ch)
			}
			if ch.GetFamilyName() != nil {
				if ch.GetFamilyName().GetValue() == fam {
					t.Fatalf("family %q repeated", fam)
				}
				if ch.GetQualifier() == nil {
					t.Fatalf("family change without qualifier: %v", ch)
				}
				fam = ch.GetFamilyName().GetValue()
				qual = nil
			}
			if ch.GetQualifier() != nil {
				if qual != nil && bytes.Equal(ch.GetQualifier().GetValue(), qual) {
					t.Fatalf("qualifier %q repeated", qual)
				}
				qual = ch.GetQualifier().GetValue()
			}
			if ch.GetValueSize() != 0 {
				t.Fatalf("split value: %v", ch)
			}
			st.cells++
			if ch.GetCommitRow() {
				st.rows++
				inRow = false
			}
		}
	}
	if inRow {
		t.Fatal("stream ended inside a row")
	}
	return st
}

// TestReadRowsStreaming checks chunk rules, batching, large rows, limits,
// reversed order and request stats on a raw stream.
func TestReadRowsStreaming(t *testing.T) {
	env := newEnv(t)
	env.createTable(t, "t", map[string]bigtable.GCPolicy{"f": bigtable.NoGcPolicy(), "g": bigtable.NoGcPolicy()})
	const n = 5000
	loadRows(t, env, n, 2500)

	st := readRaw(t, env, &btpb.ReadRowsRequest{RequestStatsView: btpb.ReadRowsRequest_REQUEST_STATS_FULL})
	if st.rows != n+1 || st.cells != 3*n+3 {
		t.Errorf("rows=%d cells=%d, want %d and %d", st.rows, st.cells, n+1, 3*n+3)
	}
	// Small rows are batched: far fewer responses than rows, and the big
	// row travels alone.
	if st.responses > 10 {
		t.Errorf("%d responses for %d rows: not batched", st.responses, n+1)
	}
	if st.maxResponse > 2<<20 {
		t.Errorf("largest response %d bytes", st.maxResponse)
	}
	full := st.stats.GetFullReadStatsView().GetReadIterationStats()
	if full.GetRowsReturnedCount() != n+1 || full.GetCellsReturnedCount() != 3*n+3 || full.GetRowsSeenCount() != n+1 {
		t.Errorf("request stats = %v", st.stats)
	}

	st = readRaw(t, env, &btpb.ReadRowsRequest{Reversed: true, RowsLimit: 3})
	if fmt.Sprint(st.keys) != "[row04999 row04998 row04997]" {
		t.Errorf("reversed limit 3 = %v", st.keys)
	}
	st = readRaw(t, env, &btpb.ReadRowsRequest{Rows: &btpb.RowSet{RowKeys: [][]byte{[]byte("row02500-big"), []byte("row02500")}}})
	if fmt.Sprint(st.keys) != "[row02500 row02500-big]" {
		t.Errorf("row keys = %v", st.keys)
	}
	// The official client assembles the same rows.
	count := 0
	err := env.client.Open("t").ReadRows(testCtx(t), bigtable.RowRange{}, func(r bigtable.Row) bool { count++; return true })
	if err != nil || count != n+1 {
		t.Errorf("client read %d rows, %v", count, err)
	}
}

// TestReadRowsCancel cancels a read part-way: the stream ends with
// CANCELED and the iterator is released (engine.Check and Close in
// cleanup would fail otherwise).
func TestReadRowsCancel(t *testing.T) {
	env := newEnv(t)
	env.createTable(t, "t", map[string]bigtable.GCPolicy{"f": bigtable.NoGcPolicy(), "g": bigtable.NoGcPolicy()})
	// 48 MiB: more than gRPC's flow-control windows hold.
	value := bytes.Repeat([]byte("v"), 16<<10)
	for i := 0; i < 3000; i += 500 {
		var entries []*btpb.MutateRowsRequest_Entry
		for j := i; j < i+500; j++ {
			entries = append(entries, &btpb.MutateRowsRequest_Entry{RowKey: []byte(fmt.Sprintf("row%05d", j)), Mutations: []*btpb.Mutation{
				{Mutation: &btpb.Mutation_SetCell_{SetCell: &btpb.Mutation_SetCell{FamilyName: "f", Value: value}}},
			}})
		}
		s, err := env.data.MutateRows(testCtx(t), &btpb.MutateRowsRequest{TableName: tableName("t"), Entries: entries})
		if err != nil {
			t.Fatal(err)
		}
		if err := drain(s.Recv); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, err := env.data.ReadRows(ctx, &btpb.ReadRowsRequest{TableName: tableName("t")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Recv(); err != nil {
		t.Fatal(err)
	}
	cancel()
	for err == nil {
		_, err = s.Recv()
	}
	wantCode(t, "canceled read", err, codes.Canceled)
}

// TestReadRowsFilterReadsOnlyItsColumns: a filter for a few columns, or
// for the newest version of one, reads that much of a wide row, not the
// whole row, as the request stats show the official client
// (storage/filter_columns.go).
func TestReadRowsFilterReadsOnlyItsColumns(t *testing.T) {
	env := newEnv(t)
	env.createTable(t, "wide", map[string]bigtable.GCPolicy{"f": bigtable.NoGcPolicy(), "g": bigtable.NoGcPolicy()})
	tbl := env.client.Open("wide")
	ctx := testCtx(t)
	m := bigtable.NewMutation()
	for q := range 2000 {
		m.Set("f", fmt.Sprintf("q%04d", q), 1000, []byte("v"))
	}
	for v := range 500 {
		m.Set("g", "versions", bigtable.Timestamp(1000*(v+1)), fmt.Appendf(nil, "v%d", v))
	}
	if err := tbl.Apply(ctx, "wide", m); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		filter bigtable.Filter
		want   string // the cells read, as family:qualifier=value, sorted
	}{
		// What cbt read columns=f:q1234 sends, and its anchored form.
		{"column", bigtable.ChainFilters(bigtable.FamilyFilter("f"), bigtable.ColumnFilter("q1234")), "[f:q1234=v]"},
		{"anchored", bigtable.ChainFilters(bigtable.FamilyFilter("^f$"), bigtable.ColumnFilter("^q1234$")), "[f:q1234=v]"},
		// cbt read columns=f:q0007,f:q1999.
		{"two columns", bigtable.InterleaveFilters(
			bigtable.ChainFilters(bigtable.FamilyFilter("f"), bigtable.ColumnFilter("q0007")),
			bigtable.ChainFilters(bigtable.FamilyFilter("f"), bigtable.ColumnFilter("q1999"))),
			"[f:q0007=v f:q1999=v]"},
		// cbt read cells-per-column=1 columns=versions.
		{"newest", bigtable.ChainFilters(bigtable.ColumnFilter("versions"), bigtable.LatestNFilter(1)), "[g:versions=v499]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stats *bigtable.FullReadStats
			var got []string
			err := tbl.ReadRows(ctx, bigtable.RowList{"wide"}, func(r bigtable.Row) bool {
				for _, items := range r {
					for _, it := range items {
						got = append(got, fmt.Sprintf("%s=%s", it.Column, it.Value))
					}
				}
				return true
			}, bigtable.RowFilter(tc.filter), bigtable.WithFullReadStats(func(s *bigtable.FullReadStats) { stats = s }))
			if err != nil {
				t.Fatal(err)
			}
			slices.Sort(got)
			if fmt.Sprint(got) != tc.want {
				t.Errorf("cells = %v, want %s", got, tc.want)
			}
			if stats == nil {
				t.Fatal("no read stats")
			}
			t.Logf("cells seen %d, returned %d", stats.ReadIterationStats.CellsSeenCount, stats.ReadIterationStats.CellsReturnedCount)
			if seen := stats.ReadIterationStats.CellsSeenCount; seen > 40 {
				t.Errorf("the read saw %d of the row's 2,500 cells to return %d", seen, stats.ReadIterationStats.CellsReturnedCount)
			}
		})
	}
}
