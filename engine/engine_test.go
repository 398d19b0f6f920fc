package engine_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/shale-db/shale/engine"
	"github.com/shale-db/shale/exec"
	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
	"github.com/shale-db/shale/storage"
)

func newTestEngine(t *testing.T, opts engine.Options) *engine.Engine {
	return engine.New(newTestStore(t, "r1", "r2", "r3"), opts)
}

// newTestStore returns an in-memory store with table t (family cf) holding
// a row per key, cf:q = "<key>-value".
func newTestStore(t *testing.T, keys ...string) *storage.Engine {
	t.Helper()
	ctx := context.Background()
	st, err := storage.Open("", storage.Options{InMemory: true, SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.CreateTable(ctx, testInstance, "t", storage.TableSpec{Families: []storage.Family{{Name: "cf"}}}); err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		m := storage.Mutation{Kind: storage.SetCell, Family: "cf", Qualifier: []byte("q"), Timestamp: 1000, Value: []byte(k + "-value")}
		if err := st.MutateRow(ctx, storage.Target{Instance: testInstance, Table: "t"}, []byte(k), []storage.Mutation{m}); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

// TestStatementAPI covers the contract other packages code against.
func TestStatementAPI(t *testing.T) {
	ctx := context.Background()
	e := newTestEngine(t, engine.Options{})
	stmt, err := e.Prepare(ctx, testInstance, "SELECT _key, cf['q'] AS v, cf, LENGTH(_key) FROM t WHERE _key >= @k",
		map[string]*types.Type{"k": types.Bytes, "unused": types.Int64})
	if err != nil {
		t.Fatal(err)
	}
	var got string
	for _, c := range stmt.Columns() {
		got += c.Name + ":" + c.Type.String() + " "
	}
	if want := "_key:BYTES v:BYTES cf:MAP<BYTES, BYTES> $col4:INT64 "; got != want {
		t.Fatalf("columns %q, want %q", got, want)
	}
	if p := stmt.Params(); len(p) != 1 || p["k"] != types.Bytes {
		t.Fatalf("params %v", p)
	}
	if _, err := stmt.Run(ctx, nil); sqlerr.CodeOf(err) != sqlerr.UndefinedParameter {
		t.Fatalf("unbound parameter: %v", err)
	}
	if _, err := stmt.Run(ctx, map[string]types.Value{"k": types.Int64Value(1)}); sqlerr.CodeOf(err) != sqlerr.TypeMismatch {
		t.Fatalf("mistyped parameter: %v", err)
	}
	rows, err := stmt.Run(ctx, map[string]types.Value{"k": types.BytesValue([]byte("r2"))})
	if err != nil {
		t.Fatal(err)
	}
	if !rows.Next() || rows.Row()[0].String() != `b"r2"` || rows.Row()[1].String() != `b"r2-value"` {
		t.Fatalf("first row %v (err %v)", rows.Row(), rows.Err())
	}
	if err := rows.Close(); err != nil { // close before the end
		t.Fatal(err)
	}
	if rows.Next() {
		t.Fatal("Next after Close")
	}
	if _, err := e.Prepare(ctx, testInstance, "SELECT @x", nil); sqlerr.CodeOf(err) != sqlerr.UndefinedParameter {
		t.Fatalf("undeclared parameter: %v", err)
	}
}

// TestMemoryLimit: sorts, aggregations and SELECT DISTINCT beyond the cap
// fail with ResourceExhausted.
func TestMemoryLimit(t *testing.T) {
	ctx := context.Background()
	e := newTestEngine(t, engine.Options{Exec: exec.Options{MemoryLimit: 200}})
	for _, q := range []string{
		"SELECT _key, cf FROM t ORDER BY cf['q']",
		"SELECT _key, COUNT(*) FROM t GROUP BY _key",
		"SELECT DISTINCT _key, REPEAT(cf['q'], 4) FROM t",
	} {
		stmt, err := e.Prepare(ctx, testInstance, q, nil)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := stmt.Run(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
		}
		if sqlerr.CodeOf(rows.Err()) != sqlerr.ResourceExhausted {
			t.Fatalf("%s: err %v, want resource exhausted", q, rows.Err())
		}
	}
}

// TestStatementReuse: the runs of a statement share nothing a caller can
// see, though they reuse operator trees (exec.Prepared): rows stay valid
// while the statement runs again, and a run that fails or stops early
// leaves nothing behind for the next.
func TestStatementReuse(t *testing.T) {
	ctx := context.Background()
	e := newTestEngine(t, engine.Options{Exec: exec.Options{BatchSize: 1}})
	stmt, err := e.Prepare(ctx, testInstance, "SELECT _key, DIV(10, @d), cf['q'] FROM t WHERE _key >= @k LIMIT @n",
		map[string]*types.Type{"k": types.Bytes, "d": types.Int64, "n": types.Int64})
	if err != nil {
		t.Fatal(err)
	}
	params := func(k string, d, n int64) map[string]types.Value {
		return map[string]types.Value{"k": types.BytesValue([]byte(k)), "d": types.Int64Value(d), "n": types.Int64Value(n)}
	}
	run := func(p map[string]types.Value) *engine.Rows {
		t.Helper()
		rows, err := stmt.Run(ctx, p)
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	next := func(rows *engine.Rows) string {
		t.Helper()
		if !rows.Next() {
			t.Fatalf("no row: %v", rows.Err())
		}
		r := rows.Row()
		return r[0].String() + " " + r[1].String() + " " + r[2].String()
	}
	// A run reads its rows while another runs to the end and a third
	// stops early.
	a := run(params("r1", 5, 3))
	if got := next(a); got != `b"r1" 2 b"r1-value"` {
		t.Fatalf("a: %s", got)
	}
	b := run(params("r2", 1, 3))
	if got := next(b) + ", " + next(b); got != `b"r2" 10 b"r2-value", b"r3" 10 b"r3-value"` {
		t.Fatalf("b: %s", got)
	}
	if b.Next() || b.Err() != nil {
		t.Fatalf("b: more rows or %v", b.Err())
	}
	c := run(params("r3", 2, 3))
	c.Close()
	if got := next(a) + ", " + next(a); got != `b"r2" 2 b"r2-value", b"r3" 2 b"r3-value"` {
		t.Fatalf("a after b and c: %s", got)
	}
	a.Close()
	// Failures in Open (LIMIT) and in Next (DIV) leave reusable trees.
	if _, err := stmt.Run(ctx, params("r1", 1, -1)); sqlerr.CodeOf(err) != sqlerr.InvalidArgument {
		t.Fatalf("negative LIMIT: %v", err)
	}
	d := run(params("r1", 0, 3))
	if d.Next() || sqlerr.CodeOf(d.Err()) != sqlerr.DivisionByZero {
		t.Fatalf("DIV(10, 0): %v", d.Err())
	}
	e1 := run(params("r3", 10, 1))
	if got := next(e1); got != `b"r3" 1 b"r3-value"` || e1.Next() {
		t.Fatalf("after failures: %s", got)
	}
}

// TestStatementConcurrentRuns runs prepared and plan-cached statements from
// several goroutines at once (go test -race).
func TestStatementConcurrentRuns(t *testing.T) {
	ctx := context.Background()
	e := newTestEngine(t, engine.Options{})
	stmt, err := e.Prepare(ctx, testInstance, "SELECT cf['q'] FROM t WHERE _key = @k", map[string]*types.Type{"k": types.Bytes})
	if err != nil {
		t.Fatal(err)
	}
	keys := []string{"r1", "r2", "r3"}
	// one runs the prepared statement (even i) or a literal one of the
	// plan cache (odd i) for a key.
	one := func(i int) error {
		k := keys[i%len(keys)]
		s, p := stmt, map[string]types.Value{"k": types.BytesValue([]byte(k))}
		if i%2 == 1 {
			var err error
			if s, err = e.Prepare(ctx, testInstance, "SELECT cf['q'] FROM t WHERE _key = '"+k+"'", nil); err != nil {
				return err
			}
			p = nil
		}
		rows, err := s.Run(ctx, p)
		if err != nil {
			return err
		}
		defer rows.Close()
		if !rows.Next() {
			return fmt.Errorf("%s: no row (%v)", k, rows.Err())
		}
		if got := string(rows.Row()[0].Bytes()); got != k+"-value" {
			return fmt.Errorf("%s: got %q", k, got)
		}
		return nil
	}
	errs := make(chan error, 8)
	for w := range 8 {
		go func() {
			for i := range 200 {
				if err := one(w + i); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
