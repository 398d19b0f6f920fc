package storage

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"
)

// Parsing and printing helpers of TestEngineDataDriven (syntax documented in
// engine_test.go).

// ddResult prints "ok" for nil, else the error.
func ddResult(err error) string {
	if err == nil {
		return "ok"
	}
	return ddError(err)
}

func ddError(err error) string { return "error: " + err.Error() }

// ddArg returns the single value of a required argument.
func ddArg(t *testing.T, td *datadriven.TestData, key string) string {
	arg, ok := td.Arg(key)
	if !ok {
		td.Fatalf(t, "missing argument %s=", key)
	}
	return arg.SingleVal(t)
}

// ddArgBytes parses a required argument as a byte string.
func ddArgBytes(t *testing.T, td *datadriven.TestData, key string) []byte {
	b, err := ddParseBytesAll(ddArg(t, td, key))
	if err != nil {
		td.Fatalf(t, "%s: %v", key, err)
	}
	return b
}

func ddInstance(td *datadriven.TestData) string {
	if arg, ok := td.Arg("instance"); ok && len(arg.Vals) == 1 {
		return arg.Vals[0]
	}
	return "i"
}

func ddTarget(t *testing.T, td *datadriven.TestData) Target {
	tgt := Target{Instance: ddInstance(td), Table: ddArg(t, td, "table")}
	if td.HasArg("view") {
		tgt.View = ddArg(t, td, "view")
	}
	return tgt
}

// ddLines returns the non-empty input lines, trimmed, without # comments.
func ddLines(input string) []string {
	var out []string
	for _, l := range strings.Split(input, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		out = append(out, l)
	}
	return out
}

// ddParseBytes reads a byte string off the front of s: a Go-quoted string
// (optionally followed by *N, N repetitions) or the bare text up to the first
// byte of stops.
func ddParseBytes(s, stops string) (val []byte, rest string, err error) {
	if s != "" && (s[0] == '"' || s[0] == '`') {
		lit, err := strconv.QuotedPrefix(s)
		if err != nil {
			return nil, "", fmt.Errorf("bad quoted string in %q", s)
		}
		v, err := strconv.Unquote(lit)
		if err != nil {
			return nil, "", fmt.Errorf("bad quoted string %s", lit)
		}
		rest = s[len(lit):]
		if len(rest) > 1 && rest[0] == '*' && '0' <= rest[1] && rest[1] <= '9' {
			i := 1
			for i < len(rest) && '0' <= rest[i] && rest[i] <= '9' {
				i++
			}
			n, _ := strconv.Atoi(rest[1:i])
			v, rest = strings.Repeat(v, n), rest[i:]
		}
		return []byte(v), rest, nil
	}
	i := strings.IndexAny(s, stops)
	if i < 0 {
		i = len(s)
	}
	return []byte(s[:i]), s[i:], nil
}

// ddParseBytesAll parses s as exactly one byte string.
func ddParseBytesAll(s string) ([]byte, error) {
	v, rest, err := ddParseBytes(s, "")
	if err == nil && rest != "" {
		err = fmt.Errorf("unexpected %q after the string", rest)
	}
	return v, err
}

// ddWord is one space-separated byte string; star marks a trailing * (a
// prefix).
type ddWord struct {
	b    []byte
	star bool
}

func ddParseWords(s string) ([]ddWord, error) {
	var out []ddWord
	for {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			return out, nil
		}
		v, rest, err := ddParseBytes(s, " \t")
		if err != nil {
			return nil, err
		}
		w := ddWord{b: v}
		if strings.HasPrefix(rest, "*") {
			w.star, rest = true, rest[1:]
		} else if s[0] != '"' && s[0] != '`' && bytes.HasSuffix(v, []byte("*")) {
			w.star, w.b = true, v[:len(v)-1]
		}
		if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
			return nil, fmt.Errorf("unexpected %q", rest)
		}
		out = append(out, w)
		s = rest
	}
}

// ddParseColumn reads family:qualifier off the front of s; a bare qualifier
// ends at @, = or a space.
func ddParseColumn(s string) (family string, qual []byte, rest string, err error) {
	family, rest, ok := strings.Cut(s, ":")
	if !ok || family == "" {
		return "", nil, "", fmt.Errorf("want family:qualifier, got %q", s)
	}
	qual, rest, err = ddParseBytes(rest, "@= \t")
	return family, qual, rest, err
}

// ddParseMutations parses mutation lines; a syntax error fails the test.
func ddParseMutations(t *testing.T, td *datadriven.TestData, lines []string) []Mutation {
	var out []Mutation
	for _, line := range lines {
		m, err := ddParseMutation(line)
		if err != nil {
			td.Fatalf(t, "%s: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

func ddParseMutation(line string) (Mutation, error) {
	kind, rest, _ := strings.Cut(line, " ")
	rest = strings.TrimSpace(rest)
	switch kind {
	case "delete-row":
		if rest != "" {
			return Mutation{}, fmt.Errorf("unexpected %q", rest)
		}
		return Mutation{Kind: DeleteFromRow}, nil
	case "delete-family":
		return Mutation{Kind: DeleteFromFamily, Family: rest}, nil
	case "delete-column":
		fam, qual, rest, err := ddParseColumn(rest)
		if err != nil {
			return Mutation{}, err
		}
		m := Mutation{Kind: DeleteFromColumn, Family: fam, Qualifier: qual}
		if rest = strings.TrimSpace(rest); rest != "" {
			m.TimeRange, err = ddParseTimeRange(rest)
		}
		return m, err
	case "set", "add", "merge":
	default:
		return Mutation{}, fmt.Errorf("unknown mutation %q", kind)
	}
	fam, qual, rest, err := ddParseColumn(rest)
	if err != nil {
		return Mutation{}, err
	}
	if !strings.HasPrefix(rest, "@") {
		return Mutation{}, fmt.Errorf("missing @timestamp")
	}
	tsText, val, ok := strings.Cut(rest[1:], "=")
	if !ok {
		return Mutation{}, fmt.Errorf("missing =value")
	}
	m := Mutation{Family: fam, Qualifier: qual}
	if t, ok := strings.CutPrefix(tsText, "~"); ok {
		m.AutoTimestamp, tsText = true, t
	}
	if m.Timestamp, err = strconv.ParseInt(tsText, 10, 64); err != nil {
		return Mutation{}, err
	}
	switch kind {
	case "set":
		m.Kind = SetCell
		m.Value, err = ddParseBytesAll(val)
		if m.Value == nil {
			m.Value = []byte{}
		}
	case "add":
		m.Kind = AddToCell
		m.Int64Input, err = strconv.ParseInt(val, 10, 64)
	case "merge":
		m.Kind = MergeToCell
		switch {
		case val == "null":
		case strings.HasPrefix(val, "0x"):
			m.Value, err = hex.DecodeString(val[2:])
			if m.Value == nil {
				m.Value = []byte{}
			}
		default:
			err = fmt.Errorf("merge input must be 0xHEX or null, got %q", val)
		}
	}
	return m, err
}

// ddParseTimeRange parses [start,end) with * for an unbounded end (0).
func ddParseTimeRange(s string) (TimeRange, error) {
	if !strings.HasPrefix(s, "[") || !strings.HasSuffix(s, ")") {
		return TimeRange{}, fmt.Errorf("time range must look like [start,end), got %q", s)
	}
	a, b, ok := strings.Cut(s[1:len(s)-1], ",")
	if !ok {
		return TimeRange{}, fmt.Errorf("time range needs a comma: %q", s)
	}
	var r TimeRange
	var err error
	if r.Start, err = strconv.ParseInt(strings.TrimSpace(a), 10, 64); err != nil {
		return r, err
	}
	if b = strings.TrimSpace(b); b != "*" {
		r.End, err = strconv.ParseInt(b, 10, 64)
	}
	return r, err
}

// ddParseRowRange parses [a,b) (a,b] [a,+inf) and the like; an empty, * or
// ±inf bound is unset.
func ddParseRowRange(s string) (RowRange, error) {
	var r RowRange
	if len(s) < 3 || strings.IndexByte("[(", s[0]) < 0 || strings.IndexByte("])", s[len(s)-1]) < 0 {
		return r, fmt.Errorf("row range must look like [a,b), got %q", s)
	}
	r.StartOpen, r.EndClosed = s[0] == '(', s[len(s)-1] == ']'
	body := strings.TrimSpace(s[1 : len(s)-1])
	start, rest, err := ddParseBytes(body, ",")
	if err != nil {
		return r, err
	}
	rawStart := body[:len(body)-len(rest)]
	rest = strings.TrimSpace(rest)
	if !strings.HasPrefix(rest, ",") {
		return r, fmt.Errorf("row range needs a comma: %q", s)
	}
	rawEnd := strings.TrimSpace(rest[1:])
	end, err := ddParseBytesAll(rawEnd)
	if err != nil {
		return r, err
	}
	unbounded := func(raw string) bool {
		raw = strings.TrimSpace(raw)
		return raw == "" || raw == "*" || raw == "+inf" || raw == "-inf"
	}
	if !unbounded(rawStart) {
		r.Start = start
	}
	if !unbounded(rawEnd) {
		r.End = end
	}
	return r, nil
}

// ddParseFamilyLine parses "<name> [<gc rule>] [sum|min|max|plain]"; the
// second result says whether the aggregate was given.
func ddParseFamilyLine(line string) (Family, bool, error) {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return Family{}, false, fmt.Errorf("empty family line")
	}
	f := Family{Name: fields[0]}
	fields = fields[1:]
	checkAgg := false
	if n := len(fields); n > 0 {
		agg, ok := map[string]Aggregator{"sum": Sum, "min": Min, "max": Max, "plain": NoAggregate}[fields[n-1]]
		if ok {
			f.Aggregate, checkAgg, fields = agg, true, fields[:n-1]
		}
	}
	if len(fields) > 0 {
		p := &ddGCParser{s: strings.Join(fields, " ")}
		f.GC = p.rule()
		if p.err == nil && strings.TrimSpace(p.s[p.pos:]) != "" {
			p.err = fmt.Errorf("unexpected %q after the gc rule", p.s[p.pos:])
		}
		if p.err != nil {
			return Family{}, false, p.err
		}
	}
	return f, checkAgg, nil
}

// ddGCParser parses never | versions(N) | age(dur) | union(...) |
// intersection(...).
type ddGCParser struct {
	s   string
	pos int
	err error
}

func (p *ddGCParser) fail(format string, args ...any) {
	if p.err == nil {
		p.err = fmt.Errorf("gc rule at %d: %s", p.pos, fmt.Sprintf(format, args...))
	}
}

func (p *ddGCParser) skip() {
	for p.pos < len(p.s) && p.s[p.pos] == ' ' {
		p.pos++
	}
}

func (p *ddGCParser) expect(c byte) {
	p.skip()
	if p.pos < len(p.s) && p.s[p.pos] == c {
		p.pos++
		return
	}
	p.fail("expected %q", c)
}

// until returns the text up to the next byte in stops.
func (p *ddGCParser) until(stops string) string {
	p.skip()
	start := p.pos
	for p.pos < len(p.s) && strings.IndexByte(stops, p.s[p.pos]) < 0 {
		p.pos++
	}
	return strings.TrimSpace(p.s[start:p.pos])
}

func (p *ddGCParser) rule() GCPolicy {
	if p.err != nil {
		return GCPolicy{}
	}
	name := p.until("(, )")
	switch name {
	case "never":
		return GCPolicy{}
	case "versions":
		p.expect('(')
		n, err := strconv.ParseInt(p.until(")"), 10, 64)
		if err != nil {
			p.fail("%v", err)
		}
		p.expect(')')
		return GCPolicy{Kind: GCMaxVersions, MaxVersions: n}
	case "age":
		p.expect('(')
		d, err := time.ParseDuration(p.until(")"))
		if err != nil {
			p.fail("%v", err)
		}
		p.expect(')')
		return GCPolicy{Kind: GCMaxAge, MaxAge: d}
	case "union", "intersection":
		g := GCPolicy{Kind: GCUnion}
		if name == "intersection" {
			g.Kind = GCIntersection
		}
		p.expect('(')
		for p.err == nil {
			if p.skip(); p.pos < len(p.s) && p.s[p.pos] == ')' {
				break
			}
			g.Rules = append(g.Rules, p.rule())
			if p.skip(); p.pos < len(p.s) && p.s[p.pos] == ',' {
				p.pos++
			}
		}
		p.expect(')')
		return g
	}
	p.fail("unknown gc rule %q", name)
	return GCPolicy{}
}

// ddQuote prints a byte string as Cell.String does, abbreviating long ones.
func ddQuote(b []byte) string {
	if len(b) > 64 {
		return fmt.Sprintf("%s…(%d bytes)", quoteBytes(b[:16]), len(b))
	}
	return quoteBytes(b)
}

// ddCell prints a cell with Cell.String, abbreviating long qualifiers and
// values; an 8-byte value that needs quoting (an Int64 aggregate state or a
// counter) is followed by its big-endian int64 reading.
func ddCell(c Cell) string {
	var s string
	if len(c.Qualifier) <= 64 && len(c.Value) <= 64 {
		s = c.String()
	} else {
		s = fmt.Sprintf("%s:%s@%d=%s", c.Family, ddQuote(c.Qualifier), c.Timestamp, ddQuote(c.Value))
		if len(c.Labels) > 0 {
			s += " [" + strings.Join(c.Labels, ",") + "]"
		}
	}
	if len(c.Value) == 8 && quoteBytes(c.Value)[0] == '"' {
		s += fmt.Sprintf(" (int64 %d)", int64(binary.BigEndian.Uint64(c.Value)))
	}
	return s
}

// ddDescribeTable prints a table's schema deterministically.
func ddDescribeTable(t *Table) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s granularity=%s", t.Name, t.Granularity)
	if t.DeletionProtection {
		b.WriteString(" deletion-protection")
	}
	b.WriteByte('\n')
	for _, f := range t.Families {
		fmt.Fprintf(&b, "  family %s\n", f)
	}
	if len(t.Splits) > 0 {
		b.WriteString("  splits:")
		for _, s := range t.Splits {
			b.WriteString(" " + ddQuote(s))
		}
		b.WriteByte('\n')
	}
	for _, v := range t.Views {
		fmt.Fprintf(&b, "  view %s rows=", v.Name)
		for i, p := range v.RowPrefixes {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(ddQuote(p))
		}
		fams := make([]string, 0, len(v.FamilySubsets))
		for f := range v.FamilySubsets {
			fams = append(fams, f)
		}
		sort.Strings(fams)
		for _, f := range fams {
			s := v.FamilySubsets[f]
			var parts []string
			for _, q := range s.Qualifiers {
				parts = append(parts, ddQuote(q))
			}
			for _, q := range s.QualifierPrefixes {
				parts = append(parts, ddQuote(q)+"*")
			}
			fmt.Fprintf(&b, " %s:{%s}", f, strings.Join(parts, ","))
		}
		if v.DeletionProtection {
			b.WriteString(" deletion-protection")
		}
		b.WriteByte('\n')
	}
	return b.String()
}
