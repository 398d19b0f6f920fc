package storage

import (
	"context"
	"fmt"
	"slices"

	"github.com/cockroachdb/pebble/v2"
)

// FamilyOp says what a FamilyModification does.
type FamilyOp uint8

const (
	// CreateFamily adds a family; ErrAlreadyExists if it exists.
	CreateFamily FamilyOp = iota + 1
	// UpdateFamily replaces a family's GC policy; the aggregate is immutable.
	UpdateFamily
	// DropFamily removes a family and all its cells.
	DropFamily
)

// FamilyModification is one step of ModifyFamilies.
type FamilyModification struct {
	Op     FamilyOp
	Family Family
	// CheckAggregate makes an UpdateFamily verify that Family.Aggregate
	// equals the family's (the value type is immutable).
	CheckAggregate bool
}

// ModifyFamilies applies modifications atomically and in order, and returns
// the new table. Dropping families deletes their cells before the new schema
// is published, with writers to the table held off meanwhile.
func (e *Engine) ModifyFamilies(ctx context.Context, instance, name string, mods []FamilyModification) (*Table, error) {
	e.adminMu.Lock()
	defer e.adminMu.Unlock()
	old, st, err := e.lookup(instance, name)
	if err != nil {
		return nil, err
	}
	t := old.clone()
	var dropped []string
	for _, m := range mods {
		f := m.Family
		cur := t.Family(f.Name)
		switch m.Op {
		case CreateFamily:
			if cur != nil {
				return nil, fmt.Errorf("%w: column family %q", ErrAlreadyExists, f.Name)
			}
			if err := validateFamily(&f); err != nil {
				return nil, err
			}
			if len(t.Families) >= MaxFamilies {
				return nil, fmt.Errorf("%w: table %q already has %d column families", ErrInvalidArgument, name, len(t.Families))
			}
			t.Families = append(t.Families, f)
			sortFamilies(t.Families)
		case UpdateFamily:
			if cur == nil {
				return nil, fmt.Errorf("%w: column family %q", ErrNotFound, f.Name)
			}
			if m.CheckAggregate && f.Aggregate != cur.Aggregate {
				return nil, fmt.Errorf("%w: immutable fields 'value_type.aggregate_type.*' of family %q cannot be updated", ErrInvalidArgument, f.Name)
			}
			if err := f.GC.validate(0); err != nil {
				return nil, err
			}
			cur.GC = f.GC
			cur.ValueType = f.ValueType
		case DropFamily:
			if cur == nil {
				return nil, fmt.Errorf("%w: column family %q", ErrNotFound, f.Name)
			}
			if t.DeletionProtection {
				return nil, fmt.Errorf("%w: cannot drop column family %q of deletion-protected table %q", ErrFailedPrecondition, f.Name, name)
			}
			t.Families = slices.DeleteFunc(t.Families, func(x Family) bool { return x.Name == f.Name })
			dropped = append(dropped, f.Name)
		default:
			return nil, fmt.Errorf("%w: unknown family modification %d", ErrInvalidArgument, m.Op)
		}
	}
	if len(dropped) > 0 {
		st.dataMu.Lock()
		defer st.dataMu.Unlock()
		if err := e.deleteFamilyCells(t.ID, dropped); err != nil {
			return nil, err
		}
	}
	if err := e.storeTableLocked(t); err != nil {
		return nil, err
	}
	// A changed GC policy applies retroactively: the next sweep must visit
	// the table even if no data changed.
	st.dirty.Store(true)
	return t, nil
}

// deleteFamilyCells deletes every cell of the given families in a table.
// Requires the table's dataMu held exclusively.
func (e *Engine) deleteFamilyCells(id uint64, families []string) error {
	tp := tablePrefix(id)
	it, err := e.db.NewIter(&pebble.IterOptions{LowerBound: tp, UpperBound: prefixSuccessor(tp)})
	if err != nil {
		return err
	}
	defer it.Close()
	b := e.db.NewBatch()
	defer func() { b.Close() }()
	var buf []byte
	for ok := it.First(); ok; ok = it.Next() {
		var ck cellKey
		ck, buf, err = decodeCellKey(it.Key(), buf[:0])
		if err != nil {
			return err
		}
		if !slices.Contains(families, string(ck.family)) {
			continue
		}
		if err := b.Delete(it.Key(), nil); err != nil {
			return err
		}
		if b.Len() > 4<<20 {
			if err := e.commit(b, pebble.NoSync); err != nil {
				return err
			}
			b.Close()
			b = e.db.NewBatch()
		}
	}
	if err := it.Error(); err != nil {
		return err
	}
	return e.commit(b, pebble.Sync)
}

// DropRowRange deletes every row that starts with prefix, or every row of
// the table when all is set. Deletion is immediate for reads.
func (e *Engine) DropRowRange(ctx context.Context, instance, name string, prefix []byte, all bool) error {
	t, _, err := e.lookup(instance, name)
	if err != nil {
		return err
	}
	var lo, hi []byte
	switch {
	case all:
		lo = tablePrefix(t.ID)
		hi = prefixSuccessor(lo)
	case len(prefix) > 0:
		lo = appendEscapedOpen(tablePrefix(t.ID), prefix)
		hi = prefixSuccessor(lo)
	default:
		return fmt.Errorf("%w: DropRowRange needs a non-empty row key prefix or delete_all_data_from_table", ErrInvalidArgument)
	}
	return e.write(func() error { return e.db.DeleteRange(lo, hi, pebble.Sync) })
}
