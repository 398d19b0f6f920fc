package btserver_test

import (
	"context"
	"net"
	"testing"
	"time"

	"cloud.google.com/go/bigtable"
	adminpb "cloud.google.com/go/bigtable/admin/apiv2/adminpb"
	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
	"google.golang.org/api/option"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"

	"github.com/shale-db/shale/btserver"
	"github.com/shale-db/shale/storage"
)

const (
	project  = "proj"
	instance = "inst"
	instName = "projects/proj/instances/inst"
)

// env is a Shale server on an in-memory engine, reached over bufconn by
// the official clients and by raw gRPC stubs.
type env struct {
	e      *storage.Engine
	client *bigtable.Client
	admin  *bigtable.AdminClient
	iadmin *bigtable.InstanceAdminClient
	data   btpb.BigtableClient // raw stubs, for exact codes
	tadmin adminpb.BigtableTableAdminClient
	inst   adminpb.BigtableInstanceAdminClient
}

func newEnv(t testing.TB) *env {
	t.Helper()
	return newEnvOpts(t, btserver.Options{})
}

// newEnvOpts is newEnv with server options (a SQL engine, a clock).
func newEnvOpts(t testing.TB, opts btserver.Options) *env {
	t.Helper()
	ctx := context.Background()
	e, err := storage.Open("", storage.Options{InMemory: true, SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := e.Check(context.Background()); err != nil {
			t.Errorf("engine check: %v", err)
		}
		if err := e.Close(); err != nil {
			t.Errorf("engine close: %v", err)
		}
	})
	lis := bufconn.Listen(1 << 20)
	gs := grpc.NewServer(btserver.ServerOptions()...)
	btserver.New(e, opts).Register(gs)
	go func() { _ = gs.Serve(lis) }()
	t.Cleanup(gs.Stop)
	conn, err := grpc.NewClient("passthrough:///bufnet",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(btserver.MaxMessageSize), grpc.MaxCallSendMsgSize(btserver.MaxMessageSize)),
	)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	env := &env{
		e:      e,
		data:   btpb.NewBigtableClient(conn),
		tadmin: adminpb.NewBigtableTableAdminClient(conn),
		inst:   adminpb.NewBigtableInstanceAdminClient(conn),
	}
	cfg := bigtable.ClientConfig{MetricsProvider: bigtable.NoopMetricsProvider{}}
	if env.client, err = bigtable.NewClientWithConfig(ctx, project, instance, cfg, option.WithGRPCConn(conn)); err != nil {
		t.Fatal(err)
	}
	if env.admin, err = bigtable.NewAdminClient(ctx, project, instance, option.WithGRPCConn(conn)); err != nil {
		t.Fatal(err)
	}
	if env.iadmin, err = bigtable.NewInstanceAdminClient(ctx, project, option.WithGRPCConn(conn)); err != nil {
		t.Fatal(err)
	}
	return env
}

// ctx returns a context that fails the test's calls after 30s rather than
// hanging.
func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// createTable creates table with families (name → GC policy) and splits.
func (e *env) createTable(t *testing.T, table string, families map[string]bigtable.GCPolicy, splits ...string) {
	t.Helper()
	conf := &bigtable.TableConf{TableID: table, Families: families, SplitKeys: splits}
	if err := e.admin.CreateTableFromConf(testCtx(t), conf); err != nil {
		t.Fatalf("CreateTableFromConf(%s): %v", table, err)
	}
}

func tableName(table string) string { return instName + "/tables/" + table }

// wantCode fails unless err carries code.
func wantCode(t *testing.T, what string, err error, code codes.Code) {
	t.Helper()
	if got := status.Code(err); got != code {
		t.Errorf("%s: got code %v (%v), want %v", what, got, err, code)
	}
}

// rowText renders a client row as "fam:qual@ts=value" items in order.
func rowText(r bigtable.Row) []string {
	var out []string
	for _, fam := range sortedFamilies(r) {
		for _, it := range r[fam] {
			s := it.Column + "@" + itoa(int64(it.Timestamp)) + "=" + string(it.Value)
			for _, l := range it.Labels {
				s += " [" + l + "]"
			}
			out = append(out, s)
		}
	}
	return out
}
