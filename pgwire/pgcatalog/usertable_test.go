package pgcatalog

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNatives checks that a scanned value reaches Rows.Natives while it is
// unchanged and of its column's type, and only then.
func TestNatives(t *testing.T) {
	src := fakeSource{}
	st, err := PrepareWith(context.Background(), src, testSession(),
		`SELECT _key, "cf", cf::text, CASE WHEN true THEN cf END, coalesce(cf, '{}'), 'x', cf AS b FROM (SELECT * FROM t ORDER BY 1) s LIMIT 3`, nil)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := st.Open(context.Background(), src, testSession(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var line []string
		for i, n := range rows.Natives() {
			text := "NULL"
			if p := rows.Text()[i]; p != nil {
				text = *p
			}
			if n == nil {
				line = append(line, text)
			} else {
				line = append(line, "<"+n.(string)+">")
			}
		}
		got = append(got, strings.Join(line, " | "))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`<native:\x61> | <native:{"col": "1"}> | {"col": "1"} | <native:{"col": "1"}> | <native:{"col": "1"}> | x | <native:{"col": "1"}>`,
		`<native:\x62> | <native:{"col": "2", "other": "x"}> | {"col": "2", "other": "x"} | <native:{"col": "2", "other": "x"}> | <native:{"col": "2", "other": "x"}> | x | <native:{"col": "2", "other": "x"}>`,
		`<native:\x6300> | NULL | NULL | NULL | {} | x | NULL`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestStreamStops checks that a streamed result reads the table only as
// far as the client reads it, and that Close ends the scan.
func TestStreamStops(t *testing.T) {
	var log []string
	src := fakeSource{log: &log}
	st, err := PrepareWith(context.Background(), src, testSession(), `SELECT _key FROM t WHERE cf IS NOT NULL OR _key > '\x00'`, nil)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := st.Open(context.Background(), src, testSession(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !rows.Next() || !rows.Next() {
		t.Fatal(rows.Err())
	}
	rows.Close()
	rows.Close()
	if rows.Next() {
		t.Fatal("Next after Close")
	}
	if strings.Join(log, ";") != "scan t (_key,cf) limit -1: read 2" {
		t.Fatalf("scans: %q", log)
	}
}

// tablesOnly is a Source whose table t has changed since a statement was
// prepared.
type tablesOnly struct {
	fakeSource
	tables []Table
}

func (s tablesOnly) Tables(context.Context, string) ([]Table, error) { return s.tables, nil }

// TestTableChanged: a prepared statement fails cleanly when its table is
// gone or its columns changed type; other changes do not matter.
func TestTableChanged(t *testing.T) {
	st, err := PrepareWith(context.Background(), fakeSource{}, testSession(), `SELECT _key FROM t`, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		tables []Table
		code   string
	}{
		{nil, CodeUndefinedTable},
		{[]Table{{Name: "t", Columns: []Column{{Name: "_key", TypeOID: 25}}}}, CodeNotSupported},
		{[]Table{{Name: "t", Columns: []Column{{Name: "_key", TypeOID: 17}, {Name: "new", TypeOID: 3802}}}}, ""},
	} {
		_, err := st.Run(context.Background(), tablesOnly{tables: c.tables}, testSession(), nil)
		var e *Error
		if c.code == "" && err != nil || c.code != "" && (!errors.As(err, &e) || e.Code != c.code) {
			t.Errorf("tables %v: %v, want %q", c.tables, err, c.code)
		}
	}
	// Without a Source, Shale tables are not relations.
	if _, err := Prepare(`SELECT * FROM t`, nil); err == nil || !strings.Contains(err.Error(), "queried in GoogleSQL") {
		t.Errorf("Prepare without a Source: %v", err)
	}
}

// TestClearlyPostgres pins which failing fallback queries report their
// PostgreSQL error rather than GoogleSQL's.
func TestClearlyPostgres(t *testing.T) {
	for sql, want := range map[string]bool{
		`SELECT TRUE AS "_" FROM "public"."t" WHERE 1 <> 1 LIMIT 0`: true,
		`SELECT x.* FROM public.nosuch x`:                           true,
		`SELECT nope::int FROM t`:                                   true,
		`SELECT * FROM pg_catalog.pg_nope`:                          true,
		`SELECT "a" FROM "b`:                                        false, // PostgreSQL does not parse it
		`SELECT _key FROM t LIMIT ALL`:                              false, // valid PostgreSQL, nothing PostgreSQL-only
		`SELECT * FROM t WHERE _key = "x" LIMIT`:                    false,
		`SELECT a FROM t WHERE b = 'public.x'`:                      false,
		`SELECT STRUCT<a INT64>(1)`:                                 false,
		`SELECT _key FROM t WHERE _key = "abc" LIMIT ALL`:           false, // "abc" is a GoogleSQL string
		`SELECT "abc" IS NOT NULL FROM t LIMIT ALL`:                 false,
		`SELECT ts AS "time" FROM readings LIMIT ALL`:               true,
		`SELECT "t"."_key" FROM t`:                                  true,
		`SELECT t."_key" FROM t`:                                    true,
		`SELECT a FROM t JOIN "u" USING (a)`:                        true,
		``:                                                          false,
	} {
		if got := ClearlyPostgres(sql); got != want {
			t.Errorf("ClearlyPostgres(%q) = %v, want %v", sql, got, want)
		}
	}
}

// TestPushdownNarrowsOnly runs every query of testdata/ twice, once with a
// Source that applies the pushed filter and once with one that ignores
// it: pushdown may change what a scan reads, never the result.
func TestPushdownNarrowsOnly(t *testing.T) {
	files, err := filepath.Glob("testdata/*")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			continue // testdata/fuzz
		}
		for _, block := range strings.Split(string(data), "\nquery")[1:] {
			head, rest, ok := strings.Cut(block, "\n")
			q, _, ok2 := strings.Cut(rest, "\n----")
			if !ok || !ok2 {
				continue
			}
			if strings.Contains(q, "ANALYZE") {
				continue // it shows what the scan read, which the filter changes
			}
			var args []*string
			if _, a, ok := strings.Cut(head, "args=("); ok {
				a, _, _ = strings.Cut(a, ")")
				for _, v := range strings.Split(a, ",") {
					if v == "NULL" {
						args = append(args, nil)
					} else {
						v := v
						args = append(args, &v)
					}
				}
			}
			run := func(ignore bool) string {
				src := fakeSource{keyed: true, ignoreFilter: ignore}
				st, err := PrepareWith(context.Background(), src, testSession(), q, nil)
				if err != nil {
					return formatErr(err)
				}
				res, err := st.Run(context.Background(), src, testSession(), args)
				if err != nil {
					return formatErr(err)
				}
				return formatResult(res)
			}
			if pushed, all := run(false), run(true); pushed != all {
				t.Errorf("%s: %s\npushed:\n%s\nunfiltered:\n%s", path, q, pushed, all)
			}
			n++
		}
	}
	if n < 100 {
		t.Fatalf("only %d queries", n)
	}
}
