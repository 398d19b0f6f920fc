package pgcatalog

import (
	"fmt"
	"strings"
	"time"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// EXPLAIN's structured formats. FORMAT JSON and FORMAT YAML give the
// explained plan (planNode) in the shape PostgreSQL gives its own, which
// plan viewers (pgAdmin, pev2, explain.dalibo.com) read: one value of
// "Plan" objects, each with a "Node Type" and its inputs under "Plans",
// and with ANALYZE the statement's "Execution Time". Node types are
// PostgreSQL's names for what a node does: a Shale table scan is a
// "Foreign Scan" whose "Remote SQL" is the GoogleSQL it runs, as
// postgres_fdw shows its remote query, and a select with a LIMIT, DISTINCT,
// ORDER BY, window functions or grouping is the chain of Limit, Unique,
// Sort, WindowAgg and Aggregate nodes PostgreSQL would show for it. Shale's
// own label and detail lines are kept under "Shale Node" and "Details".
// Shale plans have no costs, so the cost and width fields are left out.

type explainFormat int

const (
	explainText explainFormat = iota
	explainJSON
	explainYAML
)

var explainFormats = map[string]explainFormat{"text": explainText, "json": explainJSON, "yaml": explainYAML}

// columnType is the type of QUERY PLAN in the format, as PostgreSQL's.
func (f explainFormat) columnType() uint32 {
	if f == explainJSON {
		return tJSON
	}
	return tText
}

// explainSummary is what EXPLAIN ANALYZE adds after the plan.
type explainSummary struct {
	rows int64
	took time.Duration
}

func (s *explainSummary) ms() float64 { return float64(s.took.Microseconds()) / 1000 }

// field is one key of a structured node, in PostgreSQL's order. Its
// value is a string, an int64, a float64 (printed with three decimals, as
// PostgreSQL prints times), a []string or a []fields (child objects).
type field struct {
	key string
	val any
}

type fields []field

// render is the whole EXPLAIN value in the structured format f.
func (f explainFormat) render(root *planNode, sum *explainSummary) string {
	top := fields{{"Plan", root.structured("")}}
	if sum != nil {
		top = append(top, field{"Execution Time", sum.ms()})
	}
	return f.document(top)
}

// StructuredGoogleSQLPlan is EXPLAIN (FORMAT format) of a GoogleSQL query,
// for pgwire, which explains such a query through its Executor: one node,
// a Custom Scan of Shale's GoogleSQL engine whose Details are the lines of
// the engine's plan. format is "json" or "yaml".
func StructuredGoogleSQLPlan(format, query string, lines []string) string {
	node := fields{{"Node Type", "Custom Scan"}, {"Custom Plan Provider", "Shale GoogleSQL"},
		{"Query", query}, {"Details", lines}}
	return explainFormats[format].document(fields{{"Plan", node}})
}

// document writes top, the object of a plan, in the structured format f.
func (f explainFormat) document(top fields) string {
	var b strings.Builder
	if f == explainJSON {
		b.WriteString("[\n  ")
		writeJSONFields(&b, top, "  ")
		b.WriteString("\n]")
	} else {
		b.WriteString("- ")
		writeYAMLFields(&b, top, "  ")
	}
	return b.String()
}

// structured is the node as the "Plan" object: parent is its
// "Parent Relationship" ("" for the root).
func (n *planNode) structured(parent string) fields {
	chain, fs := n.nodeTypes()
	children := n.children
	// The chain's outer nodes each have the next as their one input.
	var build func(i int, parent string) fields
	build = func(i int, parent string) fields {
		out := fields{{"Node Type", chain[i]}}
		if parent != "" {
			out = append(out, field{"Parent Relationship", parent})
		}
		if i < len(chain)-1 {
			return append(out, field{"Plans", []fields{build(i+1, "Outer")}})
		}
		out = append(out, fs...)
		out = append(out, field{"Shale Node", n.label})
		if d := n.otherDetails(); len(d) > 0 {
			out = append(out, field{"Details", d})
		}
		if n.analyzed {
			out = append(out, field{"Actual Rows", n.rowsRead}, field{"Actual Loops", int64(1)})
		}
		if len(children) > 0 {
			plans := make([]fields, len(children))
			for j, c := range children {
				rel := "Outer"
				if j > 0 {
					rel = "Inner"
				}
				switch n.pl.(type) {
				case *subqueryPlan:
					rel = "Subquery"
				case *setOpPlan:
					rel = "Member"
				}
				plans[j] = c.structured(rel)
			}
			out = append(out, field{"Plans", plans})
		}
		return out
	}
	return build(0, parent)
}

// otherDetails are the node's detail lines that no field of its own
// carries: a scan's GoogleSQL is its Remote SQL, its rows read its Actual
// Rows.
func (n *planNode) otherDetails() []string {
	if _, scan := n.pl.(*tableScanPlan); !scan {
		return n.details
	}
	var out []string
	for _, d := range n.details {
		if !strings.HasPrefix(d, "GoogleSQL: ") && !strings.HasPrefix(d, "rows read: ") {
			out = append(out, d)
		}
	}
	return out
}

// nodeTypes are the PostgreSQL node types the node shows as, outermost
// first, and the fields of the innermost.
func (n *planNode) nodeTypes() ([]string, fields) {
	switch p := n.pl.(type) {
	case *selectPlan:
		var chain []string
		if p.limit != nil || p.offset != nil {
			chain = append(chain, "Limit")
		}
		if p.distinct {
			chain = append(chain, "Unique")
		}
		if len(p.sort) > 0 {
			chain = append(chain, "Sort")
		}
		if len(p.wins) > 0 {
			chain = append(chain, "WindowAgg")
		}
		var fs fields
		if p.grouped {
			chain = append(chain, "Aggregate")
			strategy := "Plain"
			if len(p.groupKeys) > 0 {
				strategy = "Hashed"
			}
			fs = append(fs, field{"Strategy", strategy})
		}
		if len(chain) == 0 {
			chain = append(chain, "Result")
		}
		return chain, append(fs, field{"Output", colNames(p.cols[:p.nvisible])})
	case *tableScanPlan:
		fs := fields{{"Operation", "Select"}, {"Relation Name", p.table.Name}, {"Schema", "public"}, {"Alias", p.table.Name}}
		for _, d := range n.details {
			if q, ok := strings.CutPrefix(d, "GoogleSQL: "); ok {
				fs = append(fs, field{"Remote SQL", q})
			}
		}
		return []string{"Foreign Scan"}, fs
	case *scanPlan:
		return []string{"Seq Scan"}, fields{{"Relation Name", p.def.name}}
	case *joinPlan:
		kind := map[joinKind]string{joinInner: "Inner", joinLeft: "Left", joinRight: "Right", joinFull: "Full"}[p.kind]
		if p.eq != nil {
			return []string{"Hash Join"}, fields{{"Join Type", kind}}
		}
		return []string{"Nested Loop"}, fields{{"Join Type", kind}}
	case *crossPlan:
		return []string{"Hash Join"}, fields{{"Join Type", "Inner"}}
	case *lateralPlan:
		return []string{"Nested Loop"}, fields{{"Join Type", "Inner"}}
	case *subqueryPlan:
		return []string{"Subquery Scan"}, nil
	case *ctePlan:
		return []string{"CTE Scan"}, fields{{"CTE Name", p.cte.name}}
	case *setOpPlan:
		if p.op == pg_query.SetOperation_SETOP_UNION {
			return []string{"Append"}, nil
		}
		return []string{"SetOp"}, nil
	case *sortLimitPlan:
		return []string{"Limit", "Sort"}, nil
	case *funcScanPlan:
		return []string{"Function Scan"}, nil
	case *valuesPlan:
		return []string{"Values Scan"}, nil
	}
	return []string{"Result"}, nil
}

// writeJSONFields writes an object as PostgreSQL's EXPLAIN writes it: a
// key per line, indented two spaces a level.
func writeJSONFields(b *strings.Builder, fs fields, indent string) {
	b.WriteString("{")
	for i, f := range fs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n" + indent + "  ")
		writeJSONString(b, f.key)
		b.WriteString(": ")
		switch v := f.val.(type) {
		case fields:
			writeJSONFields(b, v, indent+"  ")
		case []fields:
			b.WriteString("[")
			for j, c := range v {
				if j > 0 {
					b.WriteByte(',')
				}
				b.WriteString("\n" + indent + "    ")
				writeJSONFields(b, c, indent+"    ")
			}
			b.WriteString("\n" + indent + "  ]")
		case []string:
			b.WriteString("[")
			for j, s := range v {
				if j > 0 {
					b.WriteString(", ")
				}
				writeJSONString(b, s)
			}
			b.WriteString("]")
		case string:
			writeJSONString(b, v)
		default:
			b.WriteString(scalarText(v))
		}
	}
	b.WriteString("\n" + indent + "}")
}

// writeYAMLFields writes a mapping as PostgreSQL's EXPLAIN writes YAML;
// the caller has written the indentation of its first key.
func writeYAMLFields(b *strings.Builder, fs fields, indent string) {
	for i, f := range fs {
		if i > 0 {
			b.WriteString("\n" + indent)
		}
		b.WriteString(f.key + ": ")
		switch v := f.val.(type) {
		case fields:
			b.WriteString("\n" + indent + "  ")
			writeYAMLFields(b, v, indent+"  ")
		case []fields:
			for _, c := range v {
				b.WriteString("\n" + indent + "  - ")
				writeYAMLFields(b, c, indent+"    ")
			}
		case []string:
			for _, s := range v {
				b.WriteString("\n" + indent + "  - ")
				writeJSONString(b, s)
			}
		case string:
			writeJSONString(b, v)
		default:
			b.WriteString(scalarText(v))
		}
	}
}

// scalarText prints a number field: times with three decimals.
func scalarText(v any) string {
	if f, ok := v.(float64); ok {
		return fmt.Sprintf("%.3f", f)
	}
	return fmt.Sprint(v)
}
