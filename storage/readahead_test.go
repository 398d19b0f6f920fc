package storage

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
)

// readaheadRowsInTest rows of 3 cells, enough for several batches.
const readaheadRowsInTest = 5000

func readaheadEngine(t *testing.T) *Engine {
	t.Helper()
	e, err := Open(t.TempDir(), Options{SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	if _, err := e.CreateTable(context.Background(), benchTarget.Instance, benchTarget.Table,
		TableSpec{Families: []Family{{Name: "cf"}}}); err != nil {
		t.Fatal(err)
	}
	for start := 0; start < readaheadRowsInTest; start += 1000 {
		loadBatch(t, e, start, 1000)
	}
	return e
}

// withReadaheadAfter runs f with every read reading ahead from its n'th
// row, whether it asks to or not.
func withReadaheadAfter(n int64, f func()) {
	old := readaheadAfter
	readaheadAfter, readaheadAlways = n, true
	defer func() { readaheadAfter, readaheadAlways = old, false }()
	f()
}

// readAll returns every row of a read, rendered, with its final stats.
func readAll(t *testing.T, e *Engine, opts ReadOptions) ([]string, ReadStats, bool) {
	t.Helper()
	it, err := e.ReadRows(context.Background(), benchTarget, opts)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for r := it.Next(); r != nil; r = it.Next() {
		out = append(out, fmt.Sprintf("%q %v", r.Key, r.Cells))
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	st, ahead := it.Stats(), it.ra != nil
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	return out, st, ahead
}

// TestReadaheadSameRows: reading ahead changes which goroutine iterates,
// never the rows, their cells or the stats, whatever the read's options.
func TestReadaheadSameRows(t *testing.T) {
	e := readaheadEngine(t)
	for name, opts := range map[string]ReadOptions{
		"all":        {},
		"reversed":   {Reversed: true},
		"limit":      {Limit: 4000},
		"near limit": {Limit: 1100}, // too close to its limit to read ahead
		"range":      {Rows: RowSet{Ranges: []RowRange{PrefixRange([]byte("phone#0"))}}},
		"keys":       {Rows: RowSet{Keys: [][]byte{benchRowKey(3), benchRowKey(4000)}, Ranges: []RowRange{{Start: benchRowKey(10), End: benchRowKey(2500), EndClosed: true}}}},
		"keys only":  {KeysOnly: true},
		"label":      {Filter: &Chain{Filters: []Filter{&QualifierRegex{Pattern: []byte("[ab]")}, &ApplyLabel{Label: "x"}}}},
		"strip":      {Filter: &StripValue{}, Reversed: true},
		"qualifier":  {Families: []string{"cf"}, Qualifiers: map[string][][]byte{"cf": {[]byte("b")}}},
	} {
		t.Run(name, func(t *testing.T) {
			var want, got []string
			var wantSt, gotSt ReadStats
			var ahead bool
			withReadaheadAfter(1<<62, func() { want, wantSt, _ = readAll(t, e, opts) })
			withReadaheadAfter(1000, func() { got, gotSt, ahead = readAll(t, e, opts) })
			if wantAhead := len(want) > 1000 && (opts.Limit == 0 || opts.Limit-1000 > readaheadRows); ahead != wantAhead {
				t.Errorf("read ahead: %v, want %v", ahead, wantAhead)
			}
			if !slices.Equal(got, want) {
				t.Errorf("got %d rows, want %d; first difference at %d", len(got), len(want), firstDiff(got, want))
			}
			if gotSt != wantSt {
				t.Errorf("stats %+v, want %+v", gotSt, wantSt)
			}
		})
	}
}

// TestReadaheadAsked: only a read that asks reads ahead.
func TestReadaheadAsked(t *testing.T) {
	e := readaheadEngine(t)
	for _, ask := range []bool{false, true} {
		if _, _, ahead := readAll(t, e, ReadOptions{ReadAhead: ask}); ahead != ask {
			t.Errorf("ReadAhead %v: read ahead %v", ask, ahead)
		}
	}
}

func firstDiff(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestReadaheadStopsEarly: a caller that closes a read in the middle stops
// the goroutine (Close waits for it), and the stats count what it returned.
func TestReadaheadStopsEarly(t *testing.T) {
	e := readaheadEngine(t)
	withReadaheadAfter(10, func() {
		it, err := e.ReadRows(context.Background(), benchTarget, ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for range 700 {
			if it.Next() == nil {
				t.Fatal(it.Err())
			}
		}
		if it.ra == nil {
			t.Fatal("the read did not read ahead")
		}
		if st := it.Stats(); st.RowsReturned != 700 || st.CellsReturned != 2100 {
			t.Errorf("stats %+v, want 700 rows and 2100 cells returned", st)
		}
		if err := it.Close(); err != nil {
			t.Fatal(err)
		}
		select {
		case <-it.ra.done:
		default:
			t.Fatal("Close returned before the goroutine")
		}
		if it.Next() != nil {
			t.Error("Next after Close returned a row")
		}
	})
}

// TestReadaheadCanceled: a read canceled while its goroutine reads ahead
// ends with the context's error after the rows read before.
func TestReadaheadCanceled(t *testing.T) {
	e := readaheadEngine(t)
	withReadaheadAfter(10, func() {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		it, err := e.ReadRows(ctx, benchTarget, ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer it.Close()
		n := 0
		for r := it.Next(); r != nil; r = it.Next() {
			if n++; n == 100 {
				cancel()
			}
		}
		if !errors.Is(it.Err(), context.Canceled) {
			t.Fatalf("err %v after %d rows, want context.Canceled", it.Err(), n)
		}
		if n >= readaheadRowsInTest {
			t.Errorf("read all %d rows after the cancel", n)
		}
	})
}
