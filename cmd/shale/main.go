package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/shale-db/shale/server"
)

const usage = `usage: shale <command> [flags]

commands:
  serve   run the server (Bigtable gRPC API, PostgreSQL endpoint, /healthz and /metrics)
  demo    serve, with a demo instance loaded with example tables
  bundle  create|update|get|list|delete a table's protobuf schema bundles on a running server

run 'shale <command> -h' for a command's flags
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "serve":
		err = serve(os.Args[2:], false)
	case "demo":
		err = serve(os.Args[2:], true)
	case "bundle":
		if len(os.Args) > 2 && (os.Args[2] == "-h" || os.Args[2] == "--help") {
			fmt.Print(server.BundleUsage)
			return
		}
		err = server.BundleCommand(context.Background(), os.Args[2:], os.Stdout)
	case "-h", "--help", "help":
		fmt.Print(usage)
		return
	default:
		fmt.Fprintf(os.Stderr, "shale: unknown command %q\n%s", os.Args[1], usage)
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "shale:", err)
		os.Exit(1)
	}
}

// serveFlags declares the flags of DESIGN.md; sync is the --sync flag and
// cacheMiB the --cache-size flag.
func serveFlags(fs *flag.FlagSet) (cfg *server.Config, sync *bool, cacheMiB *int64) {
	cfg = &server.Config{}
	fs.StringVar(&cfg.DataDir, "data", "./shale-data", `data directory; ":memory:" keeps everything in memory`)
	fs.StringVar(&cfg.GRPCAddr, "grpc", "127.0.0.1:8086", "Bigtable gRPC API address")
	fs.StringVar(&cfg.HTTPAddr, "http", "127.0.0.1:8087", "HTTP address for /healthz, /metrics and /debug/pprof")
	fs.StringVar(&cfg.PGAddr, "pg", "127.0.0.1:5433", `PostgreSQL wire endpoint address ("" turns it off)`)
	fs.StringVar(&cfg.PGTLSCert, "pg-tls-cert", "", "PEM certificate for TLS on the PostgreSQL endpoint (with --pg-tls-key)")
	fs.StringVar(&cfg.PGTLSKey, "pg-tls-key", "", "PEM private key for TLS on the PostgreSQL endpoint")
	fs.StringVar(&cfg.PGPassword, "pg-password", "", "require this password (SCRAM-SHA-256) from every PostgreSQL user")
	fs.StringVar(&cfg.PGUsersFile, "pg-users", "", "file of name:password (or name:SCRAM-SHA-256$...) lines; turns on SCRAM-SHA-256")
	fs.IntVar(&cfg.PGMaxConns, "pg-max-conns", 100, "maximum concurrent PostgreSQL sessions (0: no limit)")
	sync = fs.Bool("sync", true, "sync the WAL before acknowledging a write")
	cacheMiB = fs.Int64("cache-size", 512, "storage block cache, in MiB (taken as data is read)")
	fs.IntVar(&cfg.GCPercent, "gc-percent", server.DefaultGCPercent,
		"Go garbage collector target (GOGC); the GOGC environment variable wins; -1 leaves Go's default")
	return cfg, sync, cacheMiB
}

func serve(args []string, demo bool) error {
	name := "serve"
	if demo {
		name = "demo"
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	cfg, sync, cacheMiB := serveFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *cacheMiB < 8 {
		return fmt.Errorf("--cache-size %d: at least 8 (MiB)", *cacheMiB)
	}
	cfg.NoSync, cfg.CacheSize = !*sync, *cacheMiB<<20
	if cfg.NoSync {
		slog.Warn("shale: --sync=false: acknowledged writes can be lost on a crash")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg.Demo = demo
	return server.Run(ctx, *cfg, func() (context.Context, context.CancelFunc) {
		return context.WithTimeout(context.Background(), 30*time.Second)
	})
}
