package pgcatalog

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// fakeSource is a Shale instance with two tables, as the server would
// describe them: _key bytea (the primary key) and one jsonb column per
// family.
type fakeSource struct{ dbs []string }

func (f fakeSource) Tables(context.Context, string) ([]Table, error) {
	return []Table{
		{Name: "t", PrimaryKey: []string{"_key"}, Columns: []Column{
			{Name: "_key", TypeOID: 17, TypeName: "bytea"}, {Name: "cf", TypeOID: 3802, TypeName: "jsonb"}}},
		{Name: "events", PrimaryKey: []string{"_key"}, Columns: []Column{
			{Name: "_key", TypeOID: 17, TypeName: "bytea"}, {Name: "stats", TypeOID: 3802, TypeName: "jsonb"},
			{Name: "meta", TypeOID: 3802, TypeName: "jsonb"}}},
	}, nil
}

func (f fakeSource) Databases(context.Context) ([]string, error) { return f.dbs, nil }

func testSession() *Session {
	return &Session{Database: "demo", User: "postgres", ApplicationName: "psql", BackendPID: 4242,
		Settings: map[string]string{"server_version": "15.0"}}
}

// TestQuery runs the catalog queries in testdata/: the literal texts that
// psql 15, pgJDBC 42.5, Grafana, Metabase and DBeaver send. Each case
// prints the columns (name and type OID) and the rows in text format.
//
//	query [args=(a,b)]
//	SELECT ...
//	----
//	<columns>
//	<rows>
func TestQuery(t *testing.T) {
	files, err := filepath.Glob("testdata/*")
	if err != nil {
		t.Fatal(err)
	}
	most := 0
	traceTicks = func(n int) { most = max(most, n) }
	defer func() { traceTicks = nil; t.Logf("most rows visited by one statement: %d", most) }()
	for _, path := range files {
		if filepath.Base(path) == "fuzz" {
			continue
		}
		t.Run(filepath.Base(path), func(t *testing.T) { runFile(t, path) })
	}
}

func runFile(t *testing.T, path string) {
	{
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			switch d.Cmd {
			case "query":
				var args []*string
				for _, a := range d.CmdArgs {
					if a.Key == "args" {
						for _, v := range a.Vals {
							if v == "NULL" {
								args = append(args, nil)
							} else {
								v := v
								args = append(args, &v)
							}
						}
					}
				}
				st, err := Prepare(d.Input, nil)
				if err != nil {
					return formatErr(err)
				}
				res, err := st.Run(context.Background(), fakeSource{dbs: []string{"other"}}, testSession(), args)
				if err != nil {
					return formatErr(err)
				}
				return formatResult(res)
			case "handles":
				var sb strings.Builder
				for _, line := range strings.Split(d.Input, "\n") {
					fmt.Fprintf(&sb, "%v: %s\n", Handles(line), line)
				}
				return sb.String()
			}
			d.Fatalf(t, "unknown command %s", d.Cmd)
			return ""
		})
	}
}

func formatErr(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return fmt.Sprintf("error %s (position %d): %s\n", e.Code, e.Position, e.Message)
	}
	return "error: " + err.Error() + "\n"
}

func formatResult(res *Result) string {
	var sb strings.Builder
	for i, c := range res.Columns {
		if i > 0 {
			sb.WriteString(" | ")
		}
		fmt.Fprintf(&sb, "%s:%s", c.Name, typeName(c.TypeOID))
	}
	sb.WriteString("\n")
	for _, r := range res.Rows {
		for i, v := range r {
			if i > 0 {
				sb.WriteString(" | ")
			}
			if v == nil {
				sb.WriteString("NULL")
			} else {
				sb.WriteString(strings.ReplaceAll(*v, "\n", `\n`))
			}
		}
		sb.WriteString("\n")
	}
	fmt.Fprintf(&sb, "(%d rows)\n", len(res.Rows))
	return sb.String()
}

func typeName(oid uint32) string {
	if t, ok := typeByOID[oid]; ok {
		return t.name
	}
	return fmt.Sprint(oid)
}

// TestRelationsBuild computes every emulated relation, so that a row
// function naming a column its shape lacks fails here.
func TestRelationsBuild(t *testing.T) {
	s, err := buildSnapshot(context.Background(), fakeSource{}, testSession())
	if err != nil {
		t.Fatal(err)
	}
	for name, d := range relDefs {
		for _, r := range s.relationRows(d) {
			if len(r) != len(d.cols) {
				t.Fatalf("%s: row has %d values, want %d", name, len(r), len(d.cols))
			}
		}
	}
}

// TestStableOIDs checks that table OIDs do not depend on statement or
// table order.
func TestStableOIDs(t *testing.T) {
	oids := func(tables []Table) map[string]uint32 {
		s := &snapshot{relByOID: map[uint32]*rel{}}
		s.addTables(tables)
		m := map[string]uint32{}
		for _, r := range s.rels {
			m[r.name] = r.oid
		}
		return m
	}
	a := oids([]Table{{Name: "a"}, {Name: "b"}, {Name: "c"}})
	b := oids([]Table{{Name: "c"}, {Name: "a"}, {Name: "b"}})
	for k, v := range a {
		if b[k] != v || v < userOIDBase {
			t.Fatalf("oid of %s: %d vs %d", k, v, b[k])
		}
	}
}
