package server

import (
	"testing"

	"github.com/shale-db/shale/pgwire/pgcatalog"
	"github.com/shale-db/shale/sql/types"
)

// TestScanQuery pins the GoogleSQL the PostgreSQL dialect's table scans
// run: conditions become parameters (never text), identifiers are quoted,
// and a condition the adapter cannot convert is left out (pgcatalog still
// applies every condition itself). TestBIToolKeyPushdown runs the first
// query through the engine and checks that it reads one row.
func TestScanQuery(t *testing.T) {
	fam := types.MapOf(types.Bytes, types.Bytes)
	for _, tc := range []struct {
		cols    []scanColumn
		conds   []pgcatalog.Cond
		limit   int64
		want    string
		params  string
		reverse bool
	}{
		{[]scanColumn{{name: "_key"}, {name: "cell_plan"}}, []pgcatalog.Cond{{Column: "_key", Type: 17, Op: "=", Values: []string{`\x70`}}}, -1,
			"SELECT `_key`, `cell_plan` FROM `analytics` WHERE `_key` = @p1", `p1=b"p"`, false},
		{[]scanColumn{{name: "_key"}}, []pgcatalog.Cond{
			{Column: "_key", Type: 17, Op: ">=", Values: []string{`\x61`}},
			{Column: "_key", Type: 17, Op: "IN", Values: []string{`\x62`, `\x63`}},
			{Column: "_key", Type: 17, Op: "=", Values: []string{"not hex"}}, // left out
		}, -1, "SELECT `_key` FROM `analytics` WHERE `_key` >= @p1 AND `_key` IN (@p2, @p3)", `p1=b"a" p2=b"b" p3=b"c"`, false},
		{nil, nil, 5, "SELECT _key FROM `analytics` LIMIT 5", "", false},
		{[]scanColumn{{name: "we`ird"}}, []pgcatalog.Cond{{Column: "n", Type: 20, Op: "<", Values: []string{"7"}}}, -1,
			"SELECT `we\\`ird` FROM `analytics` WHERE `n` < @p1", "p1=7", false},
		// A family read by key reads its cells; one with no key it can
		// name reads nothing.
		{[]scanColumn{{name: "_key"}, {name: "cf", mapType: fam, cells: [][]byte{[]byte("a"), {0, '"', '\\', 0xff}}}, {name: "g", mapType: fam}}, nil, -1,
			"SELECT `_key`, `cf`[b\"a\"], `cf`[b\"\\x00\\\"\\\\\\xff\"] FROM `analytics`", "", false},
		{[]scanColumn{{name: "g", mapType: fam}}, nil, 1, "SELECT _key FROM `analytics` LIMIT 1", "", false},
		// ORDER BY _key DESC over the table reads it backwards.
		{[]scanColumn{{name: "_key"}}, []pgcatalog.Cond{{Column: "_key", Type: 17, Op: "<", Values: []string{`\x70`}}}, 3,
			"SELECT `_key` FROM `analytics` WHERE `_key` < @p1 ORDER BY _key DESC LIMIT 3", `p1=b"p"`, true},
	} {
		q, _, vals := scanQuery(pgcatalog.ScanRequest{Table: "analytics", Filter: tc.conds, Limit: tc.limit, Reverse: tc.reverse}, tc.cols)
		params := ""
		for i := 1; i <= len(vals); i++ {
			name := "p" + string(rune('0'+i))
			if params != "" {
				params += " "
			}
			params += name + "=" + vals[name].String()
		}
		if q != tc.want || params != tc.params {
			t.Errorf("scanQuery = %q [%s]\nwant       %q [%s]", q, params, tc.want, tc.params)
		}
	}
}
