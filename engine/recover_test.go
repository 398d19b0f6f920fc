package engine_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/shale-db/shale/catalog"
	"github.com/shale-db/shale/engine"
	"github.com/shale-db/shale/exec"
	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/storage"
)

// panicAt, in a run's context, names where panickyScanner panics: "scan",
// "next" or "close".
type panicAt struct{}

// panickyScanner reads the store, but panics where the context says.
type panickyScanner struct{ exec.Scanner }

func (s panickyScanner) Scan(ctx context.Context, req exec.ScanRequest) (exec.RowSource, error) {
	where, _ := ctx.Value(panicAt{}).(string)
	if where == "scan" {
		panic("scanner bug")
	}
	src, err := s.Scanner.Scan(ctx, req)
	return panickySource{src, where}, err
}

type panickySource struct {
	exec.RowSource
	where string
}

func (s panickySource) Next() *storage.Row {
	if s.where == "next" {
		panic("row source bug")
	}
	return s.RowSource.Next()
}

func (s panickySource) Close() error {
	if s.where == "close" {
		panic("close bug")
	}
	return s.RowSource.Close()
}

// panickyCatalog panics when asked for table "boom".
type panickyCatalog struct{ catalog.Reader }

func (c panickyCatalog) Table(ctx context.Context, instance, name string) (*catalog.Table, error) {
	if name == "boom" {
		panic("catalog bug")
	}
	return c.Reader.Table(ctx, instance, name)
}

// TestPanicFailsOneStatement: a bug that panics while a statement is
// prepared, opened, read or closed fails that statement with an internal
// error, logged with its stack; the engine, and the prepared statement,
// go on working.
func TestPanicFailsOneStatement(t *testing.T) {
	ctx := context.Background()
	st := newTestStore(t, "r1")
	var log bytes.Buffer
	e := engine.New(st, engine.Options{
		Catalog: panickyCatalog{catalog.StorageReader{Store: st}},
		Scanner: panickyScanner{exec.StorageScanner{Store: st}},
		Logger:  slog.New(slog.NewTextHandler(&log, nil)),
	})
	wantInternal := func(t *testing.T, err error, panicText string) {
		t.Helper()
		if sqlerr.CodeOf(err) != sqlerr.Internal || !strings.HasPrefix(err.Error(), "internal error while ") ||
			!strings.HasSuffix(err.Error(), "the statement: "+panicText) {
			t.Fatalf("error %v, want an internal error naming %q", err, panicText)
		}
		if !strings.Contains(log.String(), "stack=") || !strings.Contains(log.String(), panicText) {
			t.Fatalf("the log lacks the panic and its stack:\n%s", log.String())
		}
		log.Reset()
	}

	if _, err := e.Prepare(ctx, testInstance, "SELECT * FROM boom", nil); err != nil {
		wantInternal(t, err, "catalog bug")
	} else {
		t.Fatal("prepared a statement whose table lookup panicked")
	}

	stmt, err := e.Prepare(ctx, testInstance, "SELECT _key FROM t", nil)
	if err != nil {
		t.Fatal(err)
	}
	// read runs stmt under where and returns its keys, or the error.
	read := func(where string) (keys string, err error) {
		rows, err := stmt.Run(context.WithValue(ctx, panicAt{}, where), nil)
		if err != nil {
			return "", err
		}
		for rows.Next() {
			keys += string(rows.Row()[0].Bytes()) + " "
		}
		if err := rows.Err(); err != nil {
			rows.Close()
			return "", err
		}
		return keys, rows.Close()
	}
	for _, tc := range []struct{ where, panic string }{
		{"scan", "scanner bug"},
		{"next", "row source bug"},
		{"close", "close bug"},
	} {
		t.Run(tc.where, func(t *testing.T) {
			_, err := read(tc.where)
			wantInternal(t, err, tc.panic)
			for range 3 { // and the statement's next runs do not meet it
				if keys, err := read(""); err != nil || keys != "r1 " {
					t.Fatalf("after the panic: keys %q, %v", keys, err)
				}
			}
		})
	}
}
