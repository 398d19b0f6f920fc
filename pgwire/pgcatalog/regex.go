package pgcatalog

import "strings"

// translateRegex rewrites the PostgreSQL ARE constructs that Go's RE2
// syntax spells differently (word boundaries); the rest of the syntax
// that catalog queries use (anchors, classes, alternation, groups) is the
// same.
func translateRegex(p string) string {
	r := strings.NewReplacer(`[[:<:]]`, `\b`, `[[:>:]]`, `\b`, `\m`, `\b`, `\M`, `\b`, `\y`, `\b`)
	return r.Replace(p)
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
