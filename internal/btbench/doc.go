// Package btbench measures Shale's Bigtable gRPC API against Google's
// Bigtable emulator (cloud.google.com/go/bigtable/cmd/emulator) in the same
// run, on the same data, with both servers running as child processes: the
// package builds `shale` and the emulator once per test process, starts each
// on a free loopback port (Shale on a fresh temporary data directory, WAL
// synced as by default), and stops both when the process ends. Because the
// servers are separate processes, their CPU time (utime+stime from
// /proc/<pid>/stat, in clock ticks of 10 ms) is measured apart from the
// client's.
//
// The package has only tests: it holds no code a program would import.
//
// What is measured (the "Performance" targets of the Bigtable API issue):
//
//   - BenchmarkMutateRowsLoad: a bulk load of 100,000 rows × 3 cells
//     (keys like phone#%08x#%014d, values of 8 to 20 bytes) through the
//     official client's ApplyBulk in batches of 1,000 rows, into each
//     server. Reports rows/s for each and their ratio (target: Shale at
//     least half the emulator's rows/s).
//   - BenchmarkReadRowsRaw: a full scan of those rows over a raw gRPC stream
//     that only counts committed rows (no row assembly). Reports rows/s and
//     server CPU µs per row for each, and the ratios (targets: Shale at least
//     3× the emulator's rows/s, and Shale's server CPU per row at most a third
//     of the emulator's).
//   - BenchmarkReadRowsClient: the same scan through the official client's
//     Table.ReadRows (target: Shale never slower than the emulator).
//   - TestReadRowsHeap (only with SHALE_BTBENCH_HEAP=1): loads 1,000,000
//     rows into Shale alone, restarts it, and streams them all with a raw
//     stream that reads slowly for the first seconds (back-pressure), while
//     sampling Shale's heap from its /metrics endpoint every 100 ms. Fails if
//     go_memstats_heap_inuse_bytes grows by 64 MiB or more over the pre-scan
//     baseline.
//
// The data is loaded once per server and per process and reused by the read
// benchmarks. Custom metrics carry the figures (shale_rows/s, emu_rows/s,
// shale/emu_rows/s, ...); the combined ns/op of both servers is suppressed.
// Every benchmark logs its targets with PASS or FAIL; a missed target does not
// fail the benchmark (the figures are noisy on a shared machine), only the
// heap test fails.
//
// Nothing runs under `go test ./...`: the benchmarks need -bench and the heap
// test needs SHALE_BTBENCH_HEAP=1. To run:
//
//	go test ./internal/btbench -run '^$' -bench . -benchtime 1x -timeout 30m
//	SHALE_BTBENCH_HEAP=1 go test ./internal/btbench -run Heap -v -timeout 30m
//
// -benchtime Nx repeats each measurement N times and reports totals over
// them. SHALE_BTBENCH_ROWS changes the 100,000 rows of the benchmarks and
// SHALE_BTBENCH_HEAP_ROWS the 1,000,000 rows of the heap test.
package btbench
