package pgcatalog

import (
	"context"
	"fmt"
	"strings"
	"time"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// EXPLAIN of a PostgreSQL-dialect query: its plan as a tree of text
// lines, one row each under PostgreSQL's column name, QUERY PLAN. A scan
// of a Shale table shows what it reads and, when the Source explains scans
// (ScanExplainer: the server shows the GoogleSQL plan of the scan it runs,
// spans and key ranges), how its key conditions narrow the read; that is
// how a user checks that a predicate on the key reads only those rows.
// FORMAT JSON and YAML give the same tree in PostgreSQL's structured
// shape (explain_format.go); XML is not built. EXPLAIN ANALYZE runs the statement,
// discarding its rows, and adds what the run did: the rows each table scan
// read, the rows the statement returned and the time it took.

// ScanExplainer is optionally implemented by a Source: the lines of its
// plan for a Scan with these arguments.
type ScanExplainer interface {
	ExplainScan(ctx context.Context, database string, req ScanRequest) ([]string, error)
}

// explainPlan is EXPLAIN's result: the lines of the inner query's plan,
// and with analyze what running it did.
type explainPlan struct {
	q       *queryPlan
	analyze bool
	format  explainFormat
}

func (p *explainPlan) columns() []scopeCol {
	return []scopeCol{{name: "QUERY PLAN", typ: p.format.columnType()}}
}

func (p *explainPlan) run(ev *evaluator, _ *env) ([][]Value, error) {
	var rows int64
	var took time.Duration
	if p.analyze {
		var err error
		if rows, took, err = runDiscarding(ev, p.q.root); err != nil {
			return nil, err
		}
	}
	root, err := explainNode(ev, p.q.root, -1)
	if err != nil {
		return nil, err
	}
	var sum *explainSummary
	if p.analyze {
		sum = &explainSummary{rows: rows, took: took}
	}
	if p.format != explainText {
		return [][]Value{{textV(p.format.render(root, sum))}}, nil
	}
	var lines []string
	root.text("", "", &lines)
	if sum != nil {
		lines = append(lines, fmt.Sprintf("Rows: %d", rows), fmt.Sprintf("Execution Time: %.3f ms", sum.ms()))
	}
	out := make([][]Value, len(lines))
	for i, l := range lines {
		out[i] = []Value{textV(l)}
	}
	return out, nil
}

// bindExplain binds EXPLAIN [ ( options ) ] query.
func (b *binder) bindExplain(x *pg_query.ExplainStmt) (*queryPlan, error) {
	analyze := false
	format := explainText
	for _, o := range x.Options {
		d := o.GetDefElem()
		if d == nil {
			continue
		}
		var err error
		switch d.Defname {
		case "format":
			format, err = explainFormatOption(d)
		case "analyze":
			analyze, err = explainBoolOption(d)
		case "verbose", "costs", "settings", "buffers", "wal", "timing", "summary":
			_, err = explainBoolOption(d) // they change nothing in Shale's plans
		default:
			err = errorf(CodeSyntax, d.Location, "unrecognized EXPLAIN option \"%s\"", d.Defname)
		}
		if err != nil {
			return nil, err
		}
	}
	s := x.Query.GetSelectStmt()
	if s == nil {
		return nil, errorf(CodeNotSupported, noPos, "EXPLAIN is supported for SELECT and VALUES only")
	}
	q, err := b.bindQuery(s, nil, nil)
	if err != nil {
		return nil, err
	}
	typ := format.columnType()
	return &queryPlan{root: &explainPlan{q: q, analyze: analyze, format: format}, cols: []outCol{{name: "QUERY PLAN", typ: typ}}}, nil
}

// explainFormatOption reads FORMAT's value, as PostgreSQL 15 does.
func explainFormatOption(d *pg_query.DefElem) (explainFormat, error) {
	if d.Arg == nil {
		return 0, errorf(CodeSyntax, noPos, "format requires a parameter")
	}
	arg := strings.ToLower(d.Arg.GetString_().GetSval())
	if f, ok := explainFormats[arg]; ok {
		return f, nil
	}
	if arg == "xml" {
		return 0, errorf(CodeNotSupported, d.Location, "EXPLAIN (FORMAT XML) is not supported: the text, JSON and YAML formats are")
	}
	return 0, errorf(CodeInvalidParameter, d.Location, "unrecognized value for EXPLAIN option \"format\": \"%s\"", arg)
}

// explainBoolOption reads a boolean option's value as PostgreSQL's
// defGetBoolean does: none, true, false, on, off, 1 or 0.
func explainBoolOption(d *pg_query.DefElem) (bool, error) {
	if d.Arg == nil {
		return true, nil
	}
	if i := d.Arg.GetInteger(); i != nil {
		switch i.Ival {
		case 0:
			return false, nil
		case 1:
			return true, nil
		}
	} else {
		switch strings.ToLower(d.Arg.GetString_().GetSval()) {
		case "true", "on":
			return true, nil
		case "false", "off":
			return false, nil
		}
	}
	return false, errorf(CodeSyntax, noPos, "%s requires a Boolean value", d.Defname)
}

// runDiscarding runs a plan as the statement's result would, counting and
// dropping its rows; the run's table scans count what they read.
func runDiscarding(ev *evaluator, pl plan) (rows int64, took time.Duration, err error) {
	start := time.Now()
	ev.analyzed = true
	it, err := openPlan(ev, pl, nil)
	if err != nil {
		return 0, 0, err
	}
	reuseRows(it)
	defer it.close()
	for {
		r, err := it.next()
		if err != nil {
			return 0, 0, err
		}
		if r == nil {
			return rows, time.Since(start), nil
		}
		rows++
	}
}

// planNode is one node of an explained plan: the label and detail lines
// its text format shows, its inputs, and the plan it explains, whose type
// and fields the structured formats name (explain_format.go).
type planNode struct {
	label    string
	details  []string
	children []*planNode
	pl       plan
	// A table scan's rows read, when the plan ran (EXPLAIN ANALYZE).
	analyzed bool
	rowsRead int64
}

// explainNode is the explained plan under pl. limit is the number of rows
// a table scan reads as its select opens it (-1: all).
func explainNode(ev *evaluator, pl plan, limit int64) (*planNode, error) {
	label, details, children := describePlan(pl)
	n := &planNode{label: label, details: details, pl: pl}
	childLimit := int64(-1)
	switch p := pl.(type) {
	case *tableScanPlan:
		more, err := p.explain(ev, limit)
		if err != nil {
			return nil, err
		}
		n.details = append(n.details, more...)
		if ev.analyzed {
			n.analyzed, n.rowsRead = true, ev.rowsRead(p)
		}
	case *selectPlan:
		var err error
		if childLimit, err = p.explainScanLimit(ev); err != nil {
			return nil, err
		}
	}
	for _, c := range children {
		cn, err := explainNode(ev, c, childLimit)
		if err != nil {
			return nil, err
		}
		n.children = append(n.children, cn)
	}
	return n, nil
}

// text appends the node's lines in the text format: its label after
// prefix, its details and children indented under it.
func (n *planNode) text(prefix, indent string, lines *[]string) {
	*lines = append(*lines, prefix+n.label)
	for _, d := range n.details {
		*lines = append(*lines, indent+"      "+d)
	}
	for i, c := range n.children {
		branch, next := "├── ", "│   "
		if i == len(n.children)-1 {
			branch, next = "└── ", "    "
		}
		c.text(indent+branch, indent+next, lines)
	}
}

// describePlan is a node's label, detail lines and inputs.
func describePlan(pl plan) (string, []string, []plan) {
	switch p := pl.(type) {
	case *selectPlan:
		var d []string
		if p.where != nil {
			d = append(d, "filter")
		}
		if p.grouped {
			d = append(d, fmt.Sprintf("group by %d keys, %d aggregates", len(p.groupKeys), len(p.aggs)))
		}
		if len(p.wins) > 0 {
			d = append(d, fmt.Sprintf("%d window functions", len(p.wins)))
		}
		if p.distinct {
			d = append(d, "distinct")
		}
		if len(p.sort) > 0 {
			d = append(d, fmt.Sprintf("sort by %d keys", len(p.sort)))
		}
		if p.limit != nil || p.offset != nil {
			d = append(d, "limit")
		}
		return "select " + strings.Join(colNames(p.cols[:p.nvisible]), ", "), d, []plan{p.from}
	case *tableScanPlan:
		return "scan public." + p.table.Name, nil, nil
	case *scanPlan:
		return "scan " + p.def.name, nil, nil
	case *joinPlan:
		kind := map[joinKind]string{joinInner: "inner", joinLeft: "left", joinRight: "right", joinFull: "full"}[p.kind]
		how := "nested loop"
		if p.eq != nil {
			how = "hash"
		}
		return fmt.Sprintf("%s join (%s)", kind, how), nil, []plan{p.left, p.right}
	case *crossPlan:
		return fmt.Sprintf("join of %d inputs (hash on equalities)", len(p.items)), nil, p.items
	case *lateralPlan:
		return "lateral join", nil, []plan{p.left, p.right}
	case *subqueryPlan:
		return "subquery", nil, []plan{p.q.root}
	case *ctePlan:
		return "WITH " + p.cte.name, nil, []plan{p.cte.q.root}
	case *setOpPlan:
		return strings.ToLower(strings.TrimPrefix(p.op.String(), "SETOP_")), nil, []plan{p.left.root, p.right.root}
	case *sortLimitPlan:
		return "sort and limit", nil, []plan{p.input.root}
	case *funcScanPlan:
		return "function scan", nil, nil
	case oneRowPlan, *oneRowPlan:
		return "result (one row)", nil, nil
	case *valuesPlan:
		return fmt.Sprintf("values (%d rows)", len(p.rows)), nil, nil
	}
	return fmt.Sprintf("%T", pl), nil, nil
}

func colNames(cols []outCol) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.name
	}
	return out
}

// explain is a Shale table scan's detail lines: the columns it reads, and
// the Source's plan for the scan with this run's key conditions (or the
// conditions themselves, when the Source does not explain scans).
func (p *tableScanPlan) explain(ev *evaluator, limit int64) ([]string, error) {
	cols, _ := p.scanColumns()
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.String()
	}
	filter := p.filter(ev)
	read := strings.Join(names, ", ")
	if read == "" {
		read = "row keys only"
	}
	lines := []string{"read: " + read}
	if ev.analyzed {
		lines = append(lines, fmt.Sprintf("rows read: %d", ev.rowsRead(p)))
	}
	if x, ok := ev.src.(ScanExplainer); ok {
		more, err := x.ExplainScan(ev.ctx, ev.sess.Database, ScanRequest{Table: p.table.Name, Columns: cols, Filter: filter, Limit: limit, Reverse: p.reverse})
		if err != nil {
			return nil, err
		}
		return append(lines, more...), nil
	}
	for _, c := range filter {
		lines = append(lines, fmt.Sprintf("key condition: %s %s %s", c.Column, c.Op, strings.Join(c.Values, ", ")))
	}
	if len(filter) == 0 {
		lines = append(lines, "key condition: none (the whole table)")
	}
	if limit >= 0 {
		lines = append(lines, fmt.Sprintf("limit: %d rows", limit))
	}
	return lines, nil
}
