package btserver

import (
	"context"
	"errors"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/shale-db/shale/storage"
)

// grpcStatus turns an error from storage or from this package into a gRPC
// status error, choosing the code by the storage sentinel the error wraps
// (spec §10). Errors that already carry a status keep it; anything else is
// INTERNAL. Every handler passes its errors through here, so no client sees
// UNKNOWN.
func grpcStatus(err error) error {
	if err == nil {
		return nil
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

// unimplemented returns an UNIMPLEMENTED status for a feature Shale does not
// serve (yet).
func unimplemented(what string) error {
	return status.Errorf(codes.Unimplemented, "%s is not supported by Shale", what)
}
