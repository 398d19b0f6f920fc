package storage

import (
	"bytes"
	"context"
	"slices"

	"github.com/cockroachdb/pebble/v2"
)

// Tablets: a table is range-partitioned at its split keys into tablets
// [ , s1), [s1, s2), ... [sn, ). Split keys come from CreateTable's initial
// splits and from the sweep, which splits a tablet in two at the row where
// half its bytes lie once it grows past Options.SplitSize. Splits are
// metadata: they drive SampleRowKeys (clients use them to parallelize scans);
// the data of all tablets lives in the same Pebble keyspace.

// splitTablets adds a split key to every tablet larger than SplitSize and
// returns how many it added.
func (e *Engine) splitTablets(ctx context.Context, t *Table, sizes []int64) (int, error) {
	var keys [][]byte
	for i, size := range sizes {
		if size <= e.opts.SplitSize {
			continue
		}
		var lo, hi []byte
		if i > 0 {
			lo = t.Splits[i-1]
		}
		if i < len(t.Splits) {
			hi = t.Splits[i]
		}
		k, err := e.midpoint(t, lo, hi, size/2)
		if err != nil {
			return 0, err
		}
		if k != nil {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return 0, nil
	}
	_, err := e.AlterTable(ctx, t.Instance, t.Name, func(cur *Table) error {
		if cur.ID != t.ID {
			return nil
		}
		splits, err := normalizeSplits(append(slices.Clone(cur.Splits), keys...))
		cur.Splits = splits
		return err
	})
	return len(keys), err
}

// midpoint returns the first row key of tablet [lo, hi) past which half
// bytes of the tablet lie, or nil if the tablet holds a single row.
func (e *Engine) midpoint(t *Table, lo, hi []byte, half int64) ([]byte, error) {
	spans, err := RowSet{Ranges: []RowRange{{Start: lo, End: hi}}}.spans(t.ID)
	if err != nil || len(spans) == 0 {
		return nil, err
	}
	it, err := e.db.NewIter(&pebble.IterOptions{LowerBound: spans[0].lower, UpperBound: spans[0].upper})
	if err != nil {
		return nil, err
	}
	defer it.Close()
	var sum int64
	var rowPrefix, buf []byte
	first := true
	for ok := it.First(); ok; ok = it.Next() {
		k := it.Key()
		if rowPrefix == nil || !bytes.HasPrefix(k, rowPrefix) {
			ck, b, err := decodeCellKey(k, buf[:0])
			buf = b
			if err != nil {
				return nil, err
			}
			if sum >= half && !first {
				return slices.Clone(ck.row), nil
			}
			first = false
			rowPrefix = append(rowPrefix[:0], k[:ck.rowPrefixLen]...)
		}
		sum += int64(len(k) + len(it.Value()))
	}
	return nil, it.Error()
}

// Sample is one answer of SampleRowKeys: a row key at a tablet boundary and
// the approximate bytes of the table before it.
type Sample struct {
	Key    []byte
	Offset int64
}

// ApproximateSize returns about how many bytes a table's cells take on
// disk: Pebble's estimate over the table's key range, which counts
// flushed data only (as SampleRowKeys' offsets do), not cells still in the
// memtable.
func (e *Engine) ApproximateSize(tgt Target) (int64, error) {
	r, err := e.resolve(tgt)
	if err != nil {
		return 0, err
	}
	tp := tablePrefix(r.t.ID)
	n, err := e.db.EstimateDiskUsage(tp, prefixSuccessor(tp))
	return int64(n), err
}

// SampleRowKeys returns the tablet boundaries of a table (restricted to an
// authorized view's rows when reading through one) with approximate byte
// offsets. The last sample is "" (the end of the table) unless a view's
// range ends earlier, in which case it is that end.
func (e *Engine) SampleRowKeys(ctx context.Context, tgt Target) ([]Sample, error) {
	r, err := e.resolve(tgt)
	if err != nil {
		return nil, err
	}
	ranges := []RowRange{{}}
	if r.view != nil {
		ranges = r.view.rowRanges()
	}
	tp := tablePrefix(r.t.ID)
	offset := func(key []byte) int64 {
		end := prefixSuccessor(tp)
		if key != nil {
			end = appendEscapedOpen(appendTablePrefix(nil, r.t.ID), key)
		}
		n, err := e.db.EstimateDiskUsage(tp, end)
		if err != nil {
			return 0
		}
		return int64(n)
	}
	var out []Sample
	for _, rr := range ranges {
		for _, s := range r.t.Splits {
			if bytes.Compare(s, rr.Start) > 0 && (len(rr.End) == 0 || bytes.Compare(s, rr.End) < 0) {
				out = append(out, Sample{Key: s, Offset: offset(s)})
			}
		}
		if len(rr.End) > 0 {
			out = append(out, Sample{Key: rr.End, Offset: offset(rr.End)})
		} else {
			out = append(out, Sample{Key: []byte{}, Offset: offset(nil)})
		}
	}
	return out, nil
}
