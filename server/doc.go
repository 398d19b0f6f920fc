// Package server wires a Shale process together: it opens the storage
// engine, starts the gRPC listener (Bigtable Data and Admin APIs, btserver,
// with the SQL engine behind PrepareQuery/ExecuteQuery through the adapter
// in sqlexec.go), the PostgreSQL wire listener (pgwire, with the engine
// behind the adapter in pgexec.go; pg.go builds it from the flags) and the
// HTTP listener (/healthz, Prometheus /metrics), and shuts them down in
// order.
//
// # Lifecycle
//
// Start opens storage, binds every listener (so a bad address fails before
// anything is served) and serves in background goroutines it owns.
// Shutdown stops accepting, waits for in-flight calls (gRPC GracefulStop,
// bounded by the caller's context, after which calls are cut), then closes
// storage. Run is Start + wait for the context (SIGINT/SIGTERM in
// cmd/shale) + Shutdown.
//
// # Invariants
//
// V1: storage is closed only after every listener has stopped, so no call
// sees a closed engine.
// V2: every goroutine Start launches is joined by Shutdown.
package server
