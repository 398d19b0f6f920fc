package planner_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"

	"github.com/shale-db/shale/catalog"
	"github.com/shale-db/shale/planner"
	"github.com/shale-db/shale/rowkeyschema"
	"github.com/shale-db/shale/sql"
	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

// testCatalog has table t (families cf, stats), analytics, and the
// structured-key tables sales (spec §5.4) and events (spec §9 Q19).
var testCatalog = catalog.Static{
	"t":         {Name: "t", Families: []catalog.Family{{Name: "cf"}, {Name: "counters", Int64: true}, {Name: "stats"}}},
	"analytics": {Name: "analytics", Families: []catalog.Family{{Name: "cell_plan"}, {Name: "stats_summary"}}},
	"sales": {Name: "sales", Families: []catalog.Family{{Name: "product"}},
		KeySchema: mustSchema(`delimited_bytes("#") (user_id BYTES raw, purchase_date STRING utf8_bytes, order_number STRING utf8_bytes)`)},
	"events": {Name: "events", Families: []catalog.Family{{Name: "e"}},
		KeySchema: mustSchema(`ordered_code_bytes (tenant STRING utf8_bytes, seq INT64 ordered_code_bytes, ts TIMESTAMP unix_micros_int64(big_endian_bytes))`)},
}

func mustSchema(text string) *rowkeyschema.Schema {
	s, err := rowkeyschema.Parse(text)
	if err == nil {
		err = s.Validate()
	}
	if err != nil {
		panic(err)
	}
	return s
}

// parseParams reads params=(name:TYPE,...) (TYPE: BYTES, STRING, INT64,
// BOOL, TIMESTAMP, ARRAY<BYTES>).
func parseParams(td *datadriven.TestData) map[string]*types.Type {
	out := map[string]*types.Type{}
	for _, a := range td.CmdArgs {
		if a.Key != "params" {
			continue
		}
		for _, v := range a.Vals {
			name, typ, _ := strings.Cut(v, ":")
			out[name] = map[string]*types.Type{"BYTES": types.Bytes, "STRING": types.String,
				"INT64": types.Int64, "BOOL": types.Bool, "TIMESTAMP": types.Timestamp,
				"ARRAY<BYTES>": types.ArrayOf(types.Bytes), "FLOAT64": types.Float64}[typ]
		}
	}
	return out
}

// TestDataDriven runs testdata/pushdown/ranges (predicate → key set, spans and
// residual, in the shape of CockroachDB's index-constraint tests) and
// testdata/pushdown/plans (query → EXPLAIN text).
//
//	ranges [table=<t>] [params=(k:BYTES,...)]
//	<predicate over table t (by default)>
//	----
//	keys: <key set>           spans: <resolved spans, when constant>
//	residual: <expr | none>
//
//	plan [params=...]
//	<query>
//	----
//	<plan tree, or the error with a caret>
func TestDataDriven(t *testing.T) {
	datadriven.Walk(t, "testdata/pushdown", func(t *testing.T, path string) {
		datadriven.RunTest(t, path, func(t *testing.T, td *datadriven.TestData) string {
			params := parseParams(td)
			switch td.Cmd {
			case "ranges":
				table := "t"
				if td.HasArg("table") {
					td.ScanArgs(t, "table", &table)
				}
				return ranges(table, td.Input, params)
			case "plan":
				p, err := plan(td.Input, params)
				if err != nil {
					return sqlerr.Caret(td.Input, err)
				}
				return planner.Format(p.Root, nil)
			}
			td.Fatalf(t, "unknown command %s", td.Cmd)
			return ""
		})
	})
}

func plan(q string, params map[string]*types.Type) (*planner.Plan, error) {
	st, err := sql.Analyze(context.Background(), q, testCatalog, "i", params)
	if err != nil {
		return nil, err
	}
	return planner.New(st)
}

func ranges(table, pred string, params map[string]*types.Type) string {
	q := "SELECT _key FROM " + table + " WHERE " + pred
	p, err := plan(q, params)
	if err != nil {
		return sqlerr.Caret(q, err)
	}
	scan := findScan(p.Root)
	var b strings.Builder
	fmt.Fprintf(&b, "keys: %s\n", scan.Keys)
	if planner.IsConstant(scan.Keys) {
		sp, err := planner.Resolve(scan.Keys, func(e sql.Expr) (types.Value, error) { return sql.Eval(e, &sql.Env{}) })
		if err != nil {
			fmt.Fprintf(&b, "spans: error: %v\n", err)
		} else {
			if ks := scan.Table.KeySchema; ks != nil && len(sp) > 0 && !sp.IsFull() {
				fmt.Fprintf(&b, "spans: %s\nkey ranges: %s\n", planner.RawSpans(sp), planner.DecodedSpans(ks, sp))
			} else {
				fmt.Fprintf(&b, "spans: %s\n", sp)
			}
		}
	}
	res := "none"
	if scan.Residual != nil {
		res = scan.Residual.String()
	}
	fmt.Fprintf(&b, "residual: %s\n", res)
	return b.String()
}

func findScan(n planner.Node) *planner.Scan {
	if s, ok := n.(*planner.Scan); ok {
		return s
	}
	for _, c := range n.Children() {
		if s := findScan(c); s != nil {
			return s
		}
	}
	return nil
}
