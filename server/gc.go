package server

import (
	"os"
	"runtime/debug"
)

// DefaultGCPercent is the garbage collector target `shale serve` runs
// with. Shale's Go heap is small (the block cache lives outside it), so at
// Go's default of 100 a collection starts after every few megabytes of
// garbage, and a point lookup's fixed per-cycle costs dominated: pgbench
// point lookups through the PostgreSQL endpoint ran at 52,000 tps with 100
// and 68,000-72,000 with 400 (100,000 rows, 4 clients, 2 cores). At 400 the
// heap may grow to five times the live data between collections: tens of
// megabytes for a server whose live heap is ~10 MiB.
const DefaultGCPercent = 400

// tuneGC sets the collector's target unless GOGC is set or percent < 0.
func tuneGC(percent int) {
	if _, set := os.LookupEnv("GOGC"); set || percent < 0 {
		return
	}
	if percent == 0 {
		percent = DefaultGCPercent
	}
	debug.SetGCPercent(percent)
}
