package pgcatalog

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
)

// TestSortSpills sorts a 20,000-row table with work_mem at its 64kB
// minimum, so that the rows go to many sorted runs on disk, and requires
// the order a stable in-memory sort gives: by the ORDER BY keys, equal
// rows in input order. A hidden sort column (ORDER BY an expression not
// selected) is dropped, and OFFSET and a LIMIT too large for topN apply.
// With a fan-in of 3 the runs merge in several passes first.
func TestSortSpills(t *testing.T) {
	for _, fanIn := range []int{512, 3} { // 3: runs merge in several passes
		t.Run(fmt.Sprintf("fanIn=%d", fanIn), func(t *testing.T) {
			defer func(old int) { maxFanIn = old }(maxFanIn)
			maxFanIn = fanIn
			testSortSpills(t)
		})
	}
}

func testSortSpills(t *testing.T) {
	defer func(old int) { maxTicks = old }(maxTicks)
	maxTicks = 1000 // spilled rows are not held: they do not count
	var runs int
	traceSpill = func(n int) { runs = n }
	defer func() { traceSpill = nil }()
	src := bigSource{n: 20000}
	sess := &Session{Database: "db", Settings: map[string]string{"work_mem": "64kB"}}
	key := func(i int) string { return fmt.Sprintf(`\x%x`, fmt.Sprintf("%08d", i)) }
	var byG []string // g descending, then input order
	for g := 9; g >= 0; g-- {
		for i := g; i < 20000; i += 10 {
			byG = append(byG, fmt.Sprintf("%d|%s", g, key(i)))
		}
	}
	var hidden []string // g ascending, then _key descending
	for g := 0; g <= 9; g++ {
		for i := 19990 + g; i >= 0; i -= 10 {
			hidden = append(hidden, key(i))
		}
	}
	for _, c := range []struct {
		sql  string
		want []string
	}{
		{"SELECT cf->>'g' AS g, _key FROM public.big ORDER BY g DESC", byG},
		{"SELECT _key FROM public.big ORDER BY cf->>'g', _key DESC", hidden},
		{"SELECT cf->>'g' AS g, _key FROM public.big ORDER BY g DESC OFFSET 19990 LIMIT 2000000", byG[19990:]},
		{"SELECT cf->>'g' AS g, _key FROM public.big ORDER BY g DESC OFFSET 5", byG[5:]},
	} {
		runs = 0
		st, err := PrepareWith(context.Background(), src, sess, c.sql, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		rows, err := st.Open(context.Background(), src, sess, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		var got []string
		for rows.Next() {
			var f []string
			for _, v := range rows.Text() {
				f = append(f, *v)
			}
			got = append(got, strings.Join(f, "|"))
		}
		if err := rows.Err(); err != nil {
			t.Fatalf("%s: %v", c.sql, err)
		}
		rows.Close()
		if runs < 10 {
			t.Errorf("%s: %d runs spilled, want many at work_mem 64kB", c.sql, runs)
		}
		if !reflect.DeepEqual(got, c.want) {
			n := 0
			for n < len(got) && n < len(c.want) && got[n] == c.want[n] {
				n++
			}
			t.Errorf("%s: %d rows, want %d; first difference at row %d", c.sql, len(got), len(c.want), n)
		}
	}
}

// TestSpillCodec round-trips every kind of Value through a run's encoding.
func TestSpillCodec(t *testing.T) {
	row := []Value{
		null, boolV(true), boolV(false), intV(-1 << 62), intV(0), floatV(math.Inf(-1)), floatV(-0.5),
		textV(""), textV("héllo\x00"), {k: kNumeric, s: "-12.340"},
		arrayV([]Value{intV(1), null, textV("x")}), arrayV(nil),
		{k: kRecord, a: []Value{intV(2), textV("y")}, names: []string{"a", "b"}, types: []uint32{tInt4, tText}},
		{k: kRecord, a: []Value{arrayV([]Value{floatV(2)})}, names: []string{"nested"}},
	}
	enc := appendRow(nil, row)
	enc = appendRow(enc, row[:2])
	r := bufio.NewReader(bytes.NewReader(enc))
	got, err := readRow(r)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, row) {
		t.Errorf("round trip:\n got %#v\nwant %#v", got, row)
	}
	if got, err := readRow(r); err != nil || !reflect.DeepEqual(got, row[:2]) {
		t.Errorf("second row: %v %v", got, err)
	}
	if _, err := readRow(bufio.NewReader(bytes.NewReader(enc[:len(enc)/2]))); err == nil {
		t.Error("a truncated row read without an error")
	}
}

// FuzzSpillCodec reads arbitrary bytes as a sort run: no panic, no
// allocation the data does not bear out, and every row it decodes encodes
// back to bytes that decode to the same encoding.
func FuzzSpillCodec(f *testing.F) {
	f.Add(appendRow(nil, []Value{intV(7), textV("x"), {k: kRecord, a: []Value{null}, names: []string{"n"}, types: []uint32{tInt4}}}))
	f.Add([]byte{3, 0, 1, 1, 2, 0x80})
	f.Add([]byte{1, 5, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bufio.NewReader(bytes.NewReader(data))
		for {
			row, err := readRow(r)
			if err != nil {
				return
			}
			enc := appendRow(nil, row)
			again, err := readRow(bufio.NewReader(bytes.NewReader(enc)))
			if err != nil {
				t.Fatalf("re-encoded row does not decode: %v", err)
			}
			if !bytes.Equal(appendRow(nil, again), enc) {
				t.Fatalf("round trip changed the row")
			}
		}
	})
}

// TestFanIn keeps a merge's rows within work_mem: as many runs as work_mem
// holds rows, at least 8 and at most maxFanIn.
func TestFanIn(t *testing.T) {
	for _, c := range []struct {
		budget, bytes, rows int64
		want                int
	}{
		{4 << 20, 600 * 1000, 1000, 512},  // narrow rows: the cap
		{4 << 20, 100 << 10 * 10, 10, 40}, // 100 kB rows
		{4 << 20, 10 << 20, 10, 8},        // 1 MB rows: the floor
		{64 << 10, 0, 0, 512},             // nothing measured yet
	} {
		s := &spillSorter{budget: c.budget, spilledBytes: c.bytes, spilledRows: c.rows}
		if got := s.fanIn(); got != c.want {
			t.Errorf("budget %d, %d bytes in %d rows: fan-in %d, want %d", c.budget, c.bytes, c.rows, got, c.want)
		}
	}
}
