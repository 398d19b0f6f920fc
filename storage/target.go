package storage

import "fmt"

// Target names what a data call reads or writes: a table, or an authorized
// view of it when View is set.
type Target struct {
	Instance string
	Table    string
	View     string
}

// resolved is a target looked up in the catalog.
type resolved struct {
	t    *Table
	st   *tableState
	view *AuthorizedView // nil for the whole table
}

// resolve looks up a target.
func (e *Engine) resolve(tgt Target) (resolved, error) {
	if err := e.checkOpen(); err != nil {
		return resolved{}, err
	}
	t, st, err := e.lookup(tgt.Instance, tgt.Table)
	if err != nil {
		return resolved{}, err
	}
	r := resolved{t: t, st: st}
	if tgt.View != "" {
		if r.view = t.View(tgt.View); r.view == nil {
			return resolved{}, fmt.Errorf("%w: authorized view %q of table %q", ErrNotFound, tgt.View, tgt.Table)
		}
	}
	return r, nil
}

// lockData takes the table's data lock for a write and returns the table
// descriptor current under that lock: a family dropped while the caller
// waited is then no longer in the schema, so no write can land in it.
// The caller must call r.st.dataMu.RUnlock.
func (e *Engine) lockData(tgt Target) (resolved, error) {
	r, err := e.resolve(tgt)
	if err != nil {
		return r, err
	}
	r.st.dataMu.RLock()
	fresh, err := e.resolve(tgt)
	if err != nil || fresh.t.ID != r.t.ID {
		r.st.dataMu.RUnlock()
		if err == nil {
			err = fmt.Errorf("%w: table %q not found", ErrNotFound, tgt.Table)
		}
		return resolved{}, err
	}
	return fresh, nil
}
