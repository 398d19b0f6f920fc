package server

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// A handler's panic fails only its own call, with Internal, and is logged
// with its stack.
func TestRecoverer(t *testing.T) {
	var logged bytes.Buffer
	r := recoverer{log: slog.New(slog.NewTextHandler(&logged, nil))}
	const method = "/google.bigtable.v2.Bigtable/ExecuteQuery"

	_, err := r.unary(context.Background(), nil, &grpc.UnaryServerInfo{FullMethod: method},
		func(context.Context, any) (any, error) { panic("boom") })
	if status.Code(err) != codes.Internal || !strings.Contains(err.Error(), "boom") {
		t.Errorf("unary: %v, want Internal naming the panic", err)
	}
	err = r.stream(nil, nil, &grpc.StreamServerInfo{FullMethod: method},
		func(any, grpc.ServerStream) error { var m map[string]int; m["x"] = 1; return nil })
	if status.Code(err) != codes.Internal {
		t.Errorf("stream: %v, want Internal", err)
	}
	if n := strings.Count(logged.String(), "gRPC handler panicked"); n != 2 {
		t.Errorf("logged %d panics, want 2:\n%s", n, logged.String())
	}
	if !strings.Contains(logged.String(), "recover_test.go") {
		t.Error("the log has no stack")
	}

	// Without a panic, results pass through untouched.
	resp, err := r.unary(context.Background(), nil, &grpc.UnaryServerInfo{FullMethod: method},
		func(context.Context, any) (any, error) { return "ok", status.Error(codes.NotFound, "nf") })
	if resp != "ok" || status.Code(err) != codes.NotFound {
		t.Errorf("pass-through: %v, %v", resp, err)
	}
}
