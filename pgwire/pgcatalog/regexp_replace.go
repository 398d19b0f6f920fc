package pgcatalog

import (
	"strings"
	"unicode/utf8"
)

// regexpReplace is PostgreSQL 15's regexp_replace in its two forms:
// (source, pattern, replacement [, flags]), which replaces the first match
// or, with flag g, every one; and (source, pattern, replacement, start [, N
// [, flags]]), which replaces, from character start on, the N-th match, or
// every one when N is 0 (N defaults to 1, and flag g counts only without
// it).
func regexpReplace(ev *evaluator, a []Value, t []uint32) (Value, error) {
	start, n, flags := int64(1), int64(1), ""
	switch {
	case len(a) == 4 && !isIntegerType(t[3]):
		flags = a[3].s
	case len(a) >= 4:
		if start = a[3].i; start < 1 {
			return null, errorf(CodeInvalidParameter, noPos, "invalid value for parameter \"start\": %d", start)
		}
		if len(a) >= 5 {
			if n = a[4].i; n < 0 {
				return null, errorf(CodeInvalidParameter, noPos, "invalid value for parameter \"n\": %d", n)
			}
		}
		if len(a) == 6 {
			flags = a[5].s
		}
	}
	o, err := parseReFlags(flags, "")
	if err != nil {
		return null, err
	}
	if len(a) < 5 && o.global {
		n = 0
	}
	re, err := ev.pgRegexp(a[1].s, o)
	if err != nil {
		return null, err
	}
	src := a[0].s
	from := 0 // the byte where character start is
	for i := int64(1); i < start && from < len(src); i++ {
		_, size := utf8.DecodeRuneInString(src[from:])
		from += size
	}
	limit := -1
	if n > 0 {
		limit = int(n)
	}
	matches := findAllPG(re, src[from:], limit)
	if n > 0 && len(matches) < int(n) {
		return a[0], nil
	}
	if n > 0 {
		matches = matches[n-1:]
	}
	var sb strings.Builder
	sb.WriteString(src[:from])
	last := from
	for _, m := range matches {
		for i := range m {
			if m[i] >= 0 {
				m[i] += from
			}
		}
		sb.WriteString(src[last:m[0]])
		appendReplacement(&sb, a[2].s, src, m)
		last = m[1]
	}
	sb.WriteString(src[last:])
	return textV(sb.String()), nil
}

// appendReplacement writes the replacement of match m (submatch indexes
// into src) as PostgreSQL expands it: \1 to \9 the subexpressions (empty
// when absent), \& the whole match, \\ a backslash; any other backslash,
// and a $, is itself.
func appendReplacement(sb *strings.Builder, repl, src string, m []int) {
	for i := 0; i < len(repl); i++ {
		c := repl[i]
		if c != '\\' || i+1 == len(repl) {
			sb.WriteByte(c)
			continue
		}
		i++
		switch d := repl[i]; {
		case d >= '1' && d <= '9':
			if k := int(d-'0') * 2; k+1 < len(m) && m[k] >= 0 {
				sb.WriteString(src[m[k]:m[k+1]])
			}
		case d == '&':
			sb.WriteString(src[m[0]:m[1]])
		case d == '\\':
			sb.WriteByte('\\')
		default:
			sb.WriteByte('\\')
			sb.WriteByte(d)
		}
	}
}

// isIntegerType reports whether t is int2, int4 or int8.
func isIntegerType(t uint32) bool { return t == tInt2 || t == tInt4 || t == tInt8 }
