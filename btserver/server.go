package btserver

import (
	"fmt"
	"sync/atomic"
	"time"

	adminpb "cloud.google.com/go/bigtable/admin/apiv2/adminpb"
	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
	"google.golang.org/grpc"

	"github.com/shale-db/shale/storage"
)

// Options configure a Server. The zero value is usable.
type Options struct {
	// Clock is the server clock (etags, operation metadata, latency
	// stats); default time.Now.
	Clock func() time.Time
	// Observer receives data-traffic counts; default none.
	Observer Observer
	// SQL prepares and runs GoogleSQL queries for PrepareQuery and
	// ExecuteQuery; nil leaves both UNIMPLEMENTED.
	SQL SQL
}

// MaxMessageSize is the largest gRPC message Bigtable accepts in either
// direction (256 MiB); ServerOptions sets it.
const MaxMessageSize = 256 << 20

// ServerOptions are the grpc.ServerOptions a Shale gRPC server should be
// created with: Bigtable's message size limits, and Stop waiting for
// running handlers, so that the engine is closed only after every handler
// (and the iterator it may hold) is done.
func ServerOptions() []grpc.ServerOption {
	return []grpc.ServerOption{
		grpc.MaxRecvMsgSize(MaxMessageSize),
		grpc.MaxSendMsgSize(MaxMessageSize),
		grpc.WaitForHandlers(true),
	}
}

// Server serves the Bigtable Data API, Table Admin API and the Instance
// Admin calls clients need, over one storage engine.
type Server struct {
	e     *storage.Engine
	opts  Options
	seq   atomic.Uint64 // etag and operation sequence
	stmts *stmtCache    // prepared statements by prepared-query token
}

// New returns a server over e.
func New(e *storage.Engine, opts Options) *Server {
	if opts.Clock == nil {
		opts.Clock = time.Now
	}
	if opts.Observer == nil {
		opts.Observer = noObserver{}
	}
	return &Server{e: e, opts: opts, stmts: newStmtCache(stmtCacheSize)}
}

// Register registers the three services on s.
func (s *Server) Register(gs *grpc.Server) {
	btpb.RegisterBigtableServer(gs, &dataService{s: s})
	adminpb.RegisterBigtableTableAdminServer(gs, &tableAdmin{s: s})
	adminpb.RegisterBigtableInstanceAdminServer(gs, &instanceAdmin{s: s})
}

// The services are separate types because the admin services share method
// names (the IAM calls). Each embeds its Unimplemented server, so every RPC
// Shale does not serve answers UNIMPLEMENTED.
type (
	dataService struct {
		btpb.UnimplementedBigtableServer
		s *Server
	}
	tableAdmin struct {
		adminpb.UnimplementedBigtableTableAdminServer
		s *Server
	}
	instanceAdmin struct {
		adminpb.UnimplementedBigtableInstanceAdminServer
		s *Server
	}
)

var (
	_ btpb.BigtableServer                 = (*dataService)(nil)
	_ adminpb.BigtableTableAdminServer    = (*tableAdmin)(nil)
	_ adminpb.BigtableInstanceAdminServer = (*instanceAdmin)(nil)
)

// newEtag returns a fresh opaque etag: it changes on every write of the
// object it tags.
func (s *Server) newEtag() string {
	return fmt.Sprintf("%x-%x", s.opts.Clock().UnixNano(), s.seq.Add(1))
}
