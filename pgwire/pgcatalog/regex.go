package pgcatalog

import (
	"regexp"
	"strings"
)

// translateRegex rewrites the PostgreSQL ARE constructs that Go's RE2
// syntax spells differently (word boundaries); the rest of the syntax
// that catalog queries use (anchors, classes, alternation, groups) is the
// same.
func translateRegex(p string) string {
	r := strings.NewReplacer(`[[:<:]]`, `\b`, `[[:>:]]`, `\b`, `\m`, `\b`, `\M`, `\b`, `\y`, `\b`)
	return r.Replace(p)
}

// likeKey is a LIKE pattern as written, and whether it is ILIKE's.
type likeKey struct {
	pattern string
	fold    bool
}

// likeRegexp is the compiled regular expression of a LIKE (ILIKE when
// fold) pattern, translated and compiled once per statement: a pattern
// that is not constant (a column, like_escape's result) usually repeats
// from row to row.
func (ev *evaluator) likeRegexp(pattern string, fold bool) (*regexp.Regexp, error) {
	return cachedRegexp(&ev.likes, likeKey{pattern, fold}, func() (*regexp.Regexp, error) {
		expr, err := likeToRegex(pattern)
		if err != nil {
			return nil, err
		}
		if fold {
			expr = "(?i)" + expr
		}
		re, err := regexp.Compile(expr) // every literal is quoted: it compiles
		if err != nil {
			return nil, errorf(CodeInvalidRegex, noPos, "invalid regular expression: %s", regexErrorText(err))
		}
		return re, nil
	})
}

// cachedRegexp is (*m)[k], which compile makes the first time a statement
// asks for it.
func cachedRegexp[K comparable](m *map[K]*regexp.Regexp, k K, compile func() (*regexp.Regexp, error)) (*regexp.Regexp, error) {
	if re, ok := (*m)[k]; ok {
		return re, nil
	}
	re, err := compile()
	if err != nil {
		return nil, err
	}
	if *m == nil {
		*m = map[K]*regexp.Regexp{}
	}
	(*m)[k] = re
	return re, nil
}

// likeToRegex converts a LIKE pattern (with \ as the escape) to an
// anchored regular expression. A pattern ending in the escape is an error,
// as in PostgreSQL.
func likeToRegex(p string) (string, error) {
	var sb strings.Builder
	sb.WriteString(`(?s)^`)
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\':
			if i++; i == len(p) {
				return "", errTrailingEscape()
			}
			sb.WriteString(regexpQuote(p[i : i+1]))
		case c == '%':
			sb.WriteString(`.*`)
		case c == '_':
			sb.WriteString(`.`)
		default:
			sb.WriteString(regexpQuote(p[i : i+1]))
		}
	}
	sb.WriteString(`$`)
	return sb.String(), nil
}

// errTrailingEscape is LIKE's error for a pattern that ends in its escape
// character, text or bytea, however the pattern is matched.
func errTrailingEscape() *Error {
	return errorf(CodeInvalidEscape, noPos, "LIKE pattern must not end with escape character")
}

func regexpQuote(s string) string {
	if strings.ContainsAny(s, `\.+*?()|[]{}^$`) {
		return `\` + s
	}
	return s
}

func cut(s, sep string) (string, string, bool) { return strings.Cut(s, sep) }
