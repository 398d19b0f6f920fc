package pgwire

import "strings"

// tokKind classifies a token of the small tokenizer pgwire uses to split
// statements, find placeholders and recognise session statements. It lexes
// by GoogleSQL's rules (strings with backslash escapes, "…" and ”'…”'
// strings, `…` identifiers, --, # and /* */ comments), which also splits
// the PostgreSQL statements drivers send correctly.
type tokKind uint8

const (
	tokEOF         tokKind = iota
	tokIdent               // a bare word: keyword or identifier
	tokQuotedIdent         // `name` (or "name" when read as a PostgreSQL identifier)
	tokString              // '…', "…", '''…''', r'…', b'…', E'…'
	tokNumber              // 42, 1.5e3, 0x1F
	tokPositional          // $1
	tokNamed               // @name (not @@name)
	tokPunct               // one byte of punctuation: ( ) , ; = . * …
)

// token is a lexeme at [start, end) of the text it was read from.
type token struct {
	kind       tokKind
	start, end int
}

// lexer yields the tokens of text, skipping space and comments.
type lexer struct {
	text string
	pos  int
	// pgStrings lexes '…' as PostgreSQL does with
	// standard_conforming_strings on: a backslash is an ordinary character
	// and two quotes are one quote inside the string (E'…' keeps backslash
	// escapes). COPY's options are read so, as in ESCAPE '\'.
	pgStrings bool
}

func (l *lexer) next() token {
	l.skipSpace()
	s := l.text
	i := l.pos
	if i >= len(s) {
		return token{kind: tokEOF, start: i, end: i}
	}
	c := s[i]
	switch {
	case c == '\'' || c == '"':
		return l.str(i, i)
	case c == '`':
		return token{kind: tokQuotedIdent, start: i, end: l.quoted(i, '`')}
	case isIdentStart(c):
		j := i
		for j < len(s) && isIdentPart(s[j]) {
			j++
		}
		if j < len(s) && (s[j] == '\'' || s[j] == '"') && j-i <= 2 && isStringPrefix(s[i:j]) {
			return l.str(i, j)
		}
		l.pos = j
		return token{kind: tokIdent, start: i, end: j}
	case isDigit(c) || (c == '.' && i+1 < len(s) && isDigit(s[i+1])):
		j := i + 1
		for j < len(s) && (isIdentPart(s[j]) || s[j] == '.' ||
			((s[j] == '+' || s[j] == '-') && (s[j-1] == 'e' || s[j-1] == 'E'))) {
			j++
		}
		l.pos = j
		return token{kind: tokNumber, start: i, end: j}
	case c == '$' && i+1 < len(s) && isDigit(s[i+1]):
		j := i + 1
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		l.pos = j
		return token{kind: tokPositional, start: i, end: j}
	case c == '@' && i+1 < len(s) && isIdentStart(s[i+1]):
		j := i + 1
		for j < len(s) && isIdentPart(s[j]) {
			j++
		}
		l.pos = j
		return token{kind: tokNamed, start: i, end: j}
	case c == '@' && i+1 < len(s) && s[i+1] == '@':
		l.pos = i + 2
		return token{kind: tokPunct, start: i, end: i + 2}
	}
	l.pos = i + 1
	return token{kind: tokPunct, start: i, end: i + 1}
}

// skipSpace skips white space and comments; an unterminated /* comment
// runs to the end.
func (l *lexer) skipSpace() {
	s := l.text
	for l.pos < len(s) {
		c := s[l.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			l.pos++
		case c == '#' || (c == '-' && strings.HasPrefix(s[l.pos:], "--")):
			if j := strings.IndexByte(s[l.pos:], '\n'); j >= 0 {
				l.pos += j + 1
			} else {
				l.pos = len(s)
			}
		case c == '/' && strings.HasPrefix(s[l.pos:], "/*"):
			if j := strings.Index(s[l.pos+2:], "*/"); j >= 0 {
				l.pos += j + 4
			} else {
				l.pos = len(s)
			}
		default:
			return
		}
	}
}

// str lexes a string literal whose prefix starts at start and quote at q.
func (l *lexer) str(start, q int) token {
	s := l.text
	quote := s[q]
	raw := strings.ContainsAny(s[start:q], "rR")
	standard := l.pgStrings && quote == '\'' && start == q
	// E'…' is PostgreSQL's: backslash escapes, and two quotes are one.
	pgEscapes := quote == '\'' && strings.EqualFold(s[start:q], "e")
	triple := !standard && !pgEscapes && tripleQuote(s, q)
	i := q + 1
	if triple {
		i = q + 3
	}
	for i < len(s) {
		switch {
		case (standard || pgEscapes) && s[i] == quote && i+1 < len(s) && s[i+1] == quote:
			i += 2
			continue
		case standard && s[i] != quote: // a backslash too
		case s[i] == '\\' && !raw:
			i += 2
			continue
		case s[i] != quote:
		case !triple:
			l.pos = i + 1
			return token{kind: tokString, start: start, end: i + 1}
		case tripleQuote(s, i):
			l.pos = i + 3
			return token{kind: tokString, start: start, end: i + 3}
		}
		i++
	}
	l.pos = len(s)
	return token{kind: tokString, start: start, end: len(s)}
}

// tripleQuote reports whether s holds three of the quote s[i] from i.
func tripleQuote(s string, i int) bool {
	return i+2 < len(s) && s[i+1] == s[i] && s[i+2] == s[i]
}

// quoted lexes a `…` identifier from i and returns its end.
func (l *lexer) quoted(i int, quote byte) int {
	s := l.text
	for j := i + 1; j < len(s); j++ {
		if s[j] == '\\' {
			j++
			continue
		}
		if s[j] == quote {
			l.pos = j + 1
			return l.pos
		}
	}
	l.pos = len(s)
	return l.pos
}

func isStringPrefix(p string) bool {
	switch strings.ToLower(p) {
	case "r", "b", "rb", "br", "e":
		return true
	}
	return false
}

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80
}

func isIdentPart(c byte) bool { return isIdentStart(c) || isDigit(c) }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// span is a statement's [start, end) in the text of a Query.
type span struct{ start, end int }

// splitStatements splits text at top-level semicolons, appending the
// statements to out. Statements that hold nothing but space and comments
// are dropped, so an empty or comment-only text yields none.
//
// A COPY statement's options are lexed as parseCopy lexes them: its
// strings after the top-level TO (or FROM) by PostgreSQL's rules, so that
// the semicolon after COPY … (ESCAPE '\'); ends the statement.
func splitStatements(out []span, text string) []span {
	l := lexer{text: text}
	start, empty := 0, true
	isCopy, depth := false, 0
	for {
		t := l.next()
		if t.kind == tokEOF || (t.kind == tokPunct && text[t.start] == ';') {
			if !empty {
				out = append(out, span{start, t.start})
			}
			if t.kind == tokEOF {
				return out
			}
			start, empty = t.end, true
			isCopy, depth, l.pgStrings = false, 0, false
			continue
		}
		if empty {
			isCopy = t.kind == tokIdent && t.end-t.start == 4 && strings.EqualFold(text[t.start:t.end], "copy")
		} else if isCopy && !l.pgStrings {
			word := text[t.start:t.end]
			switch {
			case t.kind == tokPunct && word == "(":
				depth++
			case t.kind == tokPunct && word == ")":
				depth--
			case depth == 0 && t.kind == tokIdent && (strings.EqualFold(word, "to") || strings.EqualFold(word, "from")):
				l.pgStrings = true
			}
		}
		empty = false
	}
}
