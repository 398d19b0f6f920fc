package storage

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestFilterColumnsMatchFullRead: a read with a filter reads only the
// columns the filter needs (filter_columns.go); it must return exactly what
// the filter outputs on every cell of each row. Random filters, forward and
// reversed, of the table and through its view.
func TestFilterColumnsMatchFullRead(t *testing.T) {
	w := newWideFixture(t)
	fullTable, tableStats := w.read(w.tgt, ReadOptions{})
	fullView, viewStats := w.read(w.view, ReadOptions{})
	g := filterGen{rng: w.rng, fams: w.fams, qualName: w.qualName}

	narrowed := map[string]int{} // reads that scanned fewer cells, by kind
	for i := range 2000 {
		f := g.filter(3, false)
		cf, err := CompileFilter(f, nil)
		if err != nil {
			continue // e.g. two labels in a chain
		}
		opts := ReadOptions{Filter: f, Reversed: w.rng.IntN(3) == 0}
		target, full, fullStats, kind := w.tgt, fullTable, tableStats, "table"
		if w.rng.IntN(3) == 0 {
			target, full, fullStats, kind = w.view, fullView, viewStats, "view"
		}
		got, stats := w.read(target, opts)
		var want []Row
		for _, r := range full {
			if cells := cf.Apply(nil, r.Key, r.Cells); len(cells) > 0 {
				want = append(want, Row{Key: r.Key, Cells: cells})
			}
		}
		if opts.Reversed {
			slices.Reverse(want)
		}
		if !rowsEqual(got, want) {
			t.Fatalf("read %d of the %s, reversed=%t, filter %s:\ngot  %v\nwant %v", i, kind, opts.Reversed, FormatFilter(f), got, want)
		}
		if stats.CellsScanned < fullStats.CellsScanned {
			narrowed[kind+fmt.Sprint(opts.Reversed)]++
		}
	}
	for _, k := range []string{"tablefalse", "tabletrue", "viewfalse", "viewtrue"} {
		if narrowed[k] == 0 {
			t.Errorf("no read (%s) scanned fewer cells than a full read: the test does not exercise the restriction", k)
		}
	}
	t.Logf("reads that scanned fewer cells: %v", narrowed)
}

// filterGen makes random filters over wideFixture's families and
// qualifiers, with the patterns users write: literals, anchored literals,
// small alternations and open-ended regexes. It leaves out RowSample (the
// engine draws its own numbers) and labels (rowsEqual ignores them).
type filterGen struct {
	rng      *rand.Rand
	fams     []string
	qualName func(int) []byte
}

func (g *filterGen) filter(depth int, inCond bool) Filter {
	if depth > 0 && g.rng.IntN(2) == 0 {
		n := 2 + g.rng.IntN(2)
		subs := func(inCond bool) []Filter {
			fs := make([]Filter, n)
			for i := range fs {
				fs[i] = g.filter(depth-1, inCond)
			}
			return fs
		}
		switch g.rng.IntN(3) {
		case 0:
			return &Chain{Filters: subs(inCond)}
		case 1:
			return &Interleave{Filters: subs(inCond)}
		}
		c := &Condition{Predicate: g.filter(depth-1, true), True: g.filter(depth-1, true)}
		if g.rng.IntN(2) == 0 {
			c.False = g.filter(depth-1, true)
		}
		return c
	}
	return g.leaf(inCond)
}

func (g *filterGen) leaf(inCond bool) Filter {
	fam := g.fams[g.rng.IntN(len(g.fams))]
	q := g.qualName(g.rng.IntN(40))
	switch g.rng.IntN(16) {
	case 0, 1:
		pats := []string{fam, "^" + fam + "$", "b.*", "a|c", "(?i)A"}
		return &FamilyRegex{Pattern: pats[g.rng.IntN(len(pats))]}
	case 2, 3, 4:
		pats := []string{string(q), "^" + string(q) + "$", `q00[0-5]`, `q0(1|2)3`, "q.*", `\Q` + string(q) + `\E`, "q01[0-9]?"}
		return &QualifierRegex{Pattern: []byte(pats[g.rng.IntN(len(pats))])}
	case 5:
		return &ColumnRange{Family: fam, Start: q, End: g.qualName(g.rng.IntN(40) + 1)}
	case 6:
		return &TimestampRange{Start: 2000, End: 6000}
	case 7:
		return &ValueRegex{Pattern: []byte(".*/b/.*")}
	case 8:
		return &CellsPerRowLimit{N: 1 + g.rng.Int64N(20)}
	case 9:
		return &CellsPerRowOffset{N: g.rng.Int64N(20)}
	case 10, 11:
		return &CellsPerColumnLimit{N: 1 + g.rng.Int64N(3)}
	case 12:
		if !inCond {
			return &Sink{}
		}
		return &PassAll{}
	case 13:
		return &BlockAll{}
	case 14:
		return &RowKeyRegex{Pattern: []byte("row0[0-5]")}
	}
	return &StripValue{}
}

// FuzzFiniteLanguage: when finiteLanguage lists the qualifiers a regex can
// match, every string the regex matches is among them.
func FuzzFiniteLanguage(f *testing.F) {
	for _, seed := range [][2]string{
		{"q1", "q1"}, {"^q[0-2]$", "q2"}, {`x(a|bc)?y{1,2}`, "xbcyy"}, {`\Qa.b\E`, "a.b"},
		{"(?i)ab", "AB"}, {`[\x00-\x03]z`, "\x02z"}, {`a\bb|a\Bb`, "ab"}, {"a{0,3}", "aaa"}, {`\C`, "\xff"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, pattern, s string) {
		m, re, err := compileRegexSyntax("qualifier", []byte(pattern))
		if err != nil || re == nil {
			return
		}
		lits, ok := finiteLanguage(re)
		if !ok {
			return
		}
		if len(lits) > maxLiterals {
			t.Fatalf("%q: %d strings, more than %d", pattern, len(lits), maxLiterals)
		}
		if m.match([]byte(s)) && !slices.Contains(lits, s) {
			t.Fatalf("%q matches %q, which its language %q lacks", pattern, s, lits)
		}
	})
}
