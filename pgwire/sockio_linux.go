//go:build linux

package pgwire

import (
	"io"
	"net"
	"os"
	"syscall"
	"unsafe"
)

// rawSocket reads and writes a session's socket with raw system calls,
// where net.Conn's Read and Write make each call a blocking system call
// for the scheduler (entersyscall): a write to a loopback socket runs the
// receiver's TCP input and wakes it before it returns, which often takes
// longer than sysmon's 20 µs tick, and then sysmon hands the session's P
// to another thread and polls every 20 µs, and the session's thread must
// win a P back when the write returns. The sockets Go opens are
// non-blocking, so a read or write here never sleeps in the kernel: it
// does its work or fails with EAGAIN, and then the runtime's poller waits
// for the socket, as net.Conn's would (deadlines included). Under pgbench
// with prepared statements this removed the 20 µs polls (0.10 → 0.004
// nanosleeps a transaction) and a third of the context switches.
//
// A read that finds nothing yields the CPU once (sched_yield) and reads
// again before it waits. The write that answered the client woke it,
// usually on this CPU, and the kernel lets the waker run on: a
// PostgreSQL backend gives the CPU up when it sleeps for the next
// request, and the client reads its answer, sends the next request and
// sleeps in turn, but a goroutine that parks leaves its thread looking
// for other work, and the next request then has to wake a thread through
// the poller, often on the other, halted CPU. Yielding lets the client
// run first, and its next request is usually there when the session
// reads again. Under pgbench -M prepared on two vCPUs this took the idle
// time from 8–15% to 0–1% and throughput from 34–43k to 46–47k tps (see
// the README's runs table). When nothing else is runnable the yield
// returns at once, and a session whose client is slower pays two system
// calls before it parks.
type rawSocket struct {
	rc syscall.RawConn
	// The call in progress (one reader and one writer at a time): its
	// buffer, the bytes done and an error.
	rbuf, wbuf   []byte
	rn, wn       int
	rerr, werr   syscall.Errno
	yielded      bool                  // the Read in progress has yielded the CPU
	rfunc, wfunc func(fd uintptr) bool // the methods below, bound once
}

// newRawSocket is nc's raw socket, or nil when nc is not a socket (TLS,
// the pipes of tests) or the build has the race detector (sockio_race.go),
// and nc is then read and written as a net.Conn.
func newRawSocket(nc net.Conn) *rawSocket {
	sc, ok := nc.(syscall.Conn)
	if !ok || raceEnabled {
		return nil
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	s := &rawSocket{rc: rc}
	s.rfunc, s.wfunc = s.readFD, s.writeFD
	return s
}

// Read reads what the socket holds into p, waiting for something first;
// io.EOF when the peer has closed it.
func (s *rawSocket) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	s.rbuf, s.rn, s.rerr, s.yielded = p, 0, 0, false
	err := s.rc.Read(s.rfunc)
	s.rbuf = nil
	switch {
	case err != nil:
		return 0, err
	case s.rerr != 0:
		return 0, os.NewSyscallError("read", s.rerr)
	case s.rn == 0:
		return 0, io.EOF
	}
	return s.rn, nil
}

func (s *rawSocket) readFD(fd uintptr) bool {
	n, e := sysIO(syscall.SYS_READ, fd, s.rbuf)
	if e == syscall.EAGAIN && !s.yielded {
		s.yielded = true // once a Read: after the poller's wakeup, input is there
		syscall.RawSyscall(syscall.SYS_SCHED_YIELD, 0, 0, 0)
		n, e = sysIO(syscall.SYS_READ, fd, s.rbuf)
	}
	switch e {
	case 0:
		s.rn = n
	case syscall.EAGAIN:
		return false // the poller waits for input
	default:
		s.rerr = e
	}
	return true
}

// Write writes all of p, waiting for room as net.Conn's Write does.
func (s *rawSocket) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	s.wbuf, s.wn, s.werr = p, 0, 0
	err := s.rc.Write(s.wfunc)
	n := s.wn
	s.wbuf = nil
	if err == nil && s.werr != 0 {
		err = os.NewSyscallError("write", s.werr)
	}
	return n, err
}

func (s *rawSocket) writeFD(fd uintptr) bool {
	for s.wn < len(s.wbuf) {
		n, e := sysIO(syscall.SYS_WRITE, fd, s.wbuf[s.wn:])
		switch e {
		case 0:
			s.wn += n
		case syscall.EAGAIN:
			return false // the poller waits for room
		default:
			s.werr = e
			return true
		}
	}
	return true
}

// sysIO makes a read or write system call (trap) on fd with b, again
// when a signal interrupts it.
func sysIO(trap, fd uintptr, b []byte) (int, syscall.Errno) {
	for {
		n, _, e := syscall.RawSyscall(trap, fd, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
		if e != syscall.EINTR {
			return int(n), e
		}
	}
}
