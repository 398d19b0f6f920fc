package server

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/shale-db/shale/storage"
)

// DemoInstance is the instance `shale demo` loads: project "demo",
// instance "demo".
const DemoInstance = "projects/demo/instances/demo"

// demoCell is one cell of the demo data set.
type demoCell struct {
	row, family, qualifier, value string
	ts                            time.Time
}

// The "Data for examples" of Bigtable's documentation: phone and tablet
// usage keyed device#id#date, the row-key design guide's shape.
var (
	may1 = time.Date(2019, 5, 1, 0, 0, 0, 0, time.UTC)
	may2 = may1.Add(time.Hour)

	demoAnalytics = []demoCell{
		{"phone#4c410523#20190501", "cell_plan", "data_plan_01gb", "false", may1},
		{"phone#4c410523#20190501", "cell_plan", "data_plan_01gb", "true", may2},
		{"phone#4c410523#20190501", "cell_plan", "data_plan_05gb", "true", may1},
		{"phone#4c410523#20190501", "stats_summary", "connected_cell", "1", may1},
		{"phone#4c410523#20190501", "stats_summary", "connected_wifi", "1", may1},
		{"phone#4c410523#20190501", "stats_summary", "os_build", "PQ2A.190405.003", may1},
		{"phone#4c410523#20190502", "cell_plan", "data_plan_05gb", "true", may1},
		{"phone#4c410523#20190502", "stats_summary", "connected_cell", "1", may1},
		{"phone#4c410523#20190502", "stats_summary", "connected_wifi", "1", may1},
		{"phone#4c410523#20190502", "stats_summary", "os_build", "PQ2A.190405.004", may1},
		{"phone#4c410523#20190505", "cell_plan", "data_plan_05gb", "true", may1},
		{"phone#4c410523#20190505", "stats_summary", "connected_cell", "0", may1},
		{"phone#4c410523#20190505", "stats_summary", "connected_wifi", "1", may1},
		{"phone#4c410523#20190505", "stats_summary", "os_build", "PQ2A.190406.000", may1},
		{"phone#5c10102#20190501", "cell_plan", "data_plan_10gb", "true", may1},
		{"phone#5c10102#20190501", "stats_summary", "connected_cell", "1", may1},
		{"phone#5c10102#20190501", "stats_summary", "connected_wifi", "1", may1},
		{"phone#5c10102#20190501", "stats_summary", "os_build", "PQ2A.190401.002", may1},
		{"phone#5c10102#20190502", "cell_plan", "data_plan_10gb", "true", may1},
		{"phone#5c10102#20190502", "stats_summary", "connected_cell", "1", may1},
		{"phone#5c10102#20190502", "stats_summary", "connected_wifi", "0", may1},
		{"phone#5c10102#20190502", "stats_summary", "os_build", "PQ2A.190406.000", may1},
		{"tablet#a0b81f74#20190501", "stats_summary", "connected_cell", "0", may1},
		{"tablet#a0b81f74#20190501", "stats_summary", "connected_wifi", "1", may1},
		{"tablet#a0b81f74#20190501", "stats_summary", "os_build", "RQ1A.190412.001", may1},
	}
)

// demoTable creates one demo table and loads it, unless it exists.
type demoTable struct {
	name string
	spec storage.TableSpec
	load func(ctx context.Context, e *storage.Engine, tgt storage.Target) error
}

// demoTables are the demo instance's tables, in load order.
var demoTables = []demoTable{
	{
		name: "analytics",
		spec: storage.TableSpec{
			Families: []storage.Family{
				{Name: "stats_summary", GC: storage.GCPolicy{Kind: storage.GCMaxVersions, MaxVersions: 10}},
				{Name: "cell_plan", GC: storage.GCPolicy{Kind: storage.GCMaxVersions, MaxVersions: 10}},
			},
			InitialSplits: [][]byte{[]byte("phone#5"), []byte("tablet#")},
		},
		load: loadAnalytics,
	},
	{
		name: "counters",
		spec: storage.TableSpec{Families: []storage.Family{{Name: "clicks", Aggregate: storage.Sum}}},
		load: loadCounters,
	},
	{name: "usage", spec: usageSpec, load: loadUsage},
	{name: "readings", spec: readingsSpec(), load: loadReadings},
	{name: "albums", spec: albumsSpec, load: loadAlbums},
}

// demoTableNames lists the demo tables, comma-separated.
func demoTableNames() string {
	names := make([]string, len(demoTables))
	for i, dt := range demoTables {
		names[i] = dt.name
	}
	return strings.Join(names, ", ")
}

// LoadDemo creates the demo tables in DemoInstance, each unless it exists:
//   - analytics: the documentation's phone/tablet usage data (families
//     stats_summary and cell_plan, keys device#id#yyyymmdd);
//   - counters: an Int64 sum aggregate family "clicks" per page;
//   - usage: a generated time series, a row per device and day;
//   - readings: hourly battery readings under a row-key schema (device_type,
//     device_id, ts), whose fields SQL reads as typed columns;
//   - albums: one protobuf records.Album message per row (info:album)
//     with the schema bundle "music" describing it, so SQL reads fields
//     inside the cells (nested and repeated ones too).
//
// The data is written once and then only read, so it is flushed: reads see
// what a long-running server's do, and psql's \dt+ shows its sizes.
func LoadDemo(ctx context.Context, e *storage.Engine) error {
	loaded := false
	for _, dt := range demoTables {
		if _, err := e.GetTable(DemoInstance, dt.name); err == nil {
			continue // loaded by an earlier run on this data directory
		}
		if _, err := e.CreateTable(ctx, DemoInstance, dt.name, dt.spec); err != nil {
			return fmt.Errorf("demo: %w", err)
		}
		if err := dt.load(ctx, e, storage.Target{Instance: DemoInstance, Table: dt.name}); err != nil {
			return fmt.Errorf("demo %s: %w", dt.name, err)
		}
		loaded = true
	}
	if loaded {
		return e.Flush()
	}
	return nil
}

func loadAnalytics(ctx context.Context, e *storage.Engine, tgt storage.Target) error {
	for _, c := range demoAnalytics {
		if err := e.MutateRow(ctx, tgt, []byte(c.row), []storage.Mutation{{
			Kind: storage.SetCell, Family: c.family, Qualifier: []byte(c.qualifier),
			Timestamp: c.ts.UnixMicro(), Value: []byte(c.value),
		}}); err != nil {
			return err
		}
	}
	return nil
}

func loadCounters(ctx context.Context, e *storage.Engine, tgt storage.Target) error {
	for i, page := range []string{"home", "docs", "home", "pricing", "home", "docs"} {
		hour := may1.Add(time.Duration(i%2) * time.Hour).UnixMicro()
		if err := e.MutateRow(ctx, tgt, []byte("page#"+page), []storage.Mutation{{
			Kind: storage.AddToCell, Family: "clicks", Qualifier: []byte("count"), Timestamp: hour, Int64Input: 1,
		}}); err != nil {
			return err
		}
	}
	return nil
}
