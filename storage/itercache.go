package storage

import (
	"sync"
	"sync/atomic"

	"github.com/cockroachdb/pebble/v2"
)

// iterCache keeps the Pebble iterators of finished reads for the reads that
// follow, for as long as nothing has been written since they were opened.
// A Pebble iterator reads the state of the database at its creation, so an
// iterator opened after the last write sees exactly what a new one would,
// and a point read that reuses it skips building the iterator stack (the
// read state, the merging iterator, one level iterator per level).
//
// Writers bracket every commit with beginWrite and endWrite. beginWrite
// counts the write in flight and then advances the generation; an iterator
// may be cached only if, around its creation, the generation did not move
// and no write was in flight, and it is reused only while the generation
// is the one it was opened at. So a cached iterator holds every write whose
// beginWrite came before it and none after; a read that begins after a
// write returned finds the generation advanced and opens a new iterator.
//
// Flushes and compactions do not change what a read sees, but a cached
// iterator would pin the memtables and tables they replace, and keep
// searching the shape of the LSM they improved: they advance the
// generation too (invalidate), and stale iterators are closed by the next
// read, the next write or the maintenance sweep.
type iterCache struct {
	gen      atomic.Uint64
	inflight atomic.Int64
	cached   atomic.Int32 // len(free), read without the lock

	mu     sync.Mutex
	free   []cachedIter
	closed bool // the engine is closing: nothing is cached any more
}

type cachedIter struct {
	it  *pebble.Iterator
	gen uint64
}

// iterCacheSize bounds the idle iterators kept: about the number of reads
// that run at once.
const iterCacheSize = 16

// readIter is an iterator lent to one read; done gives it back.
type readIter struct {
	*pebble.Iterator
	gen       uint64
	cacheable bool
}

// get returns an iterator over the current state of db: a cached one when
// one is current, else a new one.
func (c *iterCache) get(db *pebble.DB) (readIter, error) {
	g := c.gen.Load()
	if c.cached.Load() > 0 {
		var stale []cachedIter
		c.mu.Lock()
		for n := len(c.free); n > 0; n = len(c.free) {
			ci := c.free[n-1]
			c.free = c.free[:n-1]
			if ci.gen == g {
				c.cached.Store(int32(len(c.free)))
				c.mu.Unlock()
				closeIters(stale)
				return readIter{Iterator: ci.it, gen: g, cacheable: true}, nil
			}
			stale = append(stale, ci)
		}
		c.cached.Store(0)
		c.mu.Unlock()
		closeIters(stale)
	}
	g1 := c.gen.Load()
	quiet := c.inflight.Load() == 0
	it, err := db.NewIter(&pebble.IterOptions{})
	if err != nil {
		return readIter{}, err
	}
	return readIter{Iterator: it, gen: g1, cacheable: quiet && c.gen.Load() == g1}, nil
}

// done takes back an iterator from get: it is cached if still current,
// else closed.
func (c *iterCache) done(ri readIter) error {
	if ri.cacheable && ri.Error() == nil && ri.gen == c.gen.Load() {
		c.mu.Lock()
		if len(c.free) < iterCacheSize && !c.closed {
			c.free = append(c.free, cachedIter{ri.Iterator, ri.gen})
			c.cached.Store(int32(len(c.free)))
			c.mu.Unlock()
			return nil
		}
		c.mu.Unlock()
	}
	return ri.Close()
}

// beginWrite must precede every commit to the database, and endWrite
// follow it.
func (c *iterCache) beginWrite() {
	c.inflight.Add(1)
	c.gen.Add(1)
}

func (c *iterCache) endWrite() {
	c.inflight.Add(-1)
	if c.cached.Load() > 0 {
		c.dropStale()
	}
}

// invalidate retires every cached iterator. It takes no lock: Pebble's event
// listeners call it.
func (c *iterCache) invalidate() { c.gen.Add(1) }

// dropStale closes the cached iterators a write, flush or compaction has
// retired, releasing the memtables and tables they pin; current ones stay.
func (c *iterCache) dropStale() {
	g := c.gen.Load()
	var stale []cachedIter
	c.mu.Lock()
	kept := c.free[:0]
	for _, ci := range c.free {
		if ci.gen == g {
			kept = append(kept, ci)
		} else {
			stale = append(stale, ci)
		}
	}
	clear(c.free[len(kept):])
	c.free = kept
	c.cached.Store(int32(len(kept)))
	c.mu.Unlock()
	closeIters(stale)
}

// close closes every cached iterator and caches none from then on, so
// that an iterator handed back while the engine closes is closed, not kept
// past the database.
func (c *iterCache) close() {
	c.mu.Lock()
	c.closed = true
	free := c.free
	c.free = nil
	c.cached.Store(0)
	c.mu.Unlock()
	closeIters(free)
}

func closeIters(cs []cachedIter) {
	for _, ci := range cs {
		_ = ci.it.Close()
	}
}
