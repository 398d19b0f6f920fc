package btserver

import (
	"context"
	"fmt"

	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/shale-db/shale/sql/types"
	"github.com/shale-db/shale/storage"
)

// execution is a resolved ExecuteQuery request: the statement, its bound
// parameters and where to start.
type execution struct {
	st          Statement
	params      map[string]types.Value
	metadata    *btpb.ResultSetMetadata // to send first (the deprecated query form only)
	fingerprint uint32
	resume      *resumeToken // nil: start at the beginning
}

// ExecuteQuery runs a prepared query (or, deprecated, query text) and
// streams its rows as ProtoRows batches (query_stream.go).
func (d *dataService) ExecuteQuery(req *btpb.ExecuteQueryRequest, stream btpb.Bigtable_ExecuteQueryServer) error {
	if d.s.opts.SQL == nil {
		return unimplemented("ExecuteQuery")
	}
	ctx := stream.Context()
	x, err := d.resolve(ctx, req)
	if err != nil {
		return grpcStatus(err)
	}
	if x.resume != nil && x.resume.done {
		return grpcStatus(stream.Send(results(&btpb.PartialResultSet{ResumeToken: req.GetResumeToken()})))
	}
	if x.metadata != nil {
		md := &btpb.ExecuteQueryResponse{Response: &btpb.ExecuteQueryResponse_Metadata{Metadata: x.metadata}}
		if err := stream.Send(md); err != nil {
			return grpcStatus(err)
		}
	}
	rows, err := x.st.Run(ctx, x.params)
	if err != nil {
		return grpcStatus(err)
	}
	w := &resultWriter{send: stream.Send, fingerprint: x.fingerprint}
	err = streamRows(rows, x.st.Columns(), x.resume, w)
	if cerr := rows.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = w.finish()
	}
	return grpcStatus(err)
}

// streamRows writes the rows after the resume point.
func streamRows(rows ResultRows, cols []types.Field, resume *resumeToken, w *resultWriter) error {
	if resume != nil {
		for w.released < resume.rows && rows.Next() {
			w.released++
		}
	}
	for rows.Next() {
		row := rows.Row()
		if err := checkRow(row, cols); err != nil {
			return err
		}
		if err := w.addRow(row); err != nil {
			return err
		}
	}
	return rows.Err()
}

// resolve validates a request and finds its statement and parameters.
func (d *dataService) resolve(ctx context.Context, req *btpb.ExecuteQueryRequest) (*execution, error) {
	instance, err := parseInstance(req.GetInstanceName())
	if err != nil {
		return nil, err
	}
	hasQuery, hasPrepared := req.GetQuery() != "", len(req.GetPreparedQuery()) > 0
	if hasQuery == hasPrepared {
		return nil, fmt.Errorf("%w: set exactly one of query and prepared_query", storage.ErrInvalidArgument)
	}
	x := &execution{}
	if tok := req.GetResumeToken(); len(tok) > 0 {
		r, err := decodeResumeToken(tok)
		if err != nil {
			return nil, fmt.Errorf("%w: resume_token: %v", storage.ErrInvalidArgument, err)
		}
		x.resume = &r
	}
	var identity []byte
	if hasPrepared {
		identity, err = d.resolvePrepared(ctx, instance, req, x)
	} else {
		identity, err = d.resolveText(ctx, instance, req, x)
	}
	if err != nil {
		return nil, err
	}
	if x.fingerprint, err = requestFingerprint(identity, req.GetParams()); err != nil {
		return nil, err
	}
	if x.resume != nil && x.resume.fingerprint != x.fingerprint {
		return nil, fmt.Errorf("%w: resume_token belongs to another query or other parameters", storage.ErrInvalidArgument)
	}
	return x, nil
}

// resolvePrepared resolves a request with a prepared-query token: from the
// cache, or by preparing the token's query again.
func (d *dataService) resolvePrepared(ctx context.Context, instance string, req *btpb.ExecuteQueryRequest, x *execution) ([]byte, error) {
	if req.GetDataFormat() != nil {
		return nil, fmt.Errorf("%w: data_format must be empty with prepared_query", storage.ErrInvalidArgument)
	}
	tok, err := decodePreparedToken(req.GetPreparedQuery())
	if err != nil {
		return nil, fmt.Errorf("%w: prepared_query: %v", storage.ErrInvalidArgument, err)
	}
	preq, err := tok.request()
	if err != nil {
		return nil, fmt.Errorf("%w: prepared_query: %v", storage.ErrInvalidArgument, err)
	}
	if preq.GetInstanceName() != instance {
		return nil, fmt.Errorf("%w: prepared_query was prepared for instance %q", storage.ErrInvalidArgument, preq.GetInstanceName())
	}
	// Expiry is reported only before any response and only to requests
	// without a resume token: a resumed stream keeps its plan.
	if x.resume == nil && d.s.opts.Clock().UnixMicro() >= tok.validUntil {
		return nil, expiredError("the prepared query expired")
	}
	declared, err := toParamTypes(preq.GetParamTypes())
	if err != nil {
		return nil, err
	}
	if x.params, err = bindParams(req.GetParams(), declared); err != nil {
		return nil, err
	}
	key := string(req.GetPreparedQuery())
	if x.st = d.s.stmts.get(key); x.st != nil {
		return tok.identity, nil
	}
	st, err := d.s.opts.SQL.Prepare(ctx, instance, preq.GetQuery(), declared)
	if err != nil {
		return nil, err
	}
	md, err := resultMetadata(st.Columns())
	if err != nil {
		return nil, err
	}
	sum, err := metadataChecksum(md)
	if err != nil {
		return nil, err
	}
	if sum != tok.schema {
		// The schema changed since the client prepared: its metadata would
		// misdescribe the rows.
		if x.resume == nil {
			return nil, expiredError("the result columns changed since the query was prepared")
		}
		return nil, status.Error(codes.FailedPrecondition, "the result columns changed since the query was prepared; prepare it again")
	}
	d.s.stmts.put(key, st)
	x.st = st
	return tok.identity, nil
}

// resolveText resolves the deprecated form that carries the query text:
// parameter types come from the values, and the stream starts with the
// result metadata (not resent on resume).
func (d *dataService) resolveText(ctx context.Context, instance string, req *btpb.ExecuteQueryRequest, x *execution) ([]byte, error) {
	ptypes, err := paramTypesOf(req.GetParams())
	if err != nil {
		return nil, err
	}
	declared, err := toParamTypes(ptypes)
	if err != nil {
		return nil, err
	}
	if x.params, err = bindParams(req.GetParams(), declared); err != nil {
		return nil, err
	}
	if x.st, err = d.s.opts.SQL.Prepare(ctx, instance, req.GetQuery(), declared); err != nil {
		return nil, err
	}
	if x.resume == nil {
		if x.metadata, err = resultMetadata(x.st.Columns()); err != nil {
			return nil, err
		}
	}
	return queryIdentity(instance, req.GetQuery(), ptypes)
}

// expiredError is FAILED_PRECONDITION with the PreconditionFailure the
// clients look for to prepare again and retry (spec §4.8).
func expiredError(msg string) error {
	st, err := status.New(codes.FailedPrecondition, msg).WithDetails(&errdetails.PreconditionFailure{
		Violations: []*errdetails.PreconditionFailure_Violation{{
			Type:        "PREPARED_QUERY_EXPIRED",
			Subject:     "prepared_query",
			Description: msg,
		}},
	})
	if err != nil {
		return status.Error(codes.FailedPrecondition, msg)
	}
	return st.Err()
}
