package pgwire

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/shale-db/shale/pgwire/pgcatalog"
)

// localKind is a statement pgwire answers itself: the session statements
// drivers send (they never reach the GoogleSQL engine).
type localKind uint8

const (
	localSet        localKind = iota + 1 // SET name = value, SET TIME ZONE, SET NAMES, SET SCHEMA
	localSetTxn                          // SET TRANSACTION ..., SET SESSION CHARACTERISTICS AS TRANSACTION ...
	localReset                           // RESET name | ALL
	localShow                            // SHOW name | ALL
	localBegin                           // BEGIN, START TRANSACTION
	localCommit                          // COMMIT, END
	localRollback                        // ROLLBACK, ABORT
	localRollbackTo                      // ROLLBACK TO SAVEPOINT name
	localSavepoint                       // SAVEPOINT name
	localRelease                         // RELEASE SAVEPOINT name
	localDiscard                         // DISCARD ALL | PLANS | SEQUENCES | TEMP
	localDeallocate                      // DEALLOCATE [PREPARE] name | ALL
	localSelect                          // SELECT version(), current_setting('x'), ...
	localDeclare                         // DECLARE name CURSOR [WITH HOLD] FOR query
	localFetch                           // FETCH [n | ALL | NEXT | FORWARD ...] [FROM | IN] name
	localMove                            // MOVE ... (FETCH without rows)
	localClose                           // CLOSE name | ALL
	localCopy                            // COPY (query) | table TO STDOUT [options]
	localLock                            // LOCK [TABLE] name [, ...] [IN mode MODE] [NOWAIT]
	localPrepare                         // PREPARE name [(type, ...)] AS query
	localExecute                         // EXECUTE name [(value, ...)]
	localUnlisten                        // UNLISTEN name | *
)

// localStmt is a parsed session statement.
type localStmt struct {
	kind   localKind
	name   string // setting, cursor, statement or savepoint name
	value  string // SET's value (joined list)
	def    bool   // SET name TO DEFAULT
	local  bool   // SET LOCAL
	all    bool   // RESET/SHOW/DEALLOCATE/CLOSE ALL, FETCH ALL
	count  int64  // FETCH/MOVE count (when !all)
	modes  []txnMode
	funcs  []funcItem
	hold   bool   // DECLARE ... WITH HOLD
	binary bool   // DECLARE BINARY
	query  string // DECLARE's query, from after FOR; COPY's query
	qstart int    // byte offset of query in the statement (-1: not the client's text)
	copy   *copyOpts
	word   string     // DISCARD's object
	tables [][]string // LOCK's tables, each as its name's parts
	items  []string   // PREPARE's parameter types, EXECUTE's values: their SQL text
}

// txnMode is one setting a BEGIN or SET TRANSACTION changes.
type txnMode struct{ name, value string }

// funcItem is one select-list item of a localSelect.
type funcItem struct {
	fn    string // lower-case function name
	args  []funcArg
	alias string
}

// funcArg is a string literal or a $n placeholder.
type funcArg struct {
	lit   string
	param int // 1-based; 0 for a literal
}

// words walks the tokens of a statement. It lexes one token ahead rather
// than the whole text: most statements are queries, which parseLocal
// turns down after a word or two, and that is on every simple Query's path.
type words struct {
	text string
	lex  lexer
	next token // the token peek returns (tokEOF at the end)
}

func newWords(text string) *words {
	w := &words{text: text, lex: lexer{text: text}}
	w.skip()
	return w
}

func (w *words) done() bool { return w.next.kind == tokEOF }

func (w *words) peek() (token, string) {
	if w.done() {
		return token{kind: tokEOF}, ""
	}
	return w.next, w.text[w.next.start:w.next.end]
}

// skip consumes the next token.
func (w *words) skip() { w.next = w.lex.next() }

// pgStrings reads the strings of the rest of the text, from the next token
// on, by PostgreSQL's rules (lexer.pgStrings).
func (w *words) pgStrings() {
	w.lex.pgStrings = true
	w.lex.pos = w.next.start
	w.skip()
}

// keyword reports whether the next token is one of kws (case-insensitive)
// and consumes it if so.
func (w *words) keyword(kws ...string) bool {
	t, s := w.peek()
	if t.kind != tokIdent {
		return false
	}
	for _, k := range kws {
		if strings.EqualFold(s, k) {
			w.skip()
			return true
		}
	}
	return false
}

// punct consumes the punctuation p.
func (w *words) punct(p string) bool {
	t, s := w.peek()
	if t.kind == tokPunct && s == p {
		w.skip()
		return true
	}
	return false
}

// ident consumes an identifier: a bare word, lower-cased, or a "quoted"
// one, as written.
func (w *words) ident() (string, bool) {
	t, s := w.peek()
	switch {
	case t.kind == tokIdent:
		w.skip()
		return strings.ToLower(s), true
	case t.kind == tokString && s[0] == '"', t.kind == tokQuotedIdent:
		if len(s) < 2 || s[len(s)-1] != s[0] {
			return "", false // unterminated: the lexer ran out of text
		}
		w.skip()
		return unquoteIdent(s), true
	}
	return "", false
}

// dottedName reads name(.name)*.
func (w *words) dottedName() (string, bool) {
	n, ok := w.ident()
	for ok && w.punct(".") {
		var m string
		if m, ok = w.ident(); ok {
			n += "." + m
		}
	}
	return n, ok
}

// appendLower appends strings.ToLower(s) to dst, so that a caller can lower
// a word into a buffer on its stack.
func appendLower(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return append(dst, strings.ToLower(s)...)
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

func unquoteIdent(s string) string {
	q := s[0]
	s = s[1 : len(s)-1]
	return strings.ReplaceAll(s, string([]byte{q, q}), string(q))
}

// unquoteString decodes a PostgreSQL string literal: '…' with ” for a
// quote, or E'…' with backslash escapes.
func unquoteString(s string) string {
	escapes := s[0] == 'e' || s[0] == 'E'
	if escapes {
		s = s[1:]
	}
	if len(s) < 2 {
		return ""
	}
	body := s[1 : len(s)-1]
	if !escapes {
		return strings.ReplaceAll(body, "''", "'")
	}
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c == '\'' && i+1 < len(body) && body[i+1] == '\'' {
			i++
		} else if c == '\\' && i+1 < len(body) {
			i++
			switch body[i] {
			case 'n':
				c = '\n'
			case 't':
				c = '\t'
			case 'r':
				c = '\r'
			case 'b':
				c = '\b'
			case 'f':
				c = '\f'
			default:
				c = body[i]
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

func syntaxError(w *words) error {
	t, s := w.peek()
	e := &pgError{code: codeSyntax, pos: t.start}
	if t.kind == tokEOF {
		e.msg, e.pos = "syntax error at end of input", len(w.text)
	} else {
		e.msg = `syntax error at or near "` + s + `"`
	}
	return e
}

// parseLocal recognises a session statement. It returns nil, nil for
// anything else (which goes to the Catalog and the Executor), and a 42601
// error for a session statement it recognises but cannot read.
func parseLocal(text string) (*localStmt, error) {
	w := newWords(text)
	t, first := w.peek()
	if t.kind != tokIdent {
		return nil, nil
	}
	w.skip()
	var st *localStmt
	var err error
	var buf [16]byte
	switch string(appendLower(buf[:0], first)) { // unlike strings.ToLower, allocates nothing
	case "set":
		st, err = parseSet(w)
	case "reset":
		st = &localStmt{kind: localReset}
		if w.keyword("all") {
			st.all = true
		} else if !w.keyword("session") || !w.keyword("authorization") {
			st.name, _ = w.dottedName()
			if w.keyword("zone") { // RESET TIME ZONE
				st.name = "timezone"
			}
		}
	case "show":
		st, err = parseShow(w)
	case "begin":
		w.keyword("work", "transaction")
		st = &localStmt{kind: localBegin}
		st.modes, err = parseTxnModes(w)
	case "start":
		if !w.keyword("transaction") {
			return nil, syntaxError(w)
		}
		st = &localStmt{kind: localBegin}
		st.modes, err = parseTxnModes(w)
	case "commit", "end":
		w.keyword("work", "transaction")
		st = &localStmt{kind: localCommit}
		if w.keyword("and") {
			w.keyword("no")
			w.keyword("chain")
		}
	case "rollback", "abort":
		w.keyword("work", "transaction")
		st = &localStmt{kind: localRollback}
		if w.keyword("to") {
			w.keyword("savepoint")
			st.kind = localRollbackTo
			st.name, _ = w.ident()
		} else if w.keyword("and") {
			w.keyword("no")
			w.keyword("chain")
		}
	case "savepoint":
		st = &localStmt{kind: localSavepoint}
		st.name, _ = w.ident()
	case "release":
		w.keyword("savepoint")
		st = &localStmt{kind: localRelease}
		st.name, _ = w.ident()
	case "unlisten":
		// Nothing listens (LISTEN is refused), so there is nothing to
		// stop: asyncpg's pool sends UNLISTEN * when it takes back a
		// connection.
		st = &localStmt{kind: localUnlisten}
		if !w.punct("*") {
			var ok bool
			if st.name, ok = w.ident(); !ok {
				return nil, syntaxError(w)
			}
		}
	case "listen", "notify":
		return nil, errorf(codeNotSupported, strings.ToUpper(first)+" is not supported: Shale sends no notifications")
	case "discard":
		st = &localStmt{kind: localDiscard}
		_, st.word = w.peek()
		if !w.keyword("all", "plans", "sequences", "temp", "temporary") {
			return nil, syntaxError(w)
		}
		st.word = strings.ToUpper(st.word)
		if st.word == "TEMPORARY" {
			st.word = "TEMP"
		}
	case "deallocate":
		w.keyword("prepare")
		st = &localStmt{kind: localDeallocate}
		if w.keyword("all") {
			st.all = true
		} else if st.name, _ = w.ident(); st.name == "" {
			return nil, syntaxError(w)
		}
	case "select":
		return parseLocalSelect(w), nil
	case "declare":
		st, err = parseDeclare(w)
	case "copy":
		st, err = parseCopy(w)
	case "fetch", "move":
		st, err = parseFetch(w, strings.EqualFold(first, "move"))
	case "lock":
		st, err = parseLock(w)
	case "prepare":
		st, err = parsePrepare(w)
	case "execute":
		st, err = parseExecute(w)
	case "close":
		st = &localStmt{kind: localClose}
		if w.keyword("all") {
			st.all = true
		} else if st.name, _ = w.ident(); st.name == "" {
			return nil, syntaxError(w)
		}
	default:
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if st.kind != localDeclare && st.kind != localPrepare && !w.done() { // their query is the rest
		return nil, syntaxError(w)
	}
	return st, nil
}

func parseShow(w *words) (*localStmt, error) {
	st := &localStmt{kind: localShow}
	switch {
	case w.keyword("all"):
		st.all = true
	case w.keyword("time"):
		if !w.keyword("zone") {
			return nil, syntaxError(w)
		}
		st.name = "timezone"
	case w.keyword("transaction"):
		if !w.keyword("isolation") || !w.keyword("level") {
			return nil, syntaxError(w)
		}
		st.name = "transaction_isolation"
	case w.keyword("session"):
		if !w.keyword("authorization") {
			return nil, syntaxError(w)
		}
		st.name = "session_authorization"
	default:
		var ok bool
		if st.name, ok = w.dottedName(); !ok {
			return nil, syntaxError(w)
		}
	}
	return st, nil
}

func parseSet(w *words) (*localStmt, error) {
	st := &localStmt{kind: localSet}
	if w.keyword("session") {
		if w.keyword("characteristics") {
			if !w.keyword("as") || !w.keyword("transaction") {
				return nil, syntaxError(w)
			}
			st.kind, st.name = localSetTxn, "default"
			var err error
			st.modes, err = parseTxnModes(w)
			return st, err
		}
	} else if w.keyword("local") {
		st.local = true
	}
	switch {
	case w.keyword("transaction"):
		st.kind = localSetTxn
		var err error
		st.modes, err = parseTxnModes(w)
		return st, err
	case w.keyword("time"):
		if !w.keyword("zone") {
			return nil, syntaxError(w)
		}
		st.name = "timezone"
		if w.keyword("interval") {
			var err error
			st.value, err = parseZoneInterval(w)
			return st, err
		}
	case w.keyword("names"):
		st.name = "client_encoding"
	case w.keyword("schema"):
		st.name = "search_path"
	default:
		var ok bool
		if st.name, ok = w.dottedName(); !ok {
			return nil, syntaxError(w)
		}
		if !w.keyword("to") && !w.punct("=") {
			return nil, syntaxError(w)
		}
	}
	if w.keyword("default") || (st.name == "timezone" && w.keyword("local")) {
		st.def = true
		return st, nil
	}
	var vals []string
	for {
		v, ok := settingValue(w)
		if !ok {
			return nil, syntaxError(w)
		}
		vals = append(vals, v)
		if !w.punct(",") {
			break
		}
	}
	st.value = strings.Join(vals, ", ")
	return st, nil
}

// parseZoneInterval reads the rest of SET TIME ZONE INTERVAL [(p)] '…'
// [HOUR | MINUTE | HOUR TO MINUTE] as PostgreSQL's grammar does
// (zone_value): the interval is read with its fields' precision (HOUR
// drops the minutes) and written as flatten_set_variable_args writes it,
// INTERVAL '05:30:00', which checkTimeZone reads. Another field is a
// syntax error at the field.
func parseZoneInterval(w *words) (string, error) {
	if w.punct("(") {
		if t, _ := w.peek(); t.kind != tokNumber {
			return "", syntaxError(w)
		}
		w.skip()
		if !w.punct(")") {
			return "", syntaxError(w)
		}
	}
	t, s := w.peek()
	if t.kind != tokString || s[0] == '"' {
		return "", syntaxError(w)
	}
	w.skip()
	field, _ := w.peek()
	unit := int64(1) // the microseconds the field's precision keeps
	switch {
	case w.keyword("hour"):
		unit = 3600e6
		if w.keyword("to") {
			if !w.keyword("minute") {
				return "", zoneFieldError(field)
			}
			unit = 60e6
		}
	case w.keyword("minute"):
		unit = 60e6
		if w.keyword("to") {
			return "", zoneFieldError(field)
		}
	case w.keyword("year", "month", "day", "second"):
		return "", zoneFieldError(field)
	}
	months, days, micros, err := pgcatalog.ParseInterval(unquoteString(s))
	if err != nil {
		return "", err
	}
	micros -= micros % unit // toward zero, as AdjustIntervalForTypmod
	return "INTERVAL '" + pgcatalog.FormatInterval(months, days, micros) + "'", nil
}

func zoneFieldError(field token) error {
	return &pgError{code: codeSyntax, pos: field.start, msg: "time zone interval must be HOUR or HOUR TO MINUTE"}
}

// settingValue reads one item of a SET value list: a string, a number
// (with its sign), a word, or a "quoted" identifier kept with its quotes.
func settingValue(w *words) (string, bool) {
	sign := ""
	if w.punct("-") {
		sign = "-"
	} else if w.punct("+") {
		sign = "+"
	}
	t, s := w.peek()
	switch {
	case t.kind == tokString && s[0] == '"':
		w.skip()
		return s, true
	case t.kind == tokString:
		w.skip()
		return sign + unquoteString(s), true
	case t.kind == tokNumber:
		w.skip()
		return sign + s, true
	case t.kind == tokIdent && sign == "":
		w.skip()
		if w.punct(".") { // a dotted word, e.g. a zone name
			if _, s2 := w.peek(); !w.done() {
				w.skip()
				return strings.ToLower(s) + "." + strings.ToLower(s2), true
			}
		}
		return strings.ToLower(s), true
	}
	return "", false
}

// parseTxnModes reads ISOLATION LEVEL x, READ ONLY|WRITE, [NOT] DEFERRABLE.
func parseTxnModes(w *words) ([]txnMode, error) {
	var modes []txnMode
	for !w.done() {
		switch {
		case w.keyword("isolation"):
			if !w.keyword("level") {
				return nil, syntaxError(w)
			}
			switch {
			case w.keyword("serializable"):
				modes = append(modes, txnMode{"isolation", "serializable"})
			case w.keyword("repeatable"):
				if !w.keyword("read") {
					return nil, syntaxError(w)
				}
				modes = append(modes, txnMode{"isolation", "repeatable read"})
			case w.keyword("read"):
				_, s := w.peek()
				if !w.keyword("committed", "uncommitted") {
					return nil, syntaxError(w)
				}
				modes = append(modes, txnMode{"isolation", "read " + strings.ToLower(s)})
			default:
				return nil, syntaxError(w)
			}
		case w.keyword("read"):
			switch {
			case w.keyword("only"):
				modes = append(modes, txnMode{"read_only", "on"})
			case w.keyword("write"):
				modes = append(modes, txnMode{"read_only", "off"})
			default:
				return nil, syntaxError(w)
			}
		case w.keyword("not"):
			if !w.keyword("deferrable") {
				return nil, syntaxError(w)
			}
		case w.keyword("deferrable"):
		default:
			return nil, syntaxError(w)
		}
		w.punct(",")
	}
	return modes, nil
}

// localFuncs are the functions a localSelect may call: name → whether it
// is written with parentheses.
var localFuncs = map[string]bool{
	"version": true, "current_schema": true, "current_database": true, "current_setting": true,
	"pg_backend_pid": true, "current_user": false, "session_user": false, "user": false,
	"current_role": false, "current_catalog": false, "set_config": true, "pg_advisory_unlock_all": true,
}

// parseLocalSelect recognises SELECT f(...) [AS a], ... over localFuncs,
// with nothing else in the statement; nil otherwise.
func parseLocalSelect(w *words) *localStmt {
	var funcs []funcItem
	for {
		var it funcItem
		name, ok := w.ident()
		if ok && name == "pg_catalog" && w.punct(".") {
			name, ok = w.ident()
		}
		parens, known := localFuncs[name]
		if !ok || !known {
			return nil
		}
		it.fn = name
		if w.punct("(") {
			if !parens && name != "current_schema" {
				return nil
			}
			for !w.punct(")") {
				t, s := w.peek()
				switch {
				case t.kind == tokString && s[0] != '"':
					it.args = append(it.args, funcArg{lit: unquoteString(s)})
				case t.kind == tokPositional:
					n, _ := strconv.Atoi(s[1:])
					it.args = append(it.args, funcArg{param: n})
				case t.kind == tokIdent && (strings.EqualFold(s, "true") || strings.EqualFold(s, "false")):
					it.args = append(it.args, funcArg{lit: strings.ToLower(s)})
				default:
					return nil
				}
				w.skip()
				if !w.punct(",") {
					if !w.punct(")") {
						return nil
					}
					break
				}
			}
		} else if parens && name != "current_schema" {
			return nil
		}
		if w.keyword("as") {
			if it.alias, ok = w.ident(); !ok {
				return nil
			}
		} else if t, _ := w.peek(); t.kind == tokIdent || (t.kind == tokString && w.text[t.start] == '"') {
			it.alias, _ = w.ident()
		}
		funcs = append(funcs, it)
		if !w.punct(",") {
			break
		}
	}
	if !w.done() {
		return nil
	}
	return &localStmt{kind: localSelect, funcs: funcs}
}

func parseDeclare(w *words) (*localStmt, error) {
	st := &localStmt{kind: localDeclare}
	var ok bool
	if st.name, ok = w.ident(); !ok {
		return nil, syntaxError(w)
	}
	for {
		switch {
		case w.keyword("binary"):
			st.binary = true
			continue
		case w.keyword("asensitive", "insensitive", "scroll"):
			continue
		case w.keyword("no"):
			if !w.keyword("scroll") {
				return nil, syntaxError(w)
			}
			continue
		}
		break
	}
	if !w.keyword("cursor") {
		return nil, syntaxError(w)
	}
	if w.keyword("with") {
		if !w.keyword("hold") {
			return nil, syntaxError(w)
		}
		st.hold = true
	} else if w.keyword("without") {
		if !w.keyword("hold") {
			return nil, syntaxError(w)
		}
	}
	if !w.keyword("for") || w.done() {
		return nil, syntaxError(w)
	}
	t, _ := w.peek()
	st.qstart = t.start
	st.query = w.text[t.start:]
	return st, nil
}

func parseFetch(w *words, move bool) (*localStmt, error) {
	st := &localStmt{kind: localFetch, count: 1}
	if move {
		st.kind = localMove
	}
	backward := errorf(codeNotSupported, "Shale cursors can only scan forward")
	t, s := w.peek()
	switch {
	case w.keyword("next"):
	case w.keyword("all"):
		st.all = true
	case w.keyword("forward"):
		if w.keyword("all") {
			st.all = true
		} else if t2, s2 := w.peek(); t2.kind == tokNumber {
			w.skip()
			n, err := strconv.ParseInt(s2, 10, 64)
			if err != nil || n < 0 {
				return nil, backward
			}
			st.count = n
		}
	case t.kind == tokNumber:
		w.skip()
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, syntaxError(w)
		}
		st.count = n
	case t.kind == tokPunct && s == "-":
		return nil, backward
	case w.keyword("prior", "first", "last", "absolute", "relative", "backward"):
		return nil, backward
	}
	w.keyword("from", "in")
	var ok bool
	if st.name, ok = w.ident(); !ok {
		return nil, syntaxError(w)
	}
	return st, nil
}

// parseLock reads the rest of LOCK [TABLE] [ONLY] name [*] [, ...]
// [IN lockmode MODE] [NOWAIT]. Shale's reads take no locks, so LOCK only
// has to find its tables (pg_dump locks every table it dumps).
func parseLock(w *words) (*localStmt, error) {
	w.keyword("table")
	st := &localStmt{kind: localLock}
	for {
		w.keyword("only")
		var parts []string
		for {
			part, ok := w.ident()
			if !ok || part == "" {
				return nil, syntaxError(w)
			}
			parts = append(parts, part)
			if !w.punct(".") {
				break
			}
		}
		st.tables = append(st.tables, parts)
		w.punct("*")
		if !w.punct(",") {
			break
		}
	}
	if w.keyword("in") {
		for !w.keyword("mode") {
			if !w.keyword("access", "row", "share", "exclusive", "update") {
				return nil, syntaxError(w)
			}
		}
	}
	w.keyword("nowait")
	return st, nil
}
