package storage

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestColumnSkipMatchesFullRead: a read that restricts families, qualifiers
// or versions seeks over the cells it does not want once a row is wide
// (columnSkipNexts); it must return exactly what a full read, restricted
// afterwards, returns, forward and reversed, with and without empty rows.
func TestColumnSkipMatchesFullRead(t *testing.T) {
	w := newWideFixture(t)
	tgt, viewTgt, fams, qualName, rng, read := w.tgt, w.view, w.fams, w.qualName, w.rng, w.read
	fullTable, tableStats := read(tgt, ReadOptions{})
	fullView, viewStats := read(viewTgt, ReadOptions{})
	var full []Row // the full read restrict starts from

	// restrict applies opts' Families, Qualifiers and LatestOnly to a full
	// read's rows, as the read itself should.
	restrict := func(opts ReadOptions) []Row {
		var out []Row
		for _, r := range full {
			var cells []Cell
			for _, c := range r.Cells {
				if opts.Families != nil && !slices.Contains(opts.Families, c.Family) {
					continue
				}
				if qs, ok := opts.Qualifiers[c.Family]; ok && !containsQualifier(qs, c.Qualifier) {
					continue
				}
				if opts.LatestOnly && len(cells) > 0 {
					last := cells[len(cells)-1]
					if last.Family == c.Family && string(last.Qualifier) == string(c.Qualifier) {
						continue
					}
				}
				cells = append(cells, c)
			}
			if len(cells) > 0 || opts.KeepEmptyRows {
				out = append(out, Row{Key: r.Key, Cells: cells})
			}
		}
		if opts.Reversed {
			slices.Reverse(out)
		}
		return out
	}

	skipped := map[string]bool{} // by target kind and opts.Reversed
	for i := range 400 {
		var opts ReadOptions
		if rng.IntN(2) == 0 {
			for _, f := range fams {
				if rng.IntN(2) == 0 {
					opts.Families = append(opts.Families, f)
				}
			}
			if opts.Families == nil {
				opts.Families = []string{}
			}
		}
		if rng.IntN(2) == 0 {
			opts.Qualifiers = map[string][][]byte{}
			for _, f := range fams {
				if rng.IntN(2) == 0 {
					continue
				}
				var qs [][]byte
				for q := range 40 {
					if rng.IntN(6) == 0 {
						qs = append(qs, qualName(q))
					}
				}
				opts.Qualifiers[f] = qs
			}
		}
		opts.LatestOnly = rng.IntN(2) == 0
		opts.Reversed = rng.IntN(3) == 0
		opts.KeepEmptyRows = rng.IntN(3) == 0
		target, fullStats, kind := tgt, tableStats, "table"
		full = fullTable
		if rng.IntN(3) == 0 {
			target, fullStats, kind = viewTgt, viewStats, "view"
			full = fullView
		}
		got, stats := read(target, opts)
		want := restrict(opts)
		if !rowsEqual(got, want) {
			t.Fatalf("read %d of the %s %+v: got %d rows, want %d\ngot  %v\nwant %v", i, kind, opts, len(got), len(want), got, want)
		}
		if stats.CellsScanned < fullStats.CellsScanned {
			skipped[kind+fmt.Sprint(opts.Reversed)] = true
		}
	}
	for _, k := range []string{"tablefalse", "tabletrue", "viewfalse", "viewtrue"} {
		if !skipped[k] {
			t.Errorf("no read (%s) sought past a cell: the test does not exercise that seek", k)
		}
	}
}

// wideFixture is a table of 12 rows of up to 4 families of up to 40
// columns of up to 12 versions, random but the same on every run, with a
// view "v" of some of its rows and columns.
type wideFixture struct {
	te        *testEngine
	tgt, view Target
	fams      []string
	rng       *rand.Rand
}

func (w *wideFixture) qualName(i int) []byte { return fmt.Appendf(nil, "q%03d", i) }

func newWideFixture(t *testing.T) *wideFixture {
	te := openTestEngine(t)
	ctx := context.Background()
	fams := []string{"a", "b", "bb", "c"}
	w := &wideFixture{te: te, tgt: te.createTable("wide", fams...), fams: fams, rng: rand.New(rand.NewPCG(1, 2))}
	rng, qualName := w.rng, w.qualName
	var rows []RowMutations
	for r := range 12 {
		var muts []Mutation
		for _, f := range fams {
			if rng.IntN(4) == 0 {
				continue // some rows lack some families
			}
			for q := range rng.IntN(40) {
				if rng.IntN(3) == 0 {
					continue
				}
				for v := range 1 + rng.IntN(12) {
					muts = append(muts, Mutation{Kind: SetCell, Family: f, Qualifier: qualName(q),
						Timestamp: int64(1000 * (v + 1)), Value: fmt.Appendf(nil, "%d/%s/%d/%d", r, f, q, v)})
				}
			}
		}
		if len(muts) == 0 {
			muts = append(muts, Mutation{Kind: SetCell, Family: "a", Qualifier: []byte("x"), Timestamp: 1000, Value: []byte("v")})
		}
		rows = append(rows, RowMutations{Key: fmt.Appendf(nil, "row%02d", r), Mutations: muts})
	}
	errs, err := te.MutateRows(ctx, w.tgt, rows)
	if err != nil {
		t.Fatal(err)
	}
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}

	// A view of some rows and columns: reads through it seek too, over the
	// cells the read does not want, whatever the view shows.
	if _, err := te.AlterTable(ctx, "i", "wide", func(tbl *Table) error {
		tbl.Views = append(tbl.Views, AuthorizedView{Name: "v", RowPrefixes: [][]byte{[]byte("row0"), []byte("row10")},
			FamilySubsets: map[string]FamilySubset{
				"a":  {QualifierPrefixes: [][]byte{{}}},
				"bb": {QualifierPrefixes: [][]byte{[]byte("q00"), []byte("q01")}},
				"c":  {Qualifiers: [][]byte{qualName(16), qualName(28), qualName(33)}},
			}})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	w.view = w.tgt
	w.view.View = "v"
	return w
}

// read returns the rows and stats of a read.
func (w *wideFixture) read(tgt Target, opts ReadOptions) ([]Row, ReadStats) {
	t := w.te.t
	t.Helper()
	it, err := w.te.ReadRows(context.Background(), tgt, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var out []Row
	for r := it.Next(); r != nil; r = it.Next() {
		out = append(out, *r.Clone())
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return out, it.Stats()
}

func rowsEqual(a, b []Row) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if string(a[i].Key) != string(b[i].Key) || len(a[i].Cells) != len(b[i].Cells) {
			return false
		}
		for j, c := range a[i].Cells {
			d := b[i].Cells[j]
			if c.Family != d.Family || string(c.Qualifier) != string(d.Qualifier) || c.Timestamp != d.Timestamp ||
				string(c.Value) != string(d.Value) {
				return false
			}
		}
	}
	return true
}

// BenchmarkWideRowColumn: one column of a 5,000-column row, and the newest
// version of a column with 1,000 versions, read forward and reversed, and
// the column through an authorized view.
func BenchmarkWideRowColumn(b *testing.B) {
	te := openTestEngine(b)
	ctx := context.Background()
	tgt := te.createTable("wide", "cf")
	var muts []Mutation
	for q := range 5000 {
		muts = append(muts, Mutation{Kind: SetCell, Family: "cf", Qualifier: fmt.Appendf(nil, "q%05d", q), Timestamp: 1000, Value: []byte("v")})
	}
	for v := range 1000 {
		muts = append(muts, Mutation{Kind: SetCell, Family: "cf", Qualifier: []byte("versions"), Timestamp: int64(v+1) * 1000, Value: []byte("v")})
	}
	if errs, err := te.MutateRows(ctx, tgt, []RowMutations{{Key: []byte("wide"), Mutations: muts}}); err != nil || errs[0] != nil {
		b.Fatal(err, errs)
	}
	if _, err := te.AlterTable(ctx, "i", "wide", func(tbl *Table) error {
		tbl.Views = append(tbl.Views, AuthorizedView{Name: "v", RowPrefixes: [][]byte{{}},
			FamilySubsets: map[string]FamilySubset{"cf": {QualifierPrefixes: [][]byte{{}}}}})
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	view := tgt
	view.View = "v"
	oneColumn := map[string][][]byte{"cf": {[]byte("q02500")}}
	for _, bc := range []struct {
		name string
		tgt  Target
		opts ReadOptions
	}{
		{"one-of-5000-columns", tgt, ReadOptions{Qualifiers: oneColumn}},
		{"newest-of-1000-versions", tgt, ReadOptions{Qualifiers: map[string][][]byte{"cf": {[]byte("versions")}}, LatestOnly: true}},
		{"reversed/one-of-5000-columns", tgt, ReadOptions{Reversed: true, Qualifiers: oneColumn}},
		{"reversed/newest-of-1000-versions", tgt, ReadOptions{Reversed: true, Qualifiers: map[string][][]byte{"cf": {[]byte("versions")}}, LatestOnly: true}},
		{"view/one-of-5000-columns", view, ReadOptions{Qualifiers: oneColumn}},
		// The filters of a Data API read of one column, and of its newest
		// version (cbt read columns=cf:q02500, cells-per-column=1).
		{"filter/one-of-5000-columns", tgt, ReadOptions{Filter: &Chain{Filters: []Filter{
			&FamilyRegex{Pattern: "cf"}, &QualifierRegex{Pattern: []byte("q02500")}}}}},
		{"filter/newest-of-1000-versions", tgt, ReadOptions{Filter: &Chain{Filters: []Filter{
			&QualifierRegex{Pattern: []byte("^versions$")}, &CellsPerColumnLimit{N: 1}}}}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			bc.opts.Rows = RowSet{Keys: [][]byte{[]byte("wide")}}
			for b.Loop() {
				it, err := te.ReadRows(ctx, bc.tgt, bc.opts)
				if err != nil {
					b.Fatal(err)
				}
				r := it.Next()
				n := 0
				if r != nil {
					n = len(r.Cells)
				}
				it.Close()
				if n != 1 {
					b.Fatalf("read %d cells, %v", n, it.Err())
				}
			}
		})
	}
}
