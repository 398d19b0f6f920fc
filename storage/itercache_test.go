package storage

import (
	"context"
	"encoding/binary"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// Reads reuse cached Pebble iterators (iterCache) only while nothing has been
// written since they were opened. These tests pin that a read sees every
// write that returned before it began, whichever API wrote it.

func readValue(t *testing.T, te *testEngine, tgt Target, key string) string {
	t.Helper()
	row, err := te.ReadRow(context.Background(), tgt, []byte(key), nil)
	if err != nil {
		t.Fatal(err)
	}
	if row == nil || len(row.Cells) == 0 {
		return ""
	}
	return string(row.Cells[0].Value)
}

func TestCachedIteratorsSeeEveryWrite(t *testing.T) {
	te := openTestEngine(t)
	ctx := context.Background()
	tgt := Target{Instance: "i", Table: "t"}
	te.createTable("t", "f")
	set := func(v string) []Mutation {
		return []Mutation{{Kind: SetCell, Family: "f", Qualifier: []byte("q"), Timestamp: 1000, Value: []byte(v)}}
	}
	steps := []struct {
		name  string
		write func() error
		want  string
	}{
		{"MutateRow", func() error { return te.MutateRow(ctx, tgt, []byte("r"), set("a")) }, "a"},
		{"MutateRows", func() error {
			_, err := te.MutateRows(ctx, tgt, []RowMutations{{Key: []byte("r"), Mutations: set("b")}})
			return err
		}, "b"},
		{"CheckAndMutateRow", func() error {
			_, err := te.CheckAndMutateRow(ctx, tgt, []byte("r"), nil, set("c"), nil)
			return err
		}, "c"},
		{"ReadModifyWriteRow", func() error {
			_, err := te.ReadModifyWriteRow(ctx, tgt, []byte("r"), []ReadModifyWriteRule{{Family: "f", Qualifier: []byte("q"), Append: []byte("!")}})
			return err
		}, "c!"},
		{"DropRowRange", func() error { return te.DropRowRange(ctx, "i", "t", []byte("r"), false) }, ""},
	}
	for _, s := range steps {
		// Two reads before the write: the second reuses the first's iterator.
		readValue(t, te, tgt, "r")
		readValue(t, te, tgt, "r")
		if te.iters.cached.Load() == 0 {
			t.Fatalf("before %s: no iterator was cached", s.name)
		}
		if err := s.write(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if got := readValue(t, te, tgt, "r"); got != s.want {
			t.Fatalf("after %s: read %q, want %q", s.name, got, s.want)
		}
	}
}

// TestCachedIteratorsRetiredByFlush: an iterator opened before a flush is
// not reused after it, so that it stops pinning the memtable.
func TestCachedIteratorsRetiredByFlush(t *testing.T) {
	te := openTestEngine(t)
	ctx := context.Background()
	tgt := Target{Instance: "i", Table: "t"}
	te.createTable("t", "f")
	if err := te.MutateRow(ctx, tgt, []byte("r"), []Mutation{{Kind: SetCell, Family: "f", Qualifier: []byte("q"), Value: []byte("v")}}); err != nil {
		t.Fatal(err)
	}
	readValue(t, te, tgt, "r")
	gen := te.iters.gen.Load()
	te.iters.dropStale() // the sweep's: a current iterator stays
	if n := te.iters.cached.Load(); n != 1 {
		t.Fatalf("%d cached iterators after dropStale with none stale, want 1", n)
	}
	if err := te.Flush(); err != nil {
		t.Fatal(err)
	}
	if te.iters.gen.Load() == gen {
		t.Fatal("a flush did not retire the cached iterators")
	}
	te.iters.dropStale()
	if n := te.iters.cached.Load(); n != 0 {
		t.Fatalf("%d cached iterators after a flush and dropStale, want 0", n)
	}
	if got := readValue(t, te, tgt, "r"); got != "v" {
		t.Fatalf("read %q after the flush", got)
	}
}

// TestCachedIteratorsRealTimeOrder: writers publish each value they wrote
// once the write returned; a reader that starts after seeing a published
// value must read it or a later one, even while other readers keep the
// iterator cache warm.
func TestCachedIteratorsRealTimeOrder(t *testing.T) {
	te := openTestEngine(t, func(o *Options) { o.NoSync = true })
	ctx := context.Background()
	tgt := Target{Instance: "i", Table: "t"}
	te.createTable("t", "f")
	var published atomic.Uint64
	write := func(n uint64) {
		v := binary.BigEndian.AppendUint64(nil, n)
		if err := te.MutateRow(ctx, tgt, []byte("r"), []Mutation{{Kind: SetCell, Family: "f", Qualifier: []byte("q"), Timestamp: 1000, Value: v}}); err != nil {
			t.Error(err)
		}
		published.Store(n)
	}
	read := func() uint64 {
		row, err := te.ReadRow(ctx, tgt, []byte("r"), nil)
		if err != nil || row == nil || len(row.Cells) == 0 {
			t.Errorf("read: %v %v", row, err)
			return 0
		}
		return binary.BigEndian.Uint64(row.Cells[0].Value)
	}
	write(1)
	const writes = 2000
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for n := uint64(2); n <= writes; n++ {
			write(n)
		}
	}()
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for published.Load() < writes {
				seen := published.Load()
				if got := read(); got < seen {
					t.Errorf("read %d after %d was published", got, seen)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestEveryWriteInvalidatesCachedIterators: no code of the package writes to
// Pebble except through Engine.commit or inside a function passed to
// Engine.write, which bracket the write for the iterator cache.
func TestEveryWriteInvalidatesCachedIterators(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	writes := map[string]bool{"Commit": true, "Set": true, "Delete": true, "DeleteRange": true,
		"SingleDelete": true, "Merge": true, "Apply": true, "Ingest": true, "Excise": true, "RangeKeySet": true}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Body == nil || (fd.Name.Name == "commit" && fd.Recv != nil) {
				continue
			}
			var inWrite []ast.Node // function literals passed to e.write
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				if sel.Sel.Name == "write" && len(call.Args) == 1 {
					if lit, ok := call.Args[0].(*ast.FuncLit); ok {
						inWrite = append(inWrite, lit)
					}
					return true
				}
				if !writes[sel.Sel.Name] {
					return true
				}
				// Writes into a batch are not writes to the database; only
				// the database's own methods and Batch.Commit are.
				recv := exprString(sel.X)
				if sel.Sel.Name != "Commit" && recv != "e.db" {
					return true
				}
				for _, lit := range inWrite {
					if lit.Pos() <= call.Pos() && call.End() <= lit.End() {
						return true
					}
				}
				t.Errorf("%s: %s.%s writes to Pebble outside Engine.commit and Engine.write",
					fset.Position(call.Pos()), recv, sel.Sel.Name)
				return true
			})
		}
	}
}

// exprString renders a receiver expression such as e.db.
func exprString(x ast.Expr) string {
	switch x := x.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.SelectorExpr:
		return exprString(x.X) + "." + x.Sel.Name
	}
	return "?"
}

// TestClosedIterCacheCachesNothing: once the engine closes its cache, an
// iterator handed back is closed rather than kept past the database.
func TestClosedIterCacheCachesNothing(t *testing.T) {
	db, err := pebble.Open("", &pebble.Options{FS: vfs.NewMem()})
	if err != nil {
		t.Fatal(err)
	}
	c := new(iterCache)
	ri, err := c.get(db)
	if err != nil {
		t.Fatal(err)
	}
	if !ri.cacheable {
		t.Fatal("a quiet database's iterator is not cacheable")
	}
	c.close()
	if err := c.done(ri); err != nil {
		t.Fatal(err)
	}
	if n := c.cached.Load(); n != 0 || len(c.free) != 0 {
		t.Fatalf("%d iterators cached after close", n)
	}
	if err := db.Close(); err != nil { // fails on a leaked iterator
		t.Fatal(err)
	}
}
