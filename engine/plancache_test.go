package engine_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/shale-db/shale/engine"
	"github.com/shale-db/shale/sql"
	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
	"github.com/shale-db/shale/storage"
)

// TestPlanCache checks the literalized plan cache against what preparing
// each text would give: results per literal, error positions mapped back
// to the client's text, and plans invalidated by a catalog change.
func TestPlanCache(t *testing.T) {
	ctx := context.Background()
	st := openTable(t)
	tgt := storage.Target{Instance: testInstance, Table: "t"}
	var muts []storage.RowMutations
	for i := range 20 {
		muts = append(muts, storage.RowMutations{Key: []byte(fmt.Sprintf("k%d", i)), Mutations: []storage.Mutation{{
			Kind: storage.SetCell, Family: "cf", Qualifier: []byte("a"), Timestamp: 1000, Value: []byte(fmt.Sprintf("v%d", i))}}})
	}
	if _, err := st.MutateRows(ctx, tgt, muts); err != nil {
		t.Fatal(err)
	}
	eng := engine.New(st, engine.Options{})
	one := func(q string) ([]types.Value, error) {
		s, err := eng.Prepare(ctx, testInstance, q, nil)
		if err != nil {
			return nil, err
		}
		rows, err := s.Run(ctx, nil)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		var out []types.Value
		for rows.Next() {
			for _, v := range rows.Row() {
				out = append(out, sql.CopyValue(v)) // rows reuse their memory
			}
		}
		return out, rows.Err()
	}
	// The same shape with other literals (and literal lengths) answers for
	// its own literals.
	for i := range 20 {
		got, err := one(fmt.Sprintf("SELECT cf['a'] FROM t WHERE _key = 'k%d'", i))
		if err != nil || len(got) != 1 || string(got[0].Bytes()) != fmt.Sprintf("v%d", i) {
			t.Fatalf("k%d: %v %v", i, got, err)
		}
	}
	got, err := one("SELECT COUNT(*) FROM t WHERE _key >= 'k1' AND _key < 'k2'")
	if err != nil || got[0].Int64() != 11 {
		t.Fatalf("range: %v %v", got, err)
	}
	// A run-time error after a replaced literal points into the client's
	// text, whatever the literal's length.
	for _, q := range []string{
		"SELECT _key FROM t WHERE _key = 'k1' AND DIV(1, 0) = 1",
		"SELECT _key FROM t WHERE _key = 'k10' AND DIV(1, 0) = 1",
	} {
		_, err := one(q)
		var se *sqlerr.Error
		if !errors.As(err, &se) || se.Code != sqlerr.DivisionByZero || q[se.Offset:se.Offset+3] != "DIV" {
			t.Fatalf("%s: %v (%+v)", q, err, se)
		}
	}
	// A bind error is the original text's, not the literalized one's.
	if _, err := one("SELECT _key FROM t WHERE _key = 5"); err == nil || strings.Contains(err.Error(), "__lit") ||
		!strings.Contains(err.Error(), "BYTES, INT64") {
		t.Fatalf("bind error: %v", err)
	}
	// A new family shows in SELECT * at once.
	if _, err := st.ModifyFamilies(ctx, testInstance, "t", []storage.FamilyModification{{Op: storage.CreateFamily, Family: storage.Family{Name: "g"}}}); err != nil {
		t.Fatal(err)
	}
	s, err := eng.Prepare(ctx, testInstance, "SELECT * FROM t WHERE _key = 'k3'", nil)
	if err != nil || len(s.Columns()) != 3 {
		t.Fatalf("after a new family: %v %v", s.Columns(), err)
	}
}
