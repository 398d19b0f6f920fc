package engine_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/shale-db/shale/engine"
	"github.com/shale-db/shale/storage"
)

// openTable opens an in-memory store holding an empty table t with one
// family, cf; the store closes when the test ends.
func openTable(t *testing.T) *storage.Engine {
	t.Helper()
	st, err := storage.Open("", storage.Options{InMemory: true, SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.CreateTable(context.Background(), testInstance, "t", storage.TableSpec{Families: []storage.Family{{Name: "cf"}}}); err != nil {
		t.Fatal(err)
	}
	return st
}

// TestRangeProperty checks planner invariant P2 end to end: for random
// predicates over a small key domain, the rows a query returns through row
// ranges plus residual are exactly the rows for which the predicate,
// evaluated by brute force on every row, is TRUE.
func TestRangeProperty(t *testing.T) {
	ctx := context.Background()
	st := openTable(t)
	keys := []string{"a", "a\x00", "ab", "abc", "b", "ba", "b\xff", "c", "c\xff\xff", "d"}
	for i, k := range keys {
		m := storage.Mutation{Kind: storage.SetCell, Family: "cf", Qualifier: []byte("q"), Timestamp: 1000,
			Value: []byte{byte('x' + i%2)}}
		if err := st.MutateRow(ctx, storage.Target{Instance: testInstance, Table: "t"}, []byte(k), []storage.Mutation{m}); err != nil {
			t.Fatal(err)
		}
	}
	eng := engine.New(st, engine.Options{})
	seed := rand.Uint64()
	t.Logf("seed=%d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	consts := append([]string{"", "aa", "bb", "b\xff\xff", "zz"}, keys...)
	for i := 0; i < 500; i++ {
		p := randPred(rng, consts, 3)
		got := queryKeys(t, eng, "SELECT _key FROM t WHERE "+p, false)
		want := queryKeys(t, eng, "SELECT _key, "+p+" FROM t", true)
		if got != want {
			t.Fatalf("predicate %s:\nranges+residual: %s\nbrute force:     %s", p, got, want)
		}
	}
}

func lit(s string) string { return "b" + fmt.Sprintf("%q", s) }

func randPred(rng *rand.Rand, consts []string, depth int) string {
	c := func() string { return lit(consts[rng.IntN(len(consts))]) }
	if depth > 0 && rng.IntN(3) == 0 {
		l, r := randPred(rng, consts, depth-1), randPred(rng, consts, depth-1)
		switch rng.IntN(3) {
		case 0:
			return "(" + l + " AND " + r + ")"
		case 1:
			return "(" + l + " OR " + r + ")"
		default:
			return "NOT (" + l + ")"
		}
	}
	switch rng.IntN(11) {
	case 0:
		return "_key = " + c()
	case 1:
		return "_key " + []string{"<", "<=", ">", ">=", "!="}[rng.IntN(5)] + " " + c()
	case 2:
		return c() + " " + []string{"<", "<=", ">", ">="}[rng.IntN(4)] + " _key"
	case 3:
		return "STARTS_WITH(_key, " + c() + ")"
	case 4:
		p := consts[rng.IntN(len(consts))]
		return "_key LIKE " + lit(strings.ReplaceAll(p, "%", "")+[]string{"%", "", "_%", "%b"}[rng.IntN(4)])
	case 5:
		return "_key IN (" + c() + ", " + c() + ")"
	case 6:
		return "_key IN UNNEST([" + c() + ", " + c() + "])"
	case 7:
		return "_key BETWEEN " + c() + " AND " + c()
	case 8:
		return "cf['q'] = b'x'"
	case 9:
		return "_key = NULL"
	default:
		return "LENGTH(_key) = 2"
	}
}

// queryKeys returns the keys a query returns, in order; with brute set the
// query returns (_key, predicate) and only the TRUE rows count.
func queryKeys(t *testing.T, eng *engine.Engine, q string, brute bool) string {
	ctx := context.Background()
	stmt, err := eng.Prepare(ctx, testInstance, q, nil)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	rows, err := stmt.Run(ctx, nil)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		r := rows.Row()
		if brute && (r[1].IsNull() || !r[1].Bool()) {
			continue
		}
		out = append(out, fmt.Sprintf("%q", r[0].Bytes()))
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return strings.Join(out, " ")
}
