package server

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/shale-db/shale/storage"
)

// The usage table: a generated time series in the row-key design guide's
// shape, one row per device and day (device#id#yyyymmdd), so prefix scans
// by device type, by device and by month all have something to find.
// Numbers are stored as 8-byte big-endian integers (TO_INT64 reads them),
// labels as text. Generation is seeded: every demo has the same rows.
const (
	usageDevices = 40
	usageDays    = 90
)

var usageSpec = storage.TableSpec{
	Families: []storage.Family{
		{Name: "stats_summary", GC: storage.GCPolicy{Kind: storage.GCMaxVersions, MaxVersions: 1}},
		{Name: "cell_plan", GC: storage.GCPolicy{Kind: storage.GCMaxVersions, MaxVersions: 1}},
		{Name: "metrics"},
	},
	InitialSplits: [][]byte{[]byte("phone#8"), []byte("tablet#")},
}

var usagePlans = []string{"data_plan_01gb", "data_plan_05gb", "data_plan_10gb", "data_plan_unlimited"}

func loadUsage(ctx context.Context, e *storage.Engine, tgt storage.Target) error {
	rng := rand.New(rand.NewPCG(2020, 5))
	start := time.Date(2020, 5, 1, 0, 0, 0, 0, time.UTC)
	be := func(n int64) []byte { return binary.BigEndian.AppendUint64(nil, uint64(n)) }
	for d := 0; d < usageDevices; d++ {
		kind := "phone"
		if d%4 == 3 {
			kind = "tablet"
		}
		id := fmt.Sprintf("%08x", rng.Uint32())
		plan := usagePlans[rng.IntN(len(usagePlans))]
		osBuild := fmt.Sprintf("PQ2A.%06d.%03d", 190401+rng.IntN(20), rng.IntN(10))
		var entries []storage.RowMutations
		for day := 0; day < usageDays; day++ {
			ts := start.AddDate(0, 0, day)
			micros := ts.UnixMicro()
			set := func(fam, q string, v []byte) storage.Mutation {
				return storage.Mutation{Kind: storage.SetCell, Family: fam, Qualifier: []byte(q), Timestamp: micros, Value: v}
			}
			entries = append(entries, storage.RowMutations{
				Key: fmt.Appendf(nil, "%s#%s#%s", kind, id, ts.Format("20060102")),
				Mutations: []storage.Mutation{
					set("stats_summary", "connected_cell", []byte(fmt.Sprint(rng.IntN(2)))),
					set("stats_summary", "connected_wifi", []byte(fmt.Sprint(rng.IntN(2)))),
					set("stats_summary", "os_build", []byte(osBuild)),
					set("cell_plan", plan, []byte("true")),
					set("metrics", "bytes_sent", be(int64(rng.IntN(50_000_000)))),
					set("metrics", "battery_pct", be(int64(20+rng.IntN(81)))),
				},
			})
		}
		errs, err := e.MutateRows(ctx, tgt, entries)
		if err != nil {
			return err
		}
		for _, err := range errs {
			if err != nil {
				return err
			}
		}
	}
	return nil
}
