package planner_test

import (
	"context"
	"errors"
	"testing"

	"github.com/shale-db/shale/planner"
	"github.com/shale-db/shale/sql"
	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

// FuzzParseBindPlan feeds arbitrary text through parse → bind → plan →
// EXPLAIN: nothing may panic, and every error is a *sqlerr.Error.
func FuzzParseBindPlan(f *testing.F) {
	for _, s := range []string{
		"SELECT * FROM analytics WHERE _key = 'phone#4c410523#20190501'",
		"SELECT _key, stats_summary['os_build'] AS os FROM analytics WHERE _key >= 'a' AND _key < 'b'",
		"SELECT _key FROM analytics WHERE _key LIKE 'phone#%' OR STARTS_WITH(_key, @p)",
		"SELECT * FROM analytics(with_history => TRUE, latest_n => 3) WHERE _key IN UNNEST(@keys) LIMIT 10",
		"SELECT SPLIT(_key,'#')[SAFE_OFFSET(1)] AS device, COUNT(*) AS n FROM analytics GROUP BY device ORDER BY n DESC LIMIT 5",
		"SELECT t, _timestamp FROM UNPACK((SELECT cf['q'] AS t FROM t(with_history=>true, after=>@ts)))",
		"SELECT _key, s.key FROM analytics CROSS JOIN UNNEST(MAP_ENTRIES(stats_summary)) AS s WITH OFFSET",
		"EXPLAIN ANALYZE SELECT COUNT(*) FROM t ORDER BY 1 NULLS LAST",
		"SELECT CASE WHEN x > 1 THEN 'a' END, IF(TRUE, 1, 2.5) FROM UNNEST([1,2]) AS x HAVING COUNT(*) > 0",
	} {
		f.Add(s)
	}
	params := map[string]*types.Type{"p": types.Bytes, "keys": types.ArrayOf(types.Bytes), "ts": types.Timestamp,
		"k": types.Bytes, "n": types.Int64}
	f.Fuzz(func(t *testing.T, q string) {
		st, err := sql.Analyze(context.Background(), q, testCatalog, "i", params)
		if err != nil {
			var se *sqlerr.Error
			if !errors.As(err, &se) {
				t.Fatalf("%q: error is not a *sqlerr.Error: %v", q, err)
			}
			return
		}
		p, err := planner.New(st)
		if err != nil {
			return
		}
		_ = planner.Format(p.Root, nil)
	})
}
