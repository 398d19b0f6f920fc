package engine_test

import (
	"context"
	"testing"

	"github.com/shale-db/shale/engine"
	"github.com/shale-db/shale/exec"
	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
	"github.com/shale-db/shale/storage"
)

func newTestEngine(t *testing.T, opts engine.Options) *engine.Engine {
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
	for _, k := range []string{"r1", "r2", "r3"} {
		m := storage.Mutation{Kind: storage.SetCell, Family: "cf", Qualifier: []byte("q"), Timestamp: 1000, Value: []byte(k + "-value")}
		if err := st.MutateRow(ctx, storage.Target{Instance: testInstance, Table: "t"}, []byte(k), []storage.Mutation{m}); err != nil {
			t.Fatal(err)
		}
	}
	return engine.New(st, opts)
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
