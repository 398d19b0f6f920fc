package btserver_test

import (
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"cloud.google.com/go/bigtable"
	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
	"google.golang.org/grpc/codes"
)

func be64(n int64) []byte { return binary.BigEndian.AppendUint64(nil, uint64(n)) }

// TestMutationsEveryKind applies each mutation kind through the official
// client and reads the result back.
func TestMutationsEveryKind(t *testing.T) {
	env := newEnv(t)
	ctx := testCtx(t)
	conf := &bigtable.TableConf{
		TableID: "t",
		ColumnFamilies: map[string]bigtable.Family{
			"f":   {GCPolicy: bigtable.NoGcPolicy()},
			"g":   {GCPolicy: bigtable.NoGcPolicy()},
			"sum": {ValueType: bigtable.AggregateType{Input: bigtable.Int64Type{}, Aggregator: bigtable.SumAggregator{}}},
			"min": {ValueType: bigtable.AggregateType{Input: bigtable.Int64Type{}, Aggregator: bigtable.MinAggregator{}}},
			"max": {ValueType: bigtable.AggregateType{Input: bigtable.Int64Type{}, Aggregator: bigtable.MaxAggregator{}}},
		},
	}
	if err := env.admin.CreateTableFromConf(ctx, conf); err != nil {
		t.Fatal(err)
	}
	tbl := env.client.Open("t")
	apply := func(row string, build func(m *bigtable.Mutation)) {
		t.Helper()
		m := bigtable.NewMutation()
		build(m)
		if err := tbl.Apply(ctx, row, m); err != nil {
			t.Fatalf("Apply(%s): %v", row, err)
		}
	}
	read := func(row string) []string {
		t.Helper()
		r, err := tbl.ReadRow(ctx, row)
		if err != nil {
			t.Fatalf("ReadRow(%s): %v", row, err)
		}
		return rowText(r)
	}
	check := func(row string, want ...string) {
		t.Helper()
		if got := read(row); !slices.Equal(got, want) {
			t.Errorf("row %s:\n got %q\nwant %q", row, got, want)
		}
	}

	apply("r1", func(m *bigtable.Mutation) {
		m.Set("f", "a", 3000, []byte("a3"))
		m.Set("f", "a", 2000, []byte("a2"))
		m.Set("f", "a", 1000, []byte("a1"))
		m.Set("f", "b", 1000, []byte("b1"))
		m.Set("g", "c", 1000, []byte("c1"))
	})
	check("r1", "f:a@3000=a3", "f:a@2000=a2", "f:a@1000=a1", "f:b@1000=b1", "g:c@1000=c1")

	apply("r1", func(m *bigtable.Mutation) { m.DeleteTimestampRange("f", "a", 2000, 3000) })
	check("r1", "f:a@3000=a3", "f:a@1000=a1", "f:b@1000=b1", "g:c@1000=c1")
	apply("r1", func(m *bigtable.Mutation) { m.DeleteCellsInColumn("f", "a") })
	check("r1", "f:b@1000=b1", "g:c@1000=c1")
	apply("r1", func(m *bigtable.Mutation) { m.DeleteCellsInFamily("g") })
	check("r1", "f:b@1000=b1")
	apply("r1", func(m *bigtable.Mutation) { m.DeleteRow() })
	check("r1")

	// Mutations of one request apply in order: the delete masks the set
	// before it, not the one after.
	apply("r2", func(m *bigtable.Mutation) {
		m.Set("f", "x", 1000, []byte("old"))
		m.DeleteRow()
		m.Set("f", "y", 1000, []byte("new"))
	})
	check("r2", "f:y@1000=new")

	// Server time: the timestamp is the server's clock, truncated to ms.
	apply("r3", func(m *bigtable.Mutation) { m.Set("f", "now", bigtable.ServerTime, []byte("v")) })
	r, err := tbl.ReadRow(ctx, "r3")
	if err != nil || len(r["f"]) != 1 || r["f"][0].Timestamp <= 0 || r["f"][0].Timestamp%1000 != 0 {
		t.Errorf("server time cell: %v %v", r, err)
	}

	// Aggregates: AddToCell merges, MergeToCell merges raw state.
	apply("agg", func(m *bigtable.Mutation) {
		for _, fam := range []string{"sum", "min", "max"} {
			m.AddIntToCell(fam, "c", 0, 5)
			m.AddIntToCell(fam, "c", 0, 3)
		}
	})
	apply("agg", func(m *bigtable.Mutation) { m.MergeBytesToCell("sum", "c", 0, be64(10)) })
	check("agg", "max:c@0="+string(be64(5)), "min:c@0="+string(be64(3)), "sum:c@0="+string(be64(18)))
}

// TestApplyBulkPerEntryErrors checks one status per entry.
func TestApplyBulkPerEntryErrors(t *testing.T) {
	env := newEnv(t)
	ctx := testCtx(t)
	env.createTable(t, "t", map[string]bigtable.GCPolicy{"f": bigtable.NoGcPolicy()})
	tbl := env.client.Open("t")
	ok := bigtable.NewMutation()
	ok.Set("f", "q", 1000, []byte("v"))
	badFamily := bigtable.NewMutation()
	badFamily.Set("nope", "q", 1000, []byte("v"))
	badTS := bigtable.NewMutation()
	badTS.Set("f", "q", 1001, []byte("v")) // the client truncates, so this is ms: fine
	errs, err := tbl.ApplyBulk(ctx, []string{"a", "b", "c", "d"}, []*bigtable.Mutation{ok, badFamily, ok, badTS})
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) != 4 || errs[0] != nil || errs[1] == nil || errs[2] != nil || errs[3] != nil {
		t.Fatalf("errs = %v", errs)
	}
	wantCode(t, "unknown family entry", errs[1], codes.InvalidArgument)
	var keys []string
	if err := tbl.ReadRows(ctx, bigtable.RowRange{}, func(r bigtable.Row) bool { keys = append(keys, r.Key()); return true }); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(keys, ","); got != "a,c,d" {
		t.Errorf("rows = %s, want a,c,d", got)
	}
	// A missing table fails the whole call.
	_, err = env.client.Open("missing").ApplyBulk(ctx, []string{"a"}, []*bigtable.Mutation{ok})
	wantCode(t, "ApplyBulk on a missing table", err, codes.NotFound)
}

// TestReadRowsFiltersRanges reads with row sets, filters, limits and
// reversed order.
func TestReadRowsFiltersRanges(t *testing.T) {
	env := newEnv(t)
	ctx := testCtx(t)
	env.createTable(t, "t", map[string]bigtable.GCPolicy{"f": bigtable.NoGcPolicy(), "g": bigtable.NoGcPolicy()})
	tbl := env.client.Open("t")
	// The worked example of spec §2.3 in row r1, plus more rows.
	m := bigtable.NewMutation()
	m.Set("f", "a", 3000, []byte("x"))
	m.Set("f", "a", 2000, []byte("y"))
	m.Set("f", "b", 5000, []byte("z"))
	m.Set("g", "c", 1000, []byte("w"))
	if err := tbl.Apply(ctx, "r1", m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"r2", "r3", "s1", "s2"} {
		m := bigtable.NewMutation()
		m.Set("f", "a", 1000, []byte(k))
		if err := tbl.Apply(ctx, k, m); err != nil {
			t.Fatal(err)
		}
	}
	type tc struct {
		name string
		rows bigtable.RowSet
		opts []bigtable.ReadOption
		want string
	}
	r1 := bigtable.SingleRow("r1")
	cases := []tc{
		{"all", bigtable.RowRange{}, nil, "r1:f:a@3000=x,f:a@2000=y,f:b@5000=z,g:c@1000=w|r2:f:a@1000=r2|r3:f:a@1000=r3|s1:f:a@1000=s1|s2:f:a@1000=s2"},
		{"prefix", bigtable.PrefixRange("s"), nil, "s1:f:a@1000=s1|s2:f:a@1000=s2"},
		{"range", bigtable.NewRange("r2", "s1"), nil, "r2:f:a@1000=r2|r3:f:a@1000=r3"},
		{"closed range", bigtable.NewClosedRange("r2", "s1"), nil, "r2:f:a@1000=r2|r3:f:a@1000=r3|s1:f:a@1000=s1"},
		{"open-closed", bigtable.NewOpenClosedRange("r2", "s1"), nil, "r3:f:a@1000=r3|s1:f:a@1000=s1"},
		{"infinite", bigtable.InfiniteRange("s"), nil, "s1:f:a@1000=s1|s2:f:a@1000=s2"},
		{"row list", bigtable.RowList{"s2", "r2", "zz"}, nil, "r2:f:a@1000=r2|s2:f:a@1000=s2"},
		{"range list", bigtable.RowRangeList{bigtable.NewRange("r1", "r2"), bigtable.PrefixRange("s2")}, nil, "r1:f:a@3000=x,f:a@2000=y,f:b@5000=z,g:c@1000=w|s2:f:a@1000=s2"},
		{"limit", bigtable.RowRange{}, []bigtable.ReadOption{bigtable.LimitRows(2)}, "r1:f:a@3000=x,f:a@2000=y,f:b@5000=z,g:c@1000=w|r2:f:a@1000=r2"},
		{"reversed", bigtable.PrefixRange("r"), []bigtable.ReadOption{bigtable.ReverseScan(), bigtable.LimitRows(2)}, "r3:f:a@1000=r3|r2:f:a@1000=r2"},
		{"chain family latest", r1, filt(bigtable.ChainFilters(bigtable.FamilyFilter("f"), bigtable.LatestNFilter(1))), "r1:f:a@3000=x,f:b@5000=z"},
		{"cells per row", r1, filt(bigtable.CellsPerRowLimitFilter(2)), "r1:f:a@3000=x,f:a@2000=y"},
		{"cells per row offset", r1, filt(bigtable.CellsPerRowOffsetFilter(3)), "r1:g:c@1000=w"},
		{"condition strip", r1, filt(bigtable.ConditionFilter(bigtable.ValueFilter("z"), bigtable.StripValueFilter(), nil)), "r1:f:a@3000=,f:a@2000=,f:b@5000=,g:c@1000="},
		{"condition false", r1, filt(bigtable.ConditionFilter(bigtable.ValueFilter("nope"), nil, bigtable.FamilyFilter("g"))), "r1:g:c@1000=w"},
		{"interleave label", r1, filt(bigtable.InterleaveFilters(bigtable.FamilyFilter("g"), bigtable.ChainFilters(bigtable.ColumnRangeFilter("f", "a", "b"), bigtable.LabelFilter("x")))), "r1:f:a@3000=x [x],f:a@2000=y [x],g:c@1000=w"},
		{"column", bigtable.RowRange{}, filt(bigtable.ColumnFilter("b")), "r1:f:b@5000=z"},
		{"value range", bigtable.RowRange{}, filt(bigtable.ValueRangeFilter([]byte("r3"), []byte("s2"))), "r3:f:a@1000=r3|s1:f:a@1000=s1"},
		{"timestamp range", r1, filt(bigtable.TimestampRangeFilterMicros(2000, 5000)), "r1:f:a@3000=x,f:a@2000=y"},
		{"row key regex", bigtable.RowRange{}, filt(bigtable.RowKeyFilter("[rs]2")), "r2:f:a@1000=r2|s2:f:a@1000=s2"},
		{"block all", bigtable.RowRange{}, filt(bigtable.BlockAllFilter()), ""},
		{"pass all", bigtable.PrefixRange("s1"), filt(bigtable.PassAllFilter()), "s1:f:a@1000=s1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var rows []string
			err := tbl.ReadRows(ctx, c.rows, func(r bigtable.Row) bool {
				rows = append(rows, r.Key()+":"+strings.Join(rowText(r), ","))
				return true
			}, c.opts...)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(rows, "|"); got != c.want {
				t.Errorf("\n got %s\nwant %s", got, c.want)
			}
		})
	}
}

func filt(f bigtable.Filter) []bigtable.ReadOption {
	return []bigtable.ReadOption{bigtable.RowFilter(f)}
}

// TestReadModifyWriteAndConditional covers ReadModifyWriteRow and
// CheckAndMutateRow.
func TestReadModifyWriteAndConditional(t *testing.T) {
	env := newEnv(t)
	ctx := testCtx(t)
	env.createTable(t, "t", map[string]bigtable.GCPolicy{"f": bigtable.NoGcPolicy()})
	tbl := env.client.Open("t")

	rmw := bigtable.NewReadModifyWrite()
	rmw.Increment("f", "cnt", 5)
	rmw.AppendValue("f", "s", []byte("ab"))
	if _, err := tbl.ApplyReadModifyWrite(ctx, "r", rmw); err != nil {
		t.Fatal(err)
	}
	rmw = bigtable.NewReadModifyWrite()
	rmw.Increment("f", "cnt", 3)
	rmw.AppendValue("f", "s", []byte("c"))
	got, err := tbl.ApplyReadModifyWrite(ctx, "r", rmw)
	if err != nil {
		t.Fatal(err)
	}
	if len(got["f"]) != 2 || string(got["f"][0].Value) != string(be64(8)) || string(got["f"][1].Value) != "abc" || got["f"][0].Timestamp == 0 {
		t.Errorf("ReadModifyWrite result = %v", got)
	}
	// Incrementing a cell that is not 8 bytes fails.
	rmw = bigtable.NewReadModifyWrite()
	rmw.Increment("f", "s", 1)
	_, err = tbl.ApplyReadModifyWrite(ctx, "r", rmw)
	wantCode(t, "increment of a 3-byte cell", err, codes.FailedPrecondition)

	// CheckAndMutate: predicate matches → true mutations.
	setX := bigtable.NewMutation()
	setX.Set("f", "x", 1000, []byte("yes"))
	setY := bigtable.NewMutation()
	setY.Set("f", "y", 1000, []byte("no"))
	var matched bool
	cond := bigtable.NewCondMutation(bigtable.ValueFilter("abc"), setX, setY)
	if err := tbl.Apply(ctx, "r", cond, bigtable.GetCondMutationResult(&matched)); err != nil {
		t.Fatal(err)
	}
	if !matched {
		t.Error("predicate should match")
	}
	cond = bigtable.NewCondMutation(bigtable.ValueFilter("zzz"), setX, setY)
	if err := tbl.Apply(ctx, "r", cond, bigtable.GetCondMutationResult(&matched)); err != nil {
		t.Fatal(err)
	}
	if matched {
		t.Error("predicate should not match")
	}
	// A nil predicate matches a row with any cell; "empty" has none.
	cond = bigtable.NewCondMutation(nil, nil, setY)
	if err := tbl.Apply(ctx, "empty", cond, bigtable.GetCondMutationResult(&matched)); err != nil || matched {
		t.Errorf("cond on empty row: matched=%v err=%v", matched, err)
	}
	r, err := tbl.ReadRow(ctx, "r", bigtable.RowFilter(bigtable.ColumnFilter("[xy]")))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rowText(r), ","); got != "f:x@1000=yes,f:y@1000=no" {
		t.Errorf("after conditional mutations: %s", got)
	}
	r, _ = tbl.ReadRow(ctx, "empty")
	if got := strings.Join(rowText(r), ","); got != "f:y@1000=no" {
		t.Errorf("row empty: %s", got)
	}
}

// TestSampleRowKeys returns the split points of a presplit table and "".
func TestSampleRowKeys(t *testing.T) {
	env := newEnv(t)
	ctx := testCtx(t)
	env.createTable(t, "t", map[string]bigtable.GCPolicy{"f": bigtable.NoGcPolicy()}, "r2", "r0", "r11", "r12")
	keys, err := env.client.Open("t").SampleRowKeys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The client drops the final "" (end of table) sample.
	if got := fmt.Sprintf("%q", keys); got != `["r0" "r11" "r12" "r2"]` {
		t.Errorf("SampleRowKeys = %s", got)
	}
	// Raw: the last sample is "", and a row range clips the samples.
	for _, c := range []struct {
		rr   *btpb.RowRange
		want string
	}{
		{nil, `["r0" "r11" "r12" "r2" ""]`},
		{&btpb.RowRange{StartKey: &btpb.RowRange_StartKeyClosed{StartKeyClosed: []byte("r1")}, EndKey: &btpb.RowRange_EndKeyOpen{EndKeyOpen: []byte("r2")}}, `["r11" "r12" "r2"]`},
	} {
		stream, err := env.data.SampleRowKeys(ctx, &btpb.SampleRowKeysRequest{TableName: tableName("t"), RowRange: c.rr})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for {
			resp, err := stream.Recv()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, string(resp.GetRowKey()))
		}
		if g := fmt.Sprintf("%q", got); g != c.want {
			t.Errorf("raw SampleRowKeys(%v) = %s, want %s", c.rr, g, c.want)
		}
	}
}
