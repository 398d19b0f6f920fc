package btserver

import (
	"context"
	"fmt"
	"time"

	btpb "cloud.google.com/go/bigtable/apiv2/bigtablepb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/shale-db/shale/sql/types"
	"github.com/shale-db/shale/storage"
)

// SQL is what PrepareQuery and ExecuteQuery need of a GoogleSQL engine. The
// process wiring adapts the real engine to it; btserver never imports the
// SQL packages beyond sql/types and sql/sqlerr.
type SQL interface {
	// Prepare parses, binds and plans query against instance (the full
	// name "projects/{p}/instances/{i}") with the declared parameter
	// types. Errors are *sqlerr.Error where the query is at fault.
	Prepare(ctx context.Context, instance, query string, params map[string]*types.Type) (Statement, error)
}

// Statement is a prepared query. It is cached and may be run by several
// ExecuteQuery calls at once, so Run must be safe for concurrent use.
type Statement interface {
	// Columns are the result columns, in order.
	Columns() []types.Field
	// Run executes the statement with a value for every declared
	// parameter. The rows must come in the same order on every run over
	// unchanged data: resume tokens count rows (see query_stream.go).
	Run(ctx context.Context, params map[string]types.Value) (ResultRows, error)
}

// ResultRows iterates over a statement's result.
type ResultRows interface {
	// Next advances to the next row; false at the end or on error.
	Next() bool
	// Row returns the current row, one value per column. The slice and
	// the bytes it references are valid until the next call to Next.
	Row() []types.Value
	// Err is the error that ended iteration, if any.
	Err() error
	// Close releases the iteration's resources.
	Close() error
}

// preparedQueryTTL is how long a prepared-query token stays valid (spec
// §4.8 suggests 30–60 minutes).
const preparedQueryTTL = time.Hour

// PrepareQuery type-checks a query and returns its result metadata and an
// opaque, self-contained prepared-query token (query_token.go).
func (d *dataService) PrepareQuery(ctx context.Context, req *btpb.PrepareQueryRequest) (*btpb.PrepareQueryResponse, error) {
	if d.s.opts.SQL == nil {
		return nil, unimplemented("PrepareQuery")
	}
	instance, err := parseInstance(req.GetInstanceName())
	if err != nil {
		return nil, grpcStatus(err)
	}
	if req.GetQuery() == "" {
		return nil, grpcStatus(fmt.Errorf("%w: query is required", storage.ErrInvalidArgument))
	}
	params, err := toParamTypes(req.GetParamTypes())
	if err != nil {
		return nil, grpcStatus(err)
	}
	st, err := d.s.opts.SQL.Prepare(ctx, instance, req.GetQuery(), params)
	if err != nil {
		return nil, grpcStatus(err)
	}
	md, err := resultMetadata(st.Columns())
	if err != nil {
		return nil, grpcStatus(err)
	}
	identity, err := queryIdentity(instance, req.GetQuery(), req.GetParamTypes())
	if err != nil {
		return nil, grpcStatus(err)
	}
	sum, err := metadataChecksum(md)
	if err != nil {
		return nil, grpcStatus(err)
	}
	tok := preparedToken{
		identity:   identity,
		validUntil: d.s.opts.Clock().Add(preparedQueryTTL).UnixMicro(),
		schema:     sum,
	}
	enc := tok.encode()
	d.s.stmts.put(string(enc), st)
	return &btpb.PrepareQueryResponse{
		Metadata:      md,
		PreparedQuery: enc,
		ValidUntil:    timestamppb.New(time.UnixMicro(tok.validUntil)),
	}, nil
}
