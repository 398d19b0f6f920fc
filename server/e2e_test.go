package server_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"cloud.google.com/go/bigtable"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// shaleBin is the shale binary built once for the end-to-end tests.
var shaleBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "shale-e2e-*")
	if err != nil {
		panic(err)
	}
	shaleBin = filepath.Join(dir, "shale")
	out, err := exec.Command("go", "build", "-o", shaleBin, "github.com/shale-db/shale/cmd/shale").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "building shale: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// proc is a `shale serve` child process.
type proc struct {
	cmd      *exec.Cmd
	grpcAddr string
	httpAddr string
	pgAddr   string
	logs     *strings.Builder
}

var addrLine = regexp.MustCompile(`shale: (Bigtable gRPC API|HTTP|PostgreSQL) listening.* addr=(\S+)`)

// startShale runs `shale serve` on a data directory with free ports and
// waits for its listeners to log their address.
func startShale(t *testing.T, dataDir string) *proc {
	t.Helper()
	return startShaleCmd(t, "serve", dataDir)
}

// startShaleCmd runs `shale <command>` (serve or demo) like startShale,
// with extra flags.
func startShaleCmd(t *testing.T, command, dataDir string, flags ...string) *proc {
	t.Helper()
	args := append([]string{command, "--data", dataDir, "--grpc", "127.0.0.1:0", "--http", "127.0.0.1:0",
		"--pg", "127.0.0.1:0"}, flags...)
	cmd := exec.Command(shaleBin, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &proc{cmd: cmd, logs: &strings.Builder{}}
	lines := bufio.NewScanner(stderr)
	deadline := time.AfterFunc(20*time.Second, func() { cmd.Process.Kill() })
	defer deadline.Stop()
	for (p.grpcAddr == "" || p.httpAddr == "" || p.pgAddr == "") && lines.Scan() {
		p.logs.WriteString(lines.Text() + "\n")
		if m := addrLine.FindStringSubmatch(lines.Text()); m != nil {
			switch m[1] {
			case "HTTP":
				p.httpAddr = m[2]
			case "PostgreSQL":
				p.pgAddr = m[2]
			default:
				p.grpcAddr = m[2]
			}
		}
	}
	if p.grpcAddr == "" || p.httpAddr == "" || p.pgAddr == "" {
		t.Fatalf("shale %s did not start:\n%s", command, p.logs)
	}
	go func() { // keep draining the log so the child never blocks on it
		for lines.Scan() {
		}
	}()
	t.Cleanup(func() { p.cmd.Process.Kill(); p.cmd.Wait() })
	return p
}

// stop sends SIGTERM and requires a clean exit.
func (p *proc) stop(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("shale serve exited with %v:\n%s", err, p.logs)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("shale serve did not stop on SIGTERM")
	}
}

func (p *proc) clients(t *testing.T) (*bigtable.Client, *bigtable.AdminClient) {
	t.Helper()
	return p.clientsOf(t, "proj", "inst")
}

func (p *proc) clientsOf(t *testing.T, project, instance string) (*bigtable.Client, *bigtable.AdminClient) {
	t.Helper()
	t.Setenv("BIGTABLE_EMULATOR_HOST", p.grpcAddr)
	ctx := context.Background()
	c, err := bigtable.NewClient(ctx, project, instance)
	if err != nil {
		t.Fatal(err)
	}
	ac, err := bigtable.NewAdminClient(ctx, project, instance)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(); ac.Close() })
	return c, ac
}

// readAll returns a table's rows as "key fam:qual@ts=value ..." lines.
func readAll(t *testing.T, tbl bigtable.TableAPI, rs bigtable.RowSet, opts ...bigtable.ReadOption) []string {
	t.Helper()
	var out []string
	err := tbl.ReadRows(context.Background(), rs, func(r bigtable.Row) bool {
		out = append(out, formatRow(r))
		return true
	}, opts...)
	if err != nil {
		t.Fatalf("ReadRows: %v", err)
	}
	return out
}

func formatRow(r bigtable.Row) string {
	var cells []string
	fams := make([]string, 0, len(r))
	for f := range r {
		fams = append(fams, f)
	}
	slices.Sort(fams)
	for _, f := range fams {
		for _, it := range r[f] {
			s := fmt.Sprintf("%s@%d=%q", it.Column, it.Timestamp, it.Value)
			if len(it.Labels) > 0 {
				s += fmt.Sprint(it.Labels)
			}
			cells = append(cells, s)
		}
	}
	return r.Key() + " " + strings.Join(cells, " ")
}

func mustEqual(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("%s:\n got: %s\nwant: %s", what, strings.Join(got, "\n      "), strings.Join(want, "\n      "))
	}
}

func wantCode(t *testing.T, what string, err error, code codes.Code) {
	t.Helper()
	if status.Code(err) != code {
		t.Fatalf("%s: got %v (%v), want %v", what, status.Code(err), err, code)
	}
}

// TestServeEndToEnd drives `shale serve` with the official Go client (admin
// and data), stops it, starts it again on the same directory and reads
// everything back.
func TestServeEndToEnd(t *testing.T) {
	ctx := context.Background()
	dataDir := t.TempDir()
	p := startShale(t, dataDir)
	c, ac := p.clients(t)

	// Tables: families with GC rules and aggregates, splits.
	err := ac.CreateTableFromConf(ctx, &bigtable.TableConf{
		TableID:   "events",
		SplitKeys: []string{"phone#", "tablet#"},
		ColumnFamilies: map[string]bigtable.Family{
			"stats": {GCPolicy: bigtable.MaxVersionsPolicy(3)},
			"plan":  {GCPolicy: bigtable.UnionPolicy(bigtable.MaxVersionsPolicy(2), bigtable.MaxAgePolicy(30*24*time.Hour))},
			"sum":   {ValueType: bigtable.AggregateType{Input: bigtable.Int64Type{}, Aggregator: bigtable.SumAggregator{}}},
			"max":   {ValueType: bigtable.AggregateType{Input: bigtable.Int64Type{}, Aggregator: bigtable.MaxAggregator{}}},
		},
	})
	if err != nil {
		t.Fatalf("CreateTableFromConf: %v", err)
	}
	wantCode(t, "duplicate table", ac.CreateTable(ctx, "events"), codes.AlreadyExists)
	tables, err := ac.Tables(ctx)
	if err != nil || !slices.Contains(tables, "events") {
		t.Fatalf("Tables = %v, %v", tables, err)
	}
	info, err := ac.TableInfo(ctx, "events")
	if err != nil {
		t.Fatal(err)
	}
	if len(info.FamilyInfos) != 4 {
		t.Fatalf("TableInfo families = %+v", info.FamilyInfos)
	}

	tbl := c.Open("events")
	// Every mutation kind.
	m := bigtable.NewMutation()
	m.Set("stats", "os_build", 1000, []byte("PQ2A.190405.003"))
	m.Set("stats", "connected_wifi", 1000, []byte("1"))
	m.Set("plan", "data_plan_01gb", 1000, []byte("false"))
	m.Set("plan", "data_plan_01gb", 2000, []byte("true"))
	m.Set("plan", "data_plan_05gb", 2000, []byte("true"))
	if err := tbl.Apply(ctx, "phone#4c410523#20190501", m); err != nil {
		t.Fatalf("Apply: %v", err)
	}
	m = bigtable.NewMutation()
	m.Set("stats", "os_build", 1000, []byte("PQ2A.190406.000"))
	m.Set("stats", "gone", 1000, []byte("x"))
	m.Set("stats", "other", 1000, []byte("y"))
	m.DeleteCellsInColumn("stats", "gone")
	if err := tbl.Apply(ctx, "phone#4c410523#20190502", m); err != nil {
		t.Fatal(err)
	}
	m = bigtable.NewMutation()
	m.DeleteCellsInFamily("stats")
	m.Set("stats", "fresh", 3000, []byte("z"))
	if err := tbl.Apply(ctx, "phone#4c410523#20190502", m); err != nil {
		t.Fatal(err)
	}
	m = bigtable.NewMutation()
	m.Set("stats", "x", 1000, []byte("doomed"))
	if err := tbl.Apply(ctx, "tablet#a0b81f74#20190501", m); err != nil {
		t.Fatal(err)
	}
	m = bigtable.NewMutation()
	m.DeleteRow()
	if err := tbl.Apply(ctx, "tablet#a0b81f74#20190501", m); err != nil {
		t.Fatal(err)
	}
	m = bigtable.NewMutation()
	m.AddIntToCell("sum", "clicks", 0, 5)
	m.AddIntToCell("sum", "clicks", 0, 3)
	m.AddIntToCell("max", "clicks", 0, 5)
	m.AddIntToCell("max", "clicks", 0, 3)
	if err := tbl.Apply(ctx, "counter", m); err != nil {
		t.Fatalf("AddToCell: %v", err)
	}
	m = bigtable.NewMutation()
	m.MergeBytesToCell("sum", "clicks", 0, []byte{0, 0, 0, 0, 0, 0, 0, 2})
	if err := tbl.Apply(ctx, "counter", m); err != nil {
		t.Fatalf("MergeToCell: %v", err)
	}
	// Bulk, with a per-entry failure.
	m1, m2 := bigtable.NewMutation(), bigtable.NewMutation()
	m1.Set("stats", "os_build", 1000, []byte("bulk"))
	m2.Set("nosuchfamily", "q", 1000, []byte("x"))
	errs, err := tbl.ApplyBulk(ctx, []string{"tablet#a0b81f74#20200501", "bad"}, []*bigtable.Mutation{m1, m2})
	if err != nil || len(errs) != 2 || errs[0] != nil || errs[1] == nil {
		t.Fatalf("ApplyBulk = %v, %v", errs, err)
	}
	// Bad input keeps its codes.
	m = bigtable.NewMutation()
	m.Set("stats", "q", 1000, []byte("x"))
	wantCode(t, "row key over 4 KiB", tbl.Apply(ctx, strings.Repeat("k", 4097), m), codes.InvalidArgument)
	wantCode(t, "unknown table", c.Open("nope").Apply(ctx, "r", m), codes.NotFound)

	// Conditional and read-modify-write.
	cond := bigtable.NewCondMutation(bigtable.ValueFilter("true"), mutSet("plan", "matched", "yes"), mutSet("plan", "matched", "no"))
	var matched bool
	if err := tbl.Apply(ctx, "phone#4c410523#20190501", cond, bigtable.GetCondMutationResult(&matched)); err != nil || !matched {
		t.Fatalf("CondMutation = %v, matched %v", err, matched)
	}
	rmw := bigtable.NewReadModifyWrite()
	rmw.Increment("stats", "visits", 3)
	rmw.AppendValue("stats", "trail", []byte("ab"))
	r, err := tbl.ApplyReadModifyWrite(ctx, "rmw", rmw)
	if err != nil {
		t.Fatalf("ReadModifyWrite: %v", err)
	}
	if got := r["stats"]; len(got) != 2 || string(got[0].Value) != "ab" || string(got[1].Value) != "\x00\x00\x00\x00\x00\x00\x00\x03" {
		t.Fatalf("ReadModifyWrite returned %v", r)
	}

	wantRows := []string{
		`counter max:clicks@0="\x00\x00\x00\x00\x00\x00\x00\x05" sum:clicks@0="\x00\x00\x00\x00\x00\x00\x00\n"`,
		`phone#4c410523#20190501 plan:data_plan_01gb@2000="true" plan:data_plan_01gb@1000="false" plan:data_plan_05gb@2000="true" plan:matched@` + "TS" + `="yes" stats:connected_wifi@1000="1" stats:os_build@1000="PQ2A.190405.003"`,
		`phone#4c410523#20190502 stats:fresh@3000="z"`,
		`tablet#a0b81f74#20200501 stats:os_build@1000="bulk"`,
	}
	got := readAll(t, tbl, bigtable.InfiniteRange(""))
	got = slices.DeleteFunc(got, func(s string) bool { return strings.HasPrefix(s, "rmw ") })
	normalizeTS := regexp.MustCompile(`matched@\d+`)
	for i := range got {
		got[i] = normalizeTS.ReplaceAllString(got[i], "matched@TS")
	}
	mustEqual(t, "full scan", got, wantRows)

	// Filters and ranges.
	mustEqual(t, "prefix + latest only", readAll(t, tbl, bigtable.PrefixRange("phone#4c410523#"),
		bigtable.RowFilter(bigtable.ChainFilters(bigtable.FamilyFilter("plan"), bigtable.LatestNFilter(1), bigtable.ColumnFilter("data_plan_.*")))),
		[]string{`phone#4c410523#20190501 plan:data_plan_01gb@2000="true" plan:data_plan_05gb@2000="true"`})
	mustEqual(t, "limit", readAll(t, tbl, bigtable.InfiniteRange(""), bigtable.LimitRows(1), bigtable.RowFilter(bigtable.StripValueFilter())),
		[]string{`counter max:clicks@0="" sum:clicks@0=""`})
	mustEqual(t, "reversed", keysOf(readAll(t, tbl, bigtable.NewRange("a", "z"), bigtable.ReverseScan())),
		[]string{"tablet#a0b81f74#20200501", "rmw", "phone#4c410523#20190502", "phone#4c410523#20190501", "counter"})

	keys, err := tbl.SampleRowKeys(ctx)
	if err != nil || !slices.Contains(keys, "phone#") || !slices.Contains(keys, "tablet#") {
		t.Fatalf("SampleRowKeys = %q, %v", keys, err)
	}

	// Authorized views: reads filtered, writes outside PERMISSION_DENIED.
	err = ac.CreateAuthorizedView(ctx, &bigtable.AuthorizedViewConf{
		TableID: "events", AuthorizedViewID: "phones",
		AuthorizedView: &bigtable.SubsetViewConf{
			RowPrefixes:   [][]byte{[]byte("phone#")},
			FamilySubsets: map[string]bigtable.FamilySubset{"stats": {QualifierPrefixes: [][]byte{[]byte("")}}},
		},
	})
	if err != nil {
		t.Fatalf("CreateAuthorizedView: %v", err)
	}
	view := c.OpenAuthorizedView("events", "phones")
	mustEqual(t, "view read", readAll(t, view, bigtable.InfiniteRange("")), []string{
		`phone#4c410523#20190501 stats:connected_wifi@1000="1" stats:os_build@1000="PQ2A.190405.003"`,
		`phone#4c410523#20190502 stats:fresh@3000="z"`,
	})
	wantCode(t, "write outside view", view.Apply(ctx, "tablet#x", mutSet("stats", "q", "v")), codes.PermissionDenied)
	wantCode(t, "family outside view", view.Apply(ctx, "phone#x", mutSet("plan", "q", "v")), codes.PermissionDenied)
	if err := view.Apply(ctx, "phone#new", mutSet("stats", "q", "v")); err != nil {
		t.Fatalf("write inside view: %v", err)
	}

	// Schema bundles.
	fds := &descriptorpb.FileDescriptorSet{File: []*descriptorpb.FileDescriptorProto{
		protodesc.ToFileDescriptorProto(timestamppb.File_google_protobuf_timestamp_proto),
	}}
	bundle, _ := proto.Marshal(fds)
	err = ac.CreateSchemaBundle(ctx, &bigtable.SchemaBundleConf{TableID: "events", SchemaBundleID: "b1",
		ProtoSchema: &bigtable.ProtoSchemaInfo{ProtoDescriptors: bundle}})
	if err != nil {
		t.Fatalf("CreateSchemaBundle: %v", err)
	}
	err = ac.CreateSchemaBundle(ctx, &bigtable.SchemaBundleConf{TableID: "events", SchemaBundleID: "bad",
		ProtoSchema: &bigtable.ProtoSchemaInfo{ProtoDescriptors: []byte("not a descriptor set")}})
	wantCode(t, "bad bundle", err, codes.InvalidArgument)

	// Metrics saw the traffic.
	metrics := httpGet(t, "http://"+p.httpAddr+"/metrics")
	if !strings.Contains(metrics, `shale_grpc_requests_total{method="/google.bigtable.v2.Bigtable/ReadRows"}`) {
		t.Fatalf("metrics lack ReadRows:\n%s", metrics)
	}
	for _, want := range []string{`shale_data_total{op="read",unit="rows"}`, `shale_data_total{op="write",unit="cells"}`} {
		if !strings.Contains(metrics, want) {
			t.Fatalf("metrics lack %s", want)
		}
	}

	// Restart on the same directory: everything is still there.
	before := readAll(t, tbl, bigtable.InfiniteRange(""))
	p.stop(t)
	p = startShale(t, dataDir)
	c, ac = p.clients(t)
	tbl = c.Open("events")
	mustEqual(t, "after restart", readAll(t, tbl, bigtable.InfiniteRange("")), before)
	if _, err := ac.AuthorizedViewInfo(ctx, "events", "phones"); err != nil {
		t.Fatalf("view lost on restart: %v", err)
	}
	if sb, err := ac.GetSchemaBundle(ctx, "events", "b1"); err != nil || len(sb.SchemaBundle) == 0 {
		t.Fatalf("bundle lost on restart: %v", err)
	}
	if info, err := ac.TableInfo(ctx, "events"); err != nil || len(info.FamilyInfos) != 4 {
		t.Fatalf("table lost on restart: %v", err)
	}
	p.stop(t)
}

func mutSet(fam, col, val string) *bigtable.Mutation {
	m := bigtable.NewMutation()
	m.Set(fam, col, bigtable.ServerTime, []byte(val))
	return m
}

func keysOf(rows []string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i], _, _ = strings.Cut(r, " ")
	}
	return out
}

func httpGet(t *testing.T, url string) string {
	t.Helper()
	resp, err := httpClient.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestDemo starts `shale demo` and reads its example data with the official
// client, twice (a second start on the same directory loads nothing again).
func TestDemo(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	for run := 0; run < 2; run++ {
		p := startShaleCmd(t, "demo", dir)
		c, ac := p.clientsOf(t, "demo", "demo")
		tables, err := ac.Tables(ctx)
		if err != nil || !slices.Equal(tables, []string{"albums", "analytics", "counters", "readings", "usage"}) {
			t.Fatalf("demo tables = %v, %v", tables, err)
		}
		got := keysOf(readAll(t, c.Open("analytics"), bigtable.PrefixRange("phone#4c410523")))
		mustEqual(t, "demo prefix read", got, []string{"phone#4c410523#20190501", "phone#4c410523#20190502", "phone#4c410523#20190505"})
		if ti, err := ac.TableInfo(ctx, "readings"); err != nil || ti.RowKeySchema == nil || len(ti.RowKeySchema.Fields) != 3 {
			t.Fatalf("readings row key schema: %+v, %v", ti, err)
		}
		n := 0
		if err := c.Open("usage").ReadRows(ctx, bigtable.PrefixRange("tablet#"), func(bigtable.Row) bool { n++; return true }); err != nil || n != 10*90 {
			t.Fatalf("usage tablet rows = %d, %v", n, err)
		}
		row, err := c.Open("counters").ReadRow(ctx, "page#home")
		if err != nil || len(row["clicks"]) != 1 || string(row["clicks"][0].Value) != "\x00\x00\x00\x00\x00\x00\x00\x03" {
			t.Fatalf("counters page#home = %v, %v", row, err)
		}
		p.stop(t)
	}
}
