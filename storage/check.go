package storage

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
)

// Check verifies the engine's invariants over every key: metadata decodes,
// cell keys decode and are strictly ordered, every cell belongs to a live
// table and to a family in its schema, aggregate cells hold 8-byte states,
// and split keys are sorted. Tests run it on every engine they close.
func (e *Engine) Check(ctx context.Context) error {
	if err := e.checkOpen(); err != nil {
		return err
	}
	e.mu.RLock()
	byID := make(map[uint64]*Table, len(e.mu.tables))
	for _, t := range e.mu.tables {
		if prev := byID[t.ID]; prev != nil {
			e.mu.RUnlock()
			return fmt.Errorf("storage check: tables %q and %q share id %d", prev.Name, t.Name, t.ID)
		}
		if t.ID >= e.mu.nextID {
			e.mu.RUnlock()
			return fmt.Errorf("storage check: table %q has id %d >= next id %d", t.Name, t.ID, e.mu.nextID)
		}
		byID[t.ID] = t
	}
	e.mu.RUnlock()
	var errs []error
	for _, t := range byID {
		for i := 1; i < len(t.Splits); i++ {
			if bytes.Compare(t.Splits[i-1], t.Splits[i]) >= 0 {
				errs = append(errs, fmt.Errorf("table %q: split keys out of order", t.Name))
			}
		}
	}
	it, err := e.db.NewIter(&pebble.IterOptions{LowerBound: []byte{cellPrefix}, UpperBound: []byte{cellPrefix + 1}})
	if err != nil {
		return err
	}
	defer it.Close()
	var prev, buf []byte
	for ok := it.First(); ok && len(errs) < 20; ok = it.Next() {
		k := it.Key()
		if prev != nil && bytes.Compare(prev, k) >= 0 {
			errs = append(errs, fmt.Errorf("keys out of order: %x >= %x", prev, k))
		}
		prev = append(prev[:0], k...)
		var ck cellKey
		ck, buf, err = decodeCellKey(k, buf[:0])
		if err != nil {
			errs = append(errs, fmt.Errorf("undecodable key %x: %w", k, err))
			continue
		}
		t := byID[ck.table]
		if t == nil {
			errs = append(errs, fmt.Errorf("cell of unknown table id %d: %x", ck.table, k))
			continue
		}
		if len(ck.row) == 0 {
			errs = append(errs, fmt.Errorf("table %q: cell with an empty row key", t.Name))
		}
		f := t.Family(string(ck.family))
		if f == nil {
			errs = append(errs, fmt.Errorf("table %q row %q: cell of unknown family %q", t.Name, ck.row, ck.family))
			continue
		}
		if ck.ts < 0 {
			errs = append(errs, fmt.Errorf("table %q row %q: negative timestamp %d", t.Name, ck.row, ck.ts))
		}
		if f.Aggregate != NoAggregate && len(it.Value()) != 8 {
			errs = append(errs, fmt.Errorf("table %q row %q: aggregate cell %s:%q holds %d bytes", t.Name, ck.row, f.Name, ck.qualifier, len(it.Value())))
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	if err := it.Error(); err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return fmt.Errorf("storage check: %w", errors.Join(errs...))
	}
	return nil
}
