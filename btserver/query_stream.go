package btserver

import (
	"hash/crc32"

	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/shale-db/shale/sql/types"
)

// Result streaming (spec §4.8). Rows are serialized as they arrive into
// the pending batch: the bytes of a ProtoRows message (repeated field 2,
// one Value per column, rows flattened). A batch holds whole rows and is
// sent once it reaches batchBytes; a batch of one row larger than that
// goes out on its own. A batch travels in messages of at most chunkBytes
// of batch_data (so a message stays under gRPC's default 4 MiB limit):
// the first carries estimated_batch_size, the last batch_checksum (CRC32C
// of the whole batch) and a resume token.
//
// A resume token counts the rows released so far (query_token.go). A
// retry with it runs the statement again and skips that many rows, which
// relies on the statement producing rows in the same order on every run
// over the same data (scan order is key order; ORDER BY with ties or data
// written between the two runs can shift rows). After the last row the
// server sends a sentinel token (done); re-executing with it sends the
// sentinel again with no data, then OK. An empty result is one message
// carrying the sentinel.
const (
	batchBytes = 1 << 20
	chunkBytes = 1 << 20
)

// initialBatchCap is the first allocation of a batch buffer; it grows by
// doubling, so a small result costs little and a full batch copies its
// bytes about twice.
const initialBatchCap = 16 << 10

// protoRowsValues is the field number of ProtoRows.values.
const protoRowsValues = 2

// resultWriter batches encoded rows into PartialResultSets.
type resultWriter struct {
	send        func(*btpb.ExecuteQueryResponse) error
	fingerprint uint32
	released    int64  // rows in batches already sent (plus any skipped on resume)
	pending     int64  // rows in buf
	buf         []byte // the open batch; never reused once sent
}

// addRow encodes one row into the open batch, sending the batch when full.
func (w *resultWriter) addRow(row []types.Value) error {
	if w.buf == nil {
		w.buf = make([]byte, 0, initialBatchCap)
	}
	start := len(w.buf)
	for _, v := range row {
		n, err := valueSize(v)
		if err != nil {
			w.buf = w.buf[:start]
			return err
		}
		w.buf = protowire.AppendTag(w.buf, protoRowsValues, protowire.BytesType)
		w.buf = protowire.AppendVarint(w.buf, uint64(n))
		w.buf = appendValue(w.buf, v)
	}
	if len(w.buf) < batchBytes {
		w.pending++
		return nil
	}
	if start > 0 {
		// This row overflows the batch: send the rows before it and start
		// the next batch with it.
		row := w.buf[start:]
		w.buf = w.buf[:start:start]
		if err := w.flush(false); err != nil {
			return err
		}
		w.buf = append(make([]byte, 0, max(2*len(row), 4096)), row...)
	}
	w.pending++
	if len(w.buf) >= batchBytes {
		return w.flush(false)
	}
	return nil
}

// flush sends the open batch with a resume token covering it; with done
// the token is the sentinel. An empty batch sends the token alone.
func (w *resultWriter) flush(done bool) error {
	w.released += w.pending
	w.pending = 0
	tok := resumeToken{rows: w.released, done: done, fingerprint: w.fingerprint}.encode()
	batch := w.buf
	w.buf = nil
	if len(batch) == 0 {
		return w.send(results(&btpb.PartialResultSet{ResumeToken: tok}))
	}
	sum := crc32.Checksum(batch, crc32c)
	for first := true; len(batch) > 0; first = false {
		n := min(len(batch), chunkBytes)
		p := &btpb.PartialResultSet{PartialRows: &btpb.PartialResultSet_ProtoRowsBatch{
			ProtoRowsBatch: &btpb.ProtoRowsBatch{BatchData: batch[:n:n]},
		}}
		if first {
			p.EstimatedBatchSize = int32(len(batch))
		}
		batch = batch[n:]
		if len(batch) == 0 {
			p.BatchChecksum = &sum
			p.ResumeToken = tok
		}
		if err := w.send(results(p)); err != nil {
			return err
		}
	}
	return nil
}

// finish sends what is pending with the sentinel token.
func (w *resultWriter) finish() error { return w.flush(true) }

func results(p *btpb.PartialResultSet) *btpb.ExecuteQueryResponse {
	return &btpb.ExecuteQueryResponse{Response: &btpb.ExecuteQueryResponse_Results{Results: p}}
}
