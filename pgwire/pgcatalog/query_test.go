package pgcatalog

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// fakeSource is a Shale instance with two tables, as the server would
// describe them: _key bytea (the primary key) and one jsonb column per
// family. keyed adds a table with a row-key schema (its key fields are
// the primary key). Scans log what they read to log, when set.
type fakeSource struct {
	dbs   []string
	keyed bool
	log   *[]string
	// ignoreFilter reads every row whatever the Scan's filter.
	ignoreFilter bool
}

func (f fakeSource) Tables(context.Context, string) ([]Table, error) {
	tables := []Table{
		{Name: "t", PrimaryKey: []string{"_key"}, OrderedKeys: 1, Columns: []Column{
			{Name: "_key", TypeOID: 17, TypeName: "bytea"}, {Name: "cf", TypeOID: 3802, TypeName: "jsonb"}}},
		{Name: "events", PrimaryKey: []string{"_key"}, OrderedKeys: 1, Columns: []Column{
			{Name: "_key", TypeOID: 17, TypeName: "bytea"}, {Name: "stats", TypeOID: 3802, TypeName: "jsonb"},
			{Name: "meta", TypeOID: 3802, TypeName: "jsonb"}}, Size: 20000},
	}
	if f.keyed {
		tables = append(tables, Table{Name: "readings", PrimaryKey: []string{"device_type", "device_id", "ts"}, OrderedKeys: 2, Columns: []Column{
			{Name: "device_type", TypeOID: 25, TypeName: "text"}, {Name: "device_id", TypeOID: 25, TypeName: "text"},
			{Name: "ts", TypeOID: 1184, TypeName: "timestamptz"}, {Name: "seq", TypeOID: 20, TypeName: "int8"},
			{Name: "stats", TypeOID: 3802, TypeName: "jsonb"}}})
	}
	return tables, nil
}

func (f fakeSource) Databases(context.Context) ([]string, error) { return f.dbs, nil }

// fakeRows are the tables' rows in key order, as text (a missing value is
// NULL).
var fakeRows = map[string][]map[string]string{
	"t": {
		{"_key": `\x61`, "cf": `{"col": "1"}`},
		{"_key": `\x62`, "cf": `{"col": "2", "other": "x"}`},
		{"_key": `\x6300`},
		{"_key": `\x64`, "cf": `{"col": "10"}`},
		{"_key": `\x65`, "cf": `{"col": "3"}`},
	},
	"readings": {
		{"device_type": "phone", "device_id": "4c410523", "ts": "2020-05-01 00:00:00+00", "seq": "1", "stats": `{"os": "a"}`},
		{"device_type": "phone", "device_id": "4c410523", "ts": "2020-05-01 01:00:00+00", "seq": "2", "stats": `{"os": "b"}`},
		{"device_type": "phone", "device_id": "5c10102", "ts": "2020-05-01 00:00:00+00", "seq": "3"},
		{"device_type": "tablet", "device_id": "a0b81f74", "ts": "2020-05-02 00:00:00+00", "seq": "-4", "stats": `{"os": "c"}`},
	},
}

// Scan implements Source over fakeRows, skipping the rows filter rejects
// (as a real Source reads only the key ranges it allows) and the keys of a
// family a column's Keys leave out. Each value's Native is "native:" and
// its text.
func (f fakeSource) Scan(_ context.Context, _ string, req ScanRequest) (TableRows, error) {
	filter := req.Filter
	if f.ignoreFilter {
		filter = nil
	}
	rows := fakeRows[req.Table]
	if req.Reverse {
		rows = slices.Clone(rows)
		slices.Reverse(rows)
	}
	return &fakeScan{f: f, table: req.Table, cols: req.Columns, filter: filter, limit: req.Limit, reverse: req.Reverse, rows: rows}, nil
}

type fakeScan struct {
	f       fakeSource
	table   string
	cols    []ScanColumn
	filter  []Cond
	limit   int64
	reverse bool
	rows    []map[string]string
	i, n    int
	row     []Datum
	closed  bool
}

func (s *fakeScan) Next() bool {
	for {
		if s.closed || s.i >= len(s.rows) || s.limit >= 0 && int64(s.n) >= s.limit {
			return false
		}
		r := s.rows[s.i]
		s.i++
		if !fakeMatch(r, s.filter) {
			continue
		}
		s.n++
		s.row = s.row[:0]
		for _, c := range s.cols {
			v, ok := r[c.Name]
			if ok && c.Keys != nil {
				v = onlyKeys(v, c.Keys)
			}
			s.row = append(s.row, Datum{Text: v, Null: !ok, Native: "native:" + v})
		}
		return true
	}
}

// onlyKeys is jsonb object text with only the given keys.
func onlyKeys(text string, keys []string) string {
	n, err := parseJSON(text, true)
	if err != nil || n.kind != jsonObject {
		return text
	}
	out := &jsonNode{kind: jsonObject}
	for i, k := range n.keys {
		if slices.Contains(keys, k) {
			out.keys = append(out.keys, k)
			out.vals = append(out.vals, n.vals[i])
		}
	}
	return out.text(true)
}

// fakeMatch applies a filter as a Source compares values: int8 as
// numbers, the other types' canonical texts as strings.
func fakeMatch(r map[string]string, filter []Cond) bool {
	for _, c := range filter {
		v, ok := r[c.Column]
		if !ok {
			return false
		}
		cmp := func(w string) int {
			if c.Type == 20 {
				x, _ := strconv.ParseInt(v, 10, 64)
				y, _ := strconv.ParseInt(w, 10, 64)
				return cmpOrdered(x, y)
			}
			return strings.Compare(v, w)
		}
		match := false
		if c.Op == "IN" {
			for _, w := range c.Values {
				match = match || cmp(w) == 0
			}
		} else if len(c.Values) == 1 {
			match = cmpResult(c.Op, cmp(c.Values[0]))
		}
		if !match {
			return false
		}
	}
	return true
}

func (s *fakeScan) Row() []Datum { return s.row }
func (s *fakeScan) Err() error   { return nil }
func (s *fakeScan) Close() error {
	if !s.closed && s.f.log != nil {
		where := ""
		for i, c := range s.filter {
			if i == 0 {
				where += " where "
			} else {
				where += " and "
			}
			where += c.String()
		}
		cols := make([]string, len(s.cols))
		for i, c := range s.cols {
			cols[i] = c.String()
		}
		order := ""
		if s.reverse {
			order = " reverse"
		}
		*s.f.log = append(*s.f.log, fmt.Sprintf("scan %s (%s)%s%s limit %d: read %d", s.table, strings.Join(cols, ","), where, order, s.limit, s.n))
	}
	s.closed = true
	return nil
}

// execTime is EXPLAIN ANALYZE's execution time, which tests do not pin:
// in the text format (Execution Time: 1.234 ms) or a structured one
// ("Execution Time": 1.234).
var execTime = regexp.MustCompile(`Execution Time"?: [0-9.]+( ms)?`)

// hideTime replaces the number of an execTime match with X.
func hideTime(s string) string {
	unit := ""
	if strings.HasSuffix(s, " ms") {
		unit = " ms"
	}
	return s[:strings.Index(s, ":")] + ": X" + unit
}

func testSession() *Session {
	return &Session{Database: "demo", User: "postgres", ApplicationName: "psql", BackendPID: 4242,
		Settings: map[string]string{"server_version": "15.0"}}
}

// TestQuery runs the catalog queries in testdata/: the literal texts that
// psql 15, pgJDBC 42.5, Grafana, Metabase and DBeaver send. Each case
// prints the columns (name and type OID) and the rows in text format.
//
//	query [args=(a,b)] [tz=Zone/Name] [keyed] [scans]
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
				var log []string
				src := fakeSource{dbs: []string{"other"}, keyed: d.HasArg("keyed"), log: &log}
				sess := testSession()
				if d.HasArg("tz") {
					var tz string
					d.ScanArgs(t, "tz", &tz)
					sess.Settings["TimeZone"] = tz
				}
				if d.HasArg("intervalstyle") {
					var style string
					d.ScanArgs(t, "intervalstyle", &style)
					sess.Settings["IntervalStyle"] = style
				}
				st, err := PrepareWith(context.Background(), src, sess, d.Input, nil)
				if err != nil {
					return formatErr(err)
				}
				res, err := st.Run(context.Background(), src, sess, args)
				out := ""
				if err != nil {
					out = formatErr(err)
				} else {
					out = formatResult(res)
				}
				out = execTime.ReplaceAllStringFunc(out, hideTime)
				if d.HasArg("scans") {
					if len(log) == 0 {
						log = append(log, "no scan")
					}
					out += strings.Join(log, "\n") + "\n"
				}
				return out
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
		out := fmt.Sprintf("error %s (position %d): %s\n", e.Code, e.Position, e.Message)
		if e.Detail != "" {
			out += "DETAIL: " + e.Detail + "\n"
		}
		if e.Hint != "" {
			out += "HINT: " + e.Hint + "\n"
		}
		return out
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
