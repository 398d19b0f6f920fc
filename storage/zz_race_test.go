package storage

import (
	"context"
	"fmt"
	"sync"
	"testing"
)

func TestEngineDeleteTableRacesWrites(t *testing.T) {
	te := openTestEngine(t, func(o *Options) { o.NoSync = true })
	ctx := context.Background()
	for round := 0; round < 200; round++ {
		if _, err := te.CreateTable(ctx, "i", "t", TableSpec{Families: []Family{{Name: "f"}}}); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for w := 0; w < 4; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 50; i++ {
					_ = te.MutateRow(ctx, Target{Instance: "i", Table: "t"}, []byte(fmt.Sprintf("r%d-%d", w, i)),
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
