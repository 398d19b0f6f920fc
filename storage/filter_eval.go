package storage

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"rsc.io/binaryregexp"
	"rsc.io/binaryregexp/syntax"
)

// maxFilterDepth is the deepest nesting of Chain, Interleave and Condition
// that Bigtable accepts (spec §2.3). A composite at the root has depth 1;
// leaves do not count.
const maxFilterDepth = 20

// maxLabelLen is the longest label ApplyLabel accepts.
const maxLabelLen = 15

// CompiledFilter is a validated Filter, with its regexes compiled, ready to
// evaluate row by row.
//
// A CompiledFilter keeps scratch buffers between calls so that evaluating a
// row allocates nothing once warmed up (ApplyLabel excepted: it allocates
// the labels it adds). It is therefore for one goroutine at a time; compile
// one per read.
type CompiledFilter struct {
	root    filterOp // nil passes every cell
	hasSink bool
	st      filterState
	merged  []Cell // scratch: root output merged with the sinks' output
	matched []Cell // scratch for Matches
}

// filterState is what the operators of one Apply share.
type filterState struct {
	rowKey []byte
	rnd    func() float64
	sunk   []Cell // cells that reached a Sink, in arrival order
}

// filterOp is one compiled filter node.
type filterOp interface {
	// apply appends the cells that in produces to dst and returns dst. It
	// never modifies in, and dst never overlaps in. An op runs at most once
	// per Apply, so it may keep scratch buffers of its own.
	apply(st *filterState, dst, in []Cell) []Cell
}

// CompileFilter validates f against the rules of spec §2.3 and compiles it.
// A nil f compiles to a filter that passes every cell. rnd feeds RowSample;
// nil means math/rand/v2's Float64. Every validation error wraps
// ErrInvalidArgument.
func CompileFilter(f Filter, rnd func() float64) (*CompiledFilter, error) {
	if rnd == nil {
		rnd = rand.Float64
	}
	cf := &CompiledFilter{st: filterState{rnd: rnd}}
	if isNilFilter(f) {
		return cf, nil
	}
	var c filterCompiler
	op, _, err := c.compile(f, 0, false)
	if err != nil {
		return nil, err
	}
	cf.root, cf.hasSink = op, c.sinks > 0
	return cf, nil
}

// Apply evaluates the filter on one row and returns the output cells
// appended to dst[:0]. cells must be in (family, qualifier, timestamp desc)
// order, and so is the output. Apply never modifies cells, their slices or
// their labels; dst must not overlap cells.
//
// Output cells share Qualifier and Value with the input (StripValue gives
// them an empty non-nil Value instead). Labels added by ApplyLabel are
// freshly allocated, one slice per cell, so the caller may keep them.
func (f *CompiledFilter) Apply(dst []Cell, rowKey []byte, cells []Cell) []Cell {
	dst = dst[:0]
	if f.root == nil {
		return append(dst, cells...)
	}
	if len(cells) == 0 {
		// No filter makes cells out of nothing.
		return dst
	}
	st := &f.st
	st.rowKey = rowKey
	st.sunk = st.sunk[:0]
	dst = f.root.apply(st, dst, cells)
	st.rowKey = nil
	if !f.hasSink || len(st.sunk) == 0 {
		return dst
	}
	// Sinks bypass every parent and join the final output. Sunk cells go
	// first so that, among equal cells, they precede the root's output, as
	// in the example of the Sink proto comment.
	m := append(f.merged[:0], st.sunk...)
	m = append(m, dst...)
	sortCells(m)
	f.merged = m
	return append(dst[:0], m...)
}

// Matches reports whether Apply would output at least one cell for the row.
// CheckAndMutateRow uses it for its predicate.
func (f *CompiledFilter) Matches(rowKey []byte, cells []Cell) bool {
	switch op := f.root.(type) {
	case nil:
		return len(cells) > 0
	case keepOp:
		return op.any(cells)
	}
	f.matched = f.Apply(f.matched, rowKey, cells)
	return len(f.matched) > 0
}

// sortCells stably sorts cells into row order.
func sortCells(cells []Cell) {
	cmp := func(a, b Cell) int { return compareCells(&a, &b) }
	if !slices.IsSortedFunc(cells, cmp) {
		slices.SortStableFunc(cells, cmp)
	}
}

// isNilFilter reports whether f is nil or a typed nil pointer.
func isNilFilter(f Filter) bool {
	if f == nil {
		return true
	}
	v := reflect.ValueOf(f)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// filterCompiler validates and compiles a Filter tree.
type filterCompiler struct {
	sinks int
}

func invalidFilter(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrInvalidArgument}, args...)...)
}

// compile compiles f, whose parent composite is at depth. inCond is set
// inside a Condition, where Sink is illegal. labels reports whether f
// applies a label anywhere inside it.
func (c *filterCompiler) compile(f Filter, depth int, inCond bool) (op filterOp, labels bool, err error) {
	switch f := f.(type) {
	case *Chain:
		return c.compileChain(f, depth+1, inCond)
	case *Interleave:
		return c.compileInterleave(f, depth+1, inCond)
	case *Condition:
		return c.compileCondition(f, depth+1)
	case *Sink:
		if inCond {
			return nil, false, invalidFilter("sink is not allowed inside a condition")
		}
		c.sinks++
		return sinkOp{}, false, nil
	case *ApplyLabel:
		if !validLabel(f.Label) {
			return nil, false, invalidFilter("label must be 1 to %d characters of [a-z0-9-], got %q", maxLabelLen, f.Label)
		}
		return labelOp{label: f.Label}, true, nil
	}
	op, err = compileLeaf(f)
	return op, false, err
}

// compileChildren compiles the filters of a Chain or Interleave.
func (c *filterCompiler) compileChildren(kind string, fs []Filter, depth int, inCond bool) ([]filterOp, int, error) {
	if depth > maxFilterDepth {
		return nil, 0, invalidFilter("filters are nested deeper than %d", maxFilterDepth)
	}
	if len(fs) < 2 {
		return nil, 0, invalidFilter("%s must contain at least two filters", kind)
	}
	ops := make([]filterOp, len(fs))
	labelled := 0
	for i, sub := range fs {
		if isNilFilter(sub) {
			return nil, 0, invalidFilter("%s filter #%d is nil", kind, i)
		}
		op, labels, err := c.compile(sub, depth, inCond)
		if err != nil {
			return nil, 0, err
		}
		ops[i] = op
		if labels {
			labelled++
		}
	}
	return ops, labelled, nil
}

func (c *filterCompiler) compileChain(f *Chain, depth int, inCond bool) (filterOp, bool, error) {
	ops, labelled, err := c.compileChildren("chain", f.Filters, depth, inCond)
	if err != nil {
		return nil, false, err
	}
	if labelled > 1 {
		return nil, false, invalidFilter("a chain may have at most one sub-filter that applies a label, got %d", labelled)
	}
	return &chainOp{ops: ops}, labelled > 0, nil
}

func (c *filterCompiler) compileInterleave(f *Interleave, depth int, inCond bool) (filterOp, bool, error) {
	ops, labelled, err := c.compileChildren("interleave", f.Filters, depth, inCond)
	if err != nil {
		return nil, false, err
	}
	return &interleaveOp{ops: ops}, labelled > 0, nil
}

func (c *filterCompiler) compileCondition(f *Condition, depth int) (filterOp, bool, error) {
	if depth > maxFilterDepth {
		return nil, false, invalidFilter("filters are nested deeper than %d", maxFilterDepth)
	}
	if isNilFilter(f.Predicate) {
		return nil, false, invalidFilter("condition predicate is nil")
	}
	op := &conditionOp{}
	var labels [3]bool
	var err error
	if op.pred, labels[0], err = c.compile(f.Predicate, depth, true); err != nil {
		return nil, false, err
	}
	if !isNilFilter(f.True) {
		if op.onTrue, labels[1], err = c.compile(f.True, depth, true); err != nil {
			return nil, false, err
		}
	}
	if !isNilFilter(f.False) {
		if op.onFalse, labels[2], err = c.compile(f.False, depth, true); err != nil {
			return nil, false, err
		}
	}
	return op, labels[0] || labels[1] || labels[2], nil
}

// compileLeaf validates and compiles a filter that has no sub-filters.
func compileLeaf(f Filter) (filterOp, error) {
	switch f := f.(type) {
	case *PassAll:
		return passOp{}, nil
	case *BlockAll:
		return blockOp{}, nil
	case *StripValue:
		return stripOp{}, nil
	case *RowKeyRegex:
		if len(f.Pattern) == 0 {
			return nil, invalidFilter("row key regex must not be empty")
		}
		m, err := compileRegex("row key", f.Pattern)
		return rowRegexOp{m}, err
	case *RowSample:
		if !(f.P > 0 && f.P < 1) {
			return nil, invalidFilter("row sample probability must be in (0, 1), got %v", f.P)
		}
		return sampleOp{f.P}, nil
	case *CellsPerRowOffset:
		if f.N < 0 {
			return nil, invalidFilter("cells per row offset must be >= 0, got %d", f.N)
		}
		return rowOffsetOp{f.N}, nil
	case *CellsPerRowLimit:
		if f.N <= 0 {
			return nil, invalidFilter("cells per row limit must be > 0, got %d", f.N)
		}
		return rowLimitOp{f.N}, nil
	case *CellsPerColumnLimit:
		if f.N <= 0 {
			return nil, invalidFilter("cells per column limit must be > 0, got %d", f.N)
		}
		return colLimitOp{f.N}, nil
	}
	t, err := compileCellTest(f)
	if err != nil {
		return nil, err
	}
	return keepOp{t}, nil
}

// compileCellTest compiles the filters that judge each cell on its own.
func compileCellTest(f Filter) (cellTest, error) {
	switch f := f.(type) {
	case *FamilyRegex:
		if strings.IndexByte(f.Pattern, ':') >= 0 {
			return nil, invalidFilter("family regex must not contain ':', got %q", f.Pattern)
		}
		m, err := compileRegex("family", []byte(f.Pattern))
		return familyTest{m}, err
	case *QualifierRegex:
		m, re, err := compileRegexSyntax("qualifier", f.Pattern)
		if err != nil {
			return nil, err
		}
		t := qualifierTest{m: m}
		if re == nil {
			t.lits = [][]byte{[]byte(m.lit)}
		} else if lits, ok := finiteLanguage(re); ok {
			t.lits = sortedUnique(lits)
		}
		return t, nil
	case *ValueRegex:
		m, err := compileRegex("value", f.Pattern)
		return valueTest{m}, err
	case *ColumnRange:
		r := byteRange{bytes.Clone(f.Start), f.StartOpen, bytes.Clone(f.End), f.EndClosed}
		if r.inverted() {
			return nil, invalidFilter("column range start %q is after end %q", f.Start, f.End)
		}
		return columnRangeTest{f.Family, r}, nil
	case *ValueRange:
		r := byteRange{bytes.Clone(f.Start), f.StartOpen, bytes.Clone(f.End), f.EndClosed}
		if r.inverted() {
			return nil, invalidFilter("value range start %q is after end %q", f.Start, f.End)
		}
		return valueRangeTest{r}, nil
	case *TimestampRange:
		if f.Start < 0 {
			return nil, invalidFilter("timestamp range start must be >= 0, got %d", f.Start)
		}
		if f.End != 0 && f.Start > f.End {
			return nil, invalidFilter("timestamp range start %d is after end %d", f.Start, f.End)
		}
		return tsRangeTest{f.Start, f.End}, nil
	case *ValueBitmask:
		return bitmaskTest{bytes.Clone(f.Mask)}, nil
	}
	return nil, invalidFilter("unknown filter type %T", f)
}

// validLabel reports whether s is 1..15 characters of [a-z0-9-].
func validLabel(s string) bool {
	if len(s) == 0 || len(s) > maxLabelLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// Composite operators.

type chainOp struct {
	ops  []filterOp
	bufs [2][]Cell // stage outputs, alternately
}

func (o *chainOp) apply(st *filterState, dst, in []Cell) []Cell {
	last := len(o.ops) - 1
	for i, op := range o.ops[:last] {
		out := op.apply(st, o.bufs[i&1][:0], in)
		o.bufs[i&1] = out
		if len(out) == 0 {
			return dst
		}
		in = out
	}
	return o.ops[last].apply(st, dst, in)
}

type interleaveOp struct {
	ops []filterOp
}

func (o *interleaveOp) apply(st *filterState, dst, in []Cell) []Cell {
	start := len(dst)
	for _, op := range o.ops {
		dst = op.apply(st, dst, in)
	}
	sortCells(dst[start:])
	return dst
}

type conditionOp struct {
	pred, onTrue, onFalse filterOp // a nil branch outputs nothing
	scratch               []Cell   // the predicate's output
}

func (o *conditionOp) apply(st *filterState, dst, in []Cell) []Cell {
	o.scratch = o.pred.apply(st, o.scratch[:0], in)
	branch := o.onFalse
	if len(o.scratch) > 0 {
		branch = o.onTrue
	}
	if branch == nil {
		return dst
	}
	return branch.apply(st, dst, in)
}

// sinkOp sends its input to the final output and nothing to its parent.
type sinkOp struct{}

func (sinkOp) apply(st *filterState, dst, in []Cell) []Cell {
	st.sunk = append(st.sunk, in...)
	return dst
}

// Whole-row and counting operators.

type passOp struct{}

func (passOp) apply(_ *filterState, dst, in []Cell) []Cell { return append(dst, in...) }

type blockOp struct{}

func (blockOp) apply(_ *filterState, dst, _ []Cell) []Cell { return dst }

type rowRegexOp struct{ m *regexMatcher }

func (o rowRegexOp) apply(st *filterState, dst, in []Cell) []Cell {
	if o.m.match(st.rowKey) {
		dst = append(dst, in...)
	}
	return dst
}

type sampleOp struct{ p float64 }

func (o sampleOp) apply(st *filterState, dst, in []Cell) []Cell {
	if st.rnd() < o.p {
		dst = append(dst, in...)
	}
	return dst
}

type rowOffsetOp struct{ n int64 }

func (o rowOffsetOp) apply(_ *filterState, dst, in []Cell) []Cell {
	if o.n < int64(len(in)) {
		dst = append(dst, in[o.n:]...)
	}
	return dst
}

type rowLimitOp struct{ n int64 }

func (o rowLimitOp) apply(_ *filterState, dst, in []Cell) []Cell {
	return append(dst, in[:min(o.n, int64(len(in)))]...)
}

// colLimitOp keeps the first n cells of each column as they arrive; the
// input is in row order, so a column's cells are adjacent.
type colLimitOp struct{ n int64 }

func (o colLimitOp) apply(_ *filterState, dst, in []Cell) []Cell {
	var seen int64
	for i := range in {
		if i == 0 || compareColumns(&in[i-1], &in[i]) != 0 {
			seen = 0
		}
		if seen++; seen <= o.n {
			dst = append(dst, in[i])
		}
	}
	return dst
}

// Transformers.

// emptyValue is the Value of a stripped cell: empty, non-nil and with no
// capacity, so sharing it is safe.
var emptyValue = []byte{}

type stripOp struct{}

func (stripOp) apply(_ *filterState, dst, in []Cell) []Cell {
	for _, c := range in {
		c.Value = emptyValue
		dst = append(dst, c)
	}
	return dst
}

type labelOp struct{ label string }

// apply gives each cell a fresh Labels slice, cut with full capacity from
// one allocation per call so that appending to it never touches another
// cell's labels.
func (o labelOp) apply(_ *filterState, dst, in []Cell) []Cell {
	n := 0
	for i := range in {
		n += len(in[i].Labels) + 1
	}
	arena := make([]string, n)
	for _, c := range in {
		k := len(c.Labels) + 1
		l := arena[:k:k]
		arena = arena[k:]
		copy(l, c.Labels)
		l[k-1] = o.label
		c.Labels = l
		dst = append(dst, c)
	}
	return dst
}

// Per-cell filters.

// cellTest is a filter that judges each cell on its own.
type cellTest interface {
	keep(c *Cell) bool
}

type keepOp struct{ t cellTest }

func (o keepOp) apply(_ *filterState, dst, in []Cell) []Cell {
	for i := range in {
		if o.t.keep(&in[i]) {
			dst = append(dst, in[i])
		}
	}
	return dst
}

// any reports whether some cell passes.
func (o keepOp) any(in []Cell) bool {
	for i := range in {
		if o.t.keep(&in[i]) {
			return true
		}
	}
	return false
}

type familyTest struct{ m *regexMatcher }

func (t familyTest) keep(c *Cell) bool { return t.m.matchString(c.Family) }

type qualifierTest struct {
	m    *regexMatcher
	lits [][]byte // every qualifier m can match, sorted, when known (readColumns)
}

func (t qualifierTest) keep(c *Cell) bool { return t.m.match(c.Qualifier) }

type valueTest struct{ m *regexMatcher }

func (t valueTest) keep(c *Cell) bool { return t.m.match(c.Value) }

type columnRangeTest struct {
	family string
	r      byteRange
}

func (t columnRangeTest) keep(c *Cell) bool {
	return c.Family == t.family && t.r.contains(c.Qualifier)
}

type valueRangeTest struct{ r byteRange }

func (t valueRangeTest) keep(c *Cell) bool { return t.r.contains(c.Value) }

// tsRangeTest passes start <= ts < end; end 0 means +∞.
type tsRangeTest struct{ start, end int64 }

func (t tsRangeTest) keep(c *Cell) bool {
	return c.Timestamp >= t.start && (t.end == 0 || c.Timestamp < t.end)
}

type bitmaskTest struct{ mask []byte }

func (t bitmaskTest) keep(c *Cell) bool {
	if len(c.Value) != len(t.mask) {
		return false
	}
	for i, m := range t.mask {
		if c.Value[i]&m != m {
			return false
		}
	}
	return true
}

// byteRange is a byte-lexicographic range. A nil start means "" inclusive
// (startOpen is then ignored); a nil end means +∞.
type byteRange struct {
	start     []byte
	startOpen bool
	end       []byte
	endClosed bool
}

func (r *byteRange) contains(b []byte) bool {
	if r.start != nil {
		if c := bytes.Compare(b, r.start); c < 0 || c == 0 && r.startOpen {
			return false
		}
	}
	if r.end != nil {
		if c := bytes.Compare(b, r.end); c > 0 || c == 0 && !r.endClosed {
			return false
		}
	}
	return true
}

// inverted reports whether start sorts after end. An empty range such as
// ["a", "a") is not inverted.
func (r *byteRange) inverted() bool {
	return r.start != nil && r.end != nil && bytes.Compare(r.start, r.end) > 0
}

// Regexes.

// regexMetachars are the bytes that make a pattern more than a literal.
const regexMetachars = `\.+*?()|[]{}^$`

// regexMatcher full-matches bytes against an RE2 pattern in Latin-1 mode.
// Patterns without metacharacters are compared as literals.
type regexMatcher struct {
	re  *binaryregexp.Regexp // nil: the pattern is lit
	lit string
}

func (m *regexMatcher) match(b []byte) bool {
	if m.re == nil {
		return string(b) == m.lit
	}
	return m.re.Match(b)
}

func (m *regexMatcher) matchString(s string) bool {
	if m.re == nil {
		return s == m.lit
	}
	return m.re.MatchString(s)
}

// compileRegex compiles pat for full matching against raw bytes. what names
// the filter in errors.
func compileRegex(what string, pat []byte) (*regexMatcher, error) {
	m, _, err := compileRegexSyntax(what, pat)
	return m, err
}

// compileRegexSyntax is compileRegex that also returns the parsed pattern,
// in translateRegex's terms; it is nil for a literal.
func compileRegexSyntax(what string, pat []byte) (*regexMatcher, *syntax.Regexp, error) {
	if !bytes.ContainsAny(pat, regexMetachars) {
		return &regexMatcher{lit: string(pat)}, nil, nil
	}
	expr := translateRegex(pat)
	// Check the pattern on its own first, so that wrapping it cannot
	// change its meaning: "a)|(b" is invalid, not "\A(?:a)|(b)\z".
	parsed, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, nil, invalidRegex(what, pat, err)
	}
	re, err := binaryregexp.Compile(`\A(?:` + expr + `)\z`)
	if err != nil {
		return nil, nil, invalidRegex(what, pat, err)
	}
	return &regexMatcher{re: re}, parsed, nil
}

func invalidRegex(what string, pat []byte, err error) error {
	msg := err.Error()
	if se, ok := err.(*syntax.Error); ok {
		msg = string(se.Code)
	}
	return invalidFilter("invalid %s regex %q: %s", what, pat, msg)
}

// translateRegex turns an RE2 Latin-1 pattern into the UTF-8 syntax
// binaryregexp parses: each byte >= 0x80 becomes the rune of the same value
// (which binaryregexp matches against that byte), and \C, "any byte", which
// binaryregexp lacks, becomes (?s:.). \C is left alone inside a character
// class, where it is invalid, and inside \Q...\E, where it is literal. An
// unterminated \Q gets its \E so that the caller's wrapping stays outside.
func translateRegex(pat []byte) string {
	var b strings.Builder
	b.Grow(len(pat) + 8)
	inClass := false
	for i := 0; i < len(pat); i++ {
		c := pat[i]
		switch {
		case c == '\\' && i+1 < len(pat):
			i++
			switch next := pat[i]; {
			case next == 'C' && !inClass:
				b.WriteString(`(?s:.)`)
			case next == 'Q' && !inClass:
				lit := pat[i+1:]
				end := bytes.Index(lit, []byte(`\E`))
				if end < 0 {
					end = len(lit)
				}
				b.WriteString(`\Q`)
				writeLatin1(&b, lit[:end])
				b.WriteString(`\E`)
				i += end + 2 // past \E, or past the end
			default:
				b.WriteByte('\\')
				writeLatin1(&b, pat[i:i+1])
			}
			continue
		case c == '[' && !inClass:
			inClass = true
			b.WriteByte(c)
			// A leading ^ and then a leading ] are part of the class.
			if i+1 < len(pat) && pat[i+1] == '^' {
				i++
				b.WriteByte('^')
			}
			if i+1 < len(pat) && pat[i+1] == ']' {
				i++
				b.WriteByte(']')
			}
			continue
		case c == '[' && inClass && i+1 < len(pat) && pat[i+1] == ':':
			// A POSIX class such as [:alpha:] may contain ']'.
			if end := bytes.Index(pat[i+2:], []byte(":]")); end >= 0 {
				writeLatin1(&b, pat[i:i+2+end+2])
				i += 2 + end + 1
				continue
			}
		case c == ']' && inClass:
			inClass = false
		}
		writeLatin1(&b, pat[i:i+1])
	}
	return b.String()
}

// writeLatin1 writes bytes as the runes of the same values.
func writeLatin1(b *strings.Builder, p []byte) {
	for _, c := range p {
		if c < utf8.RuneSelf {
			b.WriteByte(c)
		} else {
			b.WriteRune(rune(c))
		}
	}
}

// PassesAll reports whether the filter passes every cell unchanged (no
// filter, or a nil *CompiledFilter), so readers can skip Apply.
func (f *CompiledFilter) PassesAll() bool { return f == nil || f.root == nil }
