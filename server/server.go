package server

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"sync"

	"github.com/prometheus/client_golang/prometheus/promhttp"
	"google.golang.org/grpc"

	"github.com/shale-db/shale/btserver"
	"github.com/shale-db/shale/engine"
	"github.com/shale-db/shale/pgwire"
	"github.com/shale-db/shale/storage"
)

// Server is a running Shale process.
type Server struct {
	cfg     Config
	engine  *storage.Engine
	grpc    *grpc.Server
	http    *http.Server
	grpcLis net.Listener
	httpLis net.Listener
	pg      *pgwire.Server // nil when the PostgreSQL endpoint is off
	pgLis   net.Listener
	metrics *metrics
	wg      sync.WaitGroup
	errs    chan error
}

// Start opens storage and starts every listener.
func Start(cfg Config) (*Server, error) {
	tuneGC(cfg.GCPercent)
	cfg.ensureDefaults()
	s := &Server{cfg: cfg, metrics: newMetrics(), errs: make(chan error, 3)}
	opts := storage.Options{NoSync: cfg.NoSync, SweepInterval: cfg.SweepInterval, CacheSize: cfg.CacheSize, Logger: cfg.Logger}
	dir := cfg.DataDir
	if dir == MemoryDataDir {
		opts.InMemory, dir = true, ""
	}
	var err error
	if s.engine, err = storage.Open(dir, opts); err != nil {
		return nil, err
	}
	if cfg.Demo {
		if err := LoadDemo(context.Background(), s.engine); err != nil {
			s.engine.Close()
			return nil, err
		}
	}
	if s.grpcLis, err = net.Listen("tcp", cfg.GRPCAddr); err != nil {
		s.engine.Close()
		return nil, fmt.Errorf("grpc listener: %w", err)
	}
	if s.httpLis, err = net.Listen("tcp", cfg.HTTPAddr); err != nil {
		s.grpcLis.Close()
		s.engine.Close()
		return nil, fmt.Errorf("http listener: %w", err)
	}

	sqlEngine := engine.New(s.engine, engine.Options{Logger: cfg.Logger})
	if err := s.listenPG(sqlEngine); err != nil {
		s.httpLis.Close()
		s.grpcLis.Close()
		s.engine.Close()
		return nil, err
	}

	rec := recoverer{log: cfg.Logger}
	gopts := append(btserver.ServerOptions(),
		grpc.ChainUnaryInterceptor(s.metrics.unary, rec.unary),
		grpc.ChainStreamInterceptor(s.metrics.stream, rec.stream))
	s.grpc = grpc.NewServer(gopts...)
	btserver.New(s.engine, btserver.Options{Observer: s.metrics, SQL: btSQL{sqlEngine}}).Register(s.grpc)

	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprintln(w, "ok")
	})
	mux.Handle("/metrics", promhttp.HandlerFor(s.metrics.reg, promhttp.HandlerOpts{}))
	// Go's profiler, on the same loopback-by-default listener as /metrics:
	// `go tool pprof http://127.0.0.1:8087/debug/pprof/profile`.
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	s.http = &http.Server{Handler: mux}

	s.serve("grpc", func() error { return s.grpc.Serve(s.grpcLis) })
	s.serve("http", func() error {
		if err := s.http.Serve(s.httpLis); !errors.Is(err, http.ErrServerClosed) {
			return err
		}
		return nil
	})
	log := cfg.Logger
	log.Info("shale: Bigtable gRPC API listening", "addr", s.grpcLis.Addr().String(), "data", cfg.DataDir,
		"hint", "BIGTABLE_EMULATOR_HOST="+s.grpcLis.Addr().String())
	log.Info("shale: HTTP listening (/healthz, /metrics, /debug/pprof)", "addr", s.httpLis.Addr().String())
	if s.pg != nil {
		s.serve("pg", func() error { return s.pg.Serve(s.pgLis) })
		s.logPG()
	}
	if cfg.Demo {
		log.Info("shale: demo instance loaded", "tables", demoTableNames(), "project", "demo", "instance", "demo",
			"try", fmt.Sprintf("BIGTABLE_EMULATOR_HOST=%s cbt -project demo -instance demo read analytics prefix=phone#4c410523", s.grpcLis.Addr()))
	}
	return s, nil
}

// serve runs fn in a goroutine the server owns; its error is reported on
// s.errs.
func (s *Server) serve(name string, fn func() error) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		if err := fn(); err != nil {
			s.errs <- fmt.Errorf("%s: %w", name, err)
		}
	}()
}

// GRPCAddr and HTTPAddr return the bound addresses (useful with port 0).
func (s *Server) GRPCAddr() string { return s.grpcLis.Addr().String() }

// PGAddr returns the bound PostgreSQL address ("" when it is off).
func (s *Server) PGAddr() string {
	if s.pgLis == nil {
		return ""
	}
	return s.pgLis.Addr().String()
}

// HTTPAddr returns the bound HTTP address.
func (s *Server) HTTPAddr() string { return s.httpLis.Addr().String() }

// Engine returns the storage engine (for in-process tools such as demo).
func (s *Server) Engine() *storage.Engine { return s.engine }

// Shutdown stops the listeners, waits for in-flight calls until ctx ends
// (then cuts them), and closes storage. A PostgreSQL session that is still
// computing when ctx ends is left to the process exit, and storage with it.
func (s *Server) Shutdown(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		s.grpc.GracefulStop()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		s.grpc.Stop()
		<-done
	}
	herr := s.http.Shutdown(ctx)
	if s.pg != nil {
		if err := s.pg.Shutdown(ctx); err != nil {
			// A session is still computing; storage stays open under it
			// and the process exits as from a crash, which Pebble's WAL
			// recovers from.
			s.cfg.Logger.Error("shale: PostgreSQL sessions did not end within the grace period; exiting without closing storage")
			return errors.Join(err, herr)
		}
	}
	s.wg.Wait()
	if err := s.engine.Close(); err != nil {
		return err
	}
	return herr
}

// Run starts the server, serves until ctx is done or a listener fails, and
// shuts down, giving in-flight calls up to grace to finish.
func Run(ctx context.Context, cfg Config, grace func() (context.Context, context.CancelFunc)) error {
	s, err := Start(cfg)
	if err != nil {
		return err
	}
	var serveErr error
	select {
	case <-ctx.Done():
	case serveErr = <-s.errs:
	}
	s.cfg.Logger.Info("shale: shutting down")
	sctx, cancel := grace()
	defer cancel()
	return errors.Join(serveErr, s.Shutdown(sctx))
}
