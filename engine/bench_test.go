package engine_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/shale-db/shale/engine"
	"github.com/shale-db/shale/sql"
	"github.com/shale-db/shale/sql/types"
	"github.com/shale-db/shale/storage"
)

// Benchmarks over one table of SHALE_BENCH_ROWS rows (default 1,000,000)
// keyed k0000000, k0000001, ... with one 8-byte cell cf:a each:
//
//	go test ./engine -run XXX -bench . -benchtime 3x     (1M rows)
//	SHALE_BENCH_ROWS=100000 go test ./engine -run XXX -bench .
var bench struct {
	once sync.Once
	st   *storage.Engine
	eng  *engine.Engine
	rows int
	err  error
}

func benchEngine(b *testing.B) (*storage.Engine, *engine.Engine, int) {
	bench.once.Do(func() {
		bench.rows = 1_000_000
		if s := os.Getenv("SHALE_BENCH_ROWS"); s != "" {
			bench.rows, _ = strconv.Atoi(s)
		}
		dir, err := os.MkdirTemp("", "shale-engine-bench")
		if err != nil {
			bench.err = err
			return
		}
		bench.st, bench.err = storage.Open(dir, storage.Options{NoSync: true, SweepInterval: -1})
		if bench.err != nil {
			return
		}
		if bench.err = loadBench(bench.st, bench.rows); bench.err != nil {
			return
		}
		// Measure the LSM a long-running server has, not a fresh load's L0,
		// and a store that is not compacting in the background: compact,
		// close (which waits for compactions) and reopen.
		if bench.err = bench.st.Compact(context.Background()); bench.err != nil {
			return
		}
		if bench.err = bench.st.Close(); bench.err != nil {
			return
		}
		if bench.st, bench.err = storage.Open(dir, storage.Options{SweepInterval: -1}); bench.err != nil {
			return
		}
		bench.eng = engine.New(bench.st, engine.Options{})
	})
	if bench.err != nil {
		b.Fatal(bench.err)
	}
	return bench.st, bench.eng, bench.rows
}

func loadBench(st *storage.Engine, n int) error {
	ctx := context.Background()
	if _, err := st.CreateTable(ctx, testInstance, "t", storage.TableSpec{Families: []storage.Family{{Name: "cf"}}}); err != nil {
		return err
	}
	tgt := storage.Target{Instance: testInstance, Table: "t"}
	var batch []storage.RowMutations
	for i := 0; i < n; i++ {
		batch = append(batch, storage.RowMutations{Key: []byte(fmt.Sprintf("k%07d", i)), Mutations: []storage.Mutation{{
			Kind: storage.SetCell, Family: "cf", Qualifier: []byte("a"), Timestamp: 1000, Value: []byte("12345678")}}})
		if len(batch) == 1000 || i == n-1 {
			if _, err := st.MutateRows(ctx, tgt, batch); err != nil {
				return err
			}
			batch = batch[:0]
		}
	}
	if err := loadKeyed(st, n); err != nil {
		return err
	}
	if err := loadProto(st, n); err != nil {
		return err
	}
	return st.Flush()
}

// BenchmarkCountStar compares SELECT COUNT(*) with the raw storage scan
// of the same rows (target: sql ≤ 1.5× raw).
func BenchmarkCountStar(b *testing.B) {
	st, eng, n := benchEngine(b)
	ctx := context.Background()
	b.Run("raw", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			it, err := st.ReadRows(ctx, storage.Target{Instance: testInstance, Table: "t"}, storage.ReadOptions{})
			if err != nil {
				b.Fatal(err)
			}
			c := 0
			for it.Next() != nil {
				c++
			}
			it.Close()
			if c != n {
				b.Fatalf("raw scan read %d rows, want %d", c, n)
			}
		}
	})
	b.Run("sql", func(b *testing.B) {
		b.ReportAllocs()
		stmt, err := eng.Prepare(ctx, testInstance, "SELECT COUNT(*) FROM t", nil)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if got := scalar(b, stmt, nil); got != int64(n) {
				b.Fatalf("COUNT(*) = %d, want %d", got, n)
			}
		}
	})
}

// BenchmarkPointLookup: SELECT _key, cf['a'] FROM t WHERE _key = @k,
// with parse and plan each time (target ≤ 30µs) and prepared (≤ 10µs).
func BenchmarkPointLookup(b *testing.B) {
	st, eng, n := benchEngine(b)
	ctx := context.Background()
	const q = "SELECT _key, cf['a'] FROM t WHERE _key = @k"
	decl := map[string]*types.Type{"k": types.Bytes}
	keys := make([]map[string]types.Value, 1024)
	for i := range keys {
		keys[i] = map[string]types.Value{"k": types.BytesValue([]byte(fmt.Sprintf("k%07d", (i*7919)%n)))}
	}
	run := func(b *testing.B, stmt *engine.Statement, params map[string]types.Value) {
		rows, err := stmt.Run(ctx, params)
		if err != nil {
			b.Fatal(err)
		}
		c := 0
		for rows.Next() {
			c++
		}
		if rows.Err() != nil || c != 1 {
			b.Fatalf("got %d rows, err %v", c, rows.Err())
		}
		rows.Close()
	}
	b.Run("raw-storage", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			k := keys[i%len(keys)]["k"].Bytes()
			it, err := st.ReadRows(ctx, storage.Target{Instance: testInstance, Table: "t"},
				storage.ReadOptions{Rows: storage.RowSet{Keys: [][]byte{k}}})
			if err != nil {
				b.Fatal(err)
			}
			if it.Next() == nil {
				b.Fatal("no row")
			}
			it.Close()
			i++
		}
	})
	b.Run("prepare+run", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			stmt, err := eng.Prepare(ctx, testInstance, q, decl)
			if err != nil {
				b.Fatal(err)
			}
			run(b, stmt, keys[i%len(keys)])
			i++
		}
	})
	b.Run("prepared", func(b *testing.B) {
		b.ReportAllocs()
		stmt, err := eng.Prepare(ctx, testInstance, q, decl)
		if err != nil {
			b.Fatal(err)
		}
		i := 0
		for b.Loop() {
			run(b, stmt, keys[i%len(keys)])
			i++
		}
	})
}

// BenchmarkPrefixCount: COUNT(*) with STARTS_WITH(_key, @p) matching 1,000
// rows reads about 1,000 rows; EXPLAIN ANALYZE shows it.
func BenchmarkPrefixCount(b *testing.B) {
	_, eng, n := benchEngine(b)
	if n < 1000 {
		b.Skip("needs at least 1000 rows")
	}
	ctx := context.Background()
	decl := map[string]*types.Type{"p": types.Bytes}
	params := map[string]types.Value{"p": types.BytesValue([]byte("k0000"))}
	stmt, err := eng.Prepare(ctx, testInstance, "EXPLAIN ANALYZE SELECT COUNT(*) FROM t WHERE STARTS_WITH(_key, @p)", decl)
	if err != nil {
		b.Fatal(err)
	}
	rows, err := stmt.Run(engine.WithoutTimes(ctx), params)
	if err != nil {
		b.Fatal(err)
	}
	for rows.Next() {
		b.Log(rows.Row()[0].Str())
	}
	stmt, err = eng.Prepare(ctx, testInstance, "SELECT COUNT(*) FROM t WHERE STARTS_WITH(_key, @p)", decl)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if got := scalar(b, stmt, params); got != 1000 {
			b.Fatalf("COUNT(*) = %d, want 1000", got)
		}
	}
}

// firstRow runs stmt without parameters and returns its first row.
func firstRow(b *testing.B, stmt *engine.Statement) []types.Value {
	rows, err := stmt.Run(context.Background(), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	if !rows.Next() {
		b.Fatalf("no row: %v", rows.Err())
	}
	row := make([]types.Value, len(rows.Row()))
	for i, v := range rows.Row() {
		row[i] = sql.CopyValue(v) // valid after Close
	}
	return row
}

func scalar(b *testing.B, stmt *engine.Statement, params map[string]types.Value) int64 {
	rows, err := stmt.Run(context.Background(), params)
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	if !rows.Next() {
		b.Fatalf("no row: %v", rows.Err())
	}
	return rows.Row()[0].Int64()
}
