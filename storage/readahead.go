package storage

import "runtime"

// A long read that asks for it (ReadOptions.ReadAhead) moves its Pebble
// iteration onto a goroutine of its own, which reads ahead into batches of
// rows while the caller works on the rows before them: a scan whose caller
// builds and encodes every row (SQL) then uses a second core for half of
// its work.
//
// A read starts on the caller's goroutine and reads ahead from its
// readaheadAfter'th row on, so a point read or a short range never starts a
// goroutine. Reading ahead holds at most readaheadBatches batches, each of
// at most readaheadRows rows and about readaheadBytes bytes (one row larger
// than that is one batch); a caller that stops early wastes at most those.
//
// While it reads ahead, the goroutine owns the RowIterator's fields (its
// Pebble iterator, scratch memory, stats and error) and the caller touches
// only the readahead: each batch carries the stats and error as they were
// at its last row, and Close waits for the goroutine before it releases the
// iterator.
var readaheadAfter int64 = 1024

// readaheadAlways makes every read read ahead as if it had asked (tests).
var readaheadAlways bool

const (
	readaheadRows    = 512
	readaheadBytes   = 64 << 10
	readaheadBatches = 3
)

type readahead struct {
	full chan *rowBatch // filled by the goroutine, in order
	free chan *rowBatch // handed back by the caller
	stop chan struct{}  // closed by Close: the goroutine returns
	done chan struct{}  // closed by the goroutine when it returns

	cur  *rowBatch // the batch the caller reads; nil before the first
	next int       // index in cur.rows of the row Next returns next
	row  Row       // what Next returns: a row of cur
	base ReadStats // the read's stats when the goroutine started
}

// rowBatch is a run of rows copied out of the iterator's per-row memory.
type rowBatch struct {
	rows  []batchRow
	cells []Cell
	arena arena
	stats ReadStats // the read's stats after the batch's last row
	err   error     // the error that ended the read after the batch
	last  bool      // no batch follows
}

type batchRow struct {
	key        []byte
	start, end int // the row's cells in the batch's cells
}

// add adds r, whose bytes are in the batch's arena already, to the batch.
func (b *rowBatch) add(r *Row) {
	start := len(b.cells)
	b.cells = append(b.cells, r.Cells...) // Labels are the filter's: never reused
	b.rows = append(b.rows, batchRow{key: r.Key, start: start, end: len(b.cells)})
}

func (b *rowBatch) full(a *arena) bool {
	return len(b.rows) >= readaheadRows || a.size >= readaheadBytes
}

func (b *rowBatch) reset() {
	b.rows = b.rows[:0]
	clear(b.cells) // drop Labels
	b.cells = b.cells[:0]
	b.arena.reset()
	b.err, b.last = nil, false
}

// shouldReadAhead reports whether the read, having returned
// readaheadAfter rows on the caller's goroutine, is worth a goroutine: it
// has no limit or a distant one, and there is a second core.
func (it *RowIterator) shouldReadAhead() bool {
	return it.stats.RowsReturned >= readaheadAfter &&
		(it.limit == 0 || it.limit-it.stats.RowsReturned > readaheadRows) &&
		runtime.GOMAXPROCS(0) > 1
}

// startReadahead starts the goroutine. The row Next returned last becomes
// invalid, as the next call to Next allows.
func (it *RowIterator) startReadahead() {
	ra := &readahead{
		full: make(chan *rowBatch, readaheadBatches),
		free: make(chan *rowBatch, readaheadBatches),
		stop: make(chan struct{}),
		done: make(chan struct{}),
		base: it.stats,
	}
	for range readaheadBatches {
		ra.free <- new(rowBatch)
	}
	it.ra = ra
	it.batching = true
	go it.readAhead(ra)
}

// readAhead fills batches until the read ends or Close stops it.
func (it *RowIterator) readAhead(ra *readahead) {
	defer close(ra.done)
	for {
		var b *rowBatch
		select {
		case b = <-ra.free:
		case <-ra.stop:
			return
		}
		b.reset()
		// The rows' bytes go straight into the batch's arena: the read
		// does not reset it between rows while batching.
		it.arena, b.arena = b.arena, arena{}
		for !b.full(&it.arena) {
			r := it.next()
			if r == nil {
				b.err, b.last = it.err, true
				break
			}
			b.add(r)
		}
		b.arena, it.arena = it.arena, arena{}
		b.stats = it.stats
		select {
		case ra.full <- b:
		case <-ra.stop:
			return
		}
		if b.last {
			return
		}
	}
}

// nextRow is Next while reading ahead.
func (ra *readahead) nextRow() *Row {
	for ra.cur == nil || ra.next == len(ra.cur.rows) {
		if ra.cur != nil {
			if ra.cur.last {
				return nil
			}
			ra.free <- ra.cur
		}
		ra.cur, ra.next = <-ra.full, 0
	}
	r := ra.cur.rows[ra.next]
	ra.next++
	ra.row = Row{Key: r.key, Cells: ra.cur.cells[r.start:r.end:r.end]}
	return &ra.row
}

// stats returns the read's stats as of the row Next returned last: the
// current batch's rows not yet returned are taken back out.
func (ra *readahead) stats() ReadStats {
	if ra.cur == nil {
		return ra.base
	}
	st := ra.cur.stats
	if rest := ra.cur.rows[ra.next:]; len(rest) > 0 {
		st.RowsReturned -= int64(len(rest))
		st.CellsReturned -= int64(len(ra.cur.cells) - rest[0].start)
	}
	return st
}

// err returns the error that ended the read, once the caller has reached it.
func (ra *readahead) err() error {
	if ra.cur == nil || !ra.cur.last || ra.next < len(ra.cur.rows) {
		return nil
	}
	return ra.cur.err
}

// close stops the goroutine and waits for it: the RowIterator's fields are
// the caller's again.
func (ra *readahead) close() {
	close(ra.stop)
	<-ra.done
}
