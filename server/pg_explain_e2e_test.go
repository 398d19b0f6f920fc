package server_test

import (
	"context"
	"strings"
	"testing"
)

// TestExplainFormatsOverPostgres: EXPLAIN (FORMAT JSON) is what plan
// viewers send, around a PostgreSQL-dialect query (its plan tree in
// PostgreSQL's shape) or a GoogleSQL one (one Custom Scan node whose
// Details are the GoogleSQL plan, spans included), both as json values.
func TestExplainFormatsOverPostgres(t *testing.T) {
	_, addr := startShalePG(t, "demo", t.TempDir())
	ctx := context.Background()
	c := demoPGX(t, addr)
	type node struct {
		NodeType string   `json:"Node Type"`
		Remote   string   `json:"Remote SQL"`
		Details  []string `json:"Details"`
		Plans    []node   `json:"Plans"`
	}
	plan := func(q string) node {
		t.Helper()
		var doc []struct{ Plan node }
		if err := c.QueryRow(ctx, q).Scan(&doc); err != nil || len(doc) != 1 {
			t.Fatalf("%s: %v (%d plans)", q, err, len(doc))
		}
		return doc[0].Plan
	}
	// PostgreSQL's dialect: LIMIT over a sort over the scan.
	p := plan(`EXPLAIN (FORMAT JSON) SELECT device_id FROM public.readings WHERE device_type = 'phone' ORDER BY ts LIMIT 2`)
	var types []string
	for n := p; ; n = n.Plans[0] {
		types = append(types, n.NodeType)
		if len(n.Plans) == 0 {
			if !strings.Contains(n.Remote, "WHERE `device_type` = @p1") {
				t.Errorf("the scan's Remote SQL: %q", n.Remote)
			}
			break
		}
	}
	if got := strings.Join(types, " > "); got != "Limit > Sort > Result > Foreign Scan" && got != "Limit > Sort > Foreign Scan" {
		t.Errorf("PostgreSQL-dialect plan: %s", got)
	}
	// GoogleSQL (a bytes literal PostgreSQL cannot read): one node.
	g := plan(`EXPLAIN (ANALYZE, FORMAT JSON) SELECT _key FROM analytics WHERE _key = b'phone#4c410523#20190501'`)
	if g.NodeType != "Custom Scan" || !strings.Contains(strings.Join(g.Details, "\n"), "spans: {phone#4c410523#20190501}") {
		t.Errorf("GoogleSQL plan: %+v", g)
	}
	// Its errors are GoogleSQL's, positioned in the client's text.
	_, err := c.Exec(ctx, `EXPLAIN (FORMAT JSON) SELECT nosuch FROM analytics WHERE _key = b'x'`)
	if err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Errorf("GoogleSQL error under EXPLAIN (FORMAT JSON): %v", err)
	}
}
