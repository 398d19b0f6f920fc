package server

import (
	"log/slog"
	"time"
)

// Config is what `shale serve` is told by its flags (DESIGN.md, "Interfaces
// users meet").
type Config struct {
	// DataDir holds the Pebble store; ":memory:" keeps everything in memory.
	DataDir string
	// GRPCAddr serves the Bigtable APIs (default 127.0.0.1:8086).
	GRPCAddr string
	// HTTPAddr serves /healthz, /metrics and /debug/pprof (default
	// 127.0.0.1:8087).
	HTTPAddr string
	// PGAddr serves the PostgreSQL wire protocol ("" disables it).
	PGAddr string
	// PGTLSCert and PGTLSKey are PEM files; when both are set, clients
	// that send SSLRequest get TLS.
	PGTLSCert, PGTLSKey string
	// PGPassword, when set, turns on SCRAM-SHA-256: every user name
	// accepts this password.
	PGPassword string
	// PGUsersFile, when set, turns on SCRAM-SHA-256 for the users it lists
	// (pgwire.LoadUsers: name:password or name:SCRAM-SHA-256$... lines).
	PGUsersFile string
	// PGMaxConns limits concurrent PostgreSQL sessions (0: no limit).
	PGMaxConns int
	// NoSync acknowledges writes before they reach the disk.
	NoSync bool
	// CacheSize is the storage block cache in bytes (0: storage's default).
	CacheSize int64
	// GCPercent is the Go garbage collector's target (GOGC) for the
	// process: 0 means DefaultGCPercent, negative leaves the runtime's
	// setting alone. The GOGC environment variable, when set, wins.
	GCPercent int
	// SweepInterval is the storage maintenance period (0: default).
	SweepInterval time.Duration
	// Demo loads the demo instance (LoadDemo) before serving.
	Demo bool
	// Logger receives the startup lines and errors; default slog.Default.
	Logger *slog.Logger
}

// MemoryDataDir is the DataDir that keeps everything in memory.
const MemoryDataDir = ":memory:"

func (c *Config) ensureDefaults() {
	if c.DataDir == "" {
		c.DataDir = "./shale-data"
	}
	if c.GRPCAddr == "" {
		c.GRPCAddr = "127.0.0.1:8086"
	}
	if c.HTTPAddr == "" {
		c.HTTPAddr = "127.0.0.1:8087"
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
}
