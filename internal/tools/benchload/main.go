package main

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"cloud.google.com/go/bigtable"
)

// qualifiers are the three columns of every row, in the order whose index k
// enters the value-length formula.
var qualifiers = [3]string{"a", "b", "c"}

// cellTime is the timestamp of every cell (millisecond granularity).
var cellTime = bigtable.Time(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))

// value is row i's value of qualifier k (see the package comment).
func value(i, k int) []byte {
	sum := md5.Sum([]byte(strconv.Itoa(i) + qualifiers[k]))
	h := hex.EncodeToString(sum[:])
	return []byte(h[:8+(7*i+3*k)%13])
}

func main() {
	var (
		project  = flag.String("project", "bench", "project id")
		instance = flag.String("instance", "bench", "instance id")
		table    = flag.String("table", "t", "table id")
		family   = flag.String("family", "cf", "column family")
		rows     = flag.Int("rows", 1_000_000, "number of rows")
		batch    = flag.Int("batch", 1000, "rows per ApplyBulk call")
		workers  = flag.Int("workers", 2, "concurrent ApplyBulk calls")
	)
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("benchload: ")
	if os.Getenv("BIGTABLE_EMULATOR_HOST") == "" {
		log.Fatal("BIGTABLE_EMULATOR_HOST must name the server (host:port)")
	}
	if *rows < 0 || *batch <= 0 || *workers <= 0 {
		log.Fatal("-rows must be ≥ 0, -batch and -workers > 0")
	}
	ctx := context.Background()

	admin, err := bigtable.NewAdminClient(ctx, *project, *instance)
	if err != nil {
		log.Fatalf("admin client: %v", err)
	}
	defer admin.Close()
	if tables, err := admin.Tables(ctx); err != nil {
		log.Fatalf("list tables: %v", err)
	} else {
		for _, t := range tables {
			if t == *table {
				if err := admin.DeleteTable(ctx, *table); err != nil {
					log.Fatalf("drop table %s: %v", *table, err)
				}
			}
		}
	}
	if err := admin.CreateTableFromConf(ctx, &bigtable.TableConf{
		TableID:  *table,
		Families: map[string]bigtable.GCPolicy{*family: bigtable.MaxVersionsPolicy(1)},
	}); err != nil {
		log.Fatalf("create table %s: %v", *table, err)
	}

	client, err := bigtable.NewClient(ctx, *project, *instance)
	if err != nil {
		log.Fatalf("data client: %v", err)
	}
	defer client.Close()
	tbl := client.Open(*table)

	start := time.Now()
	var (
		next     atomic.Int64 // first row of the next batch to claim
		loaded   atomic.Int64
		firstErr error
		errOnce  sync.Once
		wg       sync.WaitGroup
	)
	for range *workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				first := int(next.Add(int64(*batch))) - *batch
				if first >= *rows {
					return
				}
				n := min(*batch, *rows-first)
				keys := make([]string, n)
				muts := make([]*bigtable.Mutation, n)
				for j := range n {
					i := first + j
					m := bigtable.NewMutation()
					for k, q := range qualifiers {
						m.Set(*family, q, cellTime, value(i, k))
					}
					keys[j], muts[j] = strconv.Itoa(i), m
				}
				errs, err := tbl.ApplyBulk(ctx, keys, muts)
				if err == nil {
					err = errors.Join(errs...)
				}
				if err != nil {
					errOnce.Do(func() { firstErr = fmt.Errorf("rows %d..%d: %w", first, first+n-1, err) })
					return
				}
				loaded.Add(int64(n))
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		log.Fatalf("ApplyBulk: %v", firstErr)
	}
	d := time.Since(start)
	log.Printf("loaded %d rows into projects/%s/instances/%s/tables/%s in %.1fs (%.0f rows/s)",
		loaded.Load(), *project, *instance, *table, d.Seconds(), float64(loaded.Load())/d.Seconds())
}
