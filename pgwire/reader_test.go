package pgwire

import (
	"io"
	"net"
	"testing"
	"time"
)

// connReader reads ahead only while a slow query runs (watch); unwatch
// returns to synchronous reads without losing a byte read ahead, and keeps
// a hang-up the read-ahead saw.

func readN(t *testing.T, r *connReader, n int) string {
	t.Helper()
	buf := make([]byte, n)
	if _, err := io.ReadFull(r, buf); err != nil {
		t.Fatal(err)
	}
	return string(buf)
}

// waitBuffered waits until the read-ahead holds n unread bytes.
func waitBuffered(t *testing.T, r *connReader, n int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		r.mu.Lock()
		got := len(r.mu.data) - r.mu.off
		r.mu.Unlock()
		if got >= n {
			return
		}
	}
	t.Fatalf("the read-ahead did not read %d bytes", n)
}

func TestReaderUnwatchKeepsReadAhead(t *testing.T) {
	server, client := net.Pipe()
	defer client.Close()
	r := newConnReader(server)
	defer r.stop()
	for round := range 3 {
		r.watch(func() { t.Error("hang-up reported") })
		go client.Write([]byte("abc"))
		waitBuffered(t, r, 3)
		r.unwatch()
		r.mu.Lock()
		async := r.mu.async
		r.mu.Unlock()
		if async {
			t.Fatalf("round %d: still reading ahead after unwatch", round)
		}
		go client.Write([]byte("def"))
		if got := readN(t, r, 6); got != "abcdef" {
			t.Fatalf("round %d: read %q", round, got)
		}
	}
	server.Close()
}

func TestReaderUnwatchKeepsHangup(t *testing.T) {
	server, client := net.Pipe()
	r := newConnReader(server)
	defer r.stop()
	hungUp := make(chan struct{})
	r.watch(func() { close(hungUp) })
	go func() {
		client.Write([]byte("x"))
		client.Close()
	}()
	<-hungUp
	r.unwatch()
	if got := readN(t, r, 1); got != "x" {
		t.Fatalf("read %q", got)
	}
	if _, err := r.Read(make([]byte, 1)); err != io.EOF {
		t.Fatalf("after the hang-up: %v, want EOF", err)
	}
	server.Close()
}
