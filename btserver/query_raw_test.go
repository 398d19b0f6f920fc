package btserver_test

import (
	"bytes"
	"context"
	"errors"
	"hash/crc32"
	"io"
	"testing"
	"time"

	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func ptInt64() *btpb.Type {
	return &btpb.Type{Kind: &btpb.Type_Int64Type{Int64Type: &btpb.Type_Int64{}}}
}
func ptString() *btpb.Type {
	return &btpb.Type{Kind: &btpb.Type_StringType{StringType: &btpb.Type_String{}}}
}
func ptArray(e *btpb.Type) *btpb.Type {
	return &btpb.Type{Kind: &btpb.Type_ArrayType{ArrayType: &btpb.Type_Array{ElementType: e}}}
}
func pvInt(i int64) *btpb.Value { return &btpb.Value{Kind: &btpb.Value_IntValue{IntValue: i}} }

// prepareRaw prepares query over raw gRPC.
func prepareRaw(t *testing.T, e *env, query string, ptypes map[string]*btpb.Type) *btpb.PrepareQueryResponse {
	t.Helper()
	resp, err := e.data.PrepareQuery(testCtx(t), &btpb.PrepareQueryRequest{
		InstanceName: instName, Query: query, ParamTypes: ptypes,
		DataFormat: &btpb.PrepareQueryRequest_ProtoFormat{ProtoFormat: &btpb.ProtoFormat{}},
	})
	if err != nil {
		t.Fatalf("PrepareQuery(%s): %v", query, err)
	}
	return resp
}

// execRaw runs req and returns every response and the stream's final error
// (nil for OK).
func execRaw(ctx context.Context, e *env, req *btpb.ExecuteQueryRequest) ([]*btpb.ExecuteQueryResponse, error) {
	stream, err := e.data.ExecuteQuery(ctx, req)
	if err != nil {
		return nil, err
	}
	var out []*btpb.ExecuteQueryResponse
	for {
		m, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, m)
	}
}

// decoded is a result stream taken apart by the protocol's rules.
type decoded struct {
	rows    [][]*btpb.Value
	tokens  [][]byte // every resume token, in order
	batches int      // batches with data
	chunks  int      // messages with batch_data
	maxData int      // largest batch_data of one message
}

// decode checks a stream against spec §4.8 and returns its rows: data is
// buffered until a checksum, which must be the CRC32C of the batch; the
// first message of a batch carries estimated_batch_size; a token comes
// only with a checksum or with no open batch; every batch ends with a
// token; values come in whole rows.
func decode(t *testing.T, msgs []*btpb.ExecuteQueryResponse, ncols int) decoded {
	t.Helper()
	var d decoded
	var buf []byte
	var pending []*btpb.Value
	for i, m := range msgs {
		p := m.GetResults()
		if p == nil {
			t.Fatalf("message %d is not results: %v", i, m)
		}
		if data := p.GetProtoRowsBatch().GetBatchData(); data != nil {
			if len(buf) == 0 && p.GetEstimatedBatchSize() == 0 {
				t.Errorf("message %d starts a batch without estimated_batch_size", i)
			}
			buf = append(buf, data...)
			d.chunks++
			d.maxData = max(d.maxData, len(data))
		}
		if p.BatchChecksum != nil {
			if got := crc32.Checksum(buf, castagnoli); got != p.GetBatchChecksum() {
				t.Fatalf("message %d: checksum %08x, want CRC32C %08x", i, p.GetBatchChecksum(), got)
			}
			var rows btpb.ProtoRows
			if err := proto.Unmarshal(buf, &rows); err != nil {
				t.Fatalf("message %d: batch does not parse: %v", i, err)
			}
			if len(rows.GetValues())%ncols != 0 {
				t.Fatalf("message %d: batch of %d values for %d columns", i, len(rows.GetValues()), ncols)
			}
			pending = append(pending, rows.GetValues()...)
			buf = nil
			d.batches++
			if len(p.GetResumeToken()) == 0 {
				t.Errorf("message %d: a batch without a resume token", i)
			}
		}
		if tok := p.GetResumeToken(); len(tok) > 0 {
			if len(buf) > 0 {
				t.Fatalf("message %d: resume token inside an open batch", i)
			}
			for len(pending) > 0 {
				d.rows = append(d.rows, pending[:ncols])
				pending = pending[ncols:]
			}
			d.tokens = append(d.tokens, tok)
		}
	}
	if len(buf) > 0 || len(pending) > 0 {
		t.Fatalf("stream ended with %d unchecked bytes and %d unreleased values", len(buf), len(pending))
	}
	return d
}

func execPrepared(prep *btpb.PrepareQueryResponse, params map[string]*btpb.Value, resume []byte) *btpb.ExecuteQueryRequest {
	return &btpb.ExecuteQueryRequest{InstanceName: instName, PreparedQuery: prep.GetPreparedQuery(), Params: params, ResumeToken: resume}
}

func TestQueryBatches(t *testing.T) {
	e, _, _ := newQueryEnv(t)
	prep := prepareRaw(t, e, "SELECT many", nil)
	if got := prep.GetValidUntil().AsTime(); got.Before(time.Now().Add(50*time.Minute)) || got.After(time.Now().Add(70*time.Minute)) {
		t.Errorf("valid_until %v is not about an hour from now", got)
	}
	msgs, err := execRaw(testCtx(t), e, execPrepared(prep, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	d := decode(t, msgs, 2)
	if len(d.rows) != manyCount {
		t.Fatalf("got %d rows, want %d", len(d.rows), manyCount)
	}
	for i, r := range d.rows {
		if r[0].GetIntValue() != int64(i) || len(r[1].GetBytesValue()) != 1024 {
			t.Fatalf("row %d: %v", i, r)
		}
	}
	// About 3 MiB of rows in batches of about 1 MiB, then the sentinel.
	if d.batches < 3 {
		t.Errorf("%d batches, want at least 3", d.batches)
	}
	if d.maxData > 1<<20 {
		t.Errorf("a message carries %d bytes of batch data, want at most 1 MiB", d.maxData)
	}
	// One token per batch; the last batch carries the sentinel.
	if len(d.tokens) != d.batches || msgs[len(msgs)-1].GetResults().GetProtoRowsBatch() == nil {
		t.Errorf("%d tokens for %d batches; want one per batch, the last with the final batch", len(d.tokens), d.batches)
	}
}

func TestQueryHugeRow(t *testing.T) {
	e, _, _ := newQueryEnv(t)
	prep := prepareRaw(t, e, "SELECT huge", nil)
	msgs, err := execRaw(testCtx(t), e, execPrepared(prep, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	d := decode(t, msgs, 1)
	if len(d.rows) != 2 || len(d.rows[1][0].GetBytesValue()) != 3<<20+512<<10 {
		t.Fatalf("got %d rows", len(d.rows))
	}
	// The small row goes alone; the big one is a batch of four messages.
	if d.batches != 2 || d.chunks != 5 || d.maxData > 1<<20 {
		t.Errorf("batches %d, chunks %d, largest %d; want 2, 5, ≤ 1 MiB", d.batches, d.chunks, d.maxData)
	}
	// The estimate on the first chunk of the big batch is the whole batch.
	for _, m := range msgs {
		if p := m.GetResults(); p.GetEstimatedBatchSize() > 1<<20 {
			if p.BatchChecksum != nil {
				t.Errorf("the first chunk of a split batch carries the checksum")
			}
			return
		}
	}
	t.Errorf("no message announces the big batch")
}

func TestQueryEmptyAndSentinel(t *testing.T) {
	e, _, _ := newQueryEnv(t)
	ctx := testCtx(t)
	prep := prepareRaw(t, e, "SELECT empty", nil)
	msgs, err := execRaw(ctx, e, execPrepared(prep, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 1 || len(msgs[0].GetResults().GetResumeToken()) == 0 || msgs[0].GetResults().GetProtoRowsBatch() != nil {
		t.Fatalf("empty result: got %v, want one message with a resume token and no data", msgs)
	}

	// Re-executing with the sentinel sends it again, no data, then OK.
	prep = prepareRaw(t, e, "SELECT many", nil)
	msgs, err = execRaw(ctx, e, execPrepared(prep, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	sentinel := msgs[len(msgs)-1].GetResults().GetResumeToken()
	again, err := execRaw(ctx, e, execPrepared(prep, nil, sentinel))
	if err != nil {
		t.Fatal(err)
	}
	if len(again) != 1 || !bytes.Equal(again[0].GetResults().GetResumeToken(), sentinel) || again[0].GetResults().GetProtoRowsBatch() != nil {
		t.Errorf("re-executing with the sentinel: got %v", again)
	}
}

// TestQueryResume cancels a stream after its first batch and resumes with
// the last token: the second stream continues after the released rows.
func TestQueryResume(t *testing.T) {
	e, _, _ := newQueryEnv(t)
	prep := prepareRaw(t, e, "SELECT many", nil)
	ctx, cancel := context.WithCancel(testCtx(t))
	stream, err := e.data.ExecuteQuery(ctx, execPrepared(prep, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	var first []*btpb.ExecuteQueryResponse
	for {
		m, err := stream.Recv()
		if err != nil {
			t.Fatal(err)
		}
		first = append(first, m)
		if len(m.GetResults().GetResumeToken()) > 0 {
			break
		}
	}
	cancel()
	d1 := decode(t, first, 2)
	released := len(d1.rows)
	if released == 0 || released >= manyCount {
		t.Fatalf("first batch released %d rows", released)
	}
	msgs, err := execRaw(testCtx(t), e, execPrepared(prep, nil, d1.tokens[len(d1.tokens)-1]))
	if err != nil {
		t.Fatal(err)
	}
	d2 := decode(t, msgs, 2)
	if released+len(d2.rows) != manyCount {
		t.Fatalf("resumed stream has %d rows after %d released, want %d in all", len(d2.rows), released, manyCount)
	}
	if got := d2.rows[0][0].GetIntValue(); got != int64(released) {
		t.Errorf("resumed stream starts at row %d, want %d", got, released)
	}

	// A resume token does not apply to other parameters.
	prepP := prepareRaw(t, e, "SELECT params", map[string]*btpb.Type{"x": ptInt64()})
	msgs, err = execRaw(testCtx(t), e, execPrepared(prepP, map[string]*btpb.Value{"x": pvInt(1)}, nil))
	if err != nil {
		t.Fatal(err)
	}
	tok := msgs[len(msgs)-1].GetResults().GetResumeToken()
	_, err = execRaw(testCtx(t), e, execPrepared(prepP, map[string]*btpb.Value{"x": pvInt(2)}, tok))
	wantCode(t, "resume token with other params", err, codes.InvalidArgument)
}

func TestQueryExpired(t *testing.T) {
	e, _, clk := newQueryEnv(t)
	ctx := testCtx(t)
	prep := prepareRaw(t, e, "SELECT many", nil)
	msgs, err := execRaw(ctx, e, execPrepared(prep, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	midway := msgs[0].GetResults().GetResumeToken()
	clk.Advance(time.Hour)

	msgs, err = execRaw(ctx, e, execPrepared(prep, nil, nil))
	wantCode(t, "expired", err, codes.FailedPrecondition)
	if len(msgs) != 0 {
		t.Errorf("expired: %d responses before the error, want none", len(msgs))
	}
	if !hasViolation(err, "PREPARED_QUERY_EXPIRED") {
		t.Errorf("expired: %v has no PREPARED_QUERY_EXPIRED violation", err)
	}

	// A request with a resume token keeps its plan and is never expired.
	if len(midway) == 0 {
		t.Fatal("first message has no token")
	}
	msgs, err = execRaw(ctx, e, execPrepared(prep, nil, midway))
	if err != nil {
		t.Fatalf("resume after expiry: %v", err)
	}
	if d := decode(t, msgs, 2); len(d.rows) == 0 || len(d.rows) >= manyCount {
		t.Errorf("resume after expiry: %d rows", len(d.rows))
	}
}

func hasViolation(err error, typ string) bool {
	for _, det := range status.Convert(err).Details() {
		if pf, ok := det.(*errdetails.PreconditionFailure); ok {
			for _, v := range pf.GetViolations() {
				if v.GetType() == typ {
					return true
				}
			}
		}
	}
	return false
}

// TestQueryRestart: tokens are self-contained, so another server (a
// restart) accepts them, preparing again; if the columns changed meanwhile
// the token is expired instead.
func TestQueryRestart(t *testing.T) {
	e1, f, _ := newQueryEnv(t)
	prep := prepareRaw(t, e1, "SELECT all_types", nil)
	e2 := newEnvOpts(t, btserverOptions(f))
	msgs, err := execRaw(testCtx(t), e2, execPrepared(prep, nil, nil))
	if err != nil {
		t.Fatalf("token on another server: %v", err)
	}
	if d := decode(t, msgs, len(allTypes)); len(d.rows) != 3 {
		t.Errorf("got %d rows, want 3", len(d.rows))
	}
	if got := f.prepares.Load(); got != 2 {
		t.Errorf("prepares: %d, want 2", got)
	}

	f.extraColumn.Store(true)
	e3 := newEnvOpts(t, btserverOptions(f))
	_, err = execRaw(testCtx(t), e3, execPrepared(prep, nil, nil))
	wantCode(t, "changed columns", err, codes.FailedPrecondition)
	if !hasViolation(err, "PREPARED_QUERY_EXPIRED") {
		t.Errorf("changed columns: %v is not PREPARED_QUERY_EXPIRED", err)
	}
}

// TestQueryTextForm: the deprecated form with query text sends the
// metadata first and takes parameter types from the values.
func TestQueryTextForm(t *testing.T) {
	e, _, _ := newQueryEnv(t)
	typed := &btpb.Value{Type: ptInt64(), Kind: &btpb.Value_IntValue{IntValue: 7}}
	msgs, err := execRaw(testCtx(t), e, &btpb.ExecuteQueryRequest{
		InstanceName: instName, Query: "SELECT params", Params: map[string]*btpb.Value{"x": typed},
	})
	if err != nil {
		t.Fatal(err)
	}
	cols := msgs[0].GetMetadata().GetProtoSchema().GetColumns()
	if len(cols) != 1 || cols[0].GetName() != "x" || cols[0].GetType().GetInt64Type() == nil {
		t.Fatalf("first message: %v, want metadata x INT64", msgs[0])
	}
	d := decode(t, msgs[1:], 1)
	if len(d.rows) != 1 || d.rows[0][0].GetIntValue() != 7 {
		t.Errorf("rows: %v", d.rows)
	}
	_, err = execRaw(testCtx(t), e, &btpb.ExecuteQueryRequest{
		InstanceName: instName, Query: "SELECT params", Params: map[string]*btpb.Value{"x": pvInt(7)},
	})
	wantCode(t, "query text with an untyped param", err, codes.InvalidArgument)
}
