package btbench

import (
	"context"
	"fmt"
	"io"
	"testing"
	"time"

	"cloud.google.com/go/bigtable"
	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
)

// totals accumulate one server's measurements over a benchmark's iterations.
type totals struct {
	rows   int
	wall   time.Duration
	srvCPU time.Duration // the server child's CPU
	cliCPU time.Duration // this process's CPU (the client side)
}

func (s *totals) add(rows int, wall, srvCPU, cliCPU time.Duration) {
	s.rows += rows
	s.wall += wall
	s.srvCPU += srvCPU
	s.cliCPU += cliCPU
}

func (s totals) rowsPerSec() float64 { return float64(s.rows) / s.wall.Seconds() }

func (s totals) srvMicrosPerRow() float64 {
	return float64(s.srvCPU.Microseconds()) / float64(s.rows)
}

func (s totals) cliMicrosPerRow() float64 {
	return float64(s.cliCPU.Microseconds()) / float64(s.rows)
}

// inOrder returns the two servers, alternating which goes first by
// iteration so neither always runs on a warmer (or busier) machine.
func inOrder(i int, shale, emu *target) []*target {
	if i%2 == 0 {
		return []*target{shale, emu}
	}
	return []*target{emu, shale}
}

// verdict logs whether a target is met.
func verdict(b *testing.B, what string, ok bool) {
	b.Helper()
	v := "FAIL"
	if ok {
		v = "PASS"
	}
	b.Logf("target %s: %s", what, v)
}

// summary logs one server's totals.
func summary(b *testing.B, name string, s totals) {
	b.Helper()
	b.Logf("%-5s %8d rows in %8v: %9.0f rows/s, server CPU %7v (%.2f µs/row, %d ticks), client CPU %7v (%.2f µs/row)",
		name, s.rows, s.wall.Round(time.Millisecond), s.rowsPerSec(),
		s.srvCPU, s.srvMicrosPerRow(), s.srvCPU/clockTick, s.cliCPU.Round(time.Millisecond), s.cliMicrosPerRow())
}

// BenchmarkMutateRowsLoad bulk-loads the benchmark rows (100,000 × 3 cells)
// into a fresh table of each server through the official client's
// ApplyBulk, 1,000 rows a call. Target: Shale (WAL synced) at least half the
// emulator's rows/s.
func BenchmarkMutateRowsLoad(b *testing.B) {
	shale, emu := servers(b)
	ctx := context.Background()
	benchData()
	var st, et totals
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, t := range inOrder(i, shale, emu) {
			cli0 := selfCPU()
			r := t.measuredLoad(b, ctx)
			tot := &et
			if t == shale {
				tot = &st
			}
			tot.add(r.rows, r.wall, r.srvCPU, selfCPU()-cli0)
		}
	}
	b.StopTimer()
	b.ReportMetric(0, "ns/op") // the two servers' combined time means nothing
	b.ReportMetric(st.rowsPerSec(), "shale_rows/s")
	b.ReportMetric(et.rowsPerSec(), "emu_rows/s")
	ratio := st.rowsPerSec() / et.rowsPerSec()
	b.ReportMetric(ratio, "shale/emu_rows/s")
	b.ReportMetric(st.srvMicrosPerRow(), "shale_srv_us/row")
	b.ReportMetric(et.srvMicrosPerRow(), "emu_srv_us/row")
	summary(b, "shale", st)
	summary(b, "emu", et)
	verdict(b, fmt.Sprintf("MutateRows load: Shale rows/s ≥ 0.5× emulator's (%.2f×)", ratio), ratio >= 0.5)
}

// rawScan reads the whole table over a raw gRPC stream, counting the chunks
// that commit a row; nothing is assembled.
func (t *target) rawScan(ctx context.Context, table string) (rows, chunks int, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s, err := t.raw.ReadRows(ctx, &btpb.ReadRowsRequest{TableName: tableName(table)})
	if err != nil {
		return 0, 0, err
	}
	for {
		resp, err := s.Recv()
		if err == io.EOF {
			return rows, chunks, nil
		}
		if err != nil {
			return rows, chunks, err
		}
		for _, c := range resp.GetChunks() {
			chunks++
			if c.GetCommitRow() {
				rows++
			}
		}
	}
}

// clientScan reads the whole table through the official client.
func (t *target) clientScan(ctx context.Context, table string) (rows, cells int, err error) {
	err = t.client.Open(table).ReadRows(ctx, bigtable.InfiniteRange(""), func(r bigtable.Row) bool {
		rows++
		for _, items := range r {
			cells += len(items)
		}
		return true
	})
	return rows, cells, err
}

// scanBench measures full scans of the shared table on both servers, one
// per server and iteration, after one unmeasured warm-up scan each.
func scanBench(b *testing.B, scan func(t *target, ctx context.Context, table string) (rows, cells int, err error)) (st, et totals) {
	shale, emu := servers(b)
	ctx := context.Background()
	want := benchRows()
	tables := map[*target]string{}
	for _, t := range []*target{shale, emu} {
		tables[t] = t.ensureLoaded(b, ctx)
	}
	measure := func(t *target, tot *totals) {
		srv0, cli0, start := t.proc.mustCPU(b), selfCPU(), time.Now()
		rows, cells, err := scan(t, ctx, tables[t])
		wall := time.Since(start)
		srv, cli := t.proc.mustCPU(b)-srv0, selfCPU()-cli0
		if err != nil {
			b.Fatalf("%s ReadRows: %v", t.name, err)
		}
		if rows != want || cells != 3*want {
			b.Fatalf("%s ReadRows: %d rows, %d cells; want %d, %d", t.name, rows, cells, want, 3*want)
		}
		if tot != nil {
			tot.add(rows, wall, srv, cli)
		}
	}
	for _, t := range []*target{shale, emu} {
		measure(t, nil) // warm-up
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, t := range inOrder(i, shale, emu) {
			tot := &et
			if t == shale {
				tot = &st
			}
			measure(t, tot)
		}
	}
	b.StopTimer()
	b.ReportMetric(0, "ns/op") // the two servers' combined time means nothing
	b.ReportMetric(st.rowsPerSec(), "shale_rows/s")
	b.ReportMetric(et.rowsPerSec(), "emu_rows/s")
	b.ReportMetric(st.rowsPerSec()/et.rowsPerSec(), "shale/emu_rows/s")
	b.ReportMetric(st.srvMicrosPerRow(), "shale_srv_us/row")
	b.ReportMetric(et.srvMicrosPerRow(), "emu_srv_us/row")
	summary(b, "shale", st)
	summary(b, "emu", et)
	return st, et
}

// BenchmarkReadRowsRaw scans the benchmark rows with a raw gRPC stream that
// only counts committed rows, so the client costs little and the figures are
// the servers'. Targets: Shale at least 3× the emulator's rows/s, and at most
// a third of its server CPU per row.
func BenchmarkReadRowsRaw(b *testing.B) {
	st, et := scanBench(b, func(t *target, ctx context.Context, table string) (int, int, error) {
		return t.rawScan(ctx, table)
	})
	speed := st.rowsPerSec() / et.rowsPerSec()
	cpu := st.srvMicrosPerRow() / et.srvMicrosPerRow()
	b.ReportMetric(cpu, "shale/emu_srv_us/row")
	verdict(b, fmt.Sprintf("ReadRows raw: Shale rows/s ≥ 3× emulator's (%.2f×)", speed), speed >= 3)
	verdict(b, fmt.Sprintf("ReadRows raw: Shale server CPU/row ≤ 1/3 of emulator's (%.3f, i.e. 1/%.2f)", cpu, 1/cpu), cpu <= 1.0/3)
}

// BenchmarkReadRowsClient scans the benchmark rows through the official
// client's Table.ReadRows (which assembles rows). Target: Shale never slower
// than the emulator.
func BenchmarkReadRowsClient(b *testing.B) {
	st, et := scanBench(b, func(t *target, ctx context.Context, table string) (int, int, error) {
		return t.clientScan(ctx, table)
	})
	b.ReportMetric(st.cliMicrosPerRow(), "shale_cli_us/row")
	b.ReportMetric(et.cliMicrosPerRow(), "emu_cli_us/row")
	speed := st.rowsPerSec() / et.rowsPerSec()
	verdict(b, fmt.Sprintf("ReadRows client: Shale rows/s ≥ emulator's (%.2f×)", speed), speed >= 1)
}
