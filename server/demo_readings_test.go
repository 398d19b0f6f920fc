package server_test

import (
	"context"
	"strings"
	"testing"

	"github.com/shale-db/shale/engine"
	"github.com/shale-db/shale/server"
	"github.com/shale-db/shale/storage"
)

// TestDemoReadings runs the README's structured-key queries on the demo's
// readings table and checks their output, so the README stays true.
func TestDemoReadings(t *testing.T) {
	ctx := context.Background()
	st, err := storage.Open("", storage.Options{InMemory: true, SweepInterval: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if err := server.LoadDemo(ctx, st); err != nil {
		t.Fatal(err)
	}
	eng := engine.New(st, engine.Options{})
	for _, c := range []struct{ query, want string }{
		{readmeQuery, `
device_id | ts | battery
"4c410523" | TIMESTAMP "2020-05-01T02:00:00Z" | b"86"
"4c410523" | TIMESTAMP "2020-05-01T03:00:00Z" | b"79"`},
		{"EXPLAIN " + readmeQuery, readmeExplain},
		{"SELECT device_type, COUNT(*) AS n FROM readings GROUP BY device_type ORDER BY device_type", `
device_type | n
"phone" | 12
"tablet" | 6`},
	} {
		stmt, err := eng.Prepare(ctx, server.DemoInstance, c.query, nil)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := stmt.Run(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if stmt.Columns()[0].Name != "plan" {
			names := make([]string, len(stmt.Columns()))
			for i, col := range stmt.Columns() {
				names[i] = col.Name
			}
			b.WriteString("\n" + strings.Join(names, " | "))
		}
		for rows.Next() {
			r := rows.Row()
			parts := make([]string, len(r))
			for i, v := range r {
				parts[i] = v.String()
				if stmt.Columns()[0].Name == "plan" {
					parts[i] = v.Str()
				}
			}
			b.WriteString("\n" + strings.Join(parts, " | "))
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
		if got := strings.TrimRight(b.String(), "\n"); got != strings.TrimRight(c.want, "\n") {
			t.Errorf("%s:\ngot:%s\nwant:%s", c.query, got, c.want)
		}
	}
}

const readmeQuery = "SELECT device_id, ts, stats['battery'] AS battery FROM readings " +
	"WHERE device_type = 'phone' AND device_id = '4c410523' AND ts BETWEEN '2020-05-01T02:00:00Z' AND '2020-05-01T03:00:00Z'"

// readmeExplain is the README's EXPLAIN output, line by line.
var readmeExplain = "\n" + strings.Join([]string{
	"project device_id, ts, stats[b\"battery\"] AS battery",
	" \u2514\u2500\u2500 scan readings",
	"           spans: [\"phone#4c410523#\\x00\\x05\\xa4\\x8c\\x89\\xed\\xe8\\x00\", \"phone#4c410523#\\x00\\x05\\xa4\\x8d`\\x81\\x8c\\x01\")",
	"           key ranges: [/phone/4c410523/2020-05-01T02:00:00Z - /phone/4c410523/2020-05-01T03:00:00.000001Z)",
	"           residual: (device_type = \"phone\") AND (device_id = \"4c410523\") AND (ts >= TIMESTAMP \"2020-05-01T02:00:00Z\") AND (ts <= TIMESTAMP \"2020-05-01T03:00:00Z\")",
	"           read: key fields, stats[\"battery\"]",
}, "\n")
