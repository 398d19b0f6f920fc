package pgcatalog

import (
	"errors"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
	"github.com/pganalyze/pg_query_go/v6/parser"
)

// parseOne parses sql with PostgreSQL's own parser and returns its only
// statement.
func parseOne(sql string) (*pg_query.Node, error) {
	tree, err := pg_query.Parse(sql)
	if err != nil {
		pos := int32(noPos)
		var pe *parser.Error
		if errors.As(err, &pe) && pe.Cursorpos > 0 {
			pos = int32(pe.Cursorpos) - 1
		}
		e := errorf(CodeSyntax, pos, "%s", err.Error())
		e.parser = true
		return nil, e
	}
	switch len(tree.Stmts) {
	case 0:
		return nil, errorf(CodeSyntax, noPos, "empty query")
	case 1:
		return tree.Stmts[0].Stmt, nil
	}
	return nil, errorf(CodeNotSupported, noPos, "catalog queries take one statement at a time")
}

// Handles reports whether a statement is for the catalog emulator: it
// references pg_catalog or information_schema relations or pg_* / catalog
// functions, or is a FROM-less SELECT of catalog functions (version(),
// current_schema()...). It only scans the text (no parse), skipping string
// literals, quoted identifiers' quotes and comments, so it is cheap enough
// to call for every statement.
func Handles(sql string) bool {
	if !mayHandle(sql) {
		return false
	}
	toks := scanWords(sql)
	if len(toks) == 0 {
		return false
	}
	switch toks[0].word {
	case "select", "with", "values", "(", "table", "show":
	default:
		return false
	}
	for i, t := range toks {
		w := t.word
		if t.quoted {
			if w == "pg_catalog" || w == "information_schema" {
				return true
			}
			continue
		}
		if strings.HasPrefix(w, "pg_") || w == "information_schema" {
			return true
		}
		call := i+1 < len(toks) && toks[i+1].word == "("
		if catalogWords[w] || (call && catalogFuncs[w]) || strings.HasPrefix(w, "has_") && strings.HasSuffix(w, "_privilege") {
			return true
		}
	}
	return false
}

// handleHints are substrings one of which every statement Handles accepts
// contains (case aside): the names of catalogWords and catalogFuncs, pg_,
// information_schema and has_..._privilege. Most statements contain none,
// and then Handles need not split the text into words; it runs for every
// simple-protocol statement. (A name spelled with escapes that hide it is
// still served: GoogleSQL rejects the statement and the fallback takes it.)
var handleHints = []string{"pg_", "information_schema", "current_", "user", "version", "set_config",
	"quote_ident", "txid_current", "_description", "format_type", "to_reg", "array_to_string", "inet_",
	"_privilege"}

func mayHandle(sql string) bool {
	for i := 0; i < len(sql); i++ {
		for _, h := range hintsByFirstByte[sql[i]] {
			if hasPrefixFoldASCII(sql[i:], h) {
				return true
			}
		}
	}
	return false
}

// hintsByFirstByte lists the handleHints that begin with each byte, in
// either case, so that mayHandle reads the text once rather than once per
// hint.
var hintsByFirstByte = func() (t [256][]string) {
	for _, h := range handleHints {
		c := h[0]
		t[c] = append(t[c], h)
		if 'a' <= c && c <= 'z' {
			t[c-'a'+'A'] = append(t[c-'a'+'A'], h)
		}
	}
	return t
}()

// hasPrefixFoldASCII reports whether s begins with prefix (lower-case
// ASCII), ignoring ASCII case.
func hasPrefixFoldASCII(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for j := 0; j < len(prefix); j++ {
		c := s[j]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[j] {
			return false
		}
	}
	return true
}

// catalogWords are SQL-standard session functions written without
// parentheses.
var catalogWords = map[string]bool{
	"current_user": true, "session_user": true, "current_role": true, "current_catalog": true,
	"current_schema": true,
}

// catalogFuncs are catalog or session functions that tools call outside
// pg_catalog relations.
var catalogFuncs = map[string]bool{
	"version": true, "current_schema": true, "current_schemas": true, "current_database": true,
	"current_setting": true, "set_config": true, "quote_ident": true, "txid_current": true,
	"obj_description": true, "col_description": true, "shobj_description": true, "format_type": true,
	"to_regclass": true, "to_regtype": true, "array_to_string": true, "inet_server_addr": true,
	"inet_server_port": true, "inet_client_addr": true, "user": true, "_pg_expandarray": true,
}

type word struct {
	word   string
	quoted bool
}

// scanWords splits sql into lower-cased identifiers/keywords and single
// punctuation characters, dropping literals and comments.
func scanWords(sql string) []word {
	var out []word
	for i := 0; i < len(sql); {
		c := sql[i]
		switch {
		case c == '-' && i+1 < len(sql) && sql[i+1] == '-':
			for i < len(sql) && sql[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(sql) && sql[i+1] == '*':
			end := strings.Index(sql[i+2:], "*/")
			if end < 0 {
				return out
			}
			i += end + 4
		case c == '\'':
			i++
			for i < len(sql) {
				if sql[i] == '\\' && i+1 < len(sql) {
					i += 2
					continue
				}
				if sql[i] == '\'' {
					if i+1 < len(sql) && sql[i+1] == '\'' {
						i += 2
						continue
					}
					break
				}
				i++
			}
			i++
		case c == '"':
			j := strings.IndexByte(sql[i+1:], '"')
			if j < 0 {
				return out
			}
			out = append(out, word{word: strings.ToLower(sql[i+1 : i+1+j]), quoted: true})
			i += j + 2
		case isIdentByte(c):
			j := i
			for j < len(sql) && (isIdentByte(sql[j]) || sql[j] >= '0' && sql[j] <= '9' || sql[j] == '$') {
				j++
			}
			out = append(out, word{word: strings.ToLower(sql[i:j])})
			i = j
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		default:
			out = append(out, word{word: string(c)})
			i++
		}
	}
	return out
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
