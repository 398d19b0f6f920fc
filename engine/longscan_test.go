package engine_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/shale-db/shale/engine"
	"github.com/shale-db/shale/storage"
)

// TestLongScans runs scans of many batches: complete scans, scans stopped
// early by a LIMIT above a filter, reverse scans, with results checked
// against the data, each three times on one prepared statement.
func TestLongScans(t *testing.T) {
	ctx := context.Background()
	st := openTable(t)
	const n = 5000
	var muts []storage.RowMutations
	for i := range n {
		muts = append(muts, storage.RowMutations{Key: []byte(fmt.Sprintf("k%05d", i)), Mutations: []storage.Mutation{
			{Kind: storage.SetCell, Family: "cf", Qualifier: []byte("a"), Timestamp: 1000, Value: []byte(fmt.Sprint(i))},
			{Kind: storage.SetCell, Family: "cf", Qualifier: []byte("b"), Timestamp: 1000, Value: make([]byte, 300)},
		}})
	}
	if _, err := st.MutateRows(ctx, storage.Target{Instance: testInstance, Table: "t"}, muts); err != nil {
		t.Fatal(err)
	}
	eng := engine.New(st, engine.Options{})
	for _, tc := range []struct {
		q    string
		want string
	}{
		{"SELECT COUNT(*) FROM t", "5000"},
		{"SELECT SUM(CAST(CAST(cf['a'] AS STRING) AS INT64)) FROM t", fmt.Sprint(n * (n - 1) / 2)},
		{"SELECT SUM(LENGTH(cf['b'])) FROM t", fmt.Sprint(300 * n)},
		{"SELECT _key FROM t WHERE ENDS_WITH(_key, b'7') LIMIT 3 OFFSET 200", `b"k02007" b"k02017" b"k02027"`},
		{"SELECT _key FROM t ORDER BY _key DESC LIMIT 2", `b"k04999" b"k04998"`},
		{"SELECT COUNT(*) FROM t WHERE _key >= 'k01000' AND _key < 'k04000'", "3000"},
	} {
		s, err := eng.Prepare(ctx, testInstance, tc.q, nil)
		if err != nil {
			t.Fatal(err)
		}
		for range 3 { // again, to reuse what the first run leaves behind
			rows, err := s.Run(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			for rows.Next() {
				for _, v := range rows.Row() {
					if got != "" {
						got += " "
					}
					got += v.String()
				}
			}
			if err := rows.Err(); err != nil || got != tc.want {
				t.Fatalf("%s: %s, %v; want %s", tc.q, got, err, tc.want)
			}
			rows.Close()
		}
	}
	// A consumer that stops in the middle closes the reader.
	s, _ := eng.Prepare(ctx, testInstance, "SELECT _key, cf FROM t", nil)
	rows, err := s.Run(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 1000 && rows.Next(); i++ {
	}
	rows.Close()
}
