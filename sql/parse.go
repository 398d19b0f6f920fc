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
}

func parse(text string) (*parsed, error) {
	p := &parsed{text: text, nulls: map[int]bool{}}
	clean := []byte(text)
	toks := lex(text)
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
	q, err := parseQuery(string(clean))
	if err != nil {
		return nil, syntaxError(text, err)
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
