package storage

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"sync"
)

// ReadOptions describe a ReadRows call (spec §2.2).
type ReadOptions struct {
	// Rows to read; empty means the whole table.
	Rows RowSet
	// Filter to apply to every row; nil passes all cells.
	Filter Filter
	// Limit stops the read after this many rows are returned; 0 is no limit.
	Limit int64
	// Reversed returns rows in descending key order.
	Reversed bool
	// Families, when set, restricts the read to cells of these families:
	// others are stepped over without being copied, before the filter runs.
	Families []string
	// Qualifiers, when set, restricts the families it names to these
	// qualifiers (each list sorted); like Families, other cells are
	// stepped over without being copied, before the filter runs.
	Qualifiers map[string][][]byte
	// LatestOnly keeps only the newest cell of each column, before the
	// filter runs (a CellsPerColumnLimit of 1 that costs no filter pass).
	LatestOnly bool
	// KeysOnly returns every row that has a cell, without its cells: a read
	// stops at a row's first cell and seeks to the next row. It excludes
	// Filter and Families.
	KeysOnly bool
	// KeepEmptyRows also returns rows that have cells but none left after
	// Families and Filter, with no cells (SQL shows them as empty maps).
	KeepEmptyRows bool
	// ReadAhead lets a long read iterate on a goroutine of its own
	// (readahead.go). It pays when the caller's own work per row is like
	// the read's (SQL building and encoding rows); when that work is small
	// (counting keys), or when what consumes the rows is the bottleneck (a
	// gRPC client parsing ReadRows on the same machine), it only adds the
	// handoff's CPU.
	ReadAhead bool
}

// MaxRowSize is the largest row a read returns (spec §8).
const MaxRowSize = 256 << 20

// ReadStats count the work a read did.
type ReadStats struct {
	RowsScanned   int64
	CellsScanned  int64
	RowsReturned  int64
	CellsReturned int64
}

// RowIterator streams the rows of a read from one bounded Pebble iteration
// per span; it holds one row, or reading ahead a few batches of them
// (readahead.go). It is not safe for concurrent
// use. The *Row returned by Next, and every slice in it, stay valid until the
// following call to Next or Close; callers that keep them must copy.
type RowIterator struct {
	ctx        context.Context
	t          *Table
	view       *AuthorizedView
	iter       readIter
	lender     *iterCache // lent iter; nil: iter is the RowIterator's own
	spans      []span
	spanIdx    int
	reversed   bool
	limit      int64
	filter     *CompiledFilter
	families   []string // nil: every family
	quals      map[string][][]byte
	latestOnly bool
	keysOnly   bool
	keepEmpty  bool

	positioned bool // iter sits on the first unread cell of the current span
	row        Row
	readScratch
	scratch       *readScratch // where readScratch goes back to on Close
	lastFamOK     bool         // lastFamStr names a family of the schema
	lastFamWanted bool         // and the read wants its cells
	lastFamStr    string
	lastFamQuals  [][]byte // the qualifiers wanted of it, when lastFamOnly
	lastFamOnly   bool     // Qualifiers names the family: only lastFamQuals
	stats         ReadStats
	err           error
	closed        bool
	raDecided     bool       // shouldReadAhead was asked, or ReadAhead not set
	batching      bool       // rows accumulate in arena (readAhead's batch)
	ra            *readahead // non-nil: a goroutine reads ahead (readahead.go)
}

// readScratch is the memory a read reuses from the reads before it: a point
// read then allocates nothing for its spans, cells or row bytes.
type readScratch struct {
	spanBuilder spanBuilder
	cells       []Cell
	out         []Cell
	arena       arena
	keyBuf      []byte
	seekBuf     []byte // columnSeekTarget's keys
}

var readScratchPool = sync.Pool{New: func() any { return new(readScratch) }}

// ReadRows starts a read. The iterator must be closed.
func (e *Engine) ReadRows(ctx context.Context, tgt Target, opts ReadOptions) (*RowIterator, error) {
	r, err := e.resolve(tgt)
	if err != nil {
		return nil, err
	}
	if opts.Limit < 0 {
		return nil, fmt.Errorf("%w: rows limit %d is negative", ErrInvalidArgument, opts.Limit)
	}
	if opts.KeysOnly && (opts.Filter != nil || opts.Families != nil || opts.Qualifiers != nil || opts.LatestOnly) {
		return nil, fmt.Errorf("%w: a keys-only read takes no filter or families", ErrInvalidArgument)
	}
	scratch := readScratchPool.Get().(*readScratch)
	spans, err := scratch.spanBuilder.build(opts.Rows, r.t.ID)
	if err != nil {
		return nil, err // the scratch is left to the collector
	}
	if r.view != nil {
		vs, err := RowSet{Ranges: r.view.rowRanges()}.spans(r.t.ID)
		if err != nil {
			return nil, err
		}
		spans = intersectSpans(spans, vs)
	}
	var cf *CompiledFilter
	if !isNilFilter(opts.Filter) {
		if cf, err = CompileFilter(opts.Filter, e.opts.Rand); err != nil {
			return nil, err
		}
	}
	families, quals, latestOnly := opts.Families, opts.Qualifiers, opts.LatestOnly
	if cf != nil && families == nil && quals == nil {
		// Read only the columns the filter can use (filter_columns.go).
		if fs, qs, ok := cf.readColumns(r.t); ok {
			families, quals = fs, qs
		}
		latestOnly = latestOnly || cf.latestOnly()
	}
	it := &RowIterator{
		ctx: ctx, t: r.t, view: r.view, spans: spans, reversed: opts.Reversed,
		limit: opts.Limit, filter: cf, families: families, keysOnly: opts.KeysOnly,
		keepEmpty: opts.KeepEmptyRows || opts.KeysOnly, quals: quals, latestOnly: latestOnly,
		readScratch: *scratch, scratch: scratch, raDecided: !opts.ReadAhead && !readaheadAlways,
	}
	if opts.Reversed {
		it.spanIdx = len(spans) - 1
	}
	if len(spans) > 0 {
		if it.iter, err = e.iters.get(e.db); err != nil {
			return nil, err
		}
		it.lender = e.iters
	}
	return it, nil
}

// Next returns the next row that has at least one cell after filtering, or
// nil at the end or on error (check Err).
func (it *RowIterator) Next() *Row {
	switch {
	case it.closed:
		return nil
	case it.ra != nil:
		return it.ra.nextRow()
	case it.stats.RowsReturned >= readaheadAfter && !it.raDecided && it.err == nil:
		it.raDecided = true
		if it.shouldReadAhead() {
			it.startReadahead()
			return it.ra.nextRow()
		}
	}
	return it.next()
}

// next is Next on the goroutine that owns the iterator.
func (it *RowIterator) next() *Row {
	if it.err != nil || it.closed || (it.limit > 0 && it.stats.RowsReturned >= it.limit) {
		return nil
	}
	for {
		if !it.readRow() {
			return nil
		}
		if it.stats.RowsScanned%256 == 0 {
			if err := it.ctx.Err(); err != nil {
				it.err = err
				return nil
			}
		}
		cells := it.cells
		if !it.filter.PassesAll() {
			it.out = it.filter.Apply(it.out[:0], it.row.Key, it.cells)
			cells = it.out
		}
		if len(cells) == 0 && !it.keepEmpty {
			continue
		}
		it.row.Cells = cells
		it.stats.RowsReturned++
		it.stats.CellsReturned += int64(len(cells))
		return &it.row
	}
}

// readRow assembles the next raw row into it.row.Key and it.cells, moving
// across spans as needed. It returns false at the end or on error.
func (it *RowIterator) readRow() bool {
	for {
		if it.spanIdx < 0 || it.spanIdx >= len(it.spans) {
			return false
		}
		if !it.positioned {
			sp := it.spans[it.spanIdx]
			it.iter.SetBounds(sp.lower, sp.upper)
			var ok bool
			if it.reversed {
				ok = it.iter.Last()
			} else {
				ok = it.iter.First()
			}
			it.positioned = true
			if !ok {
				if it.err = it.iter.Error(); it.err != nil {
					return false
				}
				it.nextSpan()
				continue
			}
		}
		if !it.iter.Valid() {
			if it.err = it.iter.Error(); it.err != nil {
				return false
			}
			it.nextSpan()
			continue
		}
		if it.collectRow() {
			return true
		}
		if it.err != nil {
			return false
		}
	}
}

func (it *RowIterator) nextSpan() {
	it.positioned = false
	if it.reversed {
		it.spanIdx--
	} else {
		it.spanIdx++
	}
}

// collectRow reads the cells of the row the iterator is on and leaves the
// iterator on the next row's first cell (in iteration order). It returns
// false when the row had no visible cell or on error.
func (it *RowIterator) collectRow() bool {
	if !it.batching {
		it.arena.reset()
	}
	rowStart := it.arena.size
	it.cells = it.cells[:0]
	k := it.iter.Key()
	row, rest, buf, err := decodeRowKey(k, it.keyBuf[:0])
	it.keyBuf = buf
	if err != nil {
		it.err = fmt.Errorf("%w: %x", err, k)
		return false
	}
	prefix := it.arena.copy(k[:len(k)-len(rest)])
	it.row.Key = it.arena.copy(row)
	it.stats.RowsScanned++
	visibleRow := it.view == nil || it.view.containsRow(it.row.Key)
	exists := false // the row has a cell the target can see
	skipped := 0    // cells stepped over by a keys-only read
	unwanted := 0   // cells in a row the read did not take
	for {
		it.stats.CellsScanned++
		taken := len(it.cells)
		if visibleRow {
			visible, err := it.addCell(k[len(prefix):])
			if err != nil {
				it.err = err
				return false
			}
			exists = exists || visible
		}
		if exists && it.keysOnly {
			if skipped++; skipped > keysOnlyNexts {
				it.skipRow(prefix)
				break
			}
		}
		// After a cell the read did not take — of a family, column or
		// version it does not want, or, reversed, an older version it
		// replaced — a few in a row, seek to the next cell it may want.
		// Through an authorized view too: the view decides which cells are
		// visible, not which the read wants, and the cells sought past
		// matter only for a row's existence, which is settled (exists) or
		// not asked (keepEmpty).
		var target []byte
		var ge bool
		if len(it.cells) > taken {
			unwanted = 0
		} else if unwanted++; unwanted > columnSkipNexts && visibleRow && !it.keysOnly && (exists || !it.keepEmpty) {
			target, ge = it.columnSeekTarget(prefix, k[len(prefix):])
			unwanted = 0
		}
		// The steps are spelled out rather than a method: the iterator's
		// Next and Prev inline here, and a call per cell costs 10% of a scan.
		var ok bool
		switch {
		case target != nil && ge:
			ok = it.iter.SeekGE(target)
		case target != nil:
			ok = it.iter.SeekLT(target)
		case it.reversed:
			ok = it.iter.Prev()
		default:
			ok = it.iter.Next()
		}
		if !ok {
			break
		}
		k = it.iter.Key()
		if len(k) <= len(prefix) || string(k[:len(prefix)]) != string(prefix) {
			break
		}
	}
	if it.reversed {
		slices.Reverse(it.cells)
	}
	if it.arena.size-rowStart > MaxRowSize {
		it.err = fmt.Errorf("%w: row %q is larger than %d bytes", ErrFailedPrecondition, it.row.Key, MaxRowSize)
		return false
	}
	if it.keepEmpty {
		return exists
	}
	return len(it.cells) > 0
}

// columnSkipNexts is how many cells in a row a read that restricts
// families, qualifiers or versions steps over with Next before it seeks to
// the next cell it may want: narrow rows are walked, wide ones jumped.
const columnSkipNexts = 8

// columnSeekTarget returns the key to seek to from the cell with column
// suffix suffix in the row with key prefix prefix, which the read did not
// take, and whether to SeekGE to it (else SeekLT); nil: step. It relies on
// addCell's state for the cell (lastFam*).
//
// Forward, it seeks (SeekGE) past the column's older versions (LatestOnly),
// to the next qualifier the read wants in its family, or to the next family
// it may want (the next row's first key when there is none).
//
// A reversed read meets a row's columns last first and a column's versions
// oldest first: from an older version of a wanted column it seeks (SeekGE)
// to the column's first key, its newest cell; otherwise it seeks (SeekLT)
// past the previous qualifier the read wants in the family, or past the
// previous family it may want, or to the row's own prefix (the previous
// row) when there is none.
func (it *RowIterator) columnSeekTarget(prefix, suffix []byte) (target []byte, ge bool) {
	fam, qual, _, buf, err := decodeColumnSuffix(suffix, it.keyBuf[:0])
	it.keyBuf = buf
	if err != nil {
		return nil, false
	}
	b := append(it.seekBuf[:0], prefix...)
	defer func() { it.seekBuf = b[:0] }()
	if it.lastFamOK && it.lastFamWanted {
		quals := it.lastFamQuals
		if !it.lastFamOnly || containsQualifier(quals, qual) {
			if !it.latestOnly {
				return nil, false // a wanted cell: nothing to skip
			}
			b = appendEscaped(append(append(b, fam...), escByte), qual)
			if !it.reversed {
				b[len(b)-1]++ // past the column: its terminator 0x00 0x01 becomes 0x00 0x02
			}
			return b, true
		}
		i, _ := slices.BinarySearchFunc(quals, qual, bytes.Compare)
		switch {
		case !it.reversed && i < len(quals):
			return appendEscaped(append(append(b, fam...), escByte), quals[i]), true // its first cell
		case it.reversed && i > 0:
			b = appendEscaped(append(append(b, fam...), escByte), quals[i-1])
			b[len(b)-1]++ // past that column, whose oldest cell is the last key before
			return b, false
		}
	}
	// Past this family.
	if it.families == nil {
		if it.reversed {
			return append(append(b, fam...), escByte), false // its first key
		}
		return append(append(b, fam...), escByte+1), true // sorts after every key of fam
	}
	near, found := "", false
	for _, f := range it.families {
		if it.reversed {
			if f < string(fam) && (!found || f > near) {
				near, found = f, true
			}
		} else if f > string(fam) && (!found || f < near) {
			near, found = f, true
		}
	}
	switch {
	case !found && it.reversed:
		return b, false
	case !found:
		return prefixSuccessor(prefix), true
	case it.reversed:
		return append(append(b, near...), escByte+1), false // sorts after every key of near
	}
	return append(append(b, near...), escByte), true
}

// keysOnlyNexts is how many cells a keys-only read steps over with Next
// before it seeks to the next row: a seek costs a few Nexts, so narrow
// rows are cheaper to walk and wide rows cheaper to jump.
const keysOnlyNexts = 4

// skipRow moves the iterator from inside the row with key prefix prefix
// to the next row in iteration order.
func (it *RowIterator) skipRow(prefix []byte) {
	if it.reversed {
		it.iter.SeekLT(prefix)
	} else {
		it.iter.SeekGE(prefixSuccessor(prefix))
	}
}

// addCell decodes the column part of the current key and appends the cell
// when the read wants it. It reports whether the cell is visible to the
// target at all (its family is live and the view shows it).
func (it *RowIterator) addCell(suffix []byte) (visible bool, err error) {
	fam, qual, ts, buf, err := decodeColumnSuffix(suffix, it.keyBuf[:0])
	it.keyBuf = buf
	if err != nil {
		return false, fmt.Errorf("%w in row %q", err, it.row.Key)
	}
	if !it.lastFamOK || string(fam) != it.lastFamStr {
		f := it.t.Family(string(fam))
		if f == nil {
			// A family being dropped: its cells are going away.
			it.lastFamOK, it.lastFamStr, it.lastFamWanted = false, "", false
			return false, nil
		}
		it.lastFamOK, it.lastFamStr = true, f.Name
		it.lastFamWanted = it.families == nil || slices.Contains(it.families, f.Name)
		it.lastFamQuals, it.lastFamOnly = it.quals[f.Name]
	}
	if it.view != nil && !it.view.containsColumn(it.lastFamStr, qual) {
		return false, nil
	}
	if !it.lastFamWanted || it.keysOnly {
		return true, nil
	}
	if it.lastFamOnly && !containsQualifier(it.lastFamQuals, qual) {
		return true, nil
	}
	sameColumn := false
	if it.latestOnly && len(it.cells) > 0 {
		last := &it.cells[len(it.cells)-1]
		sameColumn = last.Family == it.lastFamStr && string(last.Qualifier) == string(qual)
		if sameColumn && !it.reversed {
			return true, nil // forward: the newest cell of a column comes first
		}
	}
	v, err := it.iter.ValueAndErr()
	if err != nil {
		return false, err
	}
	q, v := it.arena.copy2(qual, v)
	c := Cell{Family: it.lastFamStr, Qualifier: q, Timestamp: ts, Value: v}
	if sameColumn { // reversed: the newest cell of a column comes last
		it.cells[len(it.cells)-1] = c
		return true, nil
	}
	it.cells = append(it.cells, c)
	return true, nil
}

// containsQualifier reports whether the sorted list qs holds q.
func containsQualifier(qs [][]byte, q []byte) bool {
	if len(qs) < 8 {
		for _, x := range qs {
			if string(x) == string(q) {
				return true
			}
		}
		return false
	}
	_, found := slices.BinarySearchFunc(qs, q, bytes.Compare)
	return found
}

// Err returns the error that ended the iteration, if any.
func (it *RowIterator) Err() error {
	if it.ra != nil {
		return it.ra.err()
	}
	return it.err
}

// Stats returns what the read has done so far.
func (it *RowIterator) Stats() ReadStats {
	if it.ra != nil {
		return it.ra.stats()
	}
	return it.stats
}

// Close releases the iterator. Closing twice is an error.
func (it *RowIterator) Close() error {
	if it.closed {
		return fmt.Errorf("storage: RowIterator closed twice")
	}
	if it.ra != nil {
		it.ra.close()
	}
	it.closed = true
	if it.scratch != nil {
		// The row handed out last is invalid from here on (see RowIterator),
		// so its memory can serve the next read.
		*it.scratch = it.readScratch
		readScratchPool.Put(it.scratch)
		it.readScratch, it.scratch = readScratch{}, nil
	}
	if it.lender != nil {
		return it.lender.done(it.iter)
	}
	if it.iter.Iterator != nil {
		return it.iter.Close()
	}
	return nil
}

// ReadRow reads one row (nil if it has no cells after filtering); the result
// is a copy the caller owns.
func (e *Engine) ReadRow(ctx context.Context, tgt Target, key []byte, filter Filter) (*Row, error) {
	it, err := e.ReadRows(ctx, tgt, ReadOptions{Rows: RowSet{Keys: [][]byte{key}}, Filter: filter})
	if err != nil {
		return nil, err
	}
	defer it.Close()
	r := it.Next()
	if r == nil {
		return nil, it.Err()
	}
	return r.Clone(), nil
}

// Clone returns a deep copy of the row.
func (r *Row) Clone() *Row {
	c := &Row{Key: slices.Clone(r.Key), Cells: make([]Cell, len(r.Cells))}
	for i, cell := range r.Cells {
		c.Cells[i] = Cell{
			Family:    cell.Family,
			Qualifier: slices.Clone(cell.Qualifier),
			Timestamp: cell.Timestamp,
			Value:     slices.Clone(cell.Value),
			Labels:    slices.Clone(cell.Labels),
		}
	}
	return c
}
