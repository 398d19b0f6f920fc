package storage

import (
	"bytes"
	"slices"

	"rsc.io/binaryregexp/syntax"
)

// The columns a filter reads. A read with a filter and no Families or
// Qualifiers of its own restricts itself to the columns whose cells can
// change the filter's output, as if the caller had named them: it then
// steps over, and in wide rows seeks past, every other cell without
// copying it (columnSeekTarget). So a Data API read of one column of a wide
// row (cbt read columns=cf:q) costs that column, not the row; and a filter
// that starts with a CellsPerColumnLimit of 1 reads only each column's
// newest cell (LatestOnly).
//
// The restriction is a superset: the filter still runs on what is read, so
// it only has to keep every cell that could matter. Each filter is read
// backwards from what its consumer needs (columnsThrough): a family or
// qualifier test narrows the need to its columns, a filter that keeps or
// drops cells column by column passes the need on unchanged, and one that
// counts cells across the row (CellsPerRow*) needs every column.

// columnSet is a set of a table's columns: every column (all), or the
// columns of the families in fams, sorted by name. Sets are never changed
// once built, so they share their slices; the operations build new ones.
type columnSet struct {
	all  bool
	fams []famColumns
}

// famColumns is every column of a family (every), or those with the
// qualifiers in quals, sorted.
type famColumns struct {
	name  string
	every bool
	quals [][]byte
}

func allColumns() columnSet { return columnSet{all: true} }

func (s columnSet) empty() bool { return !s.all && len(s.fams) == 0 }

func intersectColumns(a, b columnSet) columnSet {
	if a.all {
		return b
	}
	if b.all {
		return a
	}
	var out columnSet
	mergeFamilies(a.fams, b.fams, func(fa, fb *famColumns) {
		switch {
		case fa == nil || fb == nil:
		case fa.every:
			out.fams = append(out.fams, *fb)
		case fb.every:
			out.fams = append(out.fams, *fa)
		default:
			var qs [][]byte
			mergeQualifiers(fa.quals, fb.quals, func(q []byte, inA, inB bool) {
				if inA && inB {
					qs = append(qs, q)
				}
			})
			if len(qs) > 0 {
				out.fams = append(out.fams, famColumns{name: fa.name, quals: qs})
			}
		}
	})
	return out
}

func unionColumns(a, b columnSet) columnSet {
	if a.all || b.all {
		return allColumns()
	}
	if len(a.fams) == 0 {
		return b
	}
	if len(b.fams) == 0 {
		return a
	}
	out := columnSet{fams: make([]famColumns, 0, len(a.fams)+len(b.fams))}
	mergeFamilies(a.fams, b.fams, func(fa, fb *famColumns) {
		switch {
		case fb == nil:
			out.fams = append(out.fams, *fa)
		case fa == nil:
			out.fams = append(out.fams, *fb)
		case fa.every || fb.every:
			out.fams = append(out.fams, famColumns{name: fa.name, every: true})
		default:
			qs := make([][]byte, 0, len(fa.quals)+len(fb.quals))
			mergeQualifiers(fa.quals, fb.quals, func(q []byte, _, _ bool) { qs = append(qs, q) })
			out.fams = append(out.fams, famColumns{name: fa.name, quals: qs})
		}
	})
	return out
}

// mergeFamilies calls fn for each family name of a or b, in order, with its
// entry in each (nil where it has none).
func mergeFamilies(a, b []famColumns, fn func(fa, fb *famColumns)) {
	for len(a) > 0 || len(b) > 0 {
		switch {
		case len(b) == 0 || len(a) > 0 && a[0].name < b[0].name:
			fn(&a[0], nil)
			a = a[1:]
		case len(a) == 0 || b[0].name < a[0].name:
			fn(nil, &b[0])
			b = b[1:]
		default:
			fn(&a[0], &b[0])
			a, b = a[1:], b[1:]
		}
	}
}

// mergeQualifiers calls fn for each qualifier of the sorted lists a or b,
// in order, saying which holds it.
func mergeQualifiers(a, b [][]byte, fn func(q []byte, inA, inB bool)) {
	for len(a) > 0 || len(b) > 0 {
		c := 0
		switch {
		case len(a) == 0:
			c = 1
		case len(b) == 0:
			c = -1
		default:
			c = bytes.Compare(a[0], b[0])
		}
		switch {
		case c < 0:
			fn(a[0], true, false)
			a = a[1:]
		case c > 0:
			fn(b[0], false, true)
			b = b[1:]
		default:
			fn(a[0], true, true)
			a, b = a[1:], b[1:]
		}
	}
}

// columnsThrough returns the columns of op's input whose cells can change
// the part of op's output that its consumer reads, the columns in down.
// Every op keeps a cell's column, so column-wise ops pass down on.
func columnsThrough(op filterOp, t *Table, down columnSet) columnSet {
	switch op := op.(type) {
	case *chainOp:
		for i := len(op.ops) - 1; i >= 0; i-- {
			down = columnsThrough(op.ops[i], t, down)
		}
		return down
	case *interleaveOp:
		var out columnSet
		for _, sub := range op.ops {
			out = unionColumns(out, columnsThrough(sub, t, down))
		}
		return out
	case *conditionOp:
		// Whether the predicate outputs any cell picks the branch.
		out := columnsThrough(op.pred, t, allColumns())
		for _, branch := range []filterOp{op.onTrue, op.onFalse} {
			if branch != nil {
				out = unionColumns(out, columnsThrough(branch, t, down))
			}
		}
		return out
	case sinkOp:
		return allColumns() // what reaches it is output, whatever follows
	case blockOp:
		return columnSet{}
	case rowOffsetOp, rowLimitOp:
		if down.empty() {
			return down
		}
		return allColumns() // which cells come first depends on them all
	case keepOp:
		switch test := op.t.(type) {
		case familyTest:
			return intersectColumns(familyColumns(t, test.m), down)
		case qualifierTest:
			if test.lits != nil {
				return intersectColumns(qualifierColumns(t, test.lits), down)
			}
		case columnRangeTest:
			return intersectColumns(columnSet{fams: []famColumns{{name: test.family, every: true}}}, down)
		}
	}
	// passOp, stripOp, labelOp, colLimitOp, rowRegexOp, sampleOp and the
	// value and timestamp tests keep or drop cells column by column.
	return down
}

// familyColumns is every column of the families of t that m matches.
func familyColumns(t *Table, m *regexMatcher) columnSet {
	n := 0
	for _, f := range t.Families {
		if m.matchString(f.Name) {
			n++
		}
	}
	if n == len(t.Families) {
		return allColumns() // allocates nothing for a one-family table
	}
	s := columnSet{fams: make([]famColumns, 0, n)}
	for _, f := range t.Families {
		if m.matchString(f.Name) {
			s.fams = append(s.fams, famColumns{name: f.Name, every: true})
		}
	}
	return s
}

// qualifierColumns is the columns with the qualifiers lits (sorted, unique)
// in every family of t.
func qualifierColumns(t *Table, lits [][]byte) columnSet {
	s := columnSet{fams: make([]famColumns, len(t.Families))}
	for i, f := range t.Families {
		s.fams[i] = famColumns{name: f.Name, quals: lits}
	}
	return s
}

// readColumns returns the Families and Qualifiers (ReadOptions) that
// restrict a read of t to the columns f needs; ok is false when f may need
// every column of t. The lists share f's memory.
func (f *CompiledFilter) readColumns(t *Table) (families []string, quals map[string][][]byte, ok bool) {
	if f.PassesAll() {
		return nil, nil, false
	}
	need := columnsThrough(f.root, t, allColumns())
	if need.all {
		return nil, nil, false
	}
	if len(need.fams) == len(t.Families) && !slices.ContainsFunc(need.fams, func(c famColumns) bool { return !c.every }) {
		return nil, nil, false // every family, whole: nothing to skip
	}
	families = make([]string, len(need.fams))
	for i, c := range need.fams {
		families[i] = c.name
		if !c.every {
			if quals == nil {
				quals = make(map[string][][]byte)
			}
			quals[c.name] = c.quals
		}
	}
	return families, quals, true
}

// latestOnly reports whether f starts by keeping only the newest cell of
// each column (a CellsPerColumnLimit of 1, perhaps after family and
// qualifier tests, which keep or drop whole columns): a read can then skip
// older versions before the filter runs.
func (f *CompiledFilter) latestOnly() bool {
	if f.PassesAll() {
		return false
	}
	op := f.root
	for {
		switch o := op.(type) {
		case colLimitOp:
			return o.n == 1
		case *chainOp:
			i := 0
			for ; i < len(o.ops)-1; i++ {
				if k, ok := o.ops[i].(keepOp); !ok || !wholeColumnTest(k.t) {
					break
				}
			}
			op = o.ops[i]
			continue
		}
		return false
	}
}

// wholeColumnTest reports whether t keeps or drops every cell of a column
// alike.
func wholeColumnTest(t cellTest) bool {
	switch t.(type) {
	case familyTest, qualifierTest, columnRangeTest:
		return true
	}
	return false
}

// maxLiterals bounds the strings finiteLanguage enumerates.
const maxLiterals = 64

// finiteLanguage returns every string that re (parsed from translateRegex's
// output, so each rune stands for the byte of the same value) can full-match,
// when there are at most maxLiterals of them; else ok is false. Anchors and
// word boundaries count as matching the empty string, which can only add
// strings: the result may hold some that re rejects, never miss one it
// accepts.
func finiteLanguage(re *syntax.Regexp) (lits []string, ok bool) {
	switch re.Op {
	case syntax.OpNoMatch:
		return []string{}, true
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return []string{""}, true
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return nil, false
		}
		b := make([]byte, len(re.Rune))
		for i, r := range re.Rune {
			if r > 0xff {
				return nil, false
			}
			b[i] = byte(r)
		}
		return []string{string(b)}, true
	case syntax.OpCharClass:
		for i := 0; i < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			if hi > 0xff || int(hi-lo)+1 > maxLiterals-len(lits) {
				return nil, false
			}
			for r := lo; r <= hi; r++ {
				lits = append(lits, string([]byte{byte(r)}))
			}
		}
		return lits, true
	case syntax.OpCapture:
		return finiteLanguage(re.Sub[0])
	case syntax.OpQuest:
		sub, ok := finiteLanguage(re.Sub[0])
		if !ok || len(sub) >= maxLiterals {
			return nil, false
		}
		return append(sub, ""), true
	case syntax.OpAlternate:
		for _, s := range re.Sub {
			sub, ok := finiteLanguage(s)
			if !ok || len(lits)+len(sub) > maxLiterals {
				return nil, false
			}
			lits = append(lits, sub...)
		}
		return lits, true
	case syntax.OpConcat:
		lits = []string{""}
		for _, s := range re.Sub {
			sub, ok := finiteLanguage(s)
			if !ok {
				return nil, false
			}
			if lits = concatLanguages(lits, sub); lits == nil {
				return nil, false
			}
		}
		return lits, true
	case syntax.OpRepeat:
		if re.Max < 0 {
			return nil, false
		}
		sub, ok := finiteLanguage(re.Sub[0])
		if !ok {
			return nil, false
		}
		power := []string{""}
		for range re.Min {
			if power = concatLanguages(power, sub); power == nil {
				return nil, false
			}
		}
		lits = power
		for range re.Max - re.Min {
			if power = concatLanguages(power, sub); power == nil || len(lits)+len(power) > maxLiterals {
				return nil, false
			}
			lits = append(lits, power...)
		}
		return lits, true
	}
	return nil, false // stars, pluses, any byte
}

// sortedUnique returns the strings as sorted, unique byte strings.
func sortedUnique(strs []string) [][]byte {
	slices.Sort(strs)
	strs = slices.Compact(strs)
	out := make([][]byte, len(strs))
	for i, s := range strs {
		out[i] = []byte(s)
	}
	return out
}

// concatLanguages returns every a+b, or nil when there would be more than
// maxLiterals.
func concatLanguages(as, bs []string) []string {
	if len(as)*len(bs) > maxLiterals {
		return nil
	}
	out := make([]string, 0, len(as)*len(bs))
	for _, a := range as {
		for _, b := range bs {
			out = append(out, a+b)
		}
	}
	return out
}
