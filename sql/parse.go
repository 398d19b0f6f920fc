package sql

import (
	"errors"
	"strings"

	"github.com/cloudspannerecosystem/memefish"
	"github.com/cloudspannerecosystem/memefish/ast"
	"github.com/cloudspannerecosystem/memefish/token"

	"github.com/shale-db/shale/sql/sqlerr"
)

// parsed is a query parsed by memefish plus what memefish does not parse
// itself: an EXPLAIN [ANALYZE] prefix and NULLS FIRST|LAST in ORDER BY.
// Both are blanked out of the text before parsing, so every byte offset of
// the AST is an offset into the original text.
type parsed struct {
	text    string
	explain bool
	analyze bool
	query   ast.QueryExpr
	// nulls maps the offset of a NULLS keyword to FIRST (true) or LAST.
	nulls map[int]bool
	// tvfAliases maps the offset of a table-valued call in FROM
	// (t(with_history => TRUE), UNPACK((...))) to the alias that follows
	// it, which memefish does not accept there.
	tvfAliases map[int]string
	// calls maps the offset of a function call whose name is a keyword to
	// memefish (LEFT, RIGHT) to that name; the text holds a placeholder
	// identifier of the same length there.
	calls map[int]string
	// parts maps the offset of a WEEK(<weekday>) date part of EXTRACT,
	// which memefish parses only as an identifier, to the part
	// ("WEEK(MONDAY)"); the text holds a placeholder identifier of the same
	// length there.
	parts map[int]string
}

func parse(text string) (*parsed, error) {
	if err := checkSize(text); err != nil {
		return nil, err
	}
	p := &parsed{text: text, nulls: map[int]bool{}, tvfAliases: map[int]string{}, calls: map[int]string{},
		parts: map[int]string{}}
	clean := []byte(text)
	var toks []token.Token
	if needsPreparse(text) {
		toks = lex(text)
	}
	blank := func(t token.Token) {
		for i := int(t.Pos); i < int(t.End); i++ {
			clean[i] = ' '
		}
	}
	if len(toks) > 0 && isWord(toks[0], "EXPLAIN") {
		p.explain = true
		blank(toks[0])
		if len(toks) > 1 && isWord(toks[1], "ANALYZE") {
			p.analyze = true
			blank(toks[1])
		}
	}
	for i := 0; i+1 < len(toks); i++ {
		if isWord(toks[i], "NULLS") && (isWord(toks[i+1], "FIRST") || isWord(toks[i+1], "LAST")) {
			p.nulls[int(toks[i].Pos)] = isWord(toks[i+1], "FIRST")
			blank(toks[i])
			blank(toks[i+1])
		}
	}
	for i := 0; i+1 < len(toks); i++ {
		if (isWord(toks[i], "LEFT") || isWord(toks[i], "RIGHT")) && toks[i+1].Kind == "(" {
			// LEFT(s, n): a function, not the join keyword.
			p.calls[int(toks[i].Pos)] = strings.ToUpper(toks[i].Raw)
			clean[toks[i].Pos] = 'F'
			for j := int(toks[i].Pos) + 1; j < int(toks[i].End); j++ {
				clean[j] = '_'
			}
		}
	}
	for i := 0; i+5 < len(toks); i++ {
		if isWord(toks[i], "EXTRACT") && toks[i+1].Kind == "(" && isWord(toks[i+2], "WEEK") &&
			toks[i+3].Kind == "(" && toks[i+4].Kind == token.TokenIdent && toks[i+5].Kind == ")" {
			// EXTRACT(WEEK(MONDAY) FROM x): WEEK________ FROM x.
			week, end := toks[i+2], int(toks[i+5].End)
			p.parts[int(week.Pos)] = "WEEK(" + strings.ToUpper(toks[i+4].AsString) + ")"
			for j := int(week.Pos) + len("WEEK"); j < end; j++ {
				clean[j] = '_'
			}
		}
	}
	for i := 1; i+1 < len(toks); i++ {
		if toks[i].Kind == token.TokenIdent && startsFromItem(toks[i-1]) && isTableCall(toks, i+1) {
			if name, n := aliasAfterCall(toks, i+1); n > 0 {
				p.tvfAliases[int(toks[i].Pos)] = name
				for _, t := range toks[closeParen(toks, i+1)+1 : closeParen(toks, i+1)+1+n] {
					blank(t)
				}
			}
		}
	}
	q, err := parseQuery(string(clean))
	if err != nil {
		return nil, syntaxError(text, err)
	}
	if len(text) > MaxNesting {
		if err := checkDepth(text, q.Query); err != nil {
			return nil, err
		}
	}
	p.query = q.Query
	return p, nil
}

// lex returns the tokens of text up to EOF or the first lexical error
// (the parser then reports it).
func lex(text string) (out []token.Token) {
	// memefish's lexer can fail with a runtime panic while formatting a
	// lexical error (an index past its line table); the parser reports
	// the error properly, so lexing just stops there.
	defer func() {
		if recover() != nil {
			out = nil
		}
	}()
	l := &memefish.Lexer{File: &token.File{Buffer: text}}
	out = make([]token.Token, 0, len(text)/4+4) // a token per ~4 bytes: no regrowth
	for {
		if err := l.NextToken(); err != nil || l.Token.Kind == token.TokenEOF {
			return out
		}
		out = append(out, l.Token)
	}
}

func syntaxError(text string, err error) error {
	var me *memefish.Error
	var multi memefish.MultiError
	switch {
	case errors.As(err, &multi) && len(multi) > 0:
		me = multi[0]
	case errors.As(err, &me):
	default:
		return sqlerr.New(sqlerr.Syntax, "%s", err.Error())
	}
	off := 0
	if me.Position != nil {
		off = int(me.Position.Pos)
	}
	return sqlerr.At(text, off, sqlerr.Syntax, "syntax error: %s", strings.TrimSpace(me.Message))
}

// isWord reports whether a token is the (unquoted) word w, keyword or not.
func isWord(t token.Token, w string) bool {
	return (t.Kind == token.TokenIdent || t.Kind == token.TokenKind(strings.ToUpper(w))) && strings.EqualFold(t.Raw, w)
}

// parseQuery calls memefish, turning a runtime panic inside it (a bug in
// its error reporting) into a syntax error.
func parseQuery(text string) (q *ast.QueryStatement, err error) {
	defer func() {
		if r := recover(); r != nil {
			q, err = nil, sqlerr.At(text, len(text), sqlerr.Syntax, "syntax error: %v", r)
		}
	}()
	return memefish.ParseQuery("", text)
}

// startsFromItem reports whether a FROM item may begin after t.
func startsFromItem(t token.Token) bool {
	return isWord(t, "FROM") || isWord(t, "JOIN") || t.Kind == ","
}

// isTableCall reports whether toks[open] opens a table's named arguments,
// t(name => ...): a function call in a select list never starts so.
func isTableCall(toks []token.Token, open int) bool {
	return open+2 < len(toks) && toks[open].Kind == "(" && toks[open+1].Kind == token.TokenIdent && toks[open+2].Kind == "=>"
}

// closeParen returns the index of the ")" matching the "(" at toks[open],
// or len(toks)-1 when it is missing (the parser reports that).
func closeParen(toks []token.Token, open int) int {
	depth := 0
	for i := open; i < len(toks); i++ {
		switch toks[i].Kind {
		case "(":
			depth++
		case ")":
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return len(toks) - 1
}

// aliasAfterCall returns the alias written after the call whose "(" is at
// toks[open] ("AS x" or a bare "x") and how many tokens it spans; 0 when
// there is none.
func aliasAfterCall(toks []token.Token, open int) (string, int) {
	i := closeParen(toks, open) + 1
	switch {
	case i+1 < len(toks) && isWord(toks[i], "AS") && toks[i+1].Kind == token.TokenIdent:
		return toks[i+1].AsString, 2
	case i < len(toks) && toks[i].Kind == token.TokenIdent:
		return toks[i].AsString, 1
	}
	return "", 0
}

// needsPreparse reports whether text may hold what the pre-parse pass
// handles (EXPLAIN, NULLS FIRST|LAST, a table call's alias after "=>",
// LEFT and RIGHT calls, EXTRACT(WEEK(<weekday>) ...)):
// most queries hold none, and skip a second lexing pass.
func needsPreparse(text string) bool {
	return strings.Contains(text, "=>") || containsFold(text, "explain") || containsFold(text, "nulls") ||
		containsFold(text, "left") || containsFold(text, "right") || containsFold(text, "extract")
}

// containsFold reports whether text contains the lower-case ASCII word w
// in any letter case.
func containsFold(text, w string) bool {
	for i := 0; i+len(w) <= len(text); i++ {
		if text[i]|0x20 == w[0] && strings.EqualFold(text[i:i+len(w)], w) {
			return true
		}
	}
	return false
}
