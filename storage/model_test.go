package storage

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"
)

// TestModel applies random mutations, conditional writes, read-modify-writes,
// GC sweeps, reopens and reads to the engine and to a simple in-memory model
// of Bigtable, and requires identical results. Filters run through the same
// CompiledFilter on both sides (they are tested on their own in
// testdata/filters); what this checks is the engine: key encoding, row sets,
// ordering, reversal, limits, deletes, aggregates, GC and persistence.
//
// SHALE_MODEL_SEEDS=n runs more seeds; a failure prints the seed and the
// operation log, and SHALE_MODEL_SEED=s replays one seed.
func TestModel(t *testing.T) {
	seeds := []uint64{1, 2, 3, 4, 5, 6, 7, 8}
	if s := os.Getenv("SHALE_MODEL_SEED"); s != "" {
		n, _ := strconv.ParseUint(s, 10, 64)
		seeds = []uint64{n}
	} else if s := os.Getenv("SHALE_MODEL_SEEDS"); s != "" {
		n, _ := strconv.Atoi(s)
		seeds = nil
		for i := 1; i <= n; i++ {
			seeds = append(seeds, uint64(time.Now().UnixNano())+uint64(i))
		}
	}
	for _, seed := range seeds {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { runModel(t, seed, 600) })
	}
}

type modelTest struct {
	t     *testing.T
	rng   *rand.Rand
	fs    vfs.FS
	e     *Engine
	now   time.Time
	rows  map[string][]Cell // the model: cells in row order
	log   []string
	tgt   Target
	table *Table
}

var modelKeys = []string{"a", "a\x00", "a\x00b", "a\xff", "ab", "b", "phone#4c410523#20200501",
	"phone#4c410523#20200502", "phone#4c410524", "tablet#a0b81f74#20200501", "\x00", "\xff\xff", "z"}

var modelQuals = []string{"", "q", "q\x00", "r", "\xff"}

func runModel(t *testing.T, seed uint64, ops int) {
	m := &modelTest{
		t: t, rng: rand.New(rand.NewPCG(seed, seed)), fs: vfs.NewMem(),
		now: time.Unix(1_700_000_000, 0), rows: map[string][]Cell{},
		tgt: Target{Instance: "projects/p/instances/i", Table: "t"},
	}
	defer func() {
		if t.Failed() {
			t.Logf("seed %d; last operations:\n%s", seed, strings.Join(m.log[max(0, len(m.log)-30):], "\n"))
		}
	}()
	m.open()
	var err error
	m.table, err = m.e.CreateTable(context.Background(), m.tgt.Instance, m.tgt.Table, TableSpec{
		Granularity: Micros,
		Families: []Family{
			{Name: "a", GC: GCPolicy{Kind: GCMaxVersions, MaxVersions: 2}},
			{Name: "b"},
			{Name: "s", Aggregate: Sum},
			{Name: "x", GC: GCPolicy{Kind: GCMaxAge, MaxAge: time.Hour}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < ops && !t.Failed(); i++ {
		switch p := m.rng.IntN(100); {
		case p < 45:
			m.mutate()
		case p < 75:
			m.read()
		case p < 83:
			m.checkAndMutate()
		case p < 90:
			m.readModifyWrite()
		case p < 95:
			m.sweep()
		default:
			m.reopen()
		}
	}
	m.read()
	if err := m.e.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	m.e.Close()
}

func (m *modelTest) open() {
	e, err := Open("", Options{FS: m.fs, SweepInterval: -1, Clock: func() time.Time { return m.now }})
	if err != nil {
		m.t.Fatal(err)
	}
	m.e = e
}

func (m *modelTest) reopen() {
	m.log = append(m.log, "reopen")
	if err := m.e.Close(); err != nil {
		m.t.Fatal(err)
	}
	m.open()
}

func (m *modelTest) pick(xs []string) string { return xs[m.rng.IntN(len(xs))] }

func (m *modelTest) ts() int64 {
	// A few timestamps, so columns collect versions and same-ts overwrites;
	// some near "now" for the max-age family.
	if m.rng.IntN(4) == 0 {
		return m.now.UnixMicro() - int64(m.rng.IntN(3))*int64(time.Hour/time.Microsecond)
	}
	return int64(m.rng.IntN(6)) * 1000
}

func (m *modelTest) randomMutation() Mutation {
	fam := m.pick([]string{"a", "b", "x"})
	q := []byte(m.pick(modelQuals))
	switch p := m.rng.IntN(100); {
	case p < 55:
		return Mutation{Kind: SetCell, Family: fam, Qualifier: q, Timestamp: m.ts(), Value: []byte(fmt.Sprint("v", m.rng.IntN(100)))}
	case p < 65:
		start := int64(m.rng.IntN(5)) * 1000
		end := int64(0)
		if m.rng.IntN(2) == 0 {
			end = start + int64(1+m.rng.IntN(3))*1000
		}
		return Mutation{Kind: DeleteFromColumn, Family: fam, Qualifier: q, TimeRange: TimeRange{Start: start, End: end}}
	case p < 70:
		return Mutation{Kind: DeleteFromFamily, Family: fam}
	case p < 73:
		return Mutation{Kind: DeleteFromRow}
	case p < 90:
		return Mutation{Kind: AddToCell, Family: "s", Qualifier: q, Timestamp: int64(m.rng.IntN(2)) * 1000, Int64Input: int64(m.rng.IntN(21) - 10)}
	default:
		return Mutation{Kind: MergeToCell, Family: "s", Qualifier: q, Timestamp: int64(m.rng.IntN(2)) * 1000, Value: encodeInt64(int64(m.rng.IntN(5)))}
	}
}

func (m *modelTest) randomMutations() []Mutation {
	muts := make([]Mutation, 1+m.rng.IntN(4))
	for i := range muts {
		muts[i] = m.randomMutation()
	}
	return muts
}

func (m *modelTest) mutate() {
	if m.rng.IntN(3) == 0 {
		var entries []RowMutations
		for n := 1 + m.rng.IntN(4); n > 0; n-- {
			entries = append(entries, RowMutations{Key: []byte(m.pick(modelKeys)), Mutations: m.randomMutations()})
		}
		m.log = append(m.log, fmt.Sprintf("mutate-rows %v", entries))
		errs, err := m.e.MutateRows(context.Background(), m.tgt, entries)
		if err != nil {
			m.t.Fatal(err)
		}
		for i, ent := range entries {
			if errs[i] != nil {
				m.t.Fatalf("mutate-rows entry %d: %v", i, errs[i])
			}
			m.apply(string(ent.Key), ent.Mutations)
		}
		return
	}
	key := m.pick(modelKeys)
	muts := m.randomMutations()
	m.log = append(m.log, fmt.Sprintf("mutate %q %v", key, muts))
	if err := m.e.MutateRow(context.Background(), m.tgt, []byte(key), muts); err != nil {
		m.t.Fatal(err)
	}
	m.apply(key, muts)
}

// apply is the model's MutateRow.
func (m *modelTest) apply(key string, muts []Mutation) {
	cells := m.rows[key]
	for _, mu := range muts {
		switch mu.Kind {
		case SetCell:
			cells = m.put(cells, Cell{Family: mu.Family, Qualifier: mu.Qualifier, Timestamp: mu.Timestamp, Value: mu.Value})
		case DeleteFromColumn:
			cells = slices.DeleteFunc(cells, func(c Cell) bool {
				return c.Family == mu.Family && bytes.Equal(c.Qualifier, mu.Qualifier) && mu.TimeRange.contains(c.Timestamp)
			})
		case DeleteFromFamily:
			cells = slices.DeleteFunc(cells, func(c Cell) bool { return c.Family == mu.Family })
		case DeleteFromRow:
			cells = nil
		case AddToCell, MergeToCell:
			in := mu.Int64Input
			if mu.Kind == MergeToCell {
				in = int64(binary.BigEndian.Uint64(mu.Value))
			}
			c := Cell{Family: mu.Family, Qualifier: mu.Qualifier, Timestamp: mu.Timestamp}
			for _, old := range cells {
				if compareCells(&old, &c) == 0 {
					in += int64(binary.BigEndian.Uint64(old.Value))
				}
			}
			c.Value = encodeInt64(in)
			cells = m.put(cells, c)
		}
	}
	m.store(key, cells)
}

func (m *modelTest) store(key string, cells []Cell) {
	if len(cells) == 0 {
		delete(m.rows, key)
	} else {
		m.rows[key] = cells
	}
}

// put inserts or replaces a cell, keeping row order.
func (m *modelTest) put(cells []Cell, c Cell) []Cell {
	c.Qualifier = slices.Clone(c.Qualifier)
	c.Value = slices.Clone(c.Value)
	i, found := slices.BinarySearchFunc(cells, c, func(a, b Cell) int { return compareCells(&a, &b) })
	if found {
		cells = slices.Clone(cells)
		cells[i] = c
		return cells
	}
	return slices.Insert(slices.Clone(cells), i, c)
}

func (m *modelTest) randomFilter() Filter {
	simple := func() Filter {
		switch m.rng.IntN(8) {
		case 0:
			return &FamilyRegex{Pattern: m.pick([]string{"a", "b|s", "[ax]"})}
		case 1:
			return &CellsPerColumnLimit{N: int64(1 + m.rng.IntN(2))}
		case 2:
			return &CellsPerRowLimit{N: int64(1 + m.rng.IntN(3))}
		case 3:
			return &CellsPerRowOffset{N: int64(m.rng.IntN(3))}
		case 4:
			return &TimestampRange{Start: 1000, End: 4000}
		case 5:
			return &ValueRange{Start: []byte("v3"), End: []byte("v7")}
		case 6:
			return &QualifierRegex{Pattern: []byte("q.*")}
		default:
			return &StripValue{}
		}
	}
	switch m.rng.IntN(5) {
	case 0:
		return nil
	case 1:
		return &Chain{Filters: []Filter{simple(), simple()}}
	case 2:
		return &Interleave{Filters: []Filter{simple(), simple()}}
	default:
		return simple()
	}
}

func (m *modelTest) randomRowSet() RowSet {
	var rs RowSet
	if m.rng.IntN(4) == 0 {
		return rs
	}
	for n := m.rng.IntN(3); n > 0; n-- {
		rs.Keys = append(rs.Keys, []byte(m.pick(modelKeys)))
	}
	for n := m.rng.IntN(3); n > 0; n-- {
		a, b := m.pick(append(modelKeys, "")), m.pick(append(modelKeys, ""))
		if a > b && b != "" {
			a, b = b, a
		}
		rs.Ranges = append(rs.Ranges, RowRange{Start: []byte(a), StartOpen: m.rng.IntN(2) == 0, End: []byte(b), EndClosed: m.rng.IntN(2) == 0})
	}
	if m.rng.IntN(3) == 0 {
		rs.Ranges = append(rs.Ranges, PrefixRange([]byte(m.pick([]string{"a", "phone#4c410523#", "phone#", "\xff"}))))
	}
	return rs
}

// inRowSet is the model's RowSet membership.
func inRowSet(rs RowSet, key string) bool {
	if rs.IsEmpty() {
		return true
	}
	for _, k := range rs.Keys {
		if string(k) == key {
			return true
		}
	}
	for _, r := range rs.Ranges {
		if len(r.Start) > 0 {
			if c := strings.Compare(key, string(r.Start)); c < 0 || (c == 0 && r.StartOpen) {
				continue
			}
		}
		if len(r.End) > 0 {
			if c := strings.Compare(key, string(r.End)); c > 0 || (c == 0 && !r.EndClosed) {
				continue
			}
		}
		return true
	}
	return false
}

func (m *modelTest) read() {
	opts := ReadOptions{Rows: m.randomRowSet(), Filter: m.randomFilter(), Reversed: m.rng.IntN(3) == 0}
	if m.rng.IntN(3) == 0 {
		opts.Limit = int64(1 + m.rng.IntN(4))
	}
	m.log = append(m.log, fmt.Sprintf("read rows=%+v filter=%s reversed=%v limit=%d", opts.Rows, FormatFilter(opts.Filter), opts.Reversed, opts.Limit))
	// Expected.
	keys := make([]string, 0, len(m.rows))
	for k := range m.rows {
		if inRowSet(opts.Rows, k) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	if opts.Reversed {
		slices.Reverse(keys)
	}
	cf, err := CompileFilter(opts.Filter, nil)
	if err != nil {
		m.t.Fatal(err)
	}
	var want []string
	for _, k := range keys {
		if opts.Limit > 0 && int64(len(want)) >= opts.Limit {
			break
		}
		if out := cf.Apply(nil, []byte(k), m.rows[k]); len(out) > 0 {
			want = append(want, formatModelRow(k, out))
		}
	}
	// Actual.
	it, err := m.e.ReadRows(context.Background(), m.tgt, opts)
	if err != nil {
		m.t.Fatal(err)
	}
	var got []string
	for r := it.Next(); r != nil; r = it.Next() {
		got = append(got, formatModelRow(string(r.Key), r.Cells))
	}
	if err := it.Err(); err != nil {
		m.t.Fatal(err)
	}
	it.Close()
	if !slices.Equal(got, want) {
		m.t.Fatalf("read mismatch\n got: %s\nwant: %s", strings.Join(got, "\n      "), strings.Join(want, "\n      "))
	}
}

func formatModelRow(key string, cells []Cell) string {
	parts := make([]string, len(cells))
	for i, c := range cells {
		parts[i] = c.String()
	}
	return fmt.Sprintf("%q: %s", key, strings.Join(parts, " "))
}

func (m *modelTest) checkAndMutate() {
	key := m.pick(modelKeys)
	pred := m.randomFilter()
	tm, fm := m.randomMutations(), m.randomMutations()
	m.log = append(m.log, fmt.Sprintf("check-and-mutate %q %s %v %v", key, FormatFilter(pred), tm, fm))
	got, err := m.e.CheckAndMutateRow(context.Background(), m.tgt, []byte(key), pred, tm, fm)
	if err != nil {
		m.t.Fatal(err)
	}
	cf, _ := CompileFilter(pred, nil)
	want := len(m.rows[key]) > 0 && cf.Matches([]byte(key), m.rows[key])
	if got != want {
		m.t.Fatalf("check-and-mutate %q matched=%v, model says %v", key, got, want)
	}
	if want {
		m.apply(key, tm)
	} else {
		m.apply(key, fm)
	}
}

func (m *modelTest) readModifyWrite() {
	key := m.pick(modelKeys)
	rule := ReadModifyWriteRule{Family: "b", Qualifier: []byte(m.pick(modelQuals))}
	if m.rng.IntN(2) == 0 {
		rule.IsIncrement, rule.Increment = true, int64(m.rng.IntN(10))
	} else {
		rule.Append = []byte("+")
	}
	m.log = append(m.log, fmt.Sprintf("rmw %q %+v", key, rule))
	got, err := m.e.ReadModifyWriteRow(context.Background(), m.tgt, []byte(key), []ReadModifyWriteRule{rule})
	// Model: the latest cell of the column.
	var latest *Cell
	for i, c := range m.rows[key] {
		if c.Family == "b" && bytes.Equal(c.Qualifier, rule.Qualifier) {
			latest = &m.rows[key][i]
			break
		}
	}
	var val []byte
	if rule.IsIncrement {
		var n int64
		if latest != nil {
			if len(latest.Value) != 8 {
				if err == nil {
					m.t.Fatalf("increment of a %d-byte value succeeded", len(latest.Value))
				}
				return
			}
			n = int64(binary.BigEndian.Uint64(latest.Value))
		}
		val = encodeInt64(n + rule.Increment)
	} else {
		if latest != nil {
			val = slices.Clone(latest.Value)
		}
		val = append(val, rule.Append...)
	}
	if err != nil {
		m.t.Fatal(err)
	}
	ts := m.now.UnixMicro()
	if latest != nil && latest.Timestamp > ts {
		ts = latest.Timestamp
	}
	want := Cell{Family: "b", Qualifier: rule.Qualifier, Timestamp: ts, Value: val}
	if len(got.Cells) != 1 || got.Cells[0].String() != want.String() {
		m.t.Fatalf("rmw returned %v, model says %v", got.Cells, want)
	}
	m.store(key, m.put(m.rows[key], want))
}

func (m *modelTest) sweep() {
	m.now = m.now.Add(time.Duration(m.rng.IntN(90)) * time.Minute)
	m.log = append(m.log, fmt.Sprintf("sweep now=%d", m.now.UnixMicro()))
	if _, err := m.e.Sweep(context.Background()); err != nil {
		m.t.Fatal(err)
	}
	// Model GC: family a keeps 2 versions per column; x drops cells older
	// than an hour.
	cutoff := m.now.UnixMicro() - int64(time.Hour/time.Microsecond)
	for k, cells := range m.rows {
		var kept []Cell
		for i, c := range cells {
			switch c.Family {
			case "a":
				n := 0
				for _, p := range cells[:i] {
					if compareColumns(&p, &c) == 0 {
						n++
					}
				}
				if n >= 2 {
					continue
				}
			case "x":
				if c.Timestamp < cutoff {
					continue
				}
			}
			kept = append(kept, c)
		}
		m.store(k, kept)
	}
}
