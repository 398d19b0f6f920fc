package storage

import (
	"errors"
	"fmt"
	"reflect"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// TestFilter runs the datadriven files in testdata/filters. Commands:
//
//	row key=<key>          defines the current row; one cell per input line,
//	                       family:qualifier@ts=value, where the qualifier and
//	                       value (and the key) may be Go-quoted strings.
//	apply [rnd=(p, ...)]   compiles the filter text in the input and applies it
//	                       to the current row; prints the cells, "(empty)", or
//	                       "error: ..." for a compile error. rnd lists the
//	                       values RowSample draws, cyclically.
//	parse                  parses the input and prints FormatFilter of it, or
//	                       "parse error: ...".
//	columns families=(f,...)
//	                       compiles the filter text in the input and prints the
//	                       columns a read of a table with these families
//	                       restricts itself to (readColumns, latestOnly):
//	                       "all columns", or one line per family with its
//	                       qualifiers or "*", then "latest-only" if so.
//
// Every apply also checks that Apply leaves its input alone, outputs cells in
// row order, gives the same answer on a warmed-up CompiledFilter with a
// reused dst, agrees with Matches, and gives the same answer on the row cut
// down to the columns a read would restrict itself to (filter_columns.go).
func TestFilter(t *testing.T) {
	datadriven.Walk(t, "testdata/filters", func(t *testing.T, path string) {
		var row Row
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			switch d.Cmd {
			case "row":
				row = parseTestRow(t, d)
				return ""
			case "apply":
				return applyTestFilter(t, d, row)
			case "columns":
				return testReadColumns(t, d)
			case "parse":
				f, err := ParseFilter(d.Input)
				if err != nil {
					return "parse error: " + err.Error()
				}
				return FormatFilter(f)
			}
			d.Fatalf(t, "unknown command %q", d.Cmd)
			return ""
		})
	})
}

// TestFilterTextRoundTrip checks FormatFilter(ParseFilter(s)) == s for every
// filter that an apply command in testdata/filters uses.
func TestFilterTextRoundTrip(t *testing.T) {
	datadriven.Walk(t, "testdata/filters", func(t *testing.T, path string) {
		datadriven.RunTest(t, path, func(t *testing.T, d *datadriven.TestData) string {
			if d.Cmd != "apply" {
				return d.Expected
			}
			f, err := ParseFilter(d.Input)
			if err != nil {
				t.Errorf("%s: %v", d.Pos, err)
			} else if got := FormatFilter(f); got != d.Input {
				t.Errorf("%s: round trip\n got: %s\nwant: %s", d.Pos, got, d.Input)
			}
			return d.Expected
		})
	})
}

func applyTestFilter(t *testing.T, d *datadriven.TestData, row Row) string {
	f, err := ParseFilter(d.Input)
	if err != nil {
		d.Fatalf(t, "%v", err)
	}
	rnd, reset := testRnd(t, d)
	cf, err := CompileFilter(f, rnd)
	if err != nil {
		if !errors.Is(err, ErrInvalidArgument) {
			d.Fatalf(t, "error does not wrap ErrInvalidArgument: %v", err)
		}
		return "error: " + err.Error()
	}
	before := cloneTestCells(row.Cells)
	out := cf.Apply(nil, row.Key, row.Cells)
	if !reflect.DeepEqual(before, row.Cells) {
		d.Fatalf(t, "Apply modified its input")
	}
	for i := 1; i < len(out); i++ {
		if compareCells(&out[i-1], &out[i]) > 0 {
			d.Fatalf(t, "output out of order: %s before %s", out[i-1], out[i])
		}
	}
	text := formatTestCells(out)

	reset()
	junk := append(make([]Cell, 0, 8), Cell{Family: "junk"})
	if again := formatTestCells(cf.Apply(junk, row.Key, row.Cells)); again != text {
		d.Fatalf(t, "second Apply differs:\n%s\nfirst:\n%s", again, text)
	}
	reset()
	if m := cf.Matches(row.Key, row.Cells); m != (len(out) > 0) {
		d.Fatalf(t, "Matches = %t, but Apply output %d cells", m, len(out))
	}
	reset()
	cut := cutToReadColumns(cf, testTableOf(row), row.Cells)
	if got := formatTestCells(cf.Apply(nil, row.Key, cut)); got != text {
		d.Fatalf(t, "on the columns a read restricts itself to, %s, Apply gives\n%s", formatTestCells(cut), got)
	}
	return text
}

// testTableOf returns a table with the families of row's cells and one
// family, "zz", that it lacks.
func testTableOf(row Row) *Table {
	t := &Table{Families: []Family{{Name: "zz"}}}
	for _, c := range row.Cells {
		if t.Family(c.Family) == nil {
			t.Families = append(t.Families, Family{Name: c.Family})
			slices.SortFunc(t.Families, func(a, b Family) int { return strings.Compare(a.Name, b.Name) })
		}
	}
	return t
}

// cutToReadColumns returns the cells, in row order, that a read of t with
// filter cf would copy: those of the columns readColumns names, and only
// each column's newest when latestOnly.
func cutToReadColumns(cf *CompiledFilter, t *Table, cells []Cell) []Cell {
	families, quals, restricted := cf.readColumns(t)
	latest := cf.latestOnly()
	var out []Cell
	for _, c := range cells {
		if restricted && !slices.Contains(families, c.Family) {
			continue
		}
		if qs, ok := quals[c.Family]; ok && !containsQualifier(qs, c.Qualifier) {
			continue
		}
		if n := len(out); latest && n > 0 && out[n-1].Family == c.Family && string(out[n-1].Qualifier) == string(c.Qualifier) {
			continue
		}
		out = append(out, c)
	}
	return out
}

func testReadColumns(t *testing.T, d *datadriven.TestData) string {
	f, err := ParseFilter(d.Input)
	if err != nil {
		d.Fatalf(t, "%v", err)
	}
	cf, err := CompileFilter(f, nil)
	if err != nil {
		return "error: " + err.Error()
	}
	var names []string
	d.ScanArgs(t, "families", &names)
	tbl := &Table{}
	for _, n := range names {
		tbl.Families = append(tbl.Families, Family{Name: n})
	}
	var b strings.Builder
	families, quals, ok := cf.readColumns(tbl)
	switch {
	case !ok:
		b.WriteString("all columns\n")
	case len(families) == 0:
		b.WriteString("no columns\n")
	}
	for _, fam := range families {
		qs, only := quals[fam]
		if !only {
			fmt.Fprintf(&b, "%s: *\n", fam)
			continue
		}
		fmt.Fprintf(&b, "%s:", fam)
		for _, q := range qs {
			fmt.Fprintf(&b, " %q", q)
		}
		b.WriteString("\n")
	}
	if cf.latestOnly() {
		b.WriteString("latest-only\n")
	}
	return b.String()
}

// testRnd returns the random source for RowSample, from the rnd argument,
// and a function that restarts its sequence.
func testRnd(t *testing.T, d *datadriven.TestData) (rnd func() float64, reset func()) {
	arg, ok := d.Arg("rnd")
	if !ok {
		return func() float64 {
			d.Fatalf(t, "the filter draws a random number; pass rnd=")
			return 0
		}, func() {}
	}
	var vals []float64
	for _, s := range arg.Vals {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			d.Fatalf(t, "rnd: %v", err)
		}
		vals = append(vals, v)
	}
	i := 0
	return func() float64 {
		v := vals[i%len(vals)]
		i++
		return v
	}, func() { i = 0 }
}

func formatTestCells(cells []Cell) string {
	if len(cells) == 0 {
		return "(empty)\n"
	}
	var b strings.Builder
	for _, c := range cells {
		b.WriteString(c.String())
		b.WriteByte('\n')
	}
	return b.String()
}

func cloneTestCells(cells []Cell) []Cell {
	if cells == nil {
		return nil
	}
	out := make([]Cell, len(cells))
	for i, c := range cells {
		out[i] = Cell{
			Family:    c.Family,
			Qualifier: cloneTestBytes(c.Qualifier),
			Timestamp: c.Timestamp,
			Value:     cloneTestBytes(c.Value),
		}
		if c.Labels != nil {
			out[i].Labels = append([]string{}, c.Labels...)
		}
	}
	return out
}

// cloneTestBytes copies b, keeping nil and empty apart.
func cloneTestBytes(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte{}, b...)
}

func parseTestRow(t *testing.T, d *datadriven.TestData) Row {
	var key string
	d.ScanArgs(t, "key", &key)
	row := Row{Key: []byte(key)}
	if strings.HasPrefix(key, `"`) {
		k, err := strconv.Unquote(key)
		if err != nil {
			d.Fatalf(t, "key: %v", err)
		}
		row.Key = []byte(k)
	}
	for _, line := range strings.Split(strings.TrimSpace(d.Input), "\n") {
		if line == "" {
			continue
		}
		c, err := parseTestCell(line)
		if err != nil {
			d.Fatalf(t, "%q: %v", line, err)
		}
		row.Cells = append(row.Cells, c)
	}
	for i := 1; i < len(row.Cells); i++ {
		if compareCells(&row.Cells[i-1], &row.Cells[i]) >= 0 {
			d.Fatalf(t, "cells out of order: %s before %s", row.Cells[i-1], row.Cells[i])
		}
	}
	return row
}

// parseTestCell parses family:qualifier@ts=value, the form Cell.String prints.
func parseTestCell(line string) (Cell, error) {
	family, rest, ok := strings.Cut(line, ":")
	if !ok {
		return Cell{}, errors.New("missing ':'")
	}
	qual, rest, err := cutTestBytes(rest, "@")
	if err != nil {
		return Cell{}, err
	}
	tsText, rest, ok := strings.Cut(rest, "=")
	if !ok {
		return Cell{}, errors.New("missing '='")
	}
	ts, err := strconv.ParseInt(tsText, 10, 64)
	if err != nil {
		return Cell{}, err
	}
	value, rest, err := cutTestBytes(rest, "")
	if err != nil {
		return Cell{}, err
	}
	if rest != "" {
		return Cell{}, errors.New("trailing text after the value")
	}
	return Cell{Family: family, Qualifier: qual, Timestamp: ts, Value: value}, nil
}

// cutTestBytes reads a Go-quoted or plain string up to sep (or to the end
// when sep is "") and returns it and what follows sep.
func cutTestBytes(s, sep string) (val []byte, rest string, err error) {
	if strings.HasPrefix(s, `"`) {
		lit, err := strconv.QuotedPrefix(s)
		if err != nil {
			return nil, "", err
		}
		v, _ := strconv.Unquote(lit)
		rest, ok := strings.CutPrefix(s[len(lit):], sep)
		if !ok {
			return nil, "", errors.New("missing " + sep)
		}
		return []byte(v), rest, nil
	}
	if sep == "" {
		return []byte(s), "", nil
	}
	v, rest, ok := strings.Cut(s, sep)
	if !ok {
		return nil, "", errors.New("missing " + sep)
	}
	return []byte(v), rest, nil
}

func mustCompileFilter(t testing.TB, text string) *CompiledFilter {
	t.Helper()
	f, err := ParseFilter(text)
	if err != nil {
		t.Fatal(err)
	}
	cf, err := CompileFilter(f, func() float64 { return 0.5 })
	if err != nil {
		t.Fatal(err)
	}
	return cf
}

// TestFilterOutputAliasing checks what output cells may share with the input.
func TestFilterOutputAliasing(t *testing.T) {
	labels := make([]string, 1, 4) // spare capacity a careless append would use
	labels[0] = "in"
	in := []Cell{
		{Family: "f", Qualifier: []byte("a"), Timestamp: 2, Value: []byte("x"), Labels: labels},
		{Family: "f", Qualifier: []byte("b"), Timestamp: 1, Value: []byte("y")},
	}
	out := mustCompileFilter(t, `interleave(label("l1"), chain(strip, label("l2")))`).Apply(nil, []byte("r"), in)
	if len(out) != 4 {
		t.Fatalf("got %d cells, want 4", len(out))
	}
	if got := labels[:cap(labels)]; got[1] != "" {
		t.Fatalf("ApplyLabel wrote into the input's Labels backing array: %q", got)
	}
	for i := range out {
		c := &out[i]
		if len(c.Labels) != cap(c.Labels) {
			t.Errorf("%s: Labels has spare capacity %d", c, cap(c.Labels)-len(c.Labels))
		}
		for j := range out[:i] {
			if &out[j].Labels[0] == &c.Labels[0] {
				t.Errorf("%s and %s share a Labels array", &out[j], c)
			}
		}
		if c.Labels[len(c.Labels)-1] == "l2" && (c.Value == nil || len(c.Value) != 0) {
			t.Errorf("%s: stripped Value = %#v, want empty and non-nil", c, c.Value)
		}
	}
	if got := formatTestCells(out); got != "f:a@2=x [in,l1]\nf:a@2=\"\" [in,l2]\nf:b@1=y [l1]\nf:b@1=\"\" [l2]\n" {
		t.Errorf("got\n%s", got)
	}
}

// TestFilterApplyAllocs checks that the hot paths allocate nothing per row
// once warmed up.
func TestFilterApplyAllocs(t *testing.T) {
	if filterTestRaceBuild() {
		t.Skip("under -race, sync.Pool drops regexp machines at random")
	}
	row := []Cell{
		{Family: "f", Qualifier: []byte("a"), Timestamp: 3, Value: []byte("x")},
		{Family: "f", Qualifier: []byte("a"), Timestamp: 2, Value: []byte("y")},
		{Family: "g", Qualifier: []byte("b"), Timestamp: 1, Value: []byte("z")},
	}
	key := []byte("r1")
	for _, text := range []string{
		`none`, `pass`, `family("f")`, `family("f|g")`, `qual(".*")`, `value-regex("[xz]")`,
		`col-limit(1)`, `row-limit(2)`, `row-offset(1)`, `ts-range(2, *)`, `col-range("f", ["a", *))`,
		`value-range(["x", "y"])`, `bitmask("x")`, `strip`, `sample(0.9)`, `row-regex("r.*")`,
		`chain(family("f"), col-limit(1))`, `interleave(qual("b"), family("f"))`,
		`condition(value-regex("z"), strip, none)`, `interleave(sink, pass)`,
	} {
		cf := mustCompileFilter(t, text)
		var dst []Cell
		allocs := testing.AllocsPerRun(100, func() {
			dst = cf.Apply(dst, key, row)
			cf.Matches(key, row)
		})
		if allocs != 0 {
			t.Errorf("%s: %v allocs per row, want 0", text, allocs)
		}
	}
}

// filterTestRaceBuild reports whether the test binary was built with -race.
func filterTestRaceBuild() bool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, s := range bi.Settings {
		if s.Key == "-race" {
			return s.Value == "true"
		}
	}
	return false
}

// TestCompileFilterNil checks nil and typed-nil filters.
func TestCompileFilterNil(t *testing.T) {
	row := []Cell{{Family: "f", Qualifier: []byte("a"), Timestamp: 1, Value: []byte("x")}}
	for _, f := range []Filter{nil, (*Chain)(nil), (*PassAll)(nil)} {
		cf, err := CompileFilter(f, nil)
		if err != nil {
			t.Fatalf("%#v: %v", f, err)
		}
		if out := cf.Apply(nil, []byte("r"), row); len(out) != 1 || !cf.Matches([]byte("r"), row) {
			t.Errorf("%#v: got %v, want the row", f, out)
		}
		if cf.Matches([]byte("r"), nil) {
			t.Errorf("%#v: an empty row matches", f)
		}
	}
	bad := []Filter{
		&Chain{Filters: []Filter{&PassAll{}, (*BlockAll)(nil)}},
		&Condition{Predicate: (*PassAll)(nil), True: &PassAll{}},
	}
	for _, f := range bad {
		if _, err := CompileFilter(f, nil); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("%s: err = %v, want ErrInvalidArgument", FormatFilter(f), err)
		}
	}
	// A nil rnd uses math/rand/v2.
	cf, err := CompileFilter(&RowSample{P: 0.5}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cf.Apply(nil, []byte("r"), row)
}

// FuzzParseFilter checks that ParseFilter never panics, that its output
// formats stably, and that compiling and applying a parsed filter never
// panics either.
func FuzzParseFilter(f *testing.F) {
	for _, s := range []string{
		`chain(family("f"), col-limit(1))`,
		`interleave(family("g"), chain(col-range("f", ["a", "b")), label("x")))`,
		`condition(value-regex("z"), strip, none)`,
		`chain(family("A"), interleave(pass, chain(label("foo"), sink)), qual("B"))`,
		`value-range(("", *]) `, `ts-range(1, *)`, `sample(0.5)`, `row-regex(` + "`a\\C*`" + `)`,
		`bitmask("\xff")`, `row-offset(2)`, `row-limit(1)`, `block`, `none`,
	} {
		f.Add(s)
	}
	row := []Cell{
		{Family: "f", Qualifier: []byte("a"), Timestamp: 3, Value: []byte("x")},
		{Family: "f", Qualifier: []byte("a"), Timestamp: 2, Value: []byte("\xff")},
		{Family: "f", Qualifier: []byte("ab"), Timestamp: 2, Value: []byte("y")},
		{Family: "f", Qualifier: []byte("b"), Timestamp: 5, Value: []byte("a")},
		{Family: "g", Qualifier: []byte(""), Timestamp: 1, Value: []byte("")},
		{Family: "g", Qualifier: []byte("B"), Timestamp: 4, Value: []byte("\x00")},
	}
	tbl := testTableOf(Row{Cells: row})
	f.Fuzz(func(t *testing.T, s string) {
		flt, err := ParseFilter(s)
		if err != nil {
			if !errors.Is(err, ErrInvalidArgument) {
				t.Fatalf("error does not wrap ErrInvalidArgument: %v", err)
			}
			return
		}
		text := FormatFilter(flt)
		flt2, err := ParseFilter(text)
		if err != nil {
			t.Fatalf("%q formats as %q, which does not parse: %v", s, text, err)
		}
		if text2 := FormatFilter(flt2); text2 != text {
			t.Fatalf("unstable format: %q then %q", text, text2)
		}
		cf, err := CompileFilter(flt, func() float64 { return 0.5 })
		if err != nil {
			return
		}
		out := cf.Apply(nil, []byte("r1"), row)
		if cf.Matches([]byte("r1"), row) != (len(out) > 0) {
			t.Fatalf("%s: Matches disagrees with Apply", text)
		}
		cut := cutToReadColumns(cf, tbl, row)
		if got, want := formatTestCells(cf.Apply(nil, []byte("r1"), cut)), formatTestCells(out); got != want {
			t.Fatalf("%s: on the columns a read restricts itself to, %s, Apply gives\n%s\nnot\n%s", text, formatTestCells(cut), got, want)
		}
	})
}
