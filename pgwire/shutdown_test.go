package pgwire_test

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/shale-db/shale/pgwire"
)

// TestShutdownDoesNotWaitForever: Shutdown cancels running queries and
// closes connections, but a session busy in a computation that never
// looks at its context must not hold the server up past Shutdown's
// context (the process would never exit on SIGTERM).
func TestShutdownDoesNotWaitForever(t *testing.T) {
	stuckRelease = make(chan struct{})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := pgwire.NewServer(pgwire.Options{Executor: newFake()})
	go s.Serve(l)
	c, err := pgx.Connect(context.Background(), "postgres://shale@"+l.Addr().String()+"/db?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	execDone := make(chan struct{})
	go func() { // the connection is this goroutine's until execDone
		c.Exec(context.Background(), "stuck")
		close(execDone)
	}()
	<-stuckRunning
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := s.Shutdown(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Shutdown with a stuck session: %v, want context.DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Shutdown took %v", d)
	}
	close(stuckRelease)
	if err := s.Shutdown(context.Background()); err != nil { // the session ends once released
		t.Errorf("Shutdown after release: %v", err)
	}
	<-execDone
	c.Close(context.Background())
}
