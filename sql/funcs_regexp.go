package sql

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"rsc.io/binaryregexp"
	binsyntax "rsc.io/binaryregexp/syntax"

	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

// Regular-expression functions: REGEXP_CONTAINS, REGEXP_EXTRACT,
// REGEXP_EXTRACT_ALL, REGEXP_INSTR and REGEXP_REPLACE. Patterns are RE2
// (Go's regexp); over STRING they match UTF-8 characters, over BYTES each
// byte is a character (RE2's Latin-1 mode, through binaryregexp). Each
// distinct pattern compiles once, into a bounded cache.
func init() {
	i64 := types.Int64
	registerStr("REGEXP_CONTAINS", strRetBool, regexpContains, nil, nil)
	for n := 2; n <= 4; n++ {
		registerStr("REGEXP_EXTRACT", strSameType, regexpExtract, []*types.Type{nil, nil, i64, i64}[:n]...)
	}
	registerStr("REGEXP_EXTRACT_ALL", types.ArrayOf, regexpExtractAll, nil, nil)
	for n := 2; n <= 5; n++ {
		registerStr("REGEXP_INSTR", strRetInt64, regexpInstr, []*types.Type{nil, nil, i64, i64, i64}[:n]...)
	}
	registerStr("REGEXP_REPLACE", strSameType, regexpReplace, nil, nil, nil)
}

// reMatcher is what the functions use of *regexp.Regexp and
// *binaryregexp.Regexp.
type reMatcher interface {
	Match(b []byte) bool
	FindSubmatchIndex(b []byte) []int
	FindAllSubmatchIndex(b []byte, n int) [][]int
	NumSubexp() int
}

// compiledRegexp is a cached pattern.
type compiledRegexp struct {
	pattern string
	bytes   bool // Latin-1 mode, for BYTES
	re      reMatcher
	// resume is `\A(?s:.)(?s:.*?)(pattern)`: matched from the character
	// before a start position, it finds the leftmost match at or after that
	// position while ^ and \b still see the character before (RE2's search
	// from a start position). nil when it does not compile (a pattern
	// ending inside \Q...); searches then lose that context.
	resume reMatcher
}

// strPatternCache maps a pattern (a regular expression, a FORMAT string) to
// what it compiles to, so that a pattern that is the same in every row
// compiles once. It is bounded: a full cache is emptied.
type strPatternCache[T any] struct {
	mu sync.RWMutex
	m  map[string]*strPatternEntry[T]
	// last is the most recently used entry: the common case of one constant
	// pattern takes no lock.
	last atomic.Pointer[strPatternEntry[T]]
}

type strPatternEntry[T any] struct {
	key string
	val T
}

const strPatternCacheMax = 512

// get returns key compiled by compile(fn, key); fn names the function in
// errors.
func (c *strPatternCache[T]) get(fn string, key []byte, compile func(fn, key string) (T, error)) (T, error) {
	if e := c.last.Load(); e != nil && e.key == string(key) {
		return e.val, nil
	}
	c.mu.RLock()
	e := c.m[string(key)]
	c.mu.RUnlock()
	if e == nil {
		v, err := compile(fn, string(key))
		if err != nil {
			return v, err
		}
		e = &strPatternEntry[T]{key: string(key), val: v}
		c.mu.Lock()
		if c.m == nil || len(c.m) >= strPatternCacheMax {
			c.m = map[string]*strPatternEntry[T]{}
		}
		c.m[e.key] = e
		c.mu.Unlock()
	}
	c.last.Store(e)
	return e.val, nil
}

var stringRegexps, bytesRegexps strPatternCache[*compiledRegexp]

// getRegexp returns pattern compiled for STRING or BYTES; fn names the
// function in errors.
func getRegexp(fn string, pattern []byte, bytesMode bool) (*compiledRegexp, error) {
	if bytesMode {
		return bytesRegexps.get(fn, pattern, compileBytesRegexp)
	}
	return stringRegexps.get(fn, pattern, compileStringRegexp)
}

func compileStringRegexp(fn, pattern string) (*compiledRegexp, error) {
	return compileRegexp(fn, pattern, false)
}

func compileBytesRegexp(fn, pattern string) (*compiledRegexp, error) {
	return compileRegexp(fn, pattern, true)
}

func compileRegexp(fn, pattern string, bytesMode bool) (*compiledRegexp, error) {
	c := &compiledRegexp{pattern: pattern, bytes: bytesMode}
	expr := pattern
	if bytesMode {
		expr = reLatin1Pattern(pattern)
	}
	resume := `\A(?s:.)(?s:.*?)(` + expr
	if strings.LastIndex(expr, `\Q`) > strings.LastIndex(expr, `\E`) {
		resume += `\E`
	}
	resume += `)`
	if bytesMode {
		re, err := binaryregexp.Compile(expr)
		if err != nil {
			return nil, regexpError(fn, pattern, err)
		}
		c.re = re
		if r, err := binaryregexp.Compile(resume); err == nil {
			c.resume = r
		}
		return c, nil
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, regexpError(fn, pattern, err)
	}
	c.re = re
	if r, err := regexp.Compile(resume); err == nil {
		c.resume = r
	}
	return c, nil
}

// reLatin1Pattern turns a BYTES pattern into the UTF-8 text binaryregexp
// parses: each byte >= 0x80 becomes the rune of the same value, which
// binaryregexp matches against that byte.
func reLatin1Pattern(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		b.WriteRune(rune(p[i]))
	}
	return b.String()
}

func regexpError(fn, pattern string, err error) error {
	msg := err.Error()
	switch e := err.(type) {
	case *syntax.Error:
		msg = string(e.Code) + ": `" + e.Expr + "`"
	case *binsyntax.Error:
		msg = string(e.Code) + ": `" + e.Expr + "`"
	}
	return sqlerr.New(sqlerr.InvalidArgument, "%s: invalid regular expression %q: %s", fn, pattern, msg)
}

// find returns the submatch indexes of the leftmost match in b that starts
// at or after byte offset pos, the text before pos still its context, or
// nil.
func (c *compiledRegexp) find(b []byte, pos int) []int {
	if pos == 0 {
		return c.re.FindSubmatchIndex(b)
	}
	if pos > len(b) {
		return nil
	}
	q, re := pos, c.re
	if c.resume != nil {
		q, re = pos-1, c.resume
		if !c.bytes {
			_, w := utf8.DecodeLastRune(b[:pos])
			q = pos - w
		}
	}
	m := re.FindSubmatchIndex(b[q:])
	if m == nil {
		return nil
	}
	if c.resume != nil {
		m = m[2:] // group 1 is the pattern
	}
	for i := range m {
		if m[i] >= 0 {
			m[i] += q
		}
	}
	return m
}

// group returns the extent of what an extraction yields of a match: the
// capturing group if the pattern has one (-1, -1 when it did not take
// part), else the whole match.
func (c *compiledRegexp) group(m []int) (int, int) {
	if c.re.NumSubexp() == 0 {
		return m[0], m[1]
	}
	return m[2], m[3]
}

// checkGroups rejects extraction patterns with more than one group.
func (c *compiledRegexp) checkGroups(fn string) error {
	if c.re.NumSubexp() > 1 {
		return sqlerr.New(sqlerr.InvalidArgument,
			"%s: regular expression %q has more than one capturing group", fn, c.pattern)
	}
	return nil
}

// regexpIter steps through the matches of a pattern the way GoogleSQL's
// extraction functions do: each search starts where the previous match
// ended, one character further after an empty match, and the iteration
// stops once that reaches the end.
type regexpIter struct {
	c    *compiledRegexp
	b    []byte
	pos  int
	done bool
}

func (it *regexpIter) next() []int {
	if it.done {
		return nil
	}
	m := it.c.find(it.b, it.pos)
	if m == nil {
		it.done = true
		return nil
	}
	it.pos = m[1]
	if m[0] == m[1] && it.pos < len(it.b) {
		it.pos += strCharWidth(it.b[it.pos:], !it.c.bytes)
	}
	it.done = it.pos >= len(it.b)
	return m
}

func regexpContains(a []types.Value, _ *types.Type) (types.Value, error) {
	c, err := getRegexp("REGEXP_CONTAINS", a[1].Bytes(), !strIsChars(a[0]))
	if err != nil {
		return types.Value{}, err
	}
	return types.BoolValue(c.re.Match(a[0].Bytes())), nil
}

// rePositionOccurrence reads the optional 1-based position and occurrence
// arguments at a[2] and a[3].
func rePositionOccurrence(fn string, a []types.Value) (int64, int64, error) {
	pos, occ := int64(1), int64(1)
	if len(a) > 2 {
		pos = a[2].Int64()
	}
	if len(a) > 3 {
		occ = a[3].Int64()
	}
	if pos < 1 {
		return 0, 0, strError("%s: position must be positive, got %d", fn, pos)
	}
	if occ < 1 {
		return 0, 0, strError("%s: occurrence must be positive, got %d", fn, occ)
	}
	return pos, occ, nil
}

// reStartOffset returns the byte offset of the 1-based position pos of s, and
// false when pos is past the end (position 1 of an empty value is not).
func reStartOffset(s []byte, pos int64, chars bool) (int, bool) {
	n := int64(len(s))
	if chars {
		n = int64(utf8.RuneCount(s))
	}
	if pos > n && !(n == 0 && pos == 1) {
		return 0, false
	}
	if !chars {
		return int(pos - 1), true
	}
	return strRuneOffset(s, pos-1), true
}

// reNthMatch returns the occ-th match at or after byte offset off.
func reNthMatch(c *compiledRegexp, s []byte, off int, occ int64) []int {
	it := regexpIter{c: c, b: s, pos: off}
	var m []int
	for ; occ > 0; occ-- {
		if m = it.next(); m == nil {
			return nil
		}
	}
	return m
}

// regexpExtract implements REGEXP_EXTRACT(value, regexp[, position[,
// occurrence]]): the occurrence-th match (or its capturing group) at or
// after position, NULL when there is none.
func regexpExtract(a []types.Value, ret *types.Type) (types.Value, error) {
	const fn = "REGEXP_EXTRACT"
	c, err := getRegexp(fn, a[1].Bytes(), !strIsChars(a[0]))
	if err != nil {
		return types.Value{}, err
	}
	pos, occ, err := rePositionOccurrence(fn, a)
	if err != nil {
		return types.Value{}, err
	}
	s := a[0].Bytes()
	off, ok := reStartOffset(s, pos, strIsChars(a[0]))
	if !ok {
		return types.NullOf(ret), nil
	}
	if err := c.checkGroups(fn); err != nil {
		return types.Value{}, err
	}
	m := reNthMatch(c, s, off, occ)
	if m == nil {
		return types.NullOf(ret), nil
	}
	start, end := c.group(m)
	if start < 0 {
		return types.NullOf(ret), nil
	}
	return strValue(ret, s[start:end]), nil
}

// regexpExtractAll returns every match (or its capturing group; empty when
// the group did not take part).
func regexpExtractAll(a []types.Value, ret *types.Type) (types.Value, error) {
	const fn = "REGEXP_EXTRACT_ALL"
	c, err := getRegexp(fn, a[1].Bytes(), !strIsChars(a[0]))
	if err != nil {
		return types.Value{}, err
	}
	if err := c.checkGroups(fn); err != nil {
		return types.Value{}, err
	}
	s := a[0].Bytes()
	it := regexpIter{c: c, b: s}
	var out []types.Value
	for m := it.next(); m != nil; m = it.next() {
		start, end := c.group(m)
		if start < 0 {
			start, end = 0, 0
		}
		out = append(out, strValue(ret.Elem, s[start:end]))
	}
	return types.ArrayValue(ret, out), nil
}

// regexpInstr implements REGEXP_INSTR(value, regexp[, position[,
// occurrence[, occurrence_position]]]): the 1-based position of the start
// (occurrence_position 0) or just past the end (1) of the occurrence-th
// match (or its capturing group) at or after position; 0 when there is
// none.
func regexpInstr(a []types.Value, _ *types.Type) (types.Value, error) {
	const fn = "REGEXP_INSTR"
	c, err := getRegexp(fn, a[1].Bytes(), !strIsChars(a[0]))
	if err != nil {
		return types.Value{}, err
	}
	after := false
	if len(a) > 4 {
		switch a[4].Int64() {
		case 0:
		case 1:
			after = true
		default:
			return types.Value{}, strError("%s: occurrence_position must be 0 or 1, got %d", fn, a[4].Int64())
		}
	}
	pos, occ, err := rePositionOccurrence(fn, a)
	if err != nil {
		return types.Value{}, err
	}
	s, chars := a[0].Bytes(), strIsChars(a[0])
	off, ok := reStartOffset(s, pos, chars)
	if !ok || c.pattern == "" {
		return types.Int64Value(0), nil
	}
	if err := c.checkGroups(fn); err != nil {
		return types.Value{}, err
	}
	m := reNthMatch(c, s, off, occ)
	if m == nil {
		return types.Int64Value(0), nil
	}
	start, end := c.group(m)
	if start < 0 {
		return types.Int64Value(0), nil
	}
	at := start
	if after {
		at = end
	}
	if chars {
		return types.Int64Value(int64(utf8.RuneCount(s[:at])) + 1), nil
	}
	return types.Int64Value(int64(at) + 1), nil
}

// regexpReplace replaces every non-overlapping match with the replacement,
// in which \1 to \9 insert a capturing group, \0 the whole match and \\ a
// backslash.
func regexpReplace(a []types.Value, ret *types.Type) (types.Value, error) {
	const fn = "REGEXP_REPLACE"
	c, err := getRegexp(fn, a[1].Bytes(), !strIsChars(a[0]))
	if err != nil {
		return types.Value{}, err
	}
	repl := a[2].Bytes()
	if err := reCheckRewrite(repl, c.re.NumSubexp()); err != nil {
		return types.Value{}, err
	}
	s := a[0].Bytes()
	matches := c.re.FindAllSubmatchIndex(s, -1)
	if matches == nil {
		return a[0], nil
	}
	out := make([]byte, 0, len(s)+len(repl)*len(matches))
	last := 0
	for _, m := range matches {
		out = append(out, s[last:m[0]]...)
		for i := 0; i < len(repl); i++ {
			if repl[i] != '\\' {
				out = append(out, repl[i])
				continue
			}
			i++
			if repl[i] == '\\' {
				out = append(out, '\\')
				continue
			}
			if g := int(repl[i] - '0'); m[2*g] >= 0 {
				out = append(out, s[m[2*g]:m[2*g+1]]...)
			}
		}
		last = m[1]
	}
	return strValue(ret, append(out, s[last:]...)), nil
}

// reCheckRewrite validates a REGEXP_REPLACE replacement against a pattern
// with groups capturing groups.
func reCheckRewrite(repl []byte, groups int) error {
	for i := 0; i < len(repl); i++ {
		if repl[i] != '\\' {
			continue
		}
		i++
		switch {
		case i == len(repl):
			return strError(`REGEXP_REPLACE: invalid replacement %q: \ at the end`, repl)
		case repl[i] == '\\':
		case repl[i] < '0' || repl[i] > '9':
			return strError(`REGEXP_REPLACE: invalid replacement %q: \ must be followed by a digit or \`, repl)
		case int(repl[i]-'0') > groups:
			return strError(`REGEXP_REPLACE: replacement %q refers to group \%c, but the regular expression has %d capturing groups`,
				repl, repl[i], groups)
		}
	}
	return nil
}
