package pgwire_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/shale-db/shale/pgwire"
	"github.com/shale-db/shale/sql/types"
)

// fakeFallback is a FallbackCatalog that declines every catalog query and
// takes fallback queries beginning with "pg": "pgfail" fails with its own
// SQLSTATE (the query clearly is PostgreSQL), "pgunsupported" fails with
// 0A000 (PostgreSQL read it), "pgdecline" is declined, any
// other "pg…" answers one row of a jsonb column (JSON text as a STRING) and
// a bytea column.
type fakeFallback struct {
	mu    sync.Mutex
	calls []string
}

type ownErr struct{}

func (ownErr) Error() string    { return "column \"nope\" does not exist" }
func (ownErr) SQLState() string { return "42703" }
func (ownErr) Offset() int      { return 2 }

type unsupportedErr struct{}

func (unsupportedErr) Error() string    { return "type cidr is not supported" }
func (unsupportedErr) SQLState() string { return "0A000" }
func (unsupportedErr) Offset() int      { return 10 }

func (f *fakeFallback) Prepare(context.Context, pgwire.Session, string, []uint32) (pgwire.CatalogStatement, bool, error) {
	return nil, false, nil
}

func (f *fakeFallback) PrepareFallback(_ context.Context, _ pgwire.Session, q string, _ []uint32) (pgwire.CatalogStatement, bool, error) {
	f.mu.Lock()
	f.calls = append(f.calls, q)
	f.mu.Unlock()
	switch {
	case q == "pgfail", q == "pgfnfail":
		return nil, true, ownErr{}
	case q == "pgunsupported", strings.HasPrefix(q, "explain ("):
		return nil, true, unsupportedErr{}
	case q == "pgdecline", !strings.HasPrefix(q, "pg"):
		return nil, false, nil
	}
	return fallbackStmt{}, true, nil
}

type fallbackStmt struct{}

func (fallbackStmt) Columns() []types.Field {
	return []types.Field{{Name: "j", Type: types.String}, {Name: "b", Type: types.Bytes}}
}
func (fallbackStmt) ColumnOIDs() []uint32 { return []uint32{3802, 17} }
func (fallbackStmt) ParamOIDs() []uint32  { return nil }
func (fallbackStmt) Run(context.Context, map[string]types.Value) (pgwire.Rows, error) {
	return &sliceRows{rows: [][]types.Value{{types.StringValue(`{"a": [1, "x"]}`), types.BytesValue([]byte{0, 0xff})}}}, nil
}

type sliceRows struct {
	rows [][]types.Value
	i    int
}

func (r *sliceRows) Next() bool         { r.i++; return r.i <= len(r.rows) }
func (r *sliceRows) Row() []types.Value { return r.rows[r.i-1] }
func (r *sliceRows) Err() error         { return nil }
func (r *sliceRows) Close() error       { return nil }

// TestFallbackCatalog: a statement the Executor rejects while preparing it
// (a syntax error, a function or type it lacks) goes to the
// FallbackCatalog, which answers it, declines it (the Executor's error
// stands) or replaces the error with its own; run-time errors and
// successes never reach it.
func TestFallbackCatalog(t *testing.T) {
	fb := &fakeFallback{}
	addr, _ := startServer(t, pgwire.Options{Catalog: fb})
	ctx := context.Background()
	for _, mode := range []string{"default_query_exec_mode=simple_protocol", ""} {
		fb.calls = nil
		c := connect(t, addr, mode)
		var n int64
		if err := c.QueryRow(ctx, "gen 1").Scan(&n, new(string)); err != nil || n != 1 {
			t.Fatalf("%s gen: %v", mode, err)
		}
		for _, format := range []int16{0, 1} {
			rr := c.PgConn().ExecParams(ctx, "pg select", nil, nil, nil, []int16{format})
			var got [][]byte
			for rr.NextRow() {
				for _, v := range rr.Values() {
					got = append(got, bytes.Clone(v))
				}
			}
			if _, err := rr.Close(); err != nil {
				t.Fatal(err)
			}
			want := [][]byte{[]byte(`{"a": [1, "x"]}`), []byte(`\x00ff`)}
			if format == 1 {
				want = [][]byte{append([]byte{1}, want[0]...), {0, 0xff}}
			}
			if len(got) != 2 || !bytes.Equal(got[0], want[0]) || !bytes.Equal(got[1], want[1]) {
				t.Errorf("%s format %d: %q, want %q", mode, format, got, want)
			}
		}
		_, err := c.Exec(ctx, "pgfail")
		if code, pos := sqlStateAt(err); code != "42703" || pos != 3 {
			t.Errorf("%s pgfail: %v (%s at %d)", mode, err, code, pos)
		}
		// Both readings failed: the hint gives the executor's reason too.
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) || !strings.HasPrefix(pgErr.Hint, "GoogleSQL cannot read the statement (") ||
			!strings.HasSuffix(pgErr.Hint, "), so it was read as PostgreSQL.") {
			t.Errorf("%s pgfail: hint %q", mode, pgErr.Hint)
		}
		// PostgreSQL read it and refused what it asks: no hint.
		_, err = c.Exec(ctx, "pgunsupported")
		if code, _ := sqlStateAt(err); code != "0A000" || !errors.As(err, &pgErr) || pgErr.Hint != "" {
			t.Errorf("%s pgunsupported: %v (hint %q)", mode, err, pgErr.Hint)
		}
		// EXPLAIN with options is PostgreSQL's; when that reading fails,
		// GoogleSQL's EXPLAIN of the query after them is tried, and when
		// that fails too the hint says both readings were tried.
		_, err = c.Exec(ctx, "explain (format json) select b'x'")
		if code, _ := sqlStateAt(err); code != "0A000" || !errors.As(err, &pgErr) ||
			!strings.HasPrefix(pgErr.Hint, "EXPLAIN with options was read as PostgreSQL, and as GoogleSQL's") {
			t.Errorf("%s explain (format json): %v (hint %q)", mode, err, pgErr.Hint)
		}
		// A function GoogleSQL lacks: PostgreSQL's reading answers; when it
		// fails too, GoogleSQL's error stands (it read the statement).
		if err := c.QueryRow(ctx, "pgfn select").Scan(new(string), new([]byte)); err != nil {
			t.Errorf("%s pgfn select: %v", mode, err)
		}
		_, err = c.Exec(ctx, "pgfnfail")
		if code, _ := sqlStateAt(err); code != "42883" || !strings.Contains(err.Error(), "function not found: PGFNFAIL") {
			t.Errorf("%s pgfnfail: %v", mode, err)
		}
		_, err = c.Exec(ctx, "pgdecline")
		if code, _ := sqlStateAt(err); code != "42601" || !strings.Contains(err.Error(), "fake: unknown query") {
			t.Errorf("%s pgdecline: %v", mode, err)
		}
		// A type GoogleSQL refuses reaches the fallback too; declined
		// there, GoogleSQL's error stands.
		_, err = c.Exec(ctx, "echo @a:nosuchtype")
		if code, _ := sqlStateAt(err); code != "42804" {
			t.Errorf("%s type mismatch: %v", mode, err)
		}
		// A run-time error never reaches it.
		if _, err = c.Exec(ctx, "runfail"); err == nil {
			t.Errorf("%s runfail: no error", mode)
		}
		fb.mu.Lock()
		calls := strings.Join(fb.calls, ",")
		fb.mu.Unlock()
		if calls != "pg select,pg select,pgfail,pgunsupported,explain (format json) select b'x',pgfn select,pgfnfail,pgdecline,echo @a:nosuchtype" {
			t.Errorf("%s fallback calls: %s", mode, calls)
		}
	}
}

func sqlStateAt(err error) (string, int32) {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code, pe.Position
	}
	return "", 0
}
