package planner

import (
	"sort"
	"strings"

	"github.com/shale-db/shale/sql"
)

// ProtoRead is one protobuf message a scan's query reads out of cells
// (spec §6): the cell expression (cf['q']), the message type and every
// field path used on it ("" is the whole message, validated). Each path is
// decoded by walking the wire format, skipping the other fields.
type ProtoRead struct {
	Cell    string
	Message string
	Paths   []string
}

// protoReads collects the proto field paths of the expressions, grouped
// by (cell, message).
func protoReads(exprs []sql.Expr) []ProtoRead {
	idx := map[[2]string]int{}
	var out []ProtoRead
	for _, e := range exprs {
		if e == nil {
			continue
		}
		sql.Walk(e, func(x sql.Expr) bool {
			g, ok := x.(*sql.ProtoGet)
			if !ok {
				return true
			}
			k := [2]string{g.X.String(), g.Msg.Type().Name}
			i, seen := idx[k]
			if !seen {
				i = len(out)
				idx[k] = i
				out = append(out, ProtoRead{Cell: k[0], Message: k[1]})
			}
			out[i].Paths = append(out[i].Paths, g.Path.String())
			return true
		})
	}
	for i := range out {
		p := out[i].Paths
		sort.Strings(p)
		u := p[:0]
		for j, s := range p {
			if j == 0 || s != p[j-1] {
				u = append(u, s)
			}
		}
		out[i].Paths = u
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Cell+out[i].Message < out[j].Cell+out[j].Message })
	return out
}

func protoText(r ProtoRead) string {
	ps := make([]string, len(r.Paths))
	for i, p := range r.Paths {
		if p == "" {
			p = "*"
		}
		ps[i] = p
	}
	return "proto: " + r.Cell + " AS " + r.Message + " {" + strings.Join(ps, ", ") + "}"
}
