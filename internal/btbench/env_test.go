package btbench

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"cloud.google.com/go/bigtable"
	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

const (
	project   = "bench"
	instance  = "bench"
	family    = "stats"
	batchRows = 1000 // rows per ApplyBulk call
)

// columns are the three qualifiers of every row.
var columns = [3]string{"connected_cell", "connected_wifi", "os_build"}

// cellTime is the timestamp of every cell (millisecond granularity, as
// Bigtable requires).
var cellTime = bigtable.Time(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))

// benchRows is the number of rows the benchmarks load and scan.
func benchRows() int { return envInt("SHALE_BTBENCH_ROWS", 100_000) }

func envInt(name string, def int) int {
	if v := os.Getenv(name); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			panic(fmt.Sprintf("%s=%q: want a positive integer", name, v))
		}
		return n
	}
	return def
}

// mix32 is a bijection of uint32 (the lowbias32 hash), so every row gets a
// distinct device id and rows arrive in no particular key order.
func mix32(x uint32) uint32 {
	x ^= x >> 16
	x *= 0x7feb352d
	x ^= x >> 15
	x *= 0x846ca68b
	x ^= x >> 16
	return x
}

// rowKey is row i's key: "phone#" + device id + "#" + a timestamp, 29 bytes.
func rowKey(i int) string {
	return fmt.Sprintf("phone#%08x#%014d", mix32(uint32(i)), 20250101000000+int64(i))
}

const valueAlphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// cellValue is the value of row i's column c: 8 to 20 bytes.
func cellValue(i, c int) []byte {
	h := mix32(uint32(i)*3 + uint32(c) + 0x9e3779b9)
	v := make([]byte, 8+h%13)
	for k := range v {
		h = mix32(h + uint32(k))
		v[k] = valueAlphabet[h%uint32(len(valueAlphabet))]
	}
	return v
}

// batch is one ApplyBulk call's rows.
type batch struct {
	keys []string
	muts []*bigtable.Mutation
}

// makeBatch builds rows [first, first+n).
func makeBatch(first, n int) batch {
	b := batch{keys: make([]string, n), muts: make([]*bigtable.Mutation, n)}
	for j := range n {
		i := first + j
		m := bigtable.NewMutation()
		for c, col := range columns {
			m.Set(family, col, cellTime, cellValue(i, c))
		}
		b.keys[j], b.muts[j] = rowKey(i), m
	}
	return b
}

// makeBatches builds rows [0, rows) in batches of batchRows. Mutations are
// immutable once built, so the same batches load both servers.
func makeBatches(rows int) []batch {
	var bs []batch
	for first := 0; first < rows; first += batchRows {
		bs = append(bs, makeBatch(first, min(batchRows, rows-first)))
	}
	return bs
}

// target is one server with its clients.
type target struct {
	name   string // "shale" or "emu"
	proc   *proc
	client *bigtable.Client
	admin  *bigtable.AdminClient
	conn   *grpc.ClientConn // raw gRPC, for btpb.BigtableClient
	raw    btpb.BigtableClient

	mu        sync.Mutex
	scanTable string // holds benchRows rows, shared by the read benchmarks
	loadSeq   int
	closeOnce sync.Once
}

// emulatorEnv serialises setting BIGTABLE_EMULATOR_HOST while clients are
// created (the official client reads it in NewClient).
var emulatorEnv sync.Mutex

// connect creates the official data and admin clients and a raw gRPC
// connection to t.proc.
func (t *target) connect(ctx context.Context) error {
	emulatorEnv.Lock()
	defer emulatorEnv.Unlock()
	old, had := os.LookupEnv("BIGTABLE_EMULATOR_HOST")
	os.Setenv("BIGTABLE_EMULATOR_HOST", t.proc.addr)
	defer func() {
		if had {
			os.Setenv("BIGTABLE_EMULATOR_HOST", old)
		} else {
			os.Unsetenv("BIGTABLE_EMULATOR_HOST")
		}
	}()
	var err error
	if t.client, err = bigtable.NewClient(ctx, project, instance); err != nil {
		return err
	}
	if t.admin, err = bigtable.NewAdminClient(ctx, project, instance); err != nil {
		return err
	}
	t.conn, err = grpc.NewClient(t.proc.addr,
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(256<<20), grpc.MaxCallSendMsgSize(256<<20)))
	if err != nil {
		return err
	}
	t.raw = btpb.NewBigtableClient(t.conn)
	return nil
}

func (t *target) close() {
	if t == nil {
		return
	}
	t.closeOnce.Do(t.doClose)
}

func (t *target) doClose() {
	if t.client != nil {
		t.client.Close()
	}
	if t.admin != nil {
		t.admin.Close()
	}
	if t.conn != nil {
		t.conn.Close()
	}
	if err := t.proc.stop(); err != nil {
		fmt.Fprintf(os.Stderr, "btbench: stopping %s: %v\n%s", t.name, err, t.proc.logs)
	}
}

// tableName is the full name of a table, for raw requests.
func tableName(table string) string {
	return fmt.Sprintf("projects/%s/instances/%s/tables/%s", project, instance, table)
}

// shared holds both servers, started once per process by servers.
var shared struct {
	once    sync.Once
	err     error
	dataDir string // Shale's, removed by closeShared
	shale   *target
	emu     *target
	loadMu  sync.Mutex
	data    []batch // the benchRows rows, built once
}

// servers starts Shale and the emulator (once per process) and connects to
// both.
func servers(tb testing.TB) (shale, emu *target) {
	tb.Helper()
	shaleBin, emuBin := binaries(tb)
	shared.once.Do(func() {
		ctx := context.Background()
		dir, err := os.MkdirTemp("", "shale-btbench-data-*")
		if err != nil {
			shared.err = err
			return
		}
		shared.dataDir = dir
		sp, err := startShale(shaleBin, dir)
		shared.shale = &target{name: "shale", proc: sp}
		if err != nil {
			shared.err = err
			return
		}
		ep, err := startEmulator(emuBin)
		shared.emu = &target{name: "emu", proc: ep}
		if err != nil {
			shared.err = err
			return
		}
		for _, t := range []*target{shared.shale, shared.emu} {
			if err := t.connect(ctx); err != nil {
				shared.err = fmt.Errorf("%s: %w", t.name, err)
				return
			}
		}
	})
	if shared.err != nil {
		tb.Fatal(shared.err)
	}
	return shared.shale, shared.emu
}

func closeShared() {
	shared.shale.close()
	shared.emu.close()
	if shared.dataDir != "" {
		os.RemoveAll(shared.dataDir)
	}
}

// benchData returns the benchmark rows, built once.
func benchData() []batch {
	shared.loadMu.Lock()
	defer shared.loadMu.Unlock()
	if shared.data == nil {
		shared.data = makeBatches(benchRows())
	}
	return shared.data
}

// createTable creates an empty table with the benchmark's family.
func (t *target) createTable(ctx context.Context, table string) error {
	return t.admin.CreateTableFromConf(ctx, &bigtable.TableConf{
		TableID:  table,
		Families: map[string]bigtable.GCPolicy{family: bigtable.NoGcPolicy()},
	})
}

// load applies the batches to table in order, one ApplyBulk call each.
func (t *target) load(ctx context.Context, table string, data []batch) error {
	tbl := t.client.Open(table)
	for _, b := range data {
		errs, err := tbl.ApplyBulk(ctx, b.keys, b.muts)
		if err != nil {
			return fmt.Errorf("%s ApplyBulk: %w", t.name, err)
		}
		for k, err := range errs {
			if err != nil {
				return fmt.Errorf("%s ApplyBulk row %q: %w", t.name, b.keys[k], err)
			}
		}
	}
	return nil
}

// loadResult is one measured bulk load.
type loadResult struct {
	rows    int
	wall    time.Duration
	srvCPU  time.Duration
	table   string
	created bool
}

// measuredLoad creates a fresh table and loads the benchmark rows into it,
// timing the load and the server's CPU. The first complete load becomes the
// table the read benchmarks scan; the caller drops the others.
func (t *target) measuredLoad(tb testing.TB, ctx context.Context) loadResult {
	tb.Helper()
	data := benchData()
	t.mu.Lock()
	t.loadSeq++
	table := fmt.Sprintf("load%d", t.loadSeq)
	t.mu.Unlock()
	if err := t.createTable(ctx, table); err != nil {
		tb.Fatalf("%s CreateTable: %v", t.name, err)
	}
	rows := 0
	for _, b := range data {
		rows += len(b.keys)
	}
	cpu0, start := t.proc.mustCPU(tb), time.Now()
	if err := t.load(ctx, table, data); err != nil {
		tb.Fatal(err)
	}
	r := loadResult{rows: rows, wall: time.Since(start), table: table}
	r.srvCPU = t.proc.mustCPU(tb) - cpu0
	t.mu.Lock()
	if t.scanTable == "" {
		t.scanTable = table
	}
	keep := t.scanTable == table
	t.mu.Unlock()
	if !keep {
		if err := t.admin.DeleteTable(ctx, table); err != nil {
			tb.Fatalf("%s DeleteTable: %v", t.name, err)
		}
	}
	return r
}

// ensureLoaded returns the table holding the benchmark rows, loading it
// first if no benchmark has yet.
func (t *target) ensureLoaded(tb testing.TB, ctx context.Context) string {
	tb.Helper()
	t.mu.Lock()
	table := t.scanTable
	t.mu.Unlock()
	if table != "" {
		return table
	}
	r := t.measuredLoad(tb, ctx)
	tb.Logf("%s: loaded %d rows for the scans in %v (%.0f rows/s)", t.name, r.rows, r.wall.Round(time.Millisecond), float64(r.rows)/r.wall.Seconds())
	return r.table
}
