//go:build !linux

package pgwire

import "net"

// rawSocket is built on Linux only (sockio_linux.go); elsewhere sessions
// read and write their net.Conn.
type rawSocket struct{ net.Conn }

func newRawSocket(net.Conn) *rawSocket { return nil }
