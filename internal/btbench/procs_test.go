package btbench

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestMain stops every server the benchmarks started and removes the
// binaries and data directories, whatever the outcome.
func TestMain(m *testing.M) {
	code := m.Run()
	closeShared()
	if bins.dir != "" {
		os.RemoveAll(bins.dir)
	}
	os.Exit(code)
}

// bins holds the two server binaries, built once per process.
var bins struct {
	once     sync.Once
	dir      string
	shale    string
	emulator string
	err      error
}

// binaries builds `shale` and Google's emulator (once per process) and
// returns their paths.
func binaries(tb testing.TB) (shale, emulator string) {
	tb.Helper()
	bins.once.Do(func() {
		bins.dir, bins.err = os.MkdirTemp("", "shale-btbench-bin-*")
		if bins.err != nil {
			return
		}
		bins.shale = filepath.Join(bins.dir, "shale")
		bins.emulator = filepath.Join(bins.dir, "emulator")
		for _, b := range []struct{ out, pkg string }{
			{bins.shale, "github.com/shale-db/shale/cmd/shale"},
			{bins.emulator, "cloud.google.com/go/bigtable/cmd/emulator"},
		} {
			out, err := exec.Command("go", "build", "-o", b.out, b.pkg).CombinedOutput()
			if err != nil {
				bins.err = fmt.Errorf("go build %s: %v\n%s", b.pkg, err, out)
				return
			}
		}
	})
	if bins.err != nil {
		tb.Fatal(bins.err)
	}
	return bins.shale, bins.emulator
}

// proc is a server child process.
type proc struct {
	name     string // "shale" or "emulator"
	cmd      *exec.Cmd
	addr     string // gRPC address
	httpAddr string // Shale's /metrics address ("" for the emulator)
	logs     *syncBuffer
	exited   chan struct{}
	waitErr  error
}

// syncBuffer is a bytes.Buffer safe for a writer goroutine and readers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var (
	shaleAddrLine    = regexp.MustCompile(`shale: (Bigtable gRPC API|HTTP) listening.* addr=(\S+)`)
	emulatorAddrLine = regexp.MustCompile(`Cloud Bigtable emulator running on (\S+)`)
)

// startShale runs `shale serve` on dataDir with free loopback ports (WAL
// synced, the default) and waits for both listeners' log lines.
func startShale(shaleBin, dataDir string) (*proc, error) {
	p := &proc{name: "shale"}
	cmd := exec.Command(shaleBin, "serve", "--data", dataDir, "--grpc", "127.0.0.1:0", "--http", "127.0.0.1:0", "--pg", "127.0.0.1:0")
	err := p.start(cmd, func(line string) bool {
		if m := shaleAddrLine.FindStringSubmatch(line); m != nil {
			if m[1] == "HTTP" {
				p.httpAddr = m[2]
			} else {
				p.addr = m[2]
			}
		}
		return p.addr != "" && p.httpAddr != ""
	}, true)
	return p, err
}

// startEmulator runs Google's emulator on a free loopback port.
func startEmulator(emulatorBin string) (*proc, error) {
	p := &proc{name: "emulator"}
	cmd := exec.Command(emulatorBin, "-host", "127.0.0.1", "-port", "0")
	err := p.start(cmd, func(line string) bool {
		if m := emulatorAddrLine.FindStringSubmatch(line); m != nil {
			p.addr = m[1]
		}
		return p.addr != ""
	}, false)
	return p, err
}

// start runs cmd and scans its log (stderr for Shale, stdout for the
// emulator) until ready reports the addresses found; the rest of the log is
// drained into p.logs so the child never blocks writing it.
func (p *proc) start(cmd *exec.Cmd, ready func(line string) bool, logOnStderr bool) error {
	p.cmd, p.logs, p.exited = cmd, &syncBuffer{}, make(chan struct{})
	// The child dies with the test process even if TestMain's cleanup never
	// runs (a panic or -timeout).
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	var pipe io.ReadCloser
	var err error
	if logOnStderr {
		cmd.Stdout = p.logs
		pipe, err = cmd.StderrPipe()
	} else {
		cmd.Stderr = p.logs
		pipe, err = cmd.StdoutPipe()
	}
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		p.cmd = nil
		return err
	}
	lines, started := make(chan string), make(chan struct{})
	defer close(started)
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			line := sc.Text()
			p.logs.Write([]byte(line + "\n"))
			select {
			case lines <- line:
			case <-started:
			}
		}
		close(lines)
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				return fmt.Errorf("%s exited before listening:\n%s", p.name, p.logs)
			}
			if ready(line) {
				return nil
			}
		case <-timeout:
			cmd.Process.Kill()
			return fmt.Errorf("%s did not start in 30s:\n%s", p.name, p.logs)
		}
	}
}

// stop interrupts the server (both stop cleanly on SIGINT) and waits for it
// to exit, killing it after 60 s.
func (p *proc) stop() error {
	if p == nil || p.cmd == nil {
		return nil
	}
	select {
	case <-p.exited:
		return p.waitErr
	default:
	}
	p.cmd.Process.Signal(os.Interrupt)
	select {
	case <-p.exited:
		return p.waitErr
	case <-time.After(60 * time.Second):
		p.cmd.Process.Kill()
		<-p.exited
		return fmt.Errorf("%s did not stop on SIGINT in 60s", p.name)
	}
}

// clockTick is the length of a /proc clock tick: sysconf(_SC_CLK_TCK) is 100
// on every Linux configuration Go supports (USER_HZ is fixed by the kernel
// ABI).
const clockTick = 10 * time.Millisecond

// cpu returns the child's CPU time so far (user + system, every thread),
// from fields 14 and 15 of /proc/<pid>/stat.
func (p *proc) cpu() (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	// The command name (field 2) is in parentheses and may hold spaces;
	// fields after it start with the state (field 3).
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, fmt.Errorf("malformed /proc stat: %q", b)
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("malformed /proc stat: %q", b)
	}
	utime, err1 := strconv.ParseInt(f[14-3], 10, 64)
	stime, err2 := strconv.ParseInt(f[15-3], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	return time.Duration(utime+stime) * clockTick, nil
}

// mustCPU is cpu for benchmarks.
func (p *proc) mustCPU(tb testing.TB) time.Duration {
	tb.Helper()
	d, err := p.cpu()
	if err != nil {
		tb.Fatalf("%s CPU: %v", p.name, err)
	}
	return d
}

// rss returns the child's resident set and its peak (VmRSS, VmHWM) in bytes.
func (p *proc) rss() (cur, peak uint64, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return 0, 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok || (k != "VmRSS" && k != "VmHWM") {
			continue
		}
		kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		if err != nil {
			return 0, 0, err
		}
		if k == "VmRSS" {
			cur = kb << 10
		} else {
			peak = kb << 10
		}
	}
	return cur, peak, nil
}

// heapStats are the Go heap gauges of Shale's /metrics.
type heapStats struct {
	inuse, alloc uint64 // go_memstats_heap_inuse_bytes, go_memstats_heap_alloc_bytes
}

var metricsClient = &http.Client{Timeout: 5 * time.Second}

// heap scrapes Shale's /metrics for its heap gauges.
func (p *proc) heap(ctx context.Context) (heapStats, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+p.httpAddr+"/metrics", nil)
	if err != nil {
		return heapStats{}, err
	}
	resp, err := metricsClient.Do(req)
	if err != nil {
		return heapStats{}, err
	}
	defer resp.Body.Close()
	var hs heapStats
	var found int
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		name, val, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			continue
		}
		var dst *uint64
		switch name {
		case "go_memstats_heap_inuse_bytes":
			dst = &hs.inuse
		case "go_memstats_heap_alloc_bytes":
			dst = &hs.alloc
		default:
			continue
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
		if err != nil {
			return heapStats{}, fmt.Errorf("%s: %v", name, err)
		}
		*dst = uint64(f)
		found++
	}
	if err := sc.Err(); err != nil {
		return heapStats{}, err
	}
	if found != 2 {
		return heapStats{}, fmt.Errorf("/metrics has no go_memstats_heap_inuse_bytes or go_memstats_heap_alloc_bytes")
	}
	return hs, nil
}

// selfCPU is the test process's own CPU time (the client side).
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
