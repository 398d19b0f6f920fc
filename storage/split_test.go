package storage

import (
	"bytes"
	"math/rand"
	"testing"
)

// TestSplitRow checks splitRow against Pebble's rules for Split on random
// cell keys, bounds and metadata keys: a prefix is a byte prefix of its key,
// is its own prefix, and prefixes order like their keys.
func TestSplitRow(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	randBytes := func() []byte {
		b := make([]byte, rng.Intn(4))
		for i := range b {
			b[i] = []byte{0x00, 0x01, 0xff, 'a', 'b'}[rng.Intn(5)]
		}
		return b
	}
	var keys [][]byte
	for range 2000 {
		id := uint64(rng.Intn(3))
		row := randBytes()
		switch rng.Intn(4) {
		case 0:
			keys = append(keys, appendRowPrefix(nil, id, row))
		case 1:
			keys = append(keys, appendEscapedOpen(appendTablePrefix(nil, id), row))
		case 2:
			keys = append(keys, []byte{metaPrefix, byte(rng.Intn(256))})
		default:
			keys = append(keys, appendCellKey(nil, id, row, "f", randBytes(), rng.Int63()))
		}
	}
	for _, k := range keys {
		p := k[:splitRow(k)]
		if !bytes.HasPrefix(k, p) || splitRow(p) != len(p) {
			t.Fatalf("%x: prefix %x is not a fixed point", k, p)
		}
	}
	for i := range 20000 {
		a, b := keys[rng.Intn(len(keys))], keys[(i*7919)%len(keys)]
		pa, pb := a[:splitRow(a)], b[:splitRow(b)]
		if c := bytes.Compare(a, b); c <= 0 && bytes.Compare(pa, pb) > 0 {
			t.Fatalf("%x <= %x but prefixes %x > %x", a, b, pa, pb)
		}
		if bytes.Compare(pa, pb) < 0 && bytes.Compare(a, b) >= 0 {
			t.Fatalf("prefixes %x < %x but keys %x >= %x", pa, pb, a, b)
		}
	}
}

// TestIsRowSpan checks that exactly the spans of single rows take the
// prefix seek.
func TestIsRowSpan(t *testing.T) {
	for _, row := range [][]byte{{}, []byte("a"), {0x00}, {0xff}, []byte("a\x00\x01b")} {
		ss, err := RowSet{Keys: [][]byte{row}}.spans(7)
		if err != nil || len(ss) != 1 || !isRowSpan(ss[0]) {
			t.Fatalf("row %q: spans %v, %v: not a row span", row, ss, err)
		}
	}
	for _, rs := range []RowSet{{}, {Ranges: []RowRange{{Start: []byte("a"), End: []byte("b")}}},
		{Ranges: []RowRange{{Start: []byte("a"), End: []byte("a\x00")}}},
		{Ranges: []RowRange{{Start: []byte("beta\x00\x01"), End: []byte("beta\x00\x02")}}}} {
		ss, err := rs.spans(7)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range ss {
			if isRowSpan(s) {
				t.Fatalf("%+v: span %x..%x taken for one row", rs, s.lower, s.upper)
			}
		}
	}
}
