package storage

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The filter text syntax, used by tests and for debugging. FormatFilter
// prints it and ParseFilter reads it; ParseFilter(FormatFilter(f)) is
// equivalent to f, and FormatFilter's output is canonical, so printing what
// was parsed from canonical text gives the same text.
//
//	filter  = "none"                                   nil (a missing filter)
//	        | "pass" | "block" | "sink" | "strip"      PassAll, BlockAll, Sink, StripValue
//	        | "chain(" [filters] ")"                   Chain
//	        | "interleave(" [filters] ")"              Interleave
//	        | "condition(" filter "," filter "," filter ")"
//	                                                   Condition(predicate, true, false)
//	        | "row-regex(" str ")"                     RowKeyRegex
//	        | "sample(" float ")"                      RowSample
//	        | "family(" str ")"                        FamilyRegex
//	        | "qual(" str ")"                          QualifierRegex
//	        | "col-range(" str "," range ")"           ColumnRange(family, qualifiers)
//	        | "ts-range(" int "," (int | "*") ")"      TimestampRange; * is End 0 (+∞)
//	        | "value-regex(" str ")"                   ValueRegex
//	        | "value-range(" range ")"                 ValueRange
//	        | "row-offset(" int ")"                    CellsPerRowOffset
//	        | "row-limit(" int ")"                     CellsPerRowLimit
//	        | "col-limit(" int ")"                     CellsPerColumnLimit
//	        | "label(" str ")"                         ApplyLabel
//	        | "bitmask(" str ")"                       ValueBitmask
//	filters = filter { "," filter }
//	range   = ("[" | "(") bound "," bound ("]" | ")")  [ closed, ( open; ] closed, ) open
//	bound   = str | "*"                                * is an unset (nil) bound
//	str     = a Go string literal, "..." or `...`      (strconv.Unquote), raw bytes
//	int     = a decimal int64;  float = a Go float64 (strconv.ParseFloat)
//
// Spaces, tabs and newlines may appear between tokens. FormatFilter separates
// arguments with ", ", prints `...` for printable-ASCII text containing a
// backslash (regexes read better that way) and "..." otherwise, with every
// byte outside printable ASCII escaped as \xNN (or \t, \n, \r).
//
// Example: chain(family("f"), col-range("f", ["a", *)), label("x")).

// maxParseDepth bounds the nesting ParseFilter accepts, well above the
// depth CompileFilter allows, so that tests can still build too-deep
// filters.
const maxParseDepth = 1000

// FormatFilter renders f in the filter text syntax. A nil f is "none".
func FormatFilter(f Filter) string {
	return string(appendFilter(nil, f))
}

// appendFilter appends the text form of f to b.
func appendFilter(b []byte, f Filter) []byte {
	if isNilFilter(f) {
		return append(b, "none"...)
	}
	switch f := f.(type) {
	case *Chain:
		return appendFilterList(append(b, "chain("...), f.Filters)
	case *Interleave:
		return appendFilterList(append(b, "interleave("...), f.Filters)
	case *Condition:
		return appendFilterList(append(b, "condition("...), []Filter{f.Predicate, f.True, f.False})
	case *Sink:
		return append(b, "sink"...)
	case *PassAll:
		return append(b, "pass"...)
	case *BlockAll:
		return append(b, "block"...)
	case *StripValue:
		return append(b, "strip"...)
	case *RowKeyRegex:
		return appendCall(b, "row-regex", f.Pattern)
	case *RowSample:
		return append(strconv.AppendFloat(append(b, "sample("...), f.P, 'g', -1, 64), ')')
	case *FamilyRegex:
		return appendCall(b, "family", []byte(f.Pattern))
	case *QualifierRegex:
		return appendCall(b, "qual", f.Pattern)
	case *ColumnRange:
		b = appendFilterString(append(b, "col-range("...), []byte(f.Family))
		b = appendRange(append(b, ", "...), f.Start, f.StartOpen, f.End, f.EndClosed)
		return append(b, ')')
	case *TimestampRange:
		b = strconv.AppendInt(append(b, "ts-range("...), f.Start, 10)
		if f.End == 0 {
			return append(b, ", *)"...)
		}
		return append(strconv.AppendInt(append(b, ", "...), f.End, 10), ')')
	case *ValueRegex:
		return appendCall(b, "value-regex", f.Pattern)
	case *ValueRange:
		b = appendRange(append(b, "value-range("...), f.Start, f.StartOpen, f.End, f.EndClosed)
		return append(b, ')')
	case *CellsPerRowOffset:
		return appendIntCall(b, "row-offset", f.N)
	case *CellsPerRowLimit:
		return appendIntCall(b, "row-limit", f.N)
	case *CellsPerColumnLimit:
		return appendIntCall(b, "col-limit", f.N)
	case *ApplyLabel:
		return appendCall(b, "label", []byte(f.Label))
	case *ValueBitmask:
		return appendCall(b, "bitmask", f.Mask)
	}
	return fmt.Appendf(b, "unknown(%T)", f)
}

func appendFilterList(b []byte, fs []Filter) []byte {
	for i, f := range fs {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = appendFilter(b, f)
	}
	return append(b, ')')
}

func appendCall(b []byte, name string, arg []byte) []byte {
	b = append(append(b, name...), '(')
	return append(appendFilterString(b, arg), ')')
}

func appendIntCall(b []byte, name string, n int64) []byte {
	b = append(append(b, name...), '(')
	return append(strconv.AppendInt(b, n, 10), ')')
}

func appendRange(b []byte, start []byte, startOpen bool, end []byte, endClosed bool) []byte {
	b = append(b, "(["[boolIndex(!startOpen)])
	b = appendBound(b, start)
	b = appendBound(append(b, ", "...), end)
	return append(b, ")]"[boolIndex(endClosed)])
}

func boolIndex(v bool) int {
	if v {
		return 1
	}
	return 0
}

func appendBound(b, bound []byte) []byte {
	if bound == nil {
		return append(b, '*')
	}
	return appendFilterString(b, bound)
}

// appendFilterString appends s as a Go string literal in the canonical form
// described in the grammar comment.
func appendFilterString(b, s []byte) []byte {
	raw := strings.IndexByte(string(s), '\\') >= 0
	for _, c := range s {
		if c < 0x20 || c > 0x7e || c == '`' {
			raw = false
			break
		}
	}
	if raw {
		return append(append(append(b, '`'), s...), '`')
	}
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for _, c := range s {
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, `\n`...)
		case c == '\t':
			b = append(b, `\t`...)
		case c == '\r':
			b = append(b, `\r`...)
		case c < 0x20 || c > 0x7e:
			b = append(b, '\\', 'x', hex[c>>4], hex[c&0xf])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// ParseFilter parses the filter text syntax; "none" gives a nil Filter. It
// checks syntax only: CompileFilter validates. Errors wrap
// ErrInvalidArgument.
func ParseFilter(s string) (Filter, error) {
	p := &filterParser{s: s}
	f := p.filter()
	if p.err == nil {
		if p.skipSpace(); p.pos < len(p.s) {
			p.failf("unexpected %q after the filter", p.s[p.pos:])
		}
	}
	if p.err != nil {
		return nil, p.err
	}
	return f, nil
}

// filterParser is a recursive-descent parser for the filter text syntax.
// After the first error every method is a no-op and p.err holds it.
type filterParser struct {
	s     string
	pos   int
	depth int
	err   error
}

func (p *filterParser) failf(format string, args ...any) {
	if p.err == nil {
		p.err = fmt.Errorf("%w: filter text at offset %d: %s", ErrInvalidArgument, p.pos, fmt.Sprintf(format, args...))
	}
}

func (p *filterParser) skipSpace() {
	for p.pos < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.pos]) >= 0 {
		p.pos++
	}
}

// peek returns the next non-space byte, or 0 at the end.
func (p *filterParser) peek() byte {
	p.skipSpace()
	if p.err != nil || p.pos == len(p.s) {
		return 0
	}
	return p.s[p.pos]
}

// accept consumes c if it is next.
func (p *filterParser) accept(c byte) bool {
	if p.peek() == c && c != 0 {
		p.pos++
		return true
	}
	return false
}

func (p *filterParser) expect(c byte) {
	if !p.accept(c) && p.err == nil {
		p.failf("expected %q", c)
	}
}

// word consumes a keyword or number: a run of [A-Za-z0-9._+-].
func (p *filterParser) word() string {
	p.skipSpace()
	start := p.pos
	for p.pos < len(p.s) && isWordByte(p.s[p.pos]) {
		p.pos++
	}
	return p.s[start:p.pos]
}

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("._+-", c) >= 0
}

func (p *filterParser) str() []byte {
	if q := p.peek(); q != '"' && q != '`' {
		p.failf("expected a quoted string")
		return nil
	}
	lit, err := strconv.QuotedPrefix(p.s[p.pos:])
	if err != nil {
		p.failf("bad quoted string")
		return nil
	}
	s, err := strconv.Unquote(lit)
	if err != nil {
		p.failf("bad quoted string %s", lit)
		return nil
	}
	p.pos += len(lit)
	return []byte(s)
}

func (p *filterParser) int() int64 {
	p.skipSpace()
	start := p.pos
	w := p.word()
	n, err := strconv.ParseInt(w, 10, 64)
	if err != nil {
		p.pos = start
		p.failf("expected an integer, got %q", w)
	}
	return n
}

func (p *filterParser) float() float64 {
	p.skipSpace()
	start := p.pos
	w := p.word()
	v, err := strconv.ParseFloat(w, 64)
	if err != nil {
		p.pos = start
		p.failf("expected a number, got %q", w)
	}
	return v
}

// filter parses one filter.
func (p *filterParser) filter() Filter {
	if p.depth++; p.depth > maxParseDepth {
		p.failf("filters nested deeper than %d", maxParseDepth)
	}
	defer func() { p.depth-- }()
	if p.err != nil {
		return nil
	}
	start := p.pos
	name := p.word()
	if f, ok := parseConstFilter(name); ok {
		return f
	}
	if !slices.Contains(callFilterNames, name) {
		p.pos = start
		if name == "" {
			p.failf("expected a filter")
		} else {
			p.failf("unknown filter %q", name)
		}
		return nil
	}
	p.expect('(')
	f := p.callArgs(name)
	p.expect(')')
	if p.err != nil {
		return nil
	}
	return f
}

// callFilterNames are the filters written name(...), as callArgs parses
// them.
var callFilterNames = []string{
	"chain", "interleave", "condition", "row-regex", "sample", "family", "qual", "col-range",
	"ts-range", "value-regex", "value-range", "row-offset", "row-limit", "col-limit", "label", "bitmask",
}

// parseConstFilter returns the filter named by an argument-less keyword.
func parseConstFilter(name string) (Filter, bool) {
	switch name {
	case "none":
		return nil, true
	case "pass":
		return &PassAll{}, true
	case "block":
		return &BlockAll{}, true
	case "sink":
		return &Sink{}, true
	case "strip":
		return &StripValue{}, true
	}
	return nil, false
}

// callArgs parses the arguments of name(...) up to, not including, the
// closing parenthesis. name is one of callFilterNames.
func (p *filterParser) callArgs(name string) Filter {
	switch name {
	case "chain":
		return &Chain{Filters: p.filterList()}
	case "interleave":
		return &Interleave{Filters: p.filterList()}
	case "condition":
		c := &Condition{Predicate: p.filter()}
		p.expect(',')
		c.True = p.filter()
		p.expect(',')
		c.False = p.filter()
		return c
	case "row-regex":
		return &RowKeyRegex{Pattern: p.str()}
	case "sample":
		return &RowSample{P: p.float()}
	case "family":
		return &FamilyRegex{Pattern: string(p.str())}
	case "qual":
		return &QualifierRegex{Pattern: p.str()}
	case "col-range":
		r := &ColumnRange{Family: string(p.str())}
		p.expect(',')
		r.Start, r.StartOpen, r.End, r.EndClosed = p.byteRange()
		return r
	case "ts-range":
		r := &TimestampRange{Start: p.int()}
		p.expect(',')
		if !p.accept('*') {
			r.End = p.int()
		}
		return r
	case "value-regex":
		return &ValueRegex{Pattern: p.str()}
	case "value-range":
		r := &ValueRange{}
		r.Start, r.StartOpen, r.End, r.EndClosed = p.byteRange()
		return r
	case "row-offset":
		return &CellsPerRowOffset{N: p.int()}
	case "row-limit":
		return &CellsPerRowLimit{N: p.int()}
	case "col-limit":
		return &CellsPerColumnLimit{N: p.int()}
	case "label":
		return &ApplyLabel{Label: string(p.str())}
	case "bitmask":
		return &ValueBitmask{Mask: p.str()}
	}
	return nil
}

// filterList parses zero or more comma-separated filters.
func (p *filterParser) filterList() []Filter {
	if p.peek() == ')' {
		return nil
	}
	fs := []Filter{p.filter()}
	for p.err == nil && p.accept(',') {
		fs = append(fs, p.filter())
	}
	return fs
}

// byteRange parses a range: [ or (, two bounds, ] or ).
func (p *filterParser) byteRange() (start []byte, startOpen bool, end []byte, endClosed bool) {
	switch {
	case p.accept('('):
		startOpen = true
	case !p.accept('['):
		p.failf("expected '[' or '('")
	}
	start = p.bound()
	p.expect(',')
	end = p.bound()
	switch {
	case p.accept(']'):
		endClosed = true
	case !p.accept(')'):
		p.failf("expected ']' or ')'")
	}
	return start, startOpen, end, endClosed
}

// bound parses a range bound: a string, or * for nil.
func (p *filterParser) bound() []byte {
	if p.accept('*') {
		return nil
	}
	return p.str()
}
