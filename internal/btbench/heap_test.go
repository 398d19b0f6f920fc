package btbench

import (
	"context"
	"io"
	"os"
	"sync"
	"testing"
	"time"

	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
)

const (
	heapLimit      = 64 << 20               // the most Shale's heap may grow during the scan
	heapSampleStep = 100 * time.Millisecond // /metrics sampling period
	slowReadFor    = 3 * time.Second        // the scan reads slowly this long...
	slowReadPause  = 100 * time.Millisecond // ...pausing this long after each response
)

// heapSample is one scrape of Shale's heap gauges.
type heapSample struct {
	at time.Duration // since sampling began
	heapStats
}

// TestReadRowsHeap loads 1,000,000 rows × 3 cells into Shale, restarts it so
// the scan starts from a process that did nothing else, then reads every row
// with a raw stream that is slow at first (the server must wait for the
// client, not buffer for it) while sampling Shale's heap every 100 ms. It
// fails if go_memstats_heap_inuse_bytes grows by 64 MiB or more over the
// baseline taken just before the scan.
func TestReadRowsHeap(t *testing.T) {
	if os.Getenv("SHALE_BTBENCH_HEAP") != "1" {
		t.Skip("loads 1,000,000 rows: set SHALE_BTBENCH_HEAP=1 to run")
	}
	shaleBin, _ := binaries(t)
	rows := envInt("SHALE_BTBENCH_HEAP_ROWS", 1_000_000)
	ctx := context.Background()
	dir := t.TempDir()

	start := func() *target {
		p, err := startShale(shaleBin, dir)
		if err != nil {
			t.Fatal(err)
		}
		tg := &target{name: "shale", proc: p}
		t.Cleanup(func() { tg.close() })
		if err := tg.connect(ctx); err != nil {
			t.Fatal(err)
		}
		return tg
	}

	// Load, two ApplyBulk streams at a time.
	tg := start()
	const table = "heap"
	if err := tg.createTable(ctx, table); err != nil {
		t.Fatal(err)
	}
	loadStart := time.Now()
	next := make(chan int)
	errs := make(chan error, 2)
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for first := range next {
				if err := tg.load(ctx, table, []batch{makeBatch(first, min(batchRows, rows-first))}); err != nil {
					errs <- err
					for range next {
					}
					return
				}
			}
		})
	}
	for first := 0; first < rows; first += batchRows {
		next <- first
	}
	close(next)
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		t.Fatal(err)
	}
	loadWall := time.Since(loadStart)
	t.Logf("loaded %d rows × 3 cells in %v (%.0f rows/s)", rows, loadWall.Round(time.Millisecond), float64(rows)/loadWall.Seconds())

	// Restart on the same data.
	tg.close()
	tg = start()
	pid := tg.proc.cmd.Process.Pid
	t.Logf("restarted Shale (pid %d) on %s", pid, dir)

	// Sample the heap from now until the scan has ended.
	var (
		mu      sync.Mutex
		samples []heapSample
	)
	sampleCtx, stopSampling := context.WithCancel(ctx)
	sampled := make(chan struct{})
	began := time.Now()
	go func() {
		defer close(sampled)
		tick := time.NewTicker(heapSampleStep)
		defer tick.Stop()
		for {
			hs, err := tg.proc.heap(sampleCtx)
			if err == nil {
				mu.Lock()
				samples = append(samples, heapSample{time.Since(began), hs})
				mu.Unlock()
			} else if sampleCtx.Err() == nil {
				t.Errorf("sampling /metrics: %v", err)
			}
			select {
			case <-sampleCtx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	time.Sleep(2 * time.Second) // let the restarted server settle
	mu.Lock()
	pre := append([]heapSample(nil), samples...)
	mu.Unlock()
	if len(pre) == 0 {
		t.Fatal("no /metrics sample before the scan")
	}
	base := pre[len(pre)-1].heapStats
	preMin, preMax := pre[0].heapStats, pre[0].heapStats
	for _, s := range pre {
		preMin.inuse, preMax.inuse = min(preMin.inuse, s.inuse), max(preMax.inuse, s.inuse)
		preMin.alloc, preMax.alloc = min(preMin.alloc, s.alloc), max(preMax.alloc, s.alloc)
	}
	rss0, _, _ := tg.proc.rss()
	srv0 := tg.proc.mustCPU(t)

	// The scan: slow for slowReadFor, then as fast as the client can.
	scanStart := time.Since(began)
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := tg.raw.ReadRows(sctx, &btpb.ReadRowsRequest{TableName: tableName(table)})
	if err != nil {
		t.Fatal(err)
	}
	got, responses, slowResponses, slowRows := 0, 0, 0, 0
	wallStart := time.Now()
	for {
		resp, err := stream.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("ReadRows after %d rows: %v", got, err)
		}
		responses++
		for _, c := range resp.GetChunks() {
			if c.GetCommitRow() {
				got++
			}
		}
		if time.Since(wallStart) < slowReadFor {
			slowResponses, slowRows = responses, got
			time.Sleep(slowReadPause)
		}
	}
	scanWall := time.Since(wallStart)
	scanEnd := time.Since(began)
	srvCPU := tg.proc.mustCPU(t) - srv0
	time.Sleep(2 * heapSampleStep) // one more sample after the scan
	stopSampling()
	<-sampled
	rss1, hwm, _ := tg.proc.rss()
	if got != rows {
		t.Fatalf("ReadRows returned %d rows, want %d", got, rows)
	}

	// Peak during the scan (and the sample right after it).
	var peak heapStats
	var peakAt time.Duration
	n := 0
	for _, s := range samples {
		if s.at < scanStart {
			continue
		}
		n++
		if s.inuse > peak.inuse {
			peak.inuse, peakAt = s.inuse, s.at-scanStart
		}
		peak.alloc = max(peak.alloc, s.alloc)
	}
	growth := func(peak, base uint64) float64 {
		if peak < base {
			return 0
		}
		return mib(peak - base)
	}
	inuseGrowth, allocGrowth := growth(peak.inuse, base.inuse), growth(peak.alloc, base.alloc)

	t.Logf("scan: %d rows in %d responses, %v (%.0f rows/s overall; %d rows in %d responses during the %v slow phase), server CPU %v",
		got, responses, scanWall.Round(time.Millisecond), float64(got)/scanWall.Seconds(), slowRows, slowResponses, slowReadFor, srvCPU)
	t.Logf("heap samples: %d before the scan, %d during/after it (every %v)", len(pre), n, heapSampleStep)
	t.Logf("heap_inuse: baseline %.1f MiB (pre-scan min %.1f, max %.1f), peak %.1f MiB at +%v: growth %.1f MiB (limit %d MiB)",
		mib(base.inuse), mib(preMin.inuse), mib(preMax.inuse), mib(peak.inuse), peakAt.Round(100*time.Millisecond), inuseGrowth, heapLimit>>20)
	t.Logf("heap_alloc: baseline %.1f MiB (pre-scan min %.1f, max %.1f), peak %.1f MiB: growth %.1f MiB",
		mib(base.alloc), mib(preMin.alloc), mib(preMax.alloc), mib(peak.alloc), allocGrowth)
	t.Logf("process RSS: %.1f MiB before the scan, %.1f MiB after, peak (VmHWM, since restart) %.1f MiB", mib(rss0), mib(rss1), mib(hwm))
	for i, s := range samples {
		if i%10 == 0 || s.at >= scanStart && s.at <= scanStart+slowReadFor+time.Second {
			phase := "pre "
			if s.at >= scanEnd {
				phase = "post"
			} else if s.at >= scanStart {
				phase = "scan"
			}
			t.Logf("  %s +%5.1fs heap_inuse %6.1f MiB heap_alloc %6.1f MiB", phase, s.at.Seconds(), mib(s.inuse), mib(s.alloc))
		}
	}
	if inuseGrowth >= mib(heapLimit) {
		t.Errorf("target ReadRows heap growth < 64 MiB: FAIL (%.1f MiB)", inuseGrowth)
	} else {
		t.Logf("target ReadRows heap growth < 64 MiB: PASS (%.1f MiB)", inuseGrowth)
	}
}

func mib(b uint64) float64 { return float64(b) / (1 << 20) }
