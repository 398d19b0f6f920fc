package pgwire

import (
	"fmt"
	"strings"
)

// COPY … TO STDOUT streams a query's rows, or a table's, in PostgreSQL's
// text, CSV or binary format (psql's \copy sends it; so do pgx's CopyTo
// and exporters). The binary format carries each value as the binary
// result format does (encode.go), so PostgreSQL loads it with COPY FROM.
// Shale is read-only over SQL, so COPY FROM is refused, and so is COPY to
// or from a server file.
//
//	COPY ( query ) TO STDOUT [ [ WITH ] ( option [, …] ) | legacy options ]
//	COPY table [ ( column [, …] ) ] TO STDOUT …
//
// The options are FORMAT text | csv | binary, DELIMITER, NULL, HEADER,
// QUOTE, ESCAPE, FORCE_QUOTE * | (columns) and ENCODING 'UTF8'; the legacy
// forms (WITH CSV HEADER, DELIMITER AS ',', FORCE QUOTE *, BINARY, …) are
// read too.
// The query between the parentheses is lexed by GoogleSQL's rules; the
// options' strings by PostgreSQL's, so ESCAPE '\' is a backslash (E'\\' is
// one too).
// A table is read as `SELECT * FROM table` (or its columns), in whichever
// dialect reads it (prepareQuery), so it has the columns a query of it has.

// copyOpts are a COPY's format options, resolved to PostgreSQL's defaults.
type copyOpts struct {
	csv        bool
	binary     bool
	delim      byte
	null       string
	header     bool
	quote      byte
	escape     byte
	forceAll   bool            // FORCE_QUOTE *
	forceCols  map[string]bool // FORCE_QUOTE (columns)
	nullSet    bool
	delimSet   bool
	quoteSet   bool
	escapeSet  bool
	formatSeen bool
	// textEscapes maps a byte text format escapes to what follows the
	// backslash (0: written as it is).
	textEscapes [256]byte
}

// parseCopy reads a COPY statement after its first word.
func parseCopy(w *words) (*localStmt, error) {
	st := &localStmt{kind: localCopy}
	if w.punct("(") {
		t, _ := w.peek()
		start, depth := t.start, 1
		for depth > 0 {
			t, s := w.peek()
			switch {
			case t.kind == tokEOF:
				return nil, syntaxError(w)
			case t.kind == tokPunct && s == "(":
				depth++
			case t.kind == tokPunct && s == ")":
				depth--
			}
			if depth == 0 {
				st.query, st.qstart = w.text[start:t.start], start
			}
			w.skip()
		}
		if strings.TrimSpace(st.query) == "" {
			return nil, errorf(codeSyntax, "COPY needs a query between the parentheses")
		}
	} else {
		t, _ := w.peek()
		if _, ok := w.dottedName(); !ok || w.done() {
			return nil, syntaxError(w)
		}
		table := w.text[t.start:w.next.start]
		cols := "*"
		if w.punct("(") {
			c, _ := w.peek()
			for {
				if _, ok := w.ident(); !ok {
					return nil, syntaxError(w)
				}
				if !w.punct(",") {
					break
				}
			}
			e, _ := w.peek()
			if !w.punct(")") {
				return nil, syntaxError(w)
			}
			cols = w.text[c.start:e.start]
		}
		st.query = "SELECT " + strings.TrimSpace(cols) + " FROM " + strings.TrimSpace(table)
		st.qstart = -1 // not the client's text: errors carry no position
	}
	w.pgStrings()
	switch {
	case w.keyword("to"):
		if !w.keyword("stdout") {
			if t, _ := w.peek(); t.kind == tokString || w.keyword("program") {
				return nil, errorf(codeNotSupported, "COPY to a server file or program is not supported; use COPY … TO STDOUT (psql's \\copy)")
			}
			return nil, syntaxError(w)
		}
	case w.keyword("from"):
		return nil, errorf(codeNotSupported, "COPY FROM is not supported: Shale is read-only over SQL (write through the Bigtable API)")
	default:
		return nil, syntaxError(w)
	}
	opts := &copyOpts{}
	if err := parseCopyOptions(w, opts); err != nil {
		return nil, err
	}
	if err := opts.resolve(); err != nil {
		return nil, err
	}
	st.copy = opts
	return st, nil
}

// parseCopyOptions reads the options after TO STDOUT, in either syntax.
func parseCopyOptions(w *words, o *copyOpts) error {
	w.keyword("with")
	if w.punct("(") {
		for {
			name, ok := w.ident()
			if !ok {
				return syntaxError(w)
			}
			if err := o.set(w, name, true); err != nil {
				return err
			}
			if w.punct(")") {
				return nil
			}
			if !w.punct(",") {
				return syntaxError(w)
			}
		}
	}
	for !w.done() {
		name, ok := w.ident()
		if !ok {
			return syntaxError(w)
		}
		switch name {
		case "binary":
			name = "format"
		case "csv":
			o.csv, o.formatSeen = true, true
			continue
		case "force":
			if !w.keyword("quote") {
				return syntaxError(w)
			}
			name = "force_quote"
		}
		if err := o.set(w, name, false); err != nil {
			return err
		}
	}
	return nil
}

// set reads one option's value; modern is the parenthesized syntax.
func (o *copyOpts) set(w *words, name string, modern bool) error {
	if !modern {
		w.keyword("as")
	}
	str := func() (string, error) {
		t, s := w.peek()
		if t.kind != tokString || s[0] == '"' {
			return "", syntaxError(w)
		}
		w.skip()
		return unquoteString(s), nil
	}
	char := func(what string) (byte, error) {
		s, err := str()
		if err != nil {
			return 0, err
		}
		if len(s) != 1 {
			return 0, errorf(codeNotSupported, fmt.Sprintf("COPY %s must be a single one-byte character", what))
		}
		return s[0], nil
	}
	var err error
	switch name {
	case "format":
		if o.formatSeen {
			return errorf(codeSyntax, "conflicting or redundant options")
		}
		o.formatSeen = true
		if !modern { // legacy BINARY
			o.binary = true
			return nil
		}
		f, ok := w.ident()
		if t, v := w.peek(); !ok && t.kind == tokString && v[0] == '\'' { // FORMAT 'csv', as asyncpg writes it
			f, ok = strings.ToLower(unquoteString(v)), true
			w.skip()
		}
		switch {
		case !ok:
			return syntaxError(w)
		case f == "csv":
			o.csv = true
		case f == "text":
		case f == "binary":
			o.binary = true
		default:
			return errorf(codeInvalidParamValue, fmt.Sprintf("COPY format \"%s\" not recognized", f))
		}
	case "delimiter":
		o.delim, err = char("delimiter")
		o.delimSet = true
	case "null":
		o.null, err = str()
		o.nullSet = true
	case "header":
		o.header = true
		if modern {
			if t, s := w.peek(); t.kind == tokIdent || t.kind == tokNumber || t.kind == tokString {
				v := strings.ToLower(s)
				if t.kind == tokString {
					v = strings.ToLower(unquoteString(s))
				}
				switch v {
				case "true", "on", "1":
				case "false", "off", "0":
					o.header = false
				default:
					return errorf(codeInvalidParamValue, "header requires a Boolean value")
				}
				w.skip()
			}
		}
	case "quote":
		o.quote, err = char("quote")
		o.quoteSet = true
	case "escape":
		o.escape, err = char("escape")
		o.escapeSet = true
	case "force_quote":
		if w.punct("*") {
			o.forceAll = true
			return nil
		}
		o.forceCols = map[string]bool{}
		paren := w.punct("(")
		for {
			c, ok := w.ident()
			if !ok {
				return syntaxError(w)
			}
			o.forceCols[c] = true
			if !w.punct(",") {
				break
			}
		}
		if paren && !w.punct(")") {
			return syntaxError(w)
		}
	case "encoding":
		e, err := str()
		if err != nil {
			return err
		}
		if n := strings.ToLower(strings.ReplaceAll(e, "-", "")); n != "utf8" {
			return errorf(codeNotSupported, fmt.Sprintf("COPY encoding \"%s\" is not supported: Shale sends UTF8", e))
		}
	default:
		return errorf(codeSyntax, fmt.Sprintf("option \"%s\" not recognized", name))
	}
	return err
}

// resolve applies the defaults of the format and checks the combination,
// as PostgreSQL's ProcessCopyOptions does.
func (o *copyOpts) resolve() error {
	if o.binary {
		switch {
		case o.delimSet:
			return errorf(codeSyntax, "cannot specify DELIMITER in BINARY mode")
		case o.nullSet:
			return errorf(codeSyntax, "cannot specify NULL in BINARY mode")
		case o.header:
			return errorf(codeSyntax, "cannot specify HEADER in BINARY mode")
		}
	}
	if !o.delimSet {
		o.delim = '\t'
		if o.csv {
			o.delim = ','
		}
	}
	if !o.nullSet && !o.csv {
		o.null = `\N`
	}
	if !o.csv {
		switch {
		case o.quoteSet:
			return errorf(codeNotSupported, "COPY quote available only in CSV mode")
		case o.escapeSet:
			return errorf(codeNotSupported, "COPY escape available only in CSV mode")
		case o.forceAll || o.forceCols != nil:
			return errorf(codeNotSupported, "COPY force quote available only in CSV mode")
		}
	}
	if !o.quoteSet {
		o.quote = '"'
	}
	if !o.escapeSet {
		o.escape = o.quote
	}
	for c, e := range map[byte]byte{'\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't', '\v': 'v', '\\': '\\'} {
		o.textEscapes[c] = e
	}
	if o.textEscapes[o.delim] == 0 {
		o.textEscapes[o.delim] = o.delim
	}
	switch {
	case o.delim == '\r' || o.delim == '\n':
		return errorf(codeInvalidParamValue, "COPY delimiter cannot be newline or carriage return")
	case strings.ContainsAny(o.null, "\r\n"):
		return errorf(codeInvalidParamValue, "COPY null representation cannot use newline or carriage return")
	case !o.csv && o.delim == '\\':
		return errorf(codeInvalidParamValue, `COPY delimiter cannot be "\"`)
	case o.csv && o.delim == o.quote:
		return errorf(codeInvalidParamValue, "COPY delimiter and quote must be different")
	}
	return nil
}
