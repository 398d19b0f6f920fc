package engine_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/shale-db/shale/engine"
	"github.com/shale-db/shale/rowkeyschema"
	"github.com/shale-db/shale/sql/types"
	"github.com/shale-db/shale/storage"
)

// The structured-key benchmarks (issue 6) use a second table, k, of the
// same number of rows with the row-key schema below: 100 readings per
// device, so a device's readings are 100 adjacent rows.
const (
	keyedSchema     = `ordered_code_bytes (device_type STRING utf8_bytes, device_id STRING utf8_bytes, ts INT64 ordered_code_bytes)`
	readingsPerUnit = 100
)

func keyedRow(i int) (devType, devID string, ts int64) {
	devType = "phone"
	if (i/readingsPerUnit)%4 == 3 {
		devType = "tablet"
	}
	return devType, fmt.Sprintf("%06d", i/readingsPerUnit), int64(i % readingsPerUnit)
}

func keyedKey(s *rowkeyschema.Schema, i int) ([]byte, error) {
	t, d, ts := keyedRow(i)
	return s.AppendKey(nil, []types.Value{types.StringValue(t), types.StringValue(d), types.Int64Value(ts)})
}

// loadKeyed creates and fills table k.
func loadKeyed(st *storage.Engine, n int) error {
	ctx := context.Background()
	s, err := rowkeyschema.Parse(keyedSchema)
	if err != nil {
		return err
	}
	if _, err := st.CreateTable(ctx, testInstance, "k", storage.TableSpec{
		Families: []storage.Family{{Name: "cf"}}, RowKeySchema: []byte(keyedSchema)}); err != nil {
		return err
	}
	tgt := storage.Target{Instance: testInstance, Table: "k"}
	var batch []storage.RowMutations
	for i := 0; i < n; i++ {
		key, err := keyedKey(s, i)
		if err != nil {
			return err
		}
		batch = append(batch, storage.RowMutations{Key: key, Mutations: []storage.Mutation{{
			Kind: storage.SetCell, Family: "cf", Qualifier: []byte("a"), Timestamp: 1000, Value: []byte("12345678")}}})
		if len(batch) == 1000 || i == n-1 {
			if _, err := st.MutateRows(ctx, tgt, batch); err != nil {
				return err
			}
			batch = batch[:0]
		}
	}
	return nil
}

// BenchmarkKeyFieldLookup compares a prepared point lookup by all key
// fields with the same lookup by _key (target: within 10%).
func BenchmarkKeyFieldLookup(b *testing.B) {
	_, eng, n := benchEngine(b)
	ctx := context.Background()
	s, err := rowkeyschema.Parse(keyedSchema)
	if err != nil {
		b.Fatal(err)
	}
	byKey := make([]map[string]types.Value, 1024)
	byFields := make([]map[string]types.Value, 1024)
	for i := range byKey {
		r := (i * 7919) % n
		key, err := keyedKey(s, r)
		if err != nil {
			b.Fatal(err)
		}
		t, d, ts := keyedRow(r)
		byKey[i] = map[string]types.Value{"k": types.BytesValue(key)}
		byFields[i] = map[string]types.Value{"t": types.StringValue(t), "d": types.StringValue(d), "ts": types.Int64Value(ts)}
	}
	cases := []struct {
		name, query string
		decl        map[string]*types.Type
		params      []map[string]types.Value
	}{
		{"by-key", "SELECT ts, cf['a'] FROM k WHERE _key = @k", map[string]*types.Type{"k": types.Bytes}, byKey},
		{"by-fields", "SELECT ts, cf['a'] FROM k WHERE device_type = @t AND device_id = @d AND ts = @ts",
			map[string]*types.Type{"t": types.String, "d": types.String, "ts": types.Int64}, byFields},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			stmt, err := eng.Prepare(ctx, testInstance, c.query, c.decl)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if got := countRows(b, stmt, c.params[i%len(c.params)]); got != 1 {
					b.Fatalf("%s: %d rows", c.name, got)
				}
				i++
			}
		})
	}
}

// BenchmarkDeviceReadings counts one device's readings by its leading key
// fields: the scan must read only that device's rows.
func BenchmarkDeviceReadings(b *testing.B) {
	_, eng, n := benchEngine(b)
	ctx := context.Background()
	const q = "SELECT COUNT(*) FROM k WHERE device_type = 'phone' AND device_id = @id"
	_, dev, _ := keyedRow(n / 2 / readingsPerUnit * readingsPerUnit)
	params := map[string]types.Value{"id": types.StringValue(dev)}
	stmt, err := eng.Prepare(ctx, testInstance, q, map[string]*types.Type{"id": types.String})
	if err != nil {
		b.Fatal(err)
	}
	explain, err := eng.Prepare(engine.WithoutTimes(ctx), testInstance, "EXPLAIN ANALYZE "+q, map[string]*types.Type{"id": types.String})
	if err != nil {
		b.Fatal(err)
	}
	rows, err := explain.Run(engine.WithoutTimes(ctx), params)
	if err != nil {
		b.Fatal(err)
	}
	var plan []string
	for rows.Next() {
		plan = append(plan, rows.Row()[0].Str())
	}
	rows.Close()
	b.Logf("%s", strings.Join(plan, "\n"))
	b.ReportAllocs()
	for b.Loop() {
		countRows(b, stmt, params)
	}
}

func countRows(b *testing.B, stmt *engine.Statement, params map[string]types.Value) int {
	rows, err := stmt.Run(context.Background(), params)
	if err != nil {
		b.Fatal(err)
	}
	c := 0
	for rows.Next() {
		c++
	}
	if err := rows.Err(); err != nil {
		b.Fatal(err)
	}
	rows.Close()
	return c
}
