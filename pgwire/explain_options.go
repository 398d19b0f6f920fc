package pgwire

import (
	"context"
	"strings"

	"github.com/shale-db/shale/pgwire/pgcatalog"
	"github.com/shale-db/shale/sql/types"
)

// EXPLAIN ( option [, …] ) over a GoogleSQL query. The option list is
// PostgreSQL's syntax, which plan viewers (pgAdmin, pev2) wrap around the
// query they are shown, so such a statement is read as PostgreSQL first;
// when that reading fails, the options GoogleSQL's EXPLAIN can honour are
// taken out of the text and the Executor explains the query: ANALYZE runs
// it, FORMAT TEXT gives the plan as plain EXPLAIN does, and FORMAT JSON
// and YAML give it in PostgreSQL's structured shape as one node, a Custom
// Scan of Shale's GoogleSQL engine whose Details are the plan's lines,
// written by the PostgreSQL dialect's own EXPLAIN writer
// (pgcatalog.StructuredGoogleSQLPlan).
// VERBOSE, COSTS, BUFFERS, TIMING, SUMMARY, SETTINGS and WAL change nothing
// here.

// explainOptions reads text as EXPLAIN ( option [value] [, …] ) query. It
// returns the text GoogleSQL reads, the option list replaced by ANALYZE
// when the list asks for it and padded with spaces, so that offsets into it
// are offsets into text; the format asked for; and the query after the
// list. ok is false when text has no option list or one GoogleSQL's
// EXPLAIN cannot honour.
func explainOptions(text string) (rewritten, format, query string, ok bool) {
	w := newWords(text)
	if !w.keyword("explain") {
		return "", "", "", false
	}
	open, _ := w.peek()
	if !w.punct("(") {
		return "", "", "", false
	}
	format, analyze := "text", false
	for {
		t, name := w.peek()
		if t.kind != tokIdent {
			return "", "", "", false
		}
		w.skip()
		value := ""
		switch v, s := w.peek(); v.kind {
		case tokIdent, tokNumber:
			value = strings.ToLower(s)
			w.skip()
		case tokString:
			value = strings.ToLower(strings.Trim(s, "'"))
			w.skip()
		}
		switch strings.ToLower(name) {
		case "format":
			if value != "text" && value != "json" && value != "yaml" {
				return "", "", "", false
			}
			format = value
		case "analyze", "analyse":
			if analyze, ok = explainBool(value); !ok {
				return "", "", "", false
			}
		case "verbose", "costs", "buffers", "timing", "summary", "settings", "wal":
			if _, ok = explainBool(value); !ok {
				return "", "", "", false
			}
		default:
			return "", "", "", false
		}
		if w.punct(",") {
			continue
		}
		closing, _ := w.peek()
		if !w.punct(")") {
			return "", "", "", false
		}
		blank := strings.Repeat(" ", closing.end-open.start)
		if analyze { // the list holds the word, so it is long enough
			blank = "ANALYZE" + blank[len("ANALYZE"):]
		}
		rewritten = text[:open.start] + blank + text[closing.end:]
		return rewritten, format, strings.TrimSpace(text[closing.end:]), true
	}
}

// explainBool reads an EXPLAIN option's boolean value as PostgreSQL's
// defGetBoolean does ("" is the option alone: true).
func explainBool(v string) (bool, bool) {
	switch v {
	case "", "true", "on", "1":
		return true, true
	case "false", "off", "0":
		return false, true
	}
	return false, false
}

// explainWithOptions prepares p, an EXPLAIN ( options ) statement that
// PostgreSQL's reading refused, for the Executor. handled is false when
// the options are not GoogleSQL's to honour; err is the Executor's error
// when it could not prepare the query (a syntax error: the query is not
// GoogleSQL either).
func (c *conn) explainWithOptions(p *prepared, oids []uint32) (q *prepared, handled bool, err error) {
	text, format, query, ok := explainOptions(p.text)
	if !ok {
		return nil, false, nil
	}
	q, err = c.prepareExecutor(&prepared{text: text}, oids)
	if err != nil {
		return q, true, err
	}
	q.text = p.text
	if format == "text" {
		return q, true, nil
	}
	q.stmt = &structuredPlan{plan: q.stmt, format: format, query: query}
	oid := oidJSON
	if format == "yaml" {
		oid = oidText
	}
	q.cols = []column{{name: "QUERY PLAN", oid: oid, typ: types.String}}
	return q, true, nil
}

// structuredPlan is an Executor's EXPLAIN as one JSON or YAML value.
type structuredPlan struct {
	plan          Statement
	format, query string // format: json or yaml
}

func (s *structuredPlan) Columns() []types.Field {
	return []types.Field{{Name: "QUERY PLAN", Type: types.String}}
}

func (s *structuredPlan) Run(ctx context.Context, params map[string]types.Value) (Rows, error) {
	rows, err := s.plan.Run(ctx, params)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var lines []string
	for rows.Next() {
		if r := rows.Row(); len(r) > 0 && !r[0].IsNull() {
			lines = append(lines, r[0].Str())
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	doc := pgcatalog.StructuredGoogleSQLPlan(s.format, s.query, lines)
	return &valueRows{rows: [][]types.Value{{types.StringValue(doc)}}}, nil
}
