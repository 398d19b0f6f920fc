package pgcatalog

import (
	"bufio"
	"container/heap"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"os"
	"strings"
	"unsafe"
)

// Sorting more than work_mem: a select that only filters, projects and
// sorts (no LIMIT small enough for topN) collects its projected rows until
// their estimated size passes the session's work_mem, sorts them and
// writes them to a temporary file as one sorted run, and so on; at the end
// it merges the runs and the rows still in memory, yielding rows as the
// client reads them. Memory follows work_mem, not the table. The file is
// unlinked as soon as it is created, so nothing is left behind, even by a
// crash. Equal rows keep their input order, as the stable in-memory sort
// keeps it: runs are written in input order and the merge prefers the
// earlier run. A spilled value keeps its text and loses its Source native
// (Rows.Natives), so it is sent from its text.

// sortOnly reports whether the select only filters, projects and sorts,
// so that its rows can be sorted outside memory.
func (p *selectPlan) sortOnly() bool {
	return !p.grouped && len(p.wins) == 0 && len(p.srfs) == 0 && !p.distinct && len(p.sort) > 0 && !p.withTies
}

// openSorted streams a sortOnly select's rows, spilling past work_mem,
// with OFFSET and LIMIT applied and the hidden sort columns dropped.
func (p *selectPlan) openSorted(ev *evaluator, outer *env, limit, offset int64) (rowIter, error) {
	s := &spillSorter{keys: p.sort, budget: workMem(ev.sess)}
	err := p.eachProjected(ev, outer, func(_ int, row []Value) error { return s.add(row) })
	if err != nil {
		s.close()
		return nil, err
	}
	it, err := s.iter()
	if err != nil {
		s.close()
		return nil, err
	}
	return &limitIter{src: it, limit: limit, offset: offset, width: p.nvisible, done: s.close}, nil
}

// workMem is the session's work_mem in bytes (PostgreSQL's unit is kB).
func workMem(sess *Session) int64 {
	kb, ok := ParseMemory(setting(sess, "work_mem"))
	if !ok {
		kb, _ = ParseMemory(defaultSettings["work_mem"])
	}
	return kb * 1024
}

// spillSorter sorts rows, in memory while they fit in budget bytes, else
// in sorted runs on a temporary file merged at the end.
type spillSorter struct {
	keys     []sortKey
	budget   int64
	buf      [][]Value
	bufBytes int64
	file     *os.File
	w        *bufio.Writer
	off      int64
	runs     []spillRun
	enc      []byte
	// spilledBytes and spilledRows measure the rows written to runs (by
	// rowSize), for the merge's fan-in.
	spilledBytes, spilledRows int64
}

// spillRun is one sorted run: a byte range of the file.
type spillRun struct{ start, end int64 }

func (s *spillSorter) add(row []Value) error {
	s.buf = append(s.buf, row)
	s.bufBytes += rowSize(row)
	if s.bufBytes >= s.budget {
		return s.spill()
	}
	return nil
}

// spill writes the buffered rows, sorted, as a run.
func (s *spillSorter) spill() error {
	if s.file == nil {
		f, err := os.CreateTemp("", "shale-sort-*")
		if err != nil {
			return errorf(CodeIOError, noPos, "could not create temporary file for sorting: %v", err)
		}
		os.Remove(f.Name()) // the open file lives on
		s.file, s.w = f, bufio.NewWriterSize(f, 256<<10)
	}
	sortRows(s.buf, s.keys)
	start := s.off
	for _, row := range s.buf {
		if err := s.writeRow(row); err != nil {
			return err
		}
	}
	if err := s.flush(); err != nil {
		return err
	}
	s.runs = append(s.runs, spillRun{start, s.off})
	s.spilledBytes += s.bufBytes
	s.spilledRows += int64(len(s.buf))
	s.buf, s.bufBytes = nil, 0
	return nil
}

func (s *spillSorter) writeRow(row []Value) error {
	s.enc = appendRow(s.enc[:0], row)
	n, err := s.w.Write(s.enc)
	s.off += int64(n)
	if err != nil {
		return errorf(CodeIOError, noPos, "could not write temporary sort file: %v", err)
	}
	return nil
}

func (s *spillSorter) flush() error {
	if err := s.w.Flush(); err != nil {
		return errorf(CodeIOError, noPos, "could not write temporary sort file: %v", err)
	}
	return nil
}

// maxFanIn bounds the runs one merge reads at once. Each holds a read
// buffer and its current row, so the fan-in is also kept to as many rows
// as work_mem holds (at least 8): more runs than that are merged in
// passes into longer runs written after them (as PostgreSQL's tape sort
// merges), and a table of wide rows sorted in a small work_mem does not
// hold a row per run.
var maxFanIn = 512

// fanIn is how many runs a merge reads at once.
func (s *spillSorter) fanIn() int {
	rows := s.budget / max(s.spilledBytes/max(s.spilledRows, 1), 1)
	return int(min(max(rows, 8), int64(maxFanIn)))
}

// iter returns the sorted rows: the buffer alone when nothing spilled,
// else the merge of the runs and the buffer.
func (s *spillSorter) iter() (rowIter, error) {
	sortRows(s.buf, s.keys)
	if len(s.runs) == 0 {
		return &sliceIter{rows: s.buf}, nil
	}
	if traceSpill != nil {
		traceSpill(len(s.runs))
	}
	for len(s.runs)+1 > s.fanIn() { // the buffer takes a place in the last merge
		if err := s.mergePass(); err != nil {
			return nil, err
		}
	}
	return s.openMerge(s.runs, true)
}

// openMerge merges runs, in order (earlier runs first among equal rows),
// and after them the buffer when withBuf.
func (s *spillSorter) openMerge(runs []spillRun, withBuf bool) (*mergeIter, error) {
	n := int64(len(runs))
	if withBuf {
		n++
	}
	// The runs' read buffers share the budget, within 4kB to 64kB each.
	size := int(min(max(s.budget/n, 4<<10), 64<<10))
	m := &mergeIter{h: runHeap{keys: s.keys}}
	for i, r := range runs {
		src := &runReader{r: bufio.NewReaderSize(io.NewSectionReader(s.file, r.start, r.end-r.start), size)}
		if err := m.push(src, i); err != nil {
			return nil, err
		}
	}
	if withBuf {
		if err := m.push(&sliceIter{rows: s.buf}, len(runs)); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// mergePass merges the runs maxFanIn at a time, each group into one run
// written at the end of the file, in the groups' order.
func (s *spillSorter) mergePass() error {
	var next []spillRun
	fanIn := s.fanIn()
	for i := 0; i < len(s.runs); i += fanIn {
		group := s.runs[i:min(i+fanIn, len(s.runs))]
		if len(group) == 1 {
			next = append(next, group[0])
			continue
		}
		m, err := s.openMerge(group, false)
		if err != nil {
			return err
		}
		start := s.off
		for {
			row, err := m.next()
			if err == nil && row != nil {
				err = s.writeRow(row)
			}
			if err != nil {
				m.close()
				return err
			}
			if row == nil {
				break
			}
		}
		m.close()
		if err := s.flush(); err != nil {
			return err
		}
		next = append(next, spillRun{start, s.off})
	}
	s.runs = next
	return nil
}

func (s *spillSorter) close() {
	if s.file != nil {
		s.file.Close()
		s.file = nil
	}
	s.buf = nil
}

// traceSpill, when set by a test, sees how many runs a sort spilled.
var traceSpill func(runs int)

// rowSize estimates the memory a row holds.
func rowSize(row []Value) int64 {
	n := int64(24)
	for _, v := range row {
		n += valueSize(v)
	}
	return n
}

func valueSize(v Value) int64 {
	n := int64(unsafe.Sizeof(v)) + int64(len(v.s)) // the Value itself, and its text
	if v.nat != nil {
		// A scanned value's native: the Source's own value, a copy of the
		// data the text spells, and the allocations that hold it.
		n += 128 + int64(len(v.s))
	}
	for _, e := range v.a {
		n += valueSize(e)
	}
	for _, name := range v.names {
		n += int64(16 + len(name))
	}
	return n + int64(4*len(v.types))
}

// appendRow encodes a row for a run: its width, then each value.
func appendRow(b []byte, row []Value) []byte {
	b = binary.AppendUvarint(b, uint64(len(row)))
	for _, v := range row {
		b = appendValue(b, v)
	}
	return b
}

func appendValue(b []byte, v Value) []byte {
	b = append(b, byte(v.k))
	switch v.k {
	case kBool:
		if v.b {
			return append(b, 1)
		}
		return append(b, 0)
	case kInt:
		return binary.AppendVarint(b, v.i)
	case kFloat:
		return binary.LittleEndian.AppendUint64(b, math.Float64bits(v.f))
	case kNumeric, kText:
		b = binary.AppendUvarint(b, uint64(len(v.s)))
		return append(b, v.s...)
	case kArray, kRecord:
		b = appendRow(b, v.a)
		if v.k == kArray {
			return b
		}
		b = binary.AppendUvarint(b, uint64(len(v.names)))
		for _, n := range v.names {
			b = binary.AppendUvarint(b, uint64(len(n)))
			b = append(b, n...)
		}
		b = binary.AppendUvarint(b, uint64(len(v.types)))
		for _, t := range v.types {
			b = binary.AppendUvarint(b, uint64(t))
		}
	}
	return b
}

// runReader reads a run's rows back.
type runReader struct{ r *bufio.Reader }

func (rr *runReader) next() ([]Value, error) {
	row, err := readRow(rr.r)
	if errors.Is(err, io.EOF) {
		return nil, nil
	}
	if err != nil {
		return nil, errorf(CodeIOError, noPos, "could not read temporary sort file: %v", err)
	}
	return row, nil
}

func (rr *runReader) close() {}

// errBadRun is a run that does not decode: only a damaged file gives it.
var errBadRun = errors.New("malformed sort run")

// readRow decodes a row. Widths and lengths are trusted only as far as the
// data bears them out: memory grows as values arrive, so that a damaged
// length cannot ask for a huge allocation.
func readRow(r *bufio.Reader) ([]Value, error) {
	n, err := binary.ReadUvarint(r)
	if err != nil {
		return nil, err
	}
	row := make([]Value, 0, min(n, 1024))
	for range n {
		v, err := readValue(r)
		if err != nil {
			return nil, noEOF(err)
		}
		row = append(row, v)
	}
	return row, nil
}

// noEOF turns an end of file inside a row into ErrUnexpectedEOF.
func noEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

func readValue(r *bufio.Reader) (Value, error) {
	k, err := r.ReadByte()
	if err != nil {
		return null, err
	}
	v := Value{k: kind(k)}
	switch v.k {
	case kNull:
	case kBool:
		c, err := r.ReadByte()
		v.b = c == 1
		return v, err
	case kInt:
		v.i, err = binary.ReadVarint(r)
		return v, err
	case kFloat:
		var b [8]byte
		_, err = io.ReadFull(r, b[:])
		v.f = math.Float64frombits(binary.LittleEndian.Uint64(b[:]))
		return v, err
	case kNumeric, kText:
		v.s, err = readString(r)
		return v, err
	case kArray, kRecord:
		if v.a, err = readRow(r); len(v.a) == 0 {
			v.a = nil // as arrayV(nil) made it; a row read back is never nil
		}
		if err != nil || v.k == kArray {
			return v, err
		}
		n, err := binary.ReadUvarint(r)
		if err != nil {
			return v, err
		}
		if n > uint64(len(v.a)) {
			return v, errBadRun
		}
		v.names = make([]string, n)
		for i := range v.names {
			if v.names[i], err = readString(r); err != nil {
				return v, noEOF(err)
			}
		}
		if n, err = binary.ReadUvarint(r); err != nil || n == 0 {
			return v, err
		}
		if n > uint64(len(v.a)) {
			return v, errBadRun
		}
		v.types = make([]uint32, n)
		for i := range v.types {
			t, err := binary.ReadUvarint(r)
			if err != nil {
				return v, err
			}
			v.types[i] = uint32(t)
		}
	default:
		return v, errBadRun
	}
	return v, nil
}

func readString(r *bufio.Reader) (string, error) {
	n, err := binary.ReadUvarint(r)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.Grow(int(min(n, 64<<10)))
	if _, err := io.CopyN(&b, r, int64(min(n, math.MaxInt64))); err != nil {
		return "", noEOF(err)
	}
	return b.String(), nil
}

// mergeIter merges sorted sources; of equal rows, the lower source's comes
// first.
type mergeIter struct {
	h    runHeap
	srcs []rowIter
}

func (m *mergeIter) push(src rowIter, order int) error {
	m.srcs = append(m.srcs, src)
	row, err := src.next()
	if err != nil || row == nil {
		return err
	}
	heap.Push(&m.h, runHead{row: row, src: src, order: order})
	return nil
}

func (m *mergeIter) next() ([]Value, error) {
	if m.h.Len() == 0 {
		return nil, nil
	}
	top := m.h.heads[0]
	row, err := top.src.next()
	if err != nil {
		return nil, err
	}
	if row == nil {
		heap.Pop(&m.h)
	} else {
		m.h.heads[0].row = row
		heap.Fix(&m.h, 0)
	}
	return top.row, nil
}

func (m *mergeIter) close() {
	for _, s := range m.srcs {
		s.close()
	}
}

type runHead struct {
	row   []Value
	src   rowIter
	order int
}

type runHeap struct {
	keys  []sortKey
	heads []runHead
}

func (h *runHeap) Len() int { return len(h.heads) }
func (h *runHeap) Less(i, j int) bool {
	a, b := h.heads[i], h.heads[j]
	if lessRow(a.row, b.row, h.keys) {
		return true
	}
	return !lessRow(b.row, a.row, h.keys) && a.order < b.order
}
func (h *runHeap) Swap(i, j int) { h.heads[i], h.heads[j] = h.heads[j], h.heads[i] }
func (h *runHeap) Push(x any)    { h.heads = append(h.heads, x.(runHead)) }
func (h *runHeap) Pop() any {
	x := h.heads[len(h.heads)-1]
	h.heads = h.heads[:len(h.heads)-1]
	return x
}

// limitIter applies OFFSET and LIMIT (negative: none) to sorted rows and
// keeps their first width columns; done runs when it closes.
type limitIter struct {
	src           rowIter
	limit, offset int64
	n             int64
	width         int
	done          func()
	skipped       bool
}

func (it *limitIter) next() ([]Value, error) {
	if !it.skipped {
		it.skipped = true
		for i := int64(0); i < it.offset; i++ {
			r, err := it.src.next()
			if err != nil || r == nil {
				return nil, err
			}
		}
	}
	if it.limit >= 0 && it.n >= it.limit {
		return nil, nil
	}
	r, err := it.src.next()
	if err != nil || r == nil {
		return nil, err
	}
	it.n++
	return r[:it.width], nil
}

func (it *limitIter) close() {
	it.src.close()
	if it.done != nil {
		it.done()
		it.done = nil
	}
}
