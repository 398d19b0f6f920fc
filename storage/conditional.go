package storage

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/cockroachdb/pebble/v2"
)

// CheckAndMutateRow applies trueMuts when the predicate outputs at least one
// cell of the row (a nil predicate: when the row has any cell), else
// falseMuts. Evaluation and mutation are atomic for the row.
func (e *Engine) CheckAndMutateRow(ctx context.Context, tgt Target, key []byte, predicate Filter, trueMuts, falseMuts []Mutation) (bool, error) {
	if len(trueMuts) == 0 && len(falseMuts) == 0 {
		return false, fmt.Errorf("%w: CheckAndMutateRow needs true or false mutations", ErrInvalidArgument)
	}
	if len(trueMuts) > MaxMutations || len(falseMuts) > MaxMutations {
		return false, fmt.Errorf("%w: more than %d mutations", ErrInvalidArgument, MaxMutations)
	}
	pred, err := CompileFilter(predicate, e.opts.Rand)
	if err != nil {
		return false, err
	}
	r, err := e.lockData(tgt)
	if err != nil {
		return false, err
	}
	defer r.st.dataMu.RUnlock()
	now := e.now()
	trueMuts, falseMuts = slices.Clone(trueMuts), slices.Clone(falseMuts)
	for _, muts := range [][]Mutation{trueMuts, falseMuts} {
		if len(muts) == 0 {
			if err := validateRowKey(key); err != nil {
				return false, err
			}
			continue
		}
		if err := validateRow(r, key, muts, now); err != nil {
			return false, err
		}
	}
	stripes := e.locks.lock([]uint32{e.locks.stripe(r.t.ID, key)})
	defer e.locks.unlock(stripes)

	b := e.db.NewIndexedBatch()
	defer b.Close()
	row, err := readRowFrom(b, r, key)
	if err != nil {
		return false, err
	}
	matched := len(row.Cells) > 0 && pred.Matches(key, row.Cells)
	muts := falseMuts
	if matched {
		muts = trueMuts
	}
	if len(muts) == 0 {
		return matched, nil
	}
	w := rowWriter{b: b, t: r.t, view: r.view}
	if err := w.apply(key, muts); err != nil {
		return false, err
	}
	if err := e.commit(b, e.writeOpts); err != nil {
		return false, err
	}
	r.st.dirty.Store(true)
	return matched, nil
}

// readRowFrom reads a whole row, as the target sees it, through a reader (a
// batch sees its own writes). The result owns its memory.
func readRowFrom(rd pebble.Reader, r resolved, key []byte) (*Row, error) {
	lo := appendRowPrefix(nil, r.t.ID, key)
	iter, err := rd.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: prefixSuccessor(lo)})
	if err != nil {
		return nil, err
	}
	it := &RowIterator{ctx: context.Background(), t: r.t, view: r.view, iter: readIter{Iterator: iter}, spans: []span{{lo, prefixSuccessor(lo)}}}
	defer it.Close()
	row := it.Next()
	if row == nil {
		if err := it.Err(); err != nil {
			return nil, err
		}
		return &Row{Key: key}, nil
	}
	return row.Clone(), nil
}

// ReadModifyWriteRow applies the rules in order to the latest cells of their
// columns and returns the new cells. Atomic for the row.
func (e *Engine) ReadModifyWriteRow(ctx context.Context, tgt Target, key []byte, rules []ReadModifyWriteRule) (*Row, error) {
	if len(rules) == 0 || len(rules) > MaxMutations {
		return nil, fmt.Errorf("%w: ReadModifyWriteRow needs 1 to %d rules, got %d", ErrInvalidArgument, MaxMutations, len(rules))
	}
	if err := validateRowKey(key); err != nil {
		return nil, err
	}
	r, err := e.lockData(tgt)
	if err != nil {
		return nil, err
	}
	defer r.st.dataMu.RUnlock()
	if r.view != nil && !r.view.containsRow(key) {
		return nil, fmt.Errorf("%w: row %q is outside authorized view %q", ErrPermissionDenied, key, r.view.Name)
	}
	for _, rule := range rules {
		f := r.t.Family(rule.Family)
		switch {
		case f == nil:
			return nil, fmt.Errorf("%w: unknown family %q", ErrInvalidArgument, rule.Family)
		case f.Aggregate != NoAggregate:
			return nil, fmt.Errorf("%w: ReadModifyWriteRow on aggregate family %q", ErrInvalidArgument, rule.Family)
		case len(rule.Qualifier) > MaxQualifierSize:
			return nil, fmt.Errorf("%w: column qualifier is %d bytes, the limit is %d", ErrInvalidArgument, len(rule.Qualifier), MaxQualifierSize)
		case r.view != nil && !r.view.containsColumn(rule.Family, rule.Qualifier):
			return nil, fmt.Errorf("%w: %s:%q is outside authorized view %q", ErrPermissionDenied, rule.Family, rule.Qualifier, r.view.Name)
		}
	}
	stripes := e.locks.lock([]uint32{e.locks.stripe(r.t.ID, key)})
	defer e.locks.unlock(stripes)

	b := e.db.NewIndexedBatch()
	defer b.Close()
	unit := r.t.Granularity.unit()
	now := e.now()
	now -= now % unit
	out := &Row{Key: slices.Clone(key)}
	for _, rule := range rules {
		colKey := appendColumnPrefix(nil, r.t.ID, key, rule.Family, rule.Qualifier)
		old, oldTS, found, err := latestCell(b, colKey)
		if err != nil {
			return nil, err
		}
		var val []byte
		if rule.IsIncrement {
			var n int64
			if found {
				if len(old) != 8 {
					return nil, fmt.Errorf("%w: cannot increment %s:%q: its value is %d bytes, not an 8-byte big-endian integer", ErrFailedPrecondition, rule.Family, rule.Qualifier, len(old))
				}
				n = int64(binary.BigEndian.Uint64(old))
			}
			val = encodeInt64(n + rule.Increment)
		} else {
			val = append(slices.Clone(old), rule.Append...)
			if len(val) > MaxValueSize {
				return nil, fmt.Errorf("%w: appended value is %d bytes, the limit is %d", ErrInvalidArgument, len(val), MaxValueSize)
			}
		}
		ts := now
		if found && oldTS > ts {
			ts = oldTS
		}
		if err := b.Set(binary.BigEndian.AppendUint64(colKey, ^uint64(ts)), val, nil); err != nil {
			return nil, err
		}
		out.Cells = setResultCell(out.Cells, Cell{Family: rule.Family, Qualifier: slices.Clone(rule.Qualifier), Timestamp: ts, Value: val})
	}
	if err := e.commit(b, e.writeOpts); err != nil {
		return nil, err
	}
	r.st.dirty.Store(true)
	slices.SortFunc(out.Cells, func(a, b Cell) int { return compareCells(&a, &b) })
	return out, nil
}

// setResultCell records the newest value of a column in a ReadModifyWrite
// result, replacing an earlier rule's cell for the same column.
func setResultCell(cells []Cell, c Cell) []Cell {
	for i := range cells {
		if compareColumns(&cells[i], &c) == 0 {
			cells[i] = c
			return cells
		}
	}
	return append(cells, c)
}

// latestCell returns the newest cell under a column prefix.
func latestCell(rd pebble.Reader, colKey []byte) (val []byte, ts int64, found bool, err error) {
	iter, err := rd.NewIter(&pebble.IterOptions{LowerBound: colKey, UpperBound: prefixSuccessor(colKey)})
	if err != nil {
		return nil, 0, false, err
	}
	defer iter.Close()
	if !iter.First() {
		return nil, 0, false, iter.Error()
	}
	k := iter.Key()
	if len(k) != len(colKey)+8 {
		return nil, 0, false, errCorruptKey
	}
	v, err := iter.ValueAndErr()
	if err != nil {
		return nil, 0, false, err
	}
	return slices.Clone(v), int64(^binary.BigEndian.Uint64(k[len(colKey):])), true, nil
}
