package btserver

import (
	"time"

	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/shale-db/shale/storage"
)

// ReadRows streams rows from a storage.RowIterator, one row at a time,
// encoded as cell chunks (spec §2.2). Rows are never collected: a response
// holds at most about flushBytes of cell data, and a row at least that large
// goes out on its own, straight from the iterator's memory.
func (d *dataService) ReadRows(req *btpb.ReadRowsRequest, stream btpb.Bigtable_ReadRowsServer) error {
	start := d.s.opts.Clock()
	if req.GetMaterializedViewName() != "" {
		return unimplemented("reading materialized views")
	}
	tgt, err := dataTarget(req.GetTableName(), req.GetAuthorizedViewName())
	if err != nil {
		return grpcStatus(err)
	}
	rows, err := toRowSet(req.GetRows())
	if err != nil {
		return grpcStatus(err)
	}
	filter, err := toFilter(req.GetFilter())
	if err != nil {
		return grpcStatus(err)
	}
	it, err := d.s.e.ReadRows(stream.Context(), tgt, storage.ReadOptions{
		Rows: rows, Filter: filter, Limit: req.GetRowsLimit(), Reversed: req.GetReversed(),
	})
	if err != nil {
		return grpcStatus(err)
	}
	defer it.Close()
	w := chunkWriter{send: stream.Send}
	for r := it.Next(); r != nil; r = it.Next() {
		if err := w.addRow(r); err != nil {
			return grpcStatus(err)
		}
	}
	st := it.Stats()
	d.s.opts.Observer.Read(st.RowsReturned, st.CellsReturned)
	if err := it.Err(); err != nil {
		return grpcStatus(err)
	}
	var stats *btpb.RequestStats
	if req.GetRequestStatsView() == btpb.ReadRowsRequest_REQUEST_STATS_FULL {
		stats = requestStats(st, d.s.opts.Clock().Sub(start))
	}
	return grpcStatus(w.finish(stats))
}

func requestStats(s storage.ReadStats, latency time.Duration) *btpb.RequestStats {
	return &btpb.RequestStats{StatsView: &btpb.RequestStats_FullReadStatsView{FullReadStatsView: &btpb.FullReadStatsView{
		ReadIterationStats: &btpb.ReadIterationStats{
			RowsSeenCount:      s.RowsScanned,
			RowsReturnedCount:  s.RowsReturned,
			CellsSeenCount:     s.CellsScanned,
			CellsReturnedCount: s.CellsReturned,
		},
		RequestLatencyStats: &btpb.RequestLatencyStats{FrontendServerLatency: durationpb.New(latency)},
	}}}
}

// flushBytes is the cell data after which a ReadRows response is sent.
const flushBytes = 1 << 20

// commitRow ends a row. It is shared by every chunk: messages are only read
// when marshalled.
var commitRow = &btpb.ReadRowsResponse_CellChunk_CommitRow{CommitRow: true}

// chunkWriter turns rows into ReadRowsResponses. Chunks, wrappers and the
// bytes of batched rows come from slabs, so encoding a cell allocates
// nothing of its own. Nothing handed to a sent message is ever reused: gRPC
// stats handlers may read a message after Send returns.
//
// Chunk rules (spec §2.2): the first chunk of a row carries the row key,
// family and qualifier; later chunks carry the family (with the qualifier)
// when the family changes and the qualifier when the column changes; every
// chunk is a whole cell with its timestamp and labels; the last chunk
// commits the row.
type chunkWriter struct {
	send   func(*btpb.ReadRowsResponse) error
	chunks []*btpb.ReadRowsResponse_CellChunk // pending, not yet sent
	size   int                                // bytes of cell data pending

	chunkSlab slab[btpb.ReadRowsResponse_CellChunk]
	qualSlab  slab[wrapperspb.BytesValue]
	bytes     byteSlab
	// Family and qualifier wrappers are immutable once made, so a stream
	// shares one per family and one per qualifier (up to
	// maxCachedQualifiers) across all its chunks.
	famCache  map[string]*wrapperspb.StringValue
	qualCache map[string]*wrapperspb.BytesValue
}

// The qualifier wrappers a stream shares are bounded in number and size.
const (
	maxCachedQualifiers   = 4096
	maxCachedQualifierLen = 256
)

// addRow encodes one row. The row's memory is only valid until the
// iterator moves, so a batched row is copied into the byte slab; a row that
// fills a response by itself is sent at once, without copying.
func (w *chunkWriter) addRow(r *storage.Row) error {
	size := rowSize(r)
	if size < flushBytes {
		w.appendRow(r, true)
		w.size += size
		if w.size < flushBytes {
			return nil
		}
		return w.flush(nil)
	}
	if len(w.chunks) > 0 {
		if err := w.flush(nil); err != nil {
			return err
		}
	}
	w.appendRow(r, false)
	return w.flush(nil)
}

// appendRow adds the chunks of one row, copying its bytes when copyBytes.
func (w *chunkWriter) appendRow(r *storage.Row, copyBytes bool) {
	cp := func(b []byte) []byte { return b }
	if copyBytes {
		cp = w.bytes.copy
	}
	var prev *storage.Cell
	for i := range r.Cells {
		c := &r.Cells[i]
		ch := w.chunkSlab.next()
		if prev == nil {
			ch.RowKey = cp(r.Key)
		}
		if prev == nil || prev.Family != c.Family {
			ch.FamilyName = w.family(c.Family)
		}
		if ch.FamilyName != nil || string(prev.Qualifier) != string(c.Qualifier) {
			ch.Qualifier = w.qualifier(c.Qualifier, cp)
		}
		ch.TimestampMicros = c.Timestamp
		ch.Labels = c.Labels
		ch.Value = cp(c.Value)
		w.chunks = append(w.chunks, ch)
		prev = c
	}
	w.chunks[len(w.chunks)-1].RowStatus = commitRow
}

// family returns the shared wrapper of a family name.
func (w *chunkWriter) family(name string) *wrapperspb.StringValue {
	if f, ok := w.famCache[name]; ok {
		return f
	}
	if w.famCache == nil {
		w.famCache = make(map[string]*wrapperspb.StringValue)
	}
	f := wrapperspb.String(name)
	w.famCache[name] = f
	return f
}

// qualifier returns a wrapper of q: a shared one for short qualifiers while
// the cache has room, else a fresh one from the slab holding cp(q).
func (w *chunkWriter) qualifier(q []byte, cp func([]byte) []byte) *wrapperspb.BytesValue {
	if v, ok := w.qualCache[string(q)]; ok {
		return v
	}
	if len(w.qualCache) < maxCachedQualifiers && len(q) <= maxCachedQualifierLen {
		if w.qualCache == nil {
			w.qualCache = make(map[string]*wrapperspb.BytesValue)
		}
		k := string(q)
		v := wrapperspb.Bytes([]byte(k))
		w.qualCache[k] = v
		return v
	}
	v := w.qualSlab.next()
	v.Value = cp(q)
	return v
}

// flush sends the pending chunks (with stats, if any).
func (w *chunkWriter) flush(stats *btpb.RequestStats) error {
	resp := &btpb.ReadRowsResponse{Chunks: w.chunks, RequestStats: stats}
	w.chunks = make([]*btpb.ReadRowsResponse_CellChunk, 0, cap(w.chunks))
	w.size = 0
	return w.send(resp)
}

// finish sends what is pending; stats, when set, go on the last response
// (alone if nothing is pending).
func (w *chunkWriter) finish(stats *btpb.RequestStats) error {
	if len(w.chunks) == 0 && stats == nil {
		return nil
	}
	return w.flush(stats)
}

// rowSize approximates the bytes a row adds to a response.
func rowSize(r *storage.Row) int {
	n := len(r.Key)
	for i := range r.Cells {
		c := &r.Cells[i]
		n += len(c.Qualifier) + len(c.Value) + 16
	}
	return n
}

// slab hands out pointers to zeroed values allocated in blocks. A value is
// handed out once and never reused.
type slab[T any] struct {
	free  []T
	block int
}

func (s *slab[T]) next() *T {
	if len(s.free) == 0 {
		s.block = min(max(2*s.block, 32), 4096)
		s.free = make([]T, s.block)
	}
	p := &s.free[0]
	s.free = s.free[1:]
	return p
}

// byteSlab copies byte slices into blocks; copies are never overwritten.
type byteSlab struct{ cur []byte }

const byteSlabBlock = 64 << 10

func (b *byteSlab) copy(p []byte) []byte {
	if len(p) == 0 {
		return p
	}
	if cap(b.cur)-len(b.cur) < len(p) {
		b.cur = make([]byte, 0, max(byteSlabBlock, len(p)))
	}
	start := len(b.cur)
	b.cur = append(b.cur, p...)
	return b.cur[start:len(b.cur):len(b.cur)]
}
