package pgwire_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/cockroachdb/datadriven"
	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/shale-db/shale/pgwire"
)

// pgtestAddr replays the scripts against another server (e.g. a real
// PostgreSQL: -pgtest-addr=localhost:5432); sections that differ from
// PostgreSQL are marked "ours" and skipped there.
var pgtestAddr = flag.String("pgtest-addr", "", "run testdata/pgtest against this server instead of a fake-backed pgwire")

// pgtestUser and pgtestDatabase are the StartupMessage's user (default:
// $USER) and database, for -pgtest-addr.
var (
	pgtestUser     = flag.String("pgtest-user", "", "user to connect as (default $USER)")
	pgtestDatabase = flag.String("pgtest-database", "testdb", "database to connect to")
)

// readable reports whether CopyData is text to show as it is (binary COPY's
// is shown in hex).
func readable(b []byte) bool {
	return utf8.Valid(b) && !bytes.ContainsFunc(b, func(r rune) bool { return r < ' ' && r != '\t' && r != '\n' && r != '\r' })
}

// TestPGTest runs the golden protocol traces of testdata/pgtest (crdb's
// pgtest format): "send" sends frontend messages written as pgproto3 JSON,
// one per line; "until" receives backend messages until each listed type
// has been seen in order and prints them as JSON. Refresh with -rewrite.
func TestPGTest(t *testing.T) {
	files, _ := filepath.Glob("testdata/pgtest/*")
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			addr := *pgtestAddr
			if addr == "" {
				addr, _ = startServer(t, pgwire.Options{})
			}
			fe := dialFrontend(t, addr)
			datadriven.RunTest(t, file, func(t *testing.T, d *datadriven.TestData) string {
				if d.HasArg("ours") && *pgtestAddr != "" {
					d.Expected = ""
					return ""
				}
				switch d.Cmd {
				case "send":
					for _, line := range strings.Split(d.Input, "\n") {
						fe.Send(frontendMessage(t, line))
					}
					if err := fe.Flush(); err != nil {
						t.Fatal(err)
					}
					return ""
				case "until":
					return receiveUntil(t, fe, strings.Split(d.Input, "\n"))
				}
				t.Fatalf("unknown command %s", d.Cmd)
				return ""
			})
		})
	}
}

// dialFrontend connects and completes the startup (database "testdb"
// unless -pgtest-database says otherwise).
func dialFrontend(t testing.TB, addr string) *pgproto3.Frontend {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	nc.SetDeadline(time.Now().Add(20 * time.Second))
	t.Cleanup(func() { nc.Close() })
	fe := pgproto3.NewFrontend(nc, nc)
	user := *pgtestUser
	if user == "" {
		user = os.Getenv("USER")
	}
	if user == "" {
		user = "tester"
	}
	fe.Send(&pgproto3.StartupMessage{ProtocolVersion: pgproto3.ProtocolVersion30,
		Parameters: map[string]string{"user": user, "database": *pgtestDatabase}})
	if err := fe.Flush(); err != nil {
		t.Fatal(err)
	}
	for {
		m, err := fe.Receive()
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := m.(*pgproto3.ReadyForQuery); ok {
			return fe
		}
		if e, ok := m.(*pgproto3.ErrorResponse); ok {
			t.Fatalf("startup: %s", e.Message)
		}
	}
}

var frontendTypes = map[string]func() pgproto3.FrontendMessage{
	"Query":    func() pgproto3.FrontendMessage { return &pgproto3.Query{} },
	"Parse":    func() pgproto3.FrontendMessage { return &pgproto3.Parse{} },
	"Bind":     func() pgproto3.FrontendMessage { return &pgproto3.Bind{} },
	"Describe": func() pgproto3.FrontendMessage { return &pgproto3.Describe{} },
	"Execute":  func() pgproto3.FrontendMessage { return &pgproto3.Execute{} },
	"Close":    func() pgproto3.FrontendMessage { return &pgproto3.Close{} },
	"Sync":     func() pgproto3.FrontendMessage { return &pgproto3.Sync{} },
	"Flush":    func() pgproto3.FrontendMessage { return &pgproto3.Flush{} },
}

// frontendMessage reads `Type {json}` (the JSON may be omitted).
func frontendMessage(t *testing.T, line string) pgproto3.FrontendMessage {
	typ, body, _ := strings.Cut(strings.TrimSpace(line), " ")
	mk, ok := frontendTypes[typ]
	if !ok {
		t.Fatalf("unknown message type %q", typ)
	}
	m := mk()
	if body = strings.TrimSpace(body); body != "" {
		if err := json.Unmarshal([]byte(body), m); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
	}
	return m
}

// receiveUntil prints backend messages until each of types has been seen.
func receiveUntil(t *testing.T, fe *pgproto3.Frontend, types []string) string {
	var b strings.Builder
	for _, want := range types {
		want = strings.TrimSpace(want)
		for {
			m, err := fe.Receive()
			if err != nil {
				t.Fatalf("waiting for %s: %v\n%s", want, err, b.String())
			}
			var js []byte
			if cd, ok := m.(*pgproto3.CopyData); ok && readable(cd.Data) { // its text, not hex
				js, err = json.Marshal(struct{ Type, Text string }{"CopyData", string(cd.Data)})
			} else {
				js, err = json.Marshal(redact(m))
			}
			if err != nil {
				t.Fatal(err)
			}
			b.Write(js)
			b.WriteByte('\n')
			if fmt.Sprintf("%T", m) == "*pgproto3."+want {
				break
			}
		}
	}
	return b.String()
}

// redact drops the fields that vary between servers and runs.
func redact(m pgproto3.BackendMessage) pgproto3.BackendMessage {
	switch e := m.(type) {
	case *pgproto3.ErrorResponse:
		c := *e
		c.File, c.Line, c.Routine, c.SeverityUnlocalized = "", 0, "", ""
		return &c
	case *pgproto3.NoticeResponse:
		c := *e
		c.File, c.Line, c.Routine, c.SeverityUnlocalized = "", 0, "", ""
		return &c
	}
	return m
}
