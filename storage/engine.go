package storage

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// Options configure an Engine. The zero value is usable: data on disk, WAL
// synced on every write, the wall clock, background maintenance every minute.
type Options struct {
	// InMemory keeps everything in memory (`--data :memory:`).
	InMemory bool
	// FS overrides the file system (tests use vfs.NewMem or errorfs).
	FS vfs.FS
	// NoSync acknowledges writes before the WAL reaches the disk: faster,
	// but an acknowledged write may be lost on a crash.
	NoSync bool
	// Clock is the server clock; default time.Now.
	Clock func() time.Time
	// Rand feeds the row-sample filter; default math/rand/v2.
	Rand func() float64
	// SplitSize is the size past which a tablet is split in two by the
	// maintenance sweep; default 64 MiB.
	SplitSize int64
	// SweepInterval is the period of the background GC and split sweep;
	// default one minute; negative turns it off (tests call Sweep).
	SweepInterval time.Duration
	// CacheSize is the size of the block cache shared by all reads;
	// default 512 MiB. Pebble charges memtables against it too, so it
	// must exceed MemTableSize (64 MiB) by the working set. Memory is
	// taken as blocks are read, not up front.
	CacheSize int64
	// Logger receives maintenance messages; default slog.Default.
	Logger *slog.Logger
	// Pebble, when set, may adjust the Pebble options before Open.
	Pebble func(*pebble.Options)
}

func (o *Options) ensureDefaults() {
	if o.Clock == nil {
		o.Clock = time.Now
	}
	if o.SplitSize == 0 {
		o.SplitSize = 64 << 20
	}
	if o.SweepInterval == 0 {
		o.SweepInterval = time.Minute
	}
	if o.CacheSize == 0 {
		o.CacheSize = 512 << 20
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
}

// Engine stores Bigtable instances and tables in one Pebble database. It is
// safe for concurrent use.
type Engine struct {
	db        *pebble.DB
	opts      Options
	writeOpts *pebble.WriteOptions
	locks     rowLocks
	iters     *iterCache

	// adminMu serializes catalog changes, so that every change reads the
	// latest descriptor and writes the next one.
	adminMu sync.Mutex
	mu      struct {
		sync.RWMutex
		instances map[string]*Instance
		tables    map[tableName]*Table
		states    map[uint64]*tableState
		nextID    uint64
	}

	closed atomic.Bool
	stop   chan struct{}
	// catalogEpoch counts the changes to table descriptors (CatalogEpoch).
	catalogEpoch atomic.Uint64
	wg           sync.WaitGroup
}

// tableName addresses a table in the catalog.
type tableName struct{ instance, table string }

// tableState is the runtime state of a live table, keyed by internal id.
type tableState struct {
	// dataMu is held shared by writers and exclusively by schema changes
	// that delete data (dropping a family), so that no write lands in a
	// family while its cells are being removed.
	dataMu sync.RWMutex
	// dirty is set by every write and cleared by the sweep.
	dirty atomic.Bool
}

// Open opens (or creates) the engine in dir.
func Open(dir string, opts Options) (*Engine, error) {
	opts.ensureDefaults()
	cache := pebble.NewCache(opts.CacheSize)
	defer cache.Unref() // the DB holds its own reference
	po := &pebble.Options{
		FS:     opts.FS,
		Logger: quietLogger{},
		Cache:  cache,
	}
	if opts.InMemory && po.FS == nil {
		po.FS = vfs.NewMem()
	}
	po.Levels[0].BlockSize = 32 << 10
	po.MemTableSize = 64 << 20
	// Every sublevel of L0 is one more sstable seek for each point read, so
	// L0 is compacted into the base level as soon as it holds a flush (as
	// CockroachDB configures Pebble) rather than after four: reads
	// outnumber writes in Shale's workloads, and a bulk load then leaves one
	// level to search instead of two.
	po.L0CompactionThreshold = 2
	// Below L0, files are at least 64 MB, RocksDB's default target file
	// size, where Pebble's default starts at 4 MB and doubles per level
	// below the base level. A point read that lands in another file than the
	// previous read on the same iterator closes one sstable iterator and
	// opens another, which costs about as much as the seek itself; a small
	// database, whose data all sits in the base level, then spans a handful
	// of files instead of dozens. Larger databases keep Pebble's sizes
	// further down, where they exceed 64 MB anyway.
	for i := 1; i < len(po.TargetFileSizes); i++ {
		po.TargetFileSizes[i] = max(64<<20, int64(2<<20)<<i)
	}
	if opts.Pebble != nil {
		opts.Pebble(po)
	}
	iters := new(iterCache)
	retire := pebble.EventListener{
		FlushEnd:      func(pebble.FlushInfo) { iters.invalidate() },
		CompactionEnd: func(pebble.CompactionInfo) { iters.invalidate() },
	}
	if po.EventListener != nil {
		retire = pebble.TeeEventListener(*po.EventListener, retire)
	}
	po.EventListener = &retire
	db, err := pebble.Open(dir, po)
	if err != nil {
		return nil, fmt.Errorf("storage: open %s: %w", dir, err)
	}
	e := &Engine{db: db, opts: opts, iters: iters, stop: make(chan struct{})}
	e.writeOpts = pebble.Sync
	if opts.NoSync {
		e.writeOpts = pebble.NoSync
	}
	if err := e.loadCatalog(); err != nil {
		_ = db.Close()
		return nil, err
	}
	if opts.SweepInterval > 0 {
		e.wg.Add(1)
		go e.sweepLoop()
	}
	return e, nil
}

// Close stops background work and closes the database. Iterators must be
// closed first.
func (e *Engine) Close() error {
	if !e.closed.CompareAndSwap(false, true) {
		return ErrClosed
	}
	close(e.stop)
	e.wg.Wait()
	e.iters.close()
	return e.db.Close()
}

// now returns the server time in microseconds.
func (e *Engine) now() int64 { return e.opts.Clock().UnixMicro() }

func (e *Engine) checkOpen() error {
	if e.closed.Load() {
		return ErrClosed
	}
	return nil
}

// Compact flushes and compacts the whole store, leaving the LSM in the
// shape a long-running server reaches (benchmarks use it after a bulk load;
// operators may after large deletes).
func (e *Engine) Compact(ctx context.Context) error {
	if err := e.checkOpen(); err != nil {
		return err
	}
	return e.db.Compact(ctx, []byte{metaPrefix}, []byte{cellPrefix + 1}, true)
}

// Flush flushes memtables to sstables (tests and benchmarks use it).
func (e *Engine) Flush() error {
	if err := e.checkOpen(); err != nil {
		return err
	}
	return e.db.Flush()
}

// quietLogger drops Pebble's informational messages and keeps errors.
type quietLogger struct{}

func (quietLogger) Infof(string, ...any) {}
func (quietLogger) Errorf(format string, args ...any) {
	slog.Error(fmt.Sprintf("pebble: "+format, args...))
}
func (quietLogger) Fatalf(format string, args ...any) {
	panic(errors.New(fmt.Sprintf("pebble: "+format, args...)))
}

// commit commits b. Every write to the database goes through commit or
// write, so that no cached iterator outlives a write (iterCache).
func (e *Engine) commit(b *pebble.Batch, o *pebble.WriteOptions) error {
	e.iters.beginWrite()
	defer e.iters.endWrite()
	return b.Commit(o)
}

// write runs f, which writes to the database directly.
func (e *Engine) write(f func() error) error {
	e.iters.beginWrite()
	defer e.iters.endWrite()
	return f()
}
