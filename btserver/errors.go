package btserver

import (
	"context"
	"errors"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/storage"
)

// grpcStatus turns an error from storage, the SQL engine or this package
// into a gRPC status error, choosing the code by the *sqlerr.Error or the
// storage sentinel the error wraps (spec §10). Errors that already carry a
// status keep it; anything else is INTERNAL. Every handler passes its
// errors through here, so no client sees UNKNOWN.
func grpcStatus(err error) error {
	if err == nil {
		return nil
	}
	var se *sqlerr.Error
	if errors.As(err, &se) && se.Code != sqlerr.Internal {
		return status.Error(sqlCode(se.Code), err.Error())
	}
	for _, c := range sentinelCodes {
		if errors.Is(err, c.err) {
			// The sentinel's text says what the code already says.
			msg := strings.Replace(err.Error(), c.err.Error()+": ", "", 1)
			return status.Error(c.code, msg)
		}
	}
	switch {
	case errors.Is(err, context.Canceled):
		return status.Error(codes.Canceled, err.Error())
	case errors.Is(err, context.DeadlineExceeded):
		return status.Error(codes.DeadlineExceeded, err.Error())
	}
	if s, ok := status.FromError(err); ok {
		return s.Err()
	}
	return status.Error(codes.Internal, err.Error())
}

// sentinelCodes maps storage's error classes to gRPC codes (spec §10).
var sentinelCodes = []struct {
	err  error
	code codes.Code
}{
	{storage.ErrNotFound, codes.NotFound},
	{storage.ErrAlreadyExists, codes.AlreadyExists},
	{storage.ErrInvalidArgument, codes.InvalidArgument},
	{storage.ErrFailedPrecondition, codes.FailedPrecondition},
	{storage.ErrPermissionDenied, codes.PermissionDenied},
	{storage.ErrAborted, codes.Aborted},
	{storage.ErrResourceExhausted, codes.ResourceExhausted},
	{storage.ErrClosed, codes.Unavailable},
}

// sqlCode chooses the gRPC code of a SQL error (spec §10): errors in the
// query are INVALID_ARGUMENT, except an unknown table, which is NOT_FOUND
// as it is for the Data API; failures while computing values (division by
// zero, overflow, a bad cast or conversion) are OUT_OF_RANGE.
func sqlCode(c sqlerr.Code) codes.Code {
	switch c {
	case sqlerr.Syntax, sqlerr.NotSupported, sqlerr.UndefinedColumn, sqlerr.UndefinedFunction,
		sqlerr.UndefinedParameter, sqlerr.TypeMismatch, sqlerr.InvalidArgument, sqlerr.TooComplex:
		return codes.InvalidArgument
	case sqlerr.UndefinedTable:
		return codes.NotFound
	case sqlerr.DivisionByZero, sqlerr.OutOfRange, sqlerr.InvalidValue:
		return codes.OutOfRange
	case sqlerr.ResourceExhausted:
		return codes.ResourceExhausted
	case sqlerr.Canceled:
		return codes.Canceled
	}
	return codes.Internal
}

// unimplemented returns an UNIMPLEMENTED status for a feature Shale does not
// serve (yet).
func unimplemented(what string) error {
	return status.Errorf(codes.Unimplemented, "%s is not supported by Shale", what)
}
