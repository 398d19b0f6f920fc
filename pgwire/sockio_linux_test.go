//go:build linux

package pgwire

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"testing"
	"time"
)

// tcpPair is a connected loopback pair: the server end as a rawSocket.
func tcpPair(t *testing.T) (*rawSocket, net.Conn, net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	client, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	server, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { client.Close(); server.Close() })
	if raceEnabled {
		t.Skip("the race detector's builds read and write net.Conn")
	}
	rs := newRawSocket(server)
	if rs == nil {
		t.Fatal("a TCP connection has no raw socket")
	}
	return rs, server, client
}

// TestRawSocketRoundTrip: a write larger than the socket buffers waits for
// room (EAGAIN, then the poller) and arrives whole; reads wait for input
// and see the peer's close as io.EOF.
func TestRawSocketRoundTrip(t *testing.T) {
	rs, _, client := tcpPair(t)
	big := bytes.Repeat([]byte("0123456789abcdef"), 1<<18) // 4 MiB
	got := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(io.LimitReader(client, int64(len(big))))
		got <- b
	}()
	if n, err := rs.Write(big); err != nil || n != len(big) {
		t.Fatalf("Write: %d, %v", n, err)
	}
	if b := <-got; !bytes.Equal(b, big) {
		t.Fatalf("the peer read %d bytes, not the %d written", len(b), len(big))
	}

	go func() {
		time.Sleep(10 * time.Millisecond) // Read waits for this
		client.Write([]byte("hello"))
		client.Close()
	}()
	buf := make([]byte, 64)
	var all []byte
	for {
		n, err := rs.Read(buf)
		all = append(all, buf[:n]...)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("Read: %v", err)
		}
	}
	if string(all) != "hello" {
		t.Fatalf("read %q", all)
	}
}

// TestRawSocketDeadlineAndClose: a waiting Read honours the connection's
// read deadline, and closing the connection ends it with net.ErrClosed.
func TestRawSocketDeadlineAndClose(t *testing.T) {
	rs, server, _ := tcpPair(t)
	server.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
	if _, err := rs.Read(make([]byte, 8)); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("Read past the deadline: %v", err)
	}
	server.SetReadDeadline(time.Time{})
	done := make(chan error)
	go func() {
		_, err := rs.Read(make([]byte, 8))
		done <- err
	}()
	time.Sleep(10 * time.Millisecond)
	server.Close()
	select {
	case err := <-done:
		if !errors.Is(err, net.ErrClosed) {
			t.Fatalf("Read of a closed connection: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("closing the connection did not end its Read")
	}
}
