package pgwire

import (
	"context"
	"fmt"
	"strings"

	"github.com/shale-db/shale/sql/types"
)

// SQL-level prepared statements: PREPARE name [(type, ...)] AS query and
// EXECUTE name [(value, ...)], which psql scripts use. They share the
// protocol's namespace of named statements, as in PostgreSQL (DEALLOCATE
// drops either kind). EXECUTE's values are literals: strings, numbers,
// NULL, TRUE and FALSE, a string optionally cast ('x'::text).

// parsePrepare reads the rest of PREPARE name [(type, ...)] AS query.
func parsePrepare(w *words) (*localStmt, error) {
	if w.keyword("transaction") {
		return nil, errorf(codeNotSupported, "PREPARE TRANSACTION is not supported: Shale's SQL is read-only")
	}
	st, err := nameAndItems(w, localPrepare)
	if err != nil {
		return nil, err
	}
	if !w.keyword("as") || w.done() {
		return nil, syntaxError(w)
	}
	t, _ := w.peek()
	st.qstart, st.query = t.start, w.text[t.start:]
	return st, nil
}

// parseExecute reads the rest of EXECUTE name [(value, ...)].
func parseExecute(w *words) (*localStmt, error) {
	st, err := nameAndItems(w, localExecute)
	if err != nil {
		return nil, err
	}
	if !w.done() {
		return nil, syntaxError(w)
	}
	return st, nil
}

// nameAndItems reads the statement name PREPARE and EXECUTE begin with and
// the parenthesized list after it, if any.
func nameAndItems(w *words, kind localKind) (*localStmt, error) {
	st := &localStmt{kind: kind}
	var ok bool
	if st.name, ok = w.ident(); !ok {
		return nil, syntaxError(w)
	}
	if t, _ := w.peek(); t.kind == tokPunct && w.text[t.start] == '(' {
		items, err := parenItems(w)
		if err != nil {
			return nil, err
		}
		st.items = items
	}
	return st, nil
}

// parenItems reads a parenthesized, comma-separated list and returns each
// item's text (items may hold parentheses and strings of their own).
func parenItems(w *words) ([]string, error) {
	w.skip() // (
	var items []string
	depth, start := 0, -1
	for {
		t, s := w.peek()
		switch {
		case t.kind == tokEOF:
			return nil, syntaxError(w)
		case t.kind == tokPunct && (s == "," || s == ")") && depth == 0:
			if start < 0 {
				return nil, syntaxError(w)
			}
			items = append(items, strings.TrimSpace(w.text[start:t.start]))
			start = -1
			w.skip()
			if s == ")" {
				return items, nil
			}
			continue
		case t.kind == tokPunct && s == "(":
			depth++
		case t.kind == tokPunct && s == ")":
			depth--
		}
		if start < 0 {
			start = t.start
		}
		w.skip()
	}
}

// sqlTypeOIDs maps the type names PREPARE lists to their OIDs (0 for one
// it does not know: the parameter's type is then inferred).
func sqlTypeOIDs(names []string) []uint32 {
	known := map[string]uint32{
		"bool": oidBool, "boolean": oidBool, "int2": oidInt2, "smallint": oidInt2, "int": oidInt4, "int4": oidInt4,
		"integer": oidInt4, "int8": oidInt8, "bigint": oidInt8, "float4": oidFloat4, "real": oidFloat4,
		"float8": oidFloat8, "double precision": oidFloat8, "numeric": oidNumeric, "decimal": oidNumeric,
		"text": oidText, "varchar": oidVarchar, "character varying": oidVarchar, "name": oidName,
		"bytea": oidBytea, "date": oidDate, "timestamp": oidTimestamp, "timestamptz": oidTimestamptz,
		"timestamp with time zone": oidTimestamptz, "json": oidJSON, "jsonb": oidJSONB,
	}
	out := make([]uint32, len(names))
	for i, n := range names {
		n = strings.ToLower(strings.Join(strings.Fields(n), " "))
		if j := strings.IndexByte(n, '('); j > 0 { // varchar(10), numeric(5,2)
			n = strings.TrimSpace(n[:j])
		}
		out[i] = known[n]
	}
	return out
}

// runPrepare runs PREPARE: the query is prepared as a Parse would prepare
// it and stored under the name.
func (c *conn) runPrepare(st *localStmt) error {
	if _, dup := c.stmts[st.name]; dup {
		return errorf(codeDuplicateStatement, fmt.Sprintf("prepared statement \"%s\" already exists", st.name))
	}
	p, err := c.prepare(st.query, sqlTypeOIDs(st.items))
	if err != nil {
		if pe, ok := err.(*pgError); ok {
			pe.pos = st.innerPos(pe.pos)
		}
		return err
	}
	c.stmts[st.name] = p
	return nil
}

// executeTarget is the prepared query EXECUTE names.
func (c *conn) executeTarget(st *localStmt) (*prepared, error) {
	p, ok := c.stmts[st.name]
	if !ok {
		return nil, errorf(codeInvalidStatement, fmt.Sprintf("prepared statement \"%s\" does not exist", st.name))
	}
	if p.stmt == nil || p.local != nil {
		return nil, errorf(codeNotSupported, fmt.Sprintf("EXECUTE of prepared statement \"%s\", which is not a query, is not supported", st.name))
	}
	return p, nil
}

// runExecute runs EXECUTE: its values bind the statement's parameters as
// text, and its rows stream through pt.
func (c *conn) runExecute(pt *portal, st *localStmt) error {
	p, err := c.executeTarget(st)
	if err != nil {
		return err
	}
	if len(st.items) != len(p.params) {
		e := errorf(codeSyntax, fmt.Sprintf("wrong number of parameters for prepared statement \"%s\"", st.name))
		e.detail = fmt.Sprintf("Expected %d parameters but got %d.", len(p.params), len(st.items))
		return e
	}
	args := map[string]types.Value{}
	for i, item := range st.items {
		text, null, err := literalText(item)
		if err != nil {
			return err
		}
		var raw []byte
		if !null {
			raw = []byte(text)
		}
		v, err := decodeParam(&p.params[i], formatText, raw)
		if err != nil {
			return err
		}
		args[p.params[i].name] = v
	}
	ctx, cancel := context.WithCancel(c.ctx)
	rows, err := p.stmt.Run(ctx, args)
	if err != nil {
		cancel()
		return toPGError(ctx, err, nil)
	}
	pt.interrupt = cancel
	pt.rows = &cancelRows{Rows: rows, cancel: cancel}
	pt.tag = commandTag{verb: p.verb, count: true}
	return nil
}

// cancelRows releases its run's context when closed.
type cancelRows struct {
	Rows
	cancel context.CancelFunc
}

func (r *cancelRows) Close() error {
	err := r.Rows.Close()
	r.cancel()
	return err
}

// literalText reads an EXECUTE value: a string literal (with ” for a
// quote, and an optional ::type), a number, TRUE, FALSE or NULL.
func literalText(item string) (text string, null bool, err error) {
	s := item
	if i := strings.LastIndex(s, "::"); i > 0 && strings.HasSuffix(strings.TrimSpace(s[:i]), "'") {
		s = strings.TrimSpace(s[:i])
	}
	switch {
	case len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'':
		return strings.ReplaceAll(s[1:len(s)-1], "''", "'"), false, nil
	case strings.EqualFold(s, "null"):
		return "", true, nil
	case strings.EqualFold(s, "true"), strings.EqualFold(s, "false"):
		return strings.ToLower(s), false, nil
	}
	if s != "" && strings.Trim(s, "+-0123456789.eE") == "" {
		return s, false, nil
	}
	return "", false, errorf(codeNotSupported, fmt.Sprintf("EXECUTE takes literal values; \"%s\" is not one", item))
}
