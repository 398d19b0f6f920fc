package pgcatalog

import (
	"context"
	"testing"
)

// fixedSource has one table, wide, whose scan returns the same row n
// times: the benchmarks below measure the dialect's cost per row, not a
// source's.
type fixedSource struct{ n int }

func (s fixedSource) Tables(context.Context, string) ([]Table, error) {
	return []Table{{Name: "wide", PrimaryKey: []string{"_key"}, OrderedKeys: 1, Columns: []Column{
		{Name: "_key", TypeOID: 17, TypeName: "bytea"}, {Name: "cf", TypeOID: 3802, TypeName: "jsonb"}}}}, nil
}

func (s fixedSource) Scan(_ context.Context, _ string, req ScanRequest) (TableRows, error) {
	var row []Datum
	for _, c := range req.Columns {
		if c.Name == "_key" {
			row = append(row, Datum{Text: `\x3030303132333435`, Native: []byte("00012345")})
		} else {
			row = append(row, Datum{Text: `{"a": "e99bb337", "b": "347017fd1e3", "c": "0fa2fc5954ab40"}`})
		}
	}
	return &fixedScan{n: s.n, row: row}, nil
}

type fixedScan struct {
	n   int
	row []Datum
}

func (s *fixedScan) Next() bool   { s.n--; return s.n >= 0 }
func (s *fixedScan) Row() []Datum { return s.row }
func (s *fixedScan) Err() error   { return nil }
func (s *fixedScan) Close() error { return nil }

// BenchmarkStreamingSelect streams PostgreSQL-dialect selects over a table
// as the statement's result (Open, Next): a row's cost per op.
func BenchmarkStreamingSelect(b *testing.B) {
	const rows = 10000
	src := fixedSource{n: rows}
	sess := &Session{Database: "db"}
	for _, bc := range []struct{ name, sql string }{
		{"columns", "SELECT _key, cf FROM public.wide"},
		{"fields", "SELECT _key, cf->>'a', cf->>'b' FROM public.wide"},
		{"filter", "SELECT _key FROM public.wide WHERE cf->>'c' LIKE '%ab%'"},
		{"regexp", "SELECT _key FROM public.wide WHERE cf->>'c' ~ 'ab|fc[0-9]'"},
		{"like_any", "SELECT _key FROM public.wide WHERE cf->>'c' LIKE '%a_4%'"},
		{"ilike", "SELECT _key FROM public.wide WHERE cf->>'c' ILIKE '%AB%'"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			st, err := PrepareWith(context.Background(), src, sess, bc.sql, nil)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				r, err := st.Open(context.Background(), src, sess, nil)
				if err != nil {
					b.Fatal(err)
				}
				for r.Next() {
				}
				if err := r.Err(); err != nil {
					b.Fatal(err)
				}
				r.Close()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*rows), "ns/row")
		})
	}
}
