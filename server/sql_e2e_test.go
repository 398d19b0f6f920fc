package server_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"cloud.google.com/go/bigtable"
	"google.golang.org/grpc/codes"
)

// TestServeSQL runs GoogleSQL through `shale serve` with the official Go
// client's PrepareStatement / Bind / Execute.
func TestServeSQL(t *testing.T) {
	ctx := context.Background()
	p := startShale(t, t.TempDir())
	c, ac := p.clients(t)
	if err := ac.CreateTable(ctx, "t"); err != nil {
		t.Fatal(err)
	}
	if err := ac.CreateColumnFamily(ctx, "t", "cf"); err != nil {
		t.Fatal(err)
	}
	tbl := c.Open("t")
	for _, m := range []struct {
		row, col, val string
		ts            bigtable.Timestamp
	}{{"r1", "q", "b", 3000}, {"r1", "q", "a", 5000}, {"r2", "z", "c", 1000}} {
		mut := bigtable.NewMutation()
		mut.Set("cf", m.col, m.ts, []byte(m.val))
		if err := tbl.Apply(ctx, m.row, mut); err != nil {
			t.Fatal(err)
		}
	}

	// Parameters and literals of several types, without a table.
	rows := execute(t, c, "SELECT @k AS k, @n AS n, 'x' AS s, [1, 2] AS a, STRUCT(1 AS a, 'b' AS b) AS st, "+
		"CAST(1.5 AS FLOAT32) AS f, TIMESTAMP_FROM_UNIX_MILLIS(1000) AS ts, @none AS none",
		map[string]bigtable.SQLType{"k": bigtable.BytesSQLType{}, "n": bigtable.Int64SQLType{}, "none": bigtable.StringSQLType{}},
		map[string]any{"k": []byte("key"), "n": int64(42), "none": nil})
	if len(rows) != 1 {
		t.Fatalf("got %d rows, want 1", len(rows))
	}
	r := rows[0]
	var k []byte
	var n int64
	var s string
	var a []int64
	var st bigtable.Struct
	var f float32
	var ts time.Time
	var none *string
	for name, dest := range map[string]any{"k": &k, "n": &n, "s": &s, "a": &a, "st": &st, "f": &f, "ts": &ts, "none": &none} {
		if err := r.GetByName(name, dest); err != nil {
			t.Errorf("GetByName(%s): %v", name, err)
		}
	}
	var sb string
	if string(k) != "key" || n != 42 || s != "x" || len(a) != 2 || a[1] != 2 || st.GetByName("b", &sb) != nil || sb != "b" ||
		f != 1.5 || !ts.Equal(time.UnixMilli(1000)) || none != nil {
		t.Errorf("got k=%q n=%d s=%q a=%v st.b=%q f=%v ts=%v none=%v", k, n, s, a, sb, f, ts, none)
	}

	// A table scan with a key range from a parameter, and an aggregate.
	var keys []string
	for _, r := range execute(t, c, "SELECT _key FROM t WHERE _key >= @from",
		map[string]bigtable.SQLType{"from": bigtable.BytesSQLType{}}, map[string]any{"from": []byte("r")}) {
		var key []byte
		if err := r.GetByName("_key", &key); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, string(key))
	}
	mustEqual(t, "keys", keys, []string{"r1", "r2"})
	rows = execute(t, c, "SELECT COUNT(*) AS n FROM t", nil, nil)
	if len(rows) != 1 || rows[0].GetByName("n", &n) != nil || n != 2 {
		t.Errorf("COUNT(*): %d rows, n=%d", len(rows), n)
	}

	// Spec §4.8's worked example: the latest cell per qualifier, NULL for a
	// missing one; and a family as a map.
	var got []string
	for _, r := range execute(t, c, "SELECT _key, cf['q'] AS v, cf FROM t", nil, nil) {
		var key, v []byte
		var fam map[string][]byte
		if err := r.GetByName("_key", &key); err != nil {
			t.Fatal(err)
		}
		if err := r.GetByName("v", &v); err != nil {
			t.Fatal(err)
		}
		if err := r.GetByName("cf", &fam); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%s v=%q cf=%q", key, v, fam))
	}
	// (The Go client hands BYTES map keys over base64-encoded, as its own
	// integration test expects: "cQ==" is q, "eg==" is z.)
	mustEqual(t, "worked example", got, []string{`r1 v="a" cf=map["cQ==":"a"]`, `r2 v="" cf=map["eg==":"c"]`})
	// With history, newest first.
	rows = execute(t, c, "SELECT cf['q'][0].value AS latest, cf['q'][1].value AS older FROM t(with_history => TRUE) WHERE _key = 'r1'", nil, nil)
	var latest, older []byte
	if len(rows) != 1 || rows[0].GetByName("latest", &latest) != nil || rows[0].GetByName("older", &older) != nil ||
		string(latest) != "a" || string(older) != "b" {
		t.Errorf("with_history: %d rows, latest=%q older=%q", len(rows), latest, older)
	}

	_, err := c.PrepareStatement(ctx, "SELECT _key FROM no_such_table", nil)
	wantCode(t, "unknown table", err, codes.NotFound)
	_, err = c.PrepareStatement(ctx, "SELEC 1", nil)
	wantCode(t, "syntax error", err, codes.InvalidArgument)
	// memefish builds this braced constructor without its field's value;
	// printing it for the error once panicked and stopped the server.
	_, err = c.PrepareStatement(ctx, "SELECT {A}", nil)
	wantCode(t, "unsupported braced constructor", err, codes.InvalidArgument)
	if _, err := c.PrepareStatement(ctx, "SELECT 1", nil); err != nil {
		t.Errorf("after the unsupported query: %v", err)
	}
	_, err = c.PrepareStatement(ctx, "SELECT TRUE"+strings.Repeat(" OR TRUE", 1000), nil)
	wantCode(t, "expressions nested too deep", err, codes.InvalidArgument)
}

// execute prepares, binds and runs a query and returns its rows.
func execute(t *testing.T, c *bigtable.Client, query string, ptypes map[string]bigtable.SQLType, params map[string]any) []bigtable.ResultRow {
	t.Helper()
	ctx := context.Background()
	ps, err := c.PrepareStatement(ctx, query, ptypes)
	if err != nil {
		t.Fatalf("PrepareStatement(%s): %v", query, err)
	}
	bs, err := ps.Bind(params)
	if err != nil {
		t.Fatalf("Bind: %v", err)
	}
	var rows []bigtable.ResultRow
	if err := bs.Execute(ctx, func(r bigtable.ResultRow) bool { rows = append(rows, r); return true }); err != nil {
		t.Fatalf("Execute(%s): %v", query, err)
	}
	return rows
}
