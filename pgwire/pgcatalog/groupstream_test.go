package pgcatalog

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// bigSource has one table, big, of n rows (_key 00000000, 00000001, ...,
// cf {"g": "0".."9"}) made as they are read: nothing holds them.
type bigSource struct{ n int }

func (s bigSource) Tables(context.Context, string) ([]Table, error) {
	return []Table{{Name: "big", PrimaryKey: []string{"_key"}, OrderedKeys: 1, Columns: []Column{
		{Name: "_key", TypeOID: 17, TypeName: "bytea"}, {Name: "cf", TypeOID: 3802, TypeName: "jsonb"}}}}, nil
}

func (s bigSource) Scan(_ context.Context, _ string, req ScanRequest) (TableRows, error) {
	return &bigScan{n: s.n, cols: req.Columns, limit: req.Limit, reverse: req.Reverse, i: -1}, nil
}

type bigScan struct {
	n, i    int
	limit   int64
	reverse bool
	cols    []ScanColumn
	row     []Datum
}

func (s *bigScan) Next() bool {
	s.i++
	if s.i >= s.n || s.limit >= 0 && int64(s.i) >= s.limit {
		return false
	}
	s.row = s.row[:0]
	i := s.i
	if s.reverse {
		i = s.n - 1 - s.i
	}
	for _, c := range s.cols {
		if c.Name == "_key" {
			s.row = append(s.row, Datum{Text: fmt.Sprintf(`\x%x`, fmt.Sprintf("%08d", i))})
		} else {
			s.row = append(s.row, Datum{Text: fmt.Sprintf(`{"g": "%d"}`, i%10)})
		}
	}
	return true
}

func (s *bigScan) Row() []Datum { return s.row }
func (s *bigScan) Err() error   { return nil }
func (s *bigScan) Close() error { return nil }

// TestStreamingOverTables: a grouped select, a sorted select with a LIMIT
// and a SELECT DISTINCT read a table (or a subquery over one, as Metabase
// nests its questions, or a join with the table on its left) as it is
// scanned, holding a state per
// group, the LIMIT rows or the distinct rows, not the table. With maxTicks (the rows a statement may
// hold) far below the table's size they still answer, and a select that
// must hold every row (a window over the whole table) is still stopped;
// ORDER BY without LIMIT sorts outside memory past work_mem
// (sortspill_test.go).
func TestStreamingOverTables(t *testing.T) {
	defer func(old int) { maxTicks = old }(maxTicks)
	maxTicks = 1000
	src := bigSource{n: 20000}
	sess := &Session{Database: "db"}
	for _, c := range []struct{ sql, want string }{
		{"SELECT count(*), min(encode(_key, 'escape')), max(cf->>'g'), sum((cf->>'g')::int) FROM public.big", "20000|00000000|9|90000"},
		{"SELECT cf->>'g' AS g, count(*), avg((cf->>'g')::int) FROM public.big GROUP BY 1 ORDER BY 1 DESC LIMIT 2",
			"9|2000|9.0000000000000000;8|2000|8.0000000000000000"},
		{"SELECT _key FROM public.big ORDER BY _key DESC LIMIT 2 OFFSET 1", `\x3030303139393938;\x3030303139393937`},
		{"SELECT cf->>'g', _key FROM public.big ORDER BY 1 LIMIT 3", `0|\x3030303030303030;0|\x3030303030303130;0|\x3030303030303230`},
		{"SELECT DISTINCT cf->>'g' FROM public.big ORDER BY 1 DESC LIMIT 3", "9;8;7"},
		{"SELECT count(*), count(v.n) FROM public.big b LEFT JOIN (VALUES ('7', 1), ('8', 2)) v(g, n) ON b.cf->>'g' = v.g",
			"20000|4000"},
		{"SELECT count(*) FROM public.big b RIGHT JOIN (VALUES ('7'), ('x')) v(g) ON b.cf->>'g' = v.g", "2001"},
		{`SELECT "source"."g", count(*) FROM (SELECT cf->>'g' AS "g" FROM "public"."big") AS "source" GROUP BY 1 ORDER BY 1 LIMIT 2`,
			"0|2000;1|2000"},
		{"SELECT DISTINCT ON (cf->>'g') cf->>'g', _key FROM public.big ORDER BY cf->>'g', _key DESC LIMIT 2",
			`0|\x3030303139393930;1|\x3030303139393931`},
	} {
		st, err := PrepareWith(context.Background(), src, sess, c.sql, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		res, err := st.Run(context.Background(), src, sess, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		var rows []string
		for _, r := range res.Rows {
			var f []string
			for _, v := range r {
				f = append(f, *v)
			}
			rows = append(rows, strings.Join(f, "|"))
		}
		if got := strings.Join(rows, ";"); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.sql, got, c.want)
		}
	}
	st, err := PrepareWith(context.Background(), src, sess, "SELECT row_number() OVER (ORDER BY _key DESC) FROM public.big", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Run(context.Background(), src, sess, nil); err == nil || !strings.Contains(err.Error(), "visits more than") {
		t.Errorf("a window over 20000 rows with maxTicks 1000: %v, want the 54000 error", err)
	}
}
