package storage

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
)

// Engine tests that the datadriven files cannot express: counts too large
// to spell out, concurrency and a closed engine.

// TestEngineDeleteTableRacesWrites deletes a table while writers are in
// flight: no cell of the deleted table may survive (Check reports cells of
// unknown tables).
func TestEngineDeleteTableRacesWrites(t *testing.T) {
	te := openTestEngine(t, func(o *Options) { o.NoSync = true })
	ctx := context.Background()
	tgt := Target{Instance: "i", Table: "t"}
	for round := 0; round < 100; round++ {
		if _, err := te.CreateTable(ctx, "i", "t", TableSpec{Families: []Family{{Name: "f"}}}); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for w := 0; w < 4; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 50; i++ {
					// Writes fail once the table is gone; that is fine.
					_ = te.MutateRow(ctx, tgt, fmt.Appendf(nil, "r%d-%d", w, i),
						[]Mutation{{Kind: SetCell, Family: "f", Qualifier: []byte("q"), Value: []byte("v")}})
				}
			}()
		}
		if err := te.DeleteTable(ctx, "i", "t"); err != nil {
			t.Fatal(err)
		}
		wg.Wait()
		if err := te.Check(ctx); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
	}
}

// TestEngineLimits checks the count limits of spec §8.
func TestEngineLimits(t *testing.T) {
	te := openTestEngine(t)
	ctx := context.Background()
	fams := make([]Family, MaxFamilies+1)
	for i := range fams {
		fams[i].Name = fmt.Sprintf("f%03d", i)
	}
	_, err := te.CreateTable(ctx, "i", "t", TableSpec{Families: fams})
	if !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("%d families: got %v, want invalid argument", len(fams), err)
	}
	if _, err := te.CreateTable(ctx, "i", "t", TableSpec{Families: fams[:MaxFamilies]}); err != nil {
		t.Fatal(err)
	}
	_, err = te.ModifyFamilies(ctx, "i", "t", []FamilyModification{{Op: CreateFamily, Family: fams[MaxFamilies]}})
	if !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("family %d: got %v, want invalid argument", MaxFamilies+1, err)
	}

	tgt := Target{Instance: "i", Table: "t"}
	set := Mutation{Kind: SetCell, Family: "f000", Qualifier: []byte("q"), Value: []byte("v")}
	muts := make([]Mutation, MaxMutations+1)
	for i := range muts {
		muts[i] = set
	}
	if err := te.MutateRow(ctx, tgt, []byte("r"), muts); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("MutateRow with %d mutations: got %v", len(muts), err)
	}
	half := muts[:MaxMutations/2+1]
	if _, err := te.MutateRows(ctx, tgt, []RowMutations{{Key: []byte("a"), Mutations: half}, {Key: []byte("b"), Mutations: half}}); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("MutateRows with %d mutations: got %v", 2*len(half), err)
	}
	if _, err := te.CheckAndMutateRow(ctx, tgt, []byte("r"), nil, muts, nil); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("CheckAndMutateRow with %d mutations: got %v", len(muts), err)
	}
	if err := te.MutateRow(ctx, tgt, []byte("r"), muts[:MaxMutations]); err != nil {
		t.Fatalf("MutateRow with %d mutations: %v", MaxMutations, err)
	}

	big := Mutation{Kind: SetCell, Family: "f000", Value: make([]byte, MaxValueSize+1)}
	if err := te.MutateRow(ctx, tgt, []byte("r"), []Mutation{big}); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("value of %d bytes: got %v", len(big.Value), err)
	}
}

// TestEngineClosed checks that every call on a closed engine fails with
// ErrClosed instead of reaching (and panicking in) the closed database.
func TestEngineClosed(t *testing.T) {
	te := openTestEngine(t)
	ctx := context.Background()
	te.createTable("t", "f")
	e := te.Engine
	if err := te.shutdown(); err != nil {
		t.Fatal(err)
	}
	tgt := Target{Instance: "i", Table: "t"}
	calls := []struct {
		name string
		fn   func() error
	}{
		{"MutateRow", func() error { return e.MutateRow(ctx, tgt, []byte("r"), []Mutation{{Kind: DeleteFromRow}}) }},
		{"ReadRows", func() error { _, err := e.ReadRows(ctx, tgt, ReadOptions{}); return err }},
		{"CheckAndMutateRow", func() error {
			_, err := e.CheckAndMutateRow(ctx, tgt, []byte("r"), nil, []Mutation{{Kind: DeleteFromRow}}, nil)
			return err
		}},
		{"ReadModifyWriteRow", func() error {
			_, err := e.ReadModifyWriteRow(ctx, tgt, []byte("r"), []ReadModifyWriteRule{{Family: "f", Append: []byte("x")}})
			return err
		}},
		{"SampleRowKeys", func() error { _, err := e.SampleRowKeys(ctx, tgt); return err }},
		{"CreateTable", func() error { _, err := e.CreateTable(ctx, "i", "u", TableSpec{}); return err }},
		{"GetTable", func() error { _, err := e.GetTable("i", "t"); return err }},
		{"DeleteTable", func() error { return e.DeleteTable(ctx, "i", "t") }},
		{"DeleteInstance", func() error { return e.DeleteInstance(ctx, "i") }},
		{"ModifyFamilies", func() error {
			_, err := e.ModifyFamilies(ctx, "i", "t", []FamilyModification{{Op: CreateFamily, Family: Family{Name: "g"}}})
			return err
		}},
		{"AlterTable", func() error {
			_, err := e.AlterTable(ctx, "i", "t", func(*Table) error { return nil })
			return err
		}},
		{"DropRowRange", func() error { return e.DropRowRange(ctx, "i", "t", nil, true) }},
		{"Sweep", func() error { _, err := e.Sweep(ctx); return err }},
		{"Check", func() error { return e.Check(ctx) }},
		{"Flush", e.Flush},
		{"Close", e.Close},
	}
	for _, c := range calls {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s panicked: %v", c.name, r)
				}
			}()
			if err := c.fn(); !errors.Is(err, ErrClosed) {
				t.Errorf("%s: got %v, want ErrClosed", c.name, err)
			}
		}()
	}
}

// TestApproximateSize: a table's flushed data counts toward its size, and
// only its own (an empty table beside it stays near zero: Pebble's
// estimate charges a range a share of any block that straddles it).
func TestApproximateSize(t *testing.T) {
	te := openTestEngine(t)
	ctx := context.Background()
	big, empty := te.createTable("big", "f"), te.createTable("empty", "f")
	value := bytes.Repeat([]byte("v"), 1000)
	for i := range 1000 {
		if err := te.MutateRow(ctx, big, fmt.Appendf(nil, "row%04d", i), []Mutation{{
			Kind: SetCell, Family: "f", Qualifier: []byte("q"), Timestamp: 1000, Value: value,
		}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := te.Flush(); err != nil {
		t.Fatal(err)
	}
	// 1,000 cells of 1,000 bytes: about 1 MB, less what compression saves.
	if n, err := te.ApproximateSize(big); err != nil || n < 10_000 || n > 2_000_000 {
		t.Errorf("ApproximateSize(big) = %d, %v; want a size near the data's", n, err)
	}
	if n, err := te.ApproximateSize(empty); err != nil || n > 4096 {
		t.Errorf("ApproximateSize(empty) = %d, %v; want about 0", n, err)
	}
	if _, err := te.ApproximateSize(Target{Instance: "i", Table: "nosuch"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("ApproximateSize(nosuch): %v, want ErrNotFound", err)
	}
}
