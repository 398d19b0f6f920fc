package storage

import (
	"context"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/cockroachdb/pebble/v2"
)

// MutateRow applies mutations to one row, in order and atomically.
func (e *Engine) MutateRow(ctx context.Context, tgt Target, key []byte, muts []Mutation) error {
	errs, err := e.MutateRows(ctx, tgt, []RowMutations{{Key: key, Mutations: muts}})
	if err != nil {
		return err
	}
	return errs[0]
}

// MutateRows applies a batch of row mutations: each entry is atomic and the
// result has one error (nil for success) per entry. The second result is an
// error that failed the whole request (unknown table, too many mutations).
func (e *Engine) MutateRows(ctx context.Context, tgt Target, entries []RowMutations) ([]error, error) {
	total := 0
	for i := range entries {
		total += len(entries[i].Mutations)
	}
	if total > MaxMutations {
		return nil, fmt.Errorf("%w: %d mutations in one request, the limit is %d", ErrInvalidArgument, total, MaxMutations)
	}
	r, err := e.lockData(tgt)
	if err != nil {
		return nil, err
	}
	defer r.st.dataMu.RUnlock()

	now := e.now()
	errs := make([]error, len(entries))
	valid := make([]RowMutations, 0, len(entries))
	validIdx := make([]int, 0, len(entries))
	stripes := make([]uint32, 0, len(entries))
	needsRead := false
	for i := range entries {
		ent := entries[i]
		ent.Mutations = slices.Clone(ent.Mutations) // validation resolves timestamps in place
		if err := validateRow(r, ent.Key, ent.Mutations, now); err != nil {
			errs[i] = err
			continue
		}
		for j := range ent.Mutations {
			needsRead = needsRead || ent.Mutations[j].needsRead()
		}
		valid = append(valid, ent)
		validIdx = append(validIdx, i)
		stripes = append(stripes, e.locks.stripe(r.t.ID, ent.Key))
	}
	if len(valid) == 0 {
		return errs, nil
	}
	stripes = e.locks.lock(stripes)
	defer e.locks.unlock(stripes)
	b := e.newWriteBatch(needsRead)
	defer b.Close()
	w := rowWriter{b: b, t: r.t, view: r.view}
	for k := range valid {
		if err := w.apply(valid[k].Key, valid[k].Mutations); err != nil {
			return nil, err // I/O on the batch: nothing was committed
		}
	}
	if err := e.commit(b, e.writeOpts); err != nil {
		for _, i := range validIdx {
			errs[i] = err
		}
		return errs, nil
	}
	r.st.dirty.Store(true)
	return errs, nil
}

func (e *Engine) newWriteBatch(indexed bool) *pebble.Batch {
	if indexed {
		return e.db.NewIndexedBatch()
	}
	return e.db.NewBatch()
}

// validateRow checks a row key and its mutations, resolving server-time and
// client-generated timestamps in place.
func validateRow(r resolved, key []byte, muts []Mutation, now int64) error {
	if err := validateRowKey(key); err != nil {
		return err
	}
	if len(muts) == 0 {
		return fmt.Errorf("%w: no mutations for row %q", ErrInvalidArgument, key)
	}
	if len(muts) > MaxMutations {
		return fmt.Errorf("%w: %d mutations, the limit is %d", ErrInvalidArgument, len(muts), MaxMutations)
	}
	if r.view != nil && !r.view.containsRow(key) {
		return fmt.Errorf("%w: row %q is outside authorized view %q", ErrPermissionDenied, key, r.view.Name)
	}
	for i := range muts {
		m := &muts[i]
		if err := validateMutation(r.t, m, now); err != nil {
			return err
		}
		if r.view != nil && !viewAllows(r.view, m) {
			return fmt.Errorf("%w: %s on %s:%q is outside authorized view %q", ErrPermissionDenied, m.Kind, m.Family, m.Qualifier, r.view.Name)
		}
	}
	return nil
}

// viewAllows reports whether a mutation stays inside a view. Deletes of a
// whole family or row are allowed and remove only the cells the view shows.
func viewAllows(v *AuthorizedView, m *Mutation) bool {
	switch m.Kind {
	case DeleteFromRow:
		return true
	case DeleteFromFamily:
		_, ok := v.FamilySubsets[m.Family]
		return ok
	}
	return v.containsColumn(m.Family, m.Qualifier)
}

func validateRowKey(key []byte) error {
	if len(key) == 0 {
		return fmt.Errorf("%w: row keys must be non-empty", ErrInvalidArgument)
	}
	if len(key) > MaxRowKeySize {
		return fmt.Errorf("%w: row key is %d bytes, the limit is %d", ErrInvalidArgument, len(key), MaxRowKeySize)
	}
	return nil
}

// rowWriter applies validated mutations to a batch. Mutations that read the
// row (deletes, aggregates) need an indexed batch, so that they see the
// request's earlier mutations.
type rowWriter struct {
	b    *pebble.Batch
	t    *Table
	view *AuthorizedView
	key  []byte // scratch
}

func (w *rowWriter) apply(row []byte, muts []Mutation) error {
	id := w.t.ID
	for i := range muts {
		m := &muts[i]
		var err error
		switch m.Kind {
		case SetCell:
			w.key = appendCellKey(w.key[:0], id, row, m.Family, m.Qualifier, m.Timestamp)
			err = w.b.Set(w.key, m.Value, nil)
		case AddToCell:
			err = w.merge(row, m, m.Int64Input)
		case MergeToCell:
			if m.Value == nil {
				continue // merging NULL is a no-op
			}
			err = w.merge(row, m, int64(binary.BigEndian.Uint64(m.Value)))
		case DeleteFromColumn:
			w.key = appendColumnPrefix(w.key[:0], id, row, m.Family, m.Qualifier)
			err = w.deleteCells(w.key, func(fam string, q []byte, ts int64) bool { return m.TimeRange.contains(ts) })
		case DeleteFromFamily:
			w.key = appendFamilyPrefix(w.key[:0], id, row, m.Family)
			err = w.deleteCells(w.key, nil)
		case DeleteFromRow:
			w.key = appendRowPrefix(w.key[:0], id, row)
			err = w.deleteCells(w.key, nil)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// merge folds input into the aggregate cell at the mutation's coordinates.
func (w *rowWriter) merge(row []byte, m *Mutation, input int64) error {
	agg := w.t.Family(m.Family).Aggregate
	w.key = appendCellKey(w.key[:0], w.t.ID, row, m.Family, m.Qualifier, m.Timestamp)
	state := input
	v, closer, err := w.b.Get(w.key)
	switch {
	case err == pebble.ErrNotFound:
	case err != nil:
		return err
	default:
		if len(v) == 8 {
			state = agg.merge(int64(binary.BigEndian.Uint64(v)), input)
		}
		closer.Close()
	}
	return w.b.Set(w.key, binary.BigEndian.AppendUint64(nil, uint64(state)), nil)
}

// deleteCells deletes the cells under prefix that keep returns true for (nil
// keeps all), restricted to the view's columns when writing through one.
func (w *rowWriter) deleteCells(prefix []byte, keep func(fam string, q []byte, ts int64) bool) error {
	it, err := w.b.NewIter(&pebble.IterOptions{LowerBound: prefix, UpperBound: prefixSuccessor(prefix)})
	if err != nil {
		return err
	}
	var buf []byte
	for ok := it.First(); ok; ok = it.Next() {
		k := it.Key()
		if keep != nil || w.view != nil {
			var ck cellKey
			ck, buf, err = decodeCellKey(k, buf[:0])
			if err != nil {
				it.Close()
				return err
			}
			if keep != nil && !keep(string(ck.family), ck.qualifier, ck.ts) {
				continue
			}
			if w.view != nil && !w.view.containsColumn(string(ck.family), ck.qualifier) {
				continue
			}
		}
		if err := w.b.Delete(k, nil); err != nil {
			it.Close()
			return err
		}
	}
	if err := it.Error(); err != nil {
		it.Close()
		return err
	}
	return it.Close()
}
