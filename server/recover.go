package server

import (
	"context"
	"log/slog"
	"runtime/debug"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// recoverer turns a panic in a gRPC handler into an Internal error for that
// one call, logged with its stack. gRPC-Go does not recover handler panics,
// so without it one request reaching a bug would stop the whole server,
// every other client and the PostgreSQL endpoint with it. pgwire recovers
// per session the same way (pgwire.Server.serveConn).
type recoverer struct{ log *slog.Logger }

func (r recoverer) unary(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (resp any, err error) {
	defer r.recoverPanic(info.FullMethod, &err)
	return h(ctx, req)
}

func (r recoverer) stream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, h grpc.StreamHandler) (err error) {
	defer r.recoverPanic(info.FullMethod, &err)
	return h(srv, ss)
}

// recoverPanic is deferred by the interceptors: on a panic it sets *err.
func (r recoverer) recoverPanic(method string, err *error) {
	if p := recover(); p != nil {
		r.log.Error("shale: gRPC handler panicked", "method", method, "panic", p, "stack", string(debug.Stack()))
		*err = status.Errorf(codes.Internal, "internal error in %s: %v", method, p)
	}
}
