package server_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"cloud.google.com/go/bigtable"
	"github.com/jackc/pgx/v5"
)

// TestFamilyKeysOverPostgres: a PostgreSQL-dialect query that looks a
// family up only at constant keys (cf->'q', cf->>'q', cf ? 'q',
// cf #>> ARRAY['q']) reads just
// those cells, and answers as reading the whole family does. Keys cover a
// plain qualifier, the \x hex text of binary ones, a qualifier that itself
// begins with \x, texts no qualifier renders as (uppercase hex, an empty
// key, a missing one), in a family with versions and an aggregate one, in
// text and binary formats.
func TestFamilyKeysOverPostgres(t *testing.T) {
	p, addr := startShalePG(t, "serve", t.TempDir())
	c, ac := p.clients(t)
	ctx := context.Background()
	err := ac.CreateTableFromConf(ctx, &bigtable.TableConf{
		TableID: "fk",
		ColumnFamilies: map[string]bigtable.Family{
			"f": {GCPolicy: bigtable.MaxVersionsPolicy(2)},
			"n": {ValueType: bigtable.AggregateType{Input: bigtable.Int64Type{}, Aggregator: bigtable.SumAggregator{}}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	tbl := c.Open("fk")
	apply := func(key string, set func(m *bigtable.Mutation)) {
		m := bigtable.NewMutation()
		set(m)
		if err := tbl.Apply(ctx, key, m); err != nil {
			t.Fatal(err)
		}
	}
	apply("r1", func(m *bigtable.Mutation) {
		m.Set("f", "a", 1000, []byte("old"))
		m.Set("f", "a", 2000, []byte("new"))
		m.Set("f", "\x00b", 1000, []byte("binary qualifier"))
		m.Set("f", `\x41`, 1000, []byte("qualifier spelled like hex"))
		m.Set("f", "\xff", 1000, []byte("\x00\x01"))
		m.Set("f", "é", 1000, []byte("ü"))
		m.AddIntToCell("n", "a", 1000, 5)
		m.AddIntToCell("n", "a", 1000, 7)
	})
	apply("r2", func(m *bigtable.Mutation) { m.Set("f", "b", 1000, []byte("only b")) })
	apply("r3", func(m *bigtable.Mutation) { m.AddIntToCell("n", "c", 1000, -1) })
	apply("r4", func(m *bigtable.Mutation) { m.Set("f", `"q"`, 1000, []byte(`a "quoted" one`)) })

	conn, err := pgx.Connect(ctx, "postgres://u@"+addr+"/proj.inst?sslmode=disable")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	keys := []string{"a", "b", "c", `\x0062`, `\x5c783431`, `\xff`, "é", `"q"`, `\x41`, `\xFF`, `\x`, "", "nosuch"}
	for _, fam := range []string{"f", "n"} {
		for _, k := range keys {
			lit := "'" + k + "'"
			q := func(f string) string {
				return fmt.Sprintf("SELECT _key, %[1]s->%[2]s AS j, %[1]s->>%[2]s AS t, %[1]s ? %[2]s AS has, %[1]s #>> ARRAY[%[2]s] AS p FROM public.fk ORDER BY _key", f, lit)
			}
			// The whole family: || makes it a value of its own.
			narrowed, whole := q(fam), q("("+fam+" || '{}'::jsonb)")
			for _, format := range []int16{0, 1} {
				_, got := rawResult(t, conn.PgConn(), narrowed, format)
				_, want := rawResult(t, conn.PgConn(), whole, format)
				if len(got) != 4 || !equalRows(got, want) {
					t.Errorf("%s format %d:\n%q\nwhole family:\n%q", narrowed, format, got, want)
				}
			}
		}
	}

	// The plan shows the narrowed read, down to the engine's.
	text := strings.Join(queryLines(t, conn, `EXPLAIN SELECT f->>'a', f ? '\x00ff' FROM public.fk WHERE f->>'\xff' IS NOT NULL`), "\n")
	for _, want := range []string{`read: f[\x00ff,\xff,a]`, "GoogleSQL: SELECT `f`[b\"\\x00\\xff\"], `f`[b\"\\xff\"], `f`[b\"a\"] FROM `fk`",
		`read: f["\x00\xff"], f["a"], f["\xff"]`} {
		if !strings.Contains(text, want) {
			t.Errorf("EXPLAIN lacks %q:\n%s", want, text)
		}
	}
}
