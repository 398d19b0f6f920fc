package pgcatalog

import (
	"errors"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// reOptions is what PostgreSQL's regular-expression flags (the flags
// argument of the regexp_* functions, and the embedded options a pattern
// may start with) ask for. Where two flags conflict the later one wins, as
// in PostgreSQL.
type reOptions struct {
	fold     bool // i (c turns it off)
	newline  byte // s (the default: . and ^$ ignore lines), n or m, p, w
	expanded bool // x: white space and #-comments are not part of the pattern
	literal  bool // q: the pattern is a literal string
	global   bool // g, for the functions that take it
}

// parseReFlags reads a flags argument; fn names the function for the
// error PostgreSQL gives when flag g is not one it takes ("" when it is).
func parseReFlags(flags, fn string) (reOptions, error) {
	o := reOptions{newline: 's'}
	for _, c := range flags {
		if c == 'g' {
			if fn != "" {
				e := errorf(CodeInvalidParameter, noPos, "%s() does not support the \"global\" option", fn)
				if fn == "regexp_match" {
					e.Hint = "Use the regexp_matches function instead."
				}
				return o, e
			}
			o.global = true
			continue
		}
		if !o.set(c) {
			return o, errorf(CodeInvalidParameter, noPos, "invalid regular expression option: \"%c\"", c)
		}
	}
	return o, nil
}

// set applies one option letter, reporting whether it is one.
func (o *reOptions) set(c rune) bool {
	switch c {
	case 'i':
		o.fold = true
	case 'c':
		o.fold = false
	case 's', 'n', 'p', 'w':
		o.newline = byte(c)
	case 'm':
		o.newline = 'n'
	case 'x':
		o.expanded = true
	case 't':
		o.expanded = false
	case 'q':
		o.literal = true
	case 'b', 'e': // basic and extended REs: Shale reads every pattern as an ARE
	default:
		return false
	}
	return true
}

// pgRegexpKey is a PostgreSQL pattern and its flags, as pgRegexp caches
// what it compiled them to.
type pgRegexpKey struct {
	pattern string
	o       reOptions
}

// pgRegexp compiles a PostgreSQL advanced regular expression with flags
// (see parseReFlags) into Go's syntax, caching it for the statement by the
// pattern and flags as given, so that a pattern evaluated per row is
// translated and compiled once.
func (ev *evaluator) pgRegexp(pattern string, o reOptions) (*regexp.Regexp, error) {
	return cachedRegexp(&ev.pgRegexps, pgRegexpKey{pattern, o}, func() (*regexp.Regexp, error) {
		return ev.compilePG(pattern, o)
	})
}

// compilePG is pgRegexp's translation and compilation.
func (ev *evaluator) compilePG(pattern string, o reOptions) (*regexp.Regexp, error) {
	switch {
	case strings.HasPrefix(pattern, "***="):
		pattern, o.literal = pattern[4:], true
	case strings.HasPrefix(pattern, "***:"):
		pattern = pattern[4:]
	}
	if !o.literal && strings.HasPrefix(pattern, "(?") { // embedded options: (?letters)
		if end := strings.IndexByte(pattern, ')'); end > 0 {
			emb := o
			ok := true
			for _, c := range pattern[2:end] {
				ok = ok && emb.set(c)
			}
			if ok {
				pattern, o = pattern[end+1:], emb
			}
		}
	}
	switch {
	case o.literal:
		pattern = regexp.QuoteMeta(pattern)
	case o.expanded:
		pattern = stripExpanded(pattern)
	}
	k := goFlags(o) + translateRegex(pattern)
	re, err := regexp.Compile(k)
	if err != nil {
		return nil, errorf(CodeInvalidRegex, noPos, "invalid regular expression: %s", regexErrorText(err))
	}
	if preferLongest(k) {
		re.Longest()
	} else if lazy, ok := allNonGreedy(k); ok {
		if re, err = regexp.Compile(lazy); err != nil { // k compiled: so does this
			return nil, errorf(CodeInvalidRegex, noPos, "invalid regular expression: %s", regexErrorText(err))
		}
	}
	return re, nil
}

// allNonGreedy is Go pattern k (already valid) with every quantifier
// non-greedy, for an RE that PostgreSQL's rules make non-greedy overall
// (preferLongest false): such an RE matches the least it can from the
// leftmost position where it matches, and with every quantifier preferring
// fewer repetitions Go's leftmost-first match is that shortest match, and
// its submatches PostgreSQL's, for REs without alternation of different
// lengths: '(.*?)(\d+)(.*)' on "abc01234xyz" matches "abc0" ({abc,0,""}),
// where Go's own reading of it takes "abc01234xyz". ok is false when k has
// no quantifier to change.
func allNonGreedy(k string) (string, bool) {
	re, err := syntax.Parse(k, syntax.Perl)
	if err != nil {
		return "", false
	}
	changed := false
	var walk func(r *syntax.Regexp)
	walk = func(r *syntax.Regexp) {
		switch r.Op {
		case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
			if r.Flags&syntax.NonGreedy == 0 && (r.Op != syntax.OpRepeat || r.Min != r.Max) {
				r.Flags |= syntax.NonGreedy
				changed = true
			}
		}
		for _, sub := range r.Sub {
			walk(sub)
		}
	}
	walk(re)
	return re.String(), changed
}

// preferLongest reports whether PostgreSQL's matching rules make the
// match of Go pattern k (already valid) the longest one that starts
// leftmost: an RE is greedy unless its first quantifier (other than a
// fixed count) is non-greedy and it has no top-level alternation, and a
// greedy RE matches as much as it can overall, as Go's leftmost-longest
// mode does ('a|ab' matches "ab" of "abcd", where Go's default takes the
// first alternative). A non-greedy RE matches the least it can overall,
// which Go has no mode for: allNonGreedy makes it so.
func preferLongest(k string) bool {
	re, err := syntax.Parse(k, syntax.Perl)
	if err != nil {
		return false
	}
	for re.Op == syntax.OpCapture && len(re.Sub) == 1 {
		re = re.Sub[0]
	}
	if re.Op == syntax.OpAlternate {
		return true
	}
	var first *syntax.Regexp
	var walk func(r *syntax.Regexp)
	walk = func(r *syntax.Regexp) {
		if first != nil {
			return
		}
		switch r.Op {
		case syntax.OpStar, syntax.OpPlus, syntax.OpQuest:
			first = r
			return
		case syntax.OpRepeat:
			if r.Min != r.Max {
				first = r
				return
			}
		}
		for _, sub := range r.Sub {
			walk(sub)
		}
	}
	walk(re)
	return first == nil || first.Flags&syntax.NonGreedy == 0
}

// goFlags is the Go flag group for o's case folding and newline mode.
func goFlags(o reOptions) string {
	f := map[byte]string{'s': "s", 'n': "m", 'p': "", 'w': "ms"}[o.newline]
	if o.fold {
		f = "i" + f
	}
	if f == "" {
		return ""
	}
	return "(?" + f + ")"
}

// stripExpanded drops what the x option makes insignificant: white space
// and comments from # to the end of the line, except escaped or inside
// brackets.
func stripExpanded(p string) string {
	var sb strings.Builder
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			sb.WriteByte(c)
			i++
			sb.WriteByte(p[i])
		case inClass:
			sb.WriteByte(c)
			inClass = c != ']'
		case c == '[':
			sb.WriteByte(c)
			inClass = true
			if i+1 < len(p) && p[i+1] == ']' { // a ] right after [ is a member
				i++
				sb.WriteByte(']')
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		case c == '#':
			for i+1 < len(p) && p[i+1] != '\n' {
				i++
			}
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String()
}

// compileRegexp compiles a Go pattern once per statement, reporting a
// syntax error in PostgreSQL's words where there is one for it.
func (ev *evaluator) compileRegexp(k string) (*regexp.Regexp, error) {
	if re, ok := ev.regexps[k]; ok {
		return re, nil
	}
	re, err := regexp.Compile(k)
	if err != nil {
		return nil, errorf(CodeInvalidRegex, noPos, "invalid regular expression: %s", regexErrorText(err))
	}
	ev.regexps[k] = re
	return re, nil
}

// regexErrorText is PostgreSQL's text for a pattern Go cannot parse, or
// Go's own where the two libraries' errors have no counterpart.
func regexErrorText(err error) string {
	var se *syntax.Error
	if !errors.As(err, &se) {
		return err.Error()
	}
	switch se.Code {
	case syntax.ErrMissingBracket:
		return "brackets [] not balanced"
	case syntax.ErrMissingParen, syntax.ErrUnexpectedParen:
		return "parentheses () not balanced"
	case syntax.ErrInvalidRepeatSize:
		return "invalid repetition count(s)"
	case syntax.ErrMissingRepeatArgument, syntax.ErrInvalidRepeatOp:
		return "quantifier operand invalid"
	case syntax.ErrTrailingBackslash, syntax.ErrInvalidEscape:
		return `invalid escape \ sequence`
	case syntax.ErrInvalidCharClass:
		return "invalid character class"
	case syntax.ErrInvalidCharRange:
		if strings.HasPrefix(se.Expr, "[:") {
			return "invalid character class"
		}
		return "invalid character range"
	}
	return err.Error()
}

// reFlagsArg parses the flags argument at index i of a, if there is one.
func reFlagsArg(a []Value, i int, fn string) (reOptions, error) {
	if len(a) > i {
		return parseReFlags(a[i].s, fn)
	}
	return parseReFlags("", fn)
}

// findAllPG is every match of re in s (at most n when n > 0) as
// PostgreSQL finds them: each search starts where the last match ended,
// one character further when it was empty, so an empty match right after
// a longer one counts (Go skips it). Patterns whose matches depend on
// what precedes the search start (^, \A, \b, \B) keep Go's way.
func findAllPG(re *regexp.Regexp, s string, n int) [][]int {
	expr := re.String()
	if strings.ContainsAny(expr, "^") || strings.Contains(expr, `\A`) || strings.Contains(expr, `\b`) || strings.Contains(expr, `\B`) {
		return re.FindAllStringSubmatchIndex(s, n)
	}
	var out [][]int
	for pos := 0; pos <= len(s) && (n <= 0 || len(out) < n); {
		m := re.FindStringSubmatchIndex(s[pos:])
		if m == nil {
			break
		}
		for i := range m {
			if m[i] >= 0 {
				m[i] += pos
			}
		}
		out = append(out, m)
		pos = m[1]
		if m[0] == m[1] {
			if pos == len(s) {
				break
			}
			_, size := utf8.DecodeRuneInString(s[pos:])
			pos += size
		}
	}
	return out
}

// matchGroups is the text[] regexp_match(es) returns for match m of s: its
// parenthesized groups (NULL for one that took no part), or the whole
// match when the pattern has none.
func matchGroups(s string, m []int) Value {
	if len(m) == 2 {
		return textArray(s[m[0]:m[1]])
	}
	arr := make([]Value, 0, len(m)/2-1)
	for i := 2; i+1 < len(m); i += 2 {
		if m[i] < 0 {
			arr = append(arr, null)
			continue
		}
		arr = append(arr, textV(s[m[i]:m[i+1]]))
	}
	return arrayV(arr)
}
