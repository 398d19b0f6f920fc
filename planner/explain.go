package planner

import (
	"strconv"
	"strings"

	"github.com/shale-db/shale/sql"
	"github.com/shale-db/shale/sql/types"
)

// Format renders a plan as an indented tree, the text EXPLAIN returns and
// tests compare. annotate, when non-nil, adds text to a node's first line
// (EXPLAIN ANALYZE statistics).
func Format(n Node, annotate func(Node) string) string {
	var b strings.Builder
	format(&b, n, "", "", annotate)
	return b.String()
}

func format(b *strings.Builder, n Node, first, rest string, annotate func(Node) string) {
	lines := describe(n)
	if annotate != nil {
		if a := annotate(n); a != "" {
			lines[0] += " " + a
		}
	}
	kids := n.Children()
	b.WriteString(first + lines[0] + "\n")
	for _, l := range lines[1:] {
		bar := "  "
		if len(kids) > 0 {
			bar = " │"
		}
		b.WriteString(rest + bar + "   " + l + "\n")
	}
	for i, k := range kids {
		if i == len(kids)-1 {
			format(b, k, rest+" └── ", rest+"      ", annotate)
		} else {
			format(b, k, rest+" ├── ", rest+" │    ", annotate)
		}
	}
}

// describe returns a node's header line and detail lines.
func describe(n Node) []string {
	switch n := n.(type) {
	case *Scan:
		return describeScan(n)
	case *Values:
		return []string{"values (1 row)"}
	case *Filter:
		return []string{"filter " + n.Pred.String()}
	case *Project:
		parts := make([]string, len(n.Exprs))
		for i, e := range n.Exprs {
			parts[i] = e.String()
			if i < len(n.Names) && n.Names[i] != parts[i] {
				parts[i] += " AS " + n.Names[i]
			}
		}
		return []string{"project " + strings.Join(parts, ", ")}
	case *Aggregate:
		return describeAgg(n)
	case *Distinct:
		return []string{"distinct"}
	case *Sort:
		return describeSort(n)
	case *Limit:
		s := "limit"
		if n.Count != nil {
			s += " " + n.Count.String()
		}
		if n.Offset != nil {
			s += " offset " + n.Offset.String()
		}
		return []string{s}
	case *Unnest:
		s := "unnest " + n.Array.String()
		if n.WithOffset {
			s += " with offset"
		}
		return []string{s}
	case *Unpack:
		return []string{"unpack"}
	}
	return []string{"?"}
}

func describeScan(n *Scan) []string {
	lines := []string{"scan " + n.Table.Name}
	if IsConstant(n.Keys) {
		sp, err := Resolve(n.Keys, evalConst)
		switch ks := n.Table.KeySchema; {
		case err == nil && ks != nil && !sp.IsFull() && len(sp) > 0:
			lines = append(lines, "spans: "+RawSpans(sp), "key ranges: "+DecodedSpans(ks, sp))
		case err == nil:
			lines = append(lines, "spans: "+sp.String())
		default:
			lines = append(lines, "spans: "+n.Keys.String())
		}
	} else {
		lines = append(lines, "spans: "+n.Keys.String())
	}
	if n.Residual != nil {
		lines = append(lines, "residual: "+n.Residual.String())
	}
	lines = append(lines, "read: "+readText(n))
	for _, r := range n.Protos {
		lines = append(lines, protoText(r))
	}
	if t := temporalText(n); t != "" {
		lines = append(lines, t)
	}
	if n.Limit != nil {
		l := "limit: " + n.Limit.String()
		if n.Offset != nil {
			l += " + offset " + n.Offset.String()
		}
		lines = append(lines, l)
	}
	if n.Reverse {
		lines = append(lines, "order: reverse")
	}
	return lines
}

func readText(n *Scan) string {
	var parts []string
	if n.NeedKey {
		parts = append(parts, "_key")
	}
	if n.DecodeKey {
		parts = append(parts, "key fields")
	}
	for _, r := range n.Reads {
		if r.Qualifiers == nil {
			parts = append(parts, r.Family.Name)
			continue
		}
		for _, q := range r.Qualifiers {
			parts = append(parts, r.Family.Name+"["+strconv.Quote(string(q))+"]")
		}
	}
	if len(parts) == 0 {
		return "(row existence only)"
	}
	return strings.Join(parts, ", ")
}

func temporalText(n *Scan) string {
	var parts []string
	if n.History {
		parts = append(parts, "with_history")
	}
	add := func(name string, e sql.Expr) {
		if e != nil {
			parts = append(parts, name+"="+e.String())
		}
	}
	add("as_of", n.AsOf)
	add("after", n.After)
	add("after_or_equal", n.AfterOrEqual)
	add("before", n.Before)
	add("before_or_equal", n.BeforeOrEqual)
	add("latest_n", n.LatestN)
	if len(parts) == 0 {
		return ""
	}
	return "time: " + strings.Join(parts, " ")
}

func describeAgg(n *Aggregate) []string {
	s := "aggregate"
	if len(n.GroupBy) > 0 {
		s = "hash aggregate"
	}
	lines := []string{s}
	if len(n.GroupBy) > 0 {
		g := make([]string, len(n.GroupBy))
		for i, e := range n.GroupBy {
			g[i] = e.String()
		}
		lines = append(lines, "group by: "+strings.Join(g, ", "))
	}
	if len(n.Aggs) > 0 {
		a := make([]string, len(n.Aggs))
		for i, x := range n.Aggs {
			a[i] = x.String()
		}
		lines = append(lines, "aggregates: "+strings.Join(a, ", "))
	}
	return lines
}

func describeSort(n *Sort) []string {
	var names []string
	if p, ok := n.Input.(*Project); ok {
		names = p.Names
	}
	keys := make([]string, len(n.Keys))
	for i, k := range n.Keys {
		name := "$" + strconv.Itoa(k.Col+1)
		if k.Col < len(names) {
			name = names[k.Col]
		}
		dir := " ASC"
		if k.Desc {
			dir = " DESC"
		}
		if k.NullsFirst == k.Desc {
			if k.NullsFirst {
				dir += " NULLS FIRST"
			} else {
				dir += " NULLS LAST"
			}
		}
		keys[i] = name + dir
	}
	s := "sort " + strings.Join(keys, ", ")
	if n.Limit != nil {
		s = "top-n " + n.Limit.String()
		if n.Offset != nil {
			s += "+" + n.Offset.String()
		}
		s += " by " + strings.Join(keys, ", ")
	}
	return []string{s}
}

func evalConst(e sql.Expr) (types.Value, error) { return sql.Eval(e, &sql.Env{}) }
