package storage

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"

	"github.com/cockroachdb/pebble/v2"
)

// Metadata keys (all under metaPrefix):
//
//	0x00 'n'                                 next table id (8B BE)
//	0x00 'i' <instance>                      Instance as JSON
//	0x00 't' <instance> 0x00 <table>         Table as JSON
const (
	metaNextID   = 'n'
	metaInstance = 'i'
	metaTable    = 't'
)

var (
	tableIDPattern  = regexp.MustCompile(`^[_a-zA-Z0-9][-_.a-zA-Z0-9]*$`)
	familyIDPattern = regexp.MustCompile(`^[-_.a-zA-Z0-9]+$`)
)

func instanceKey(name string) []byte {
	return append([]byte{metaPrefix, metaInstance}, name...)
}

func tableKey(instance, table string) []byte {
	k := append([]byte{metaPrefix, metaTable}, instance...)
	k = append(k, 0)
	return append(k, table...)
}

// loadCatalog reads every instance and table descriptor into memory.
func (e *Engine) loadCatalog() error {
	e.mu.instances = map[string]*Instance{}
	e.mu.tables = map[tableName]*Table{}
	e.mu.states = map[uint64]*tableState{}
	e.mu.nextID = 1
	it, err := e.db.NewIter(&pebble.IterOptions{LowerBound: []byte{metaPrefix}, UpperBound: []byte{cellPrefix}})
	if err != nil {
		return err
	}
	defer it.Close()
	for ok := it.First(); ok; ok = it.Next() {
		k, v := it.Key(), it.Value()
		if len(k) < 2 {
			return fmt.Errorf("storage: corrupt metadata key %q", k)
		}
		switch k[1] {
		case metaNextID:
			e.mu.nextID = binary.BigEndian.Uint64(v)
		case metaInstance:
			var in Instance
			if err := json.Unmarshal(v, &in); err != nil {
				return fmt.Errorf("storage: instance %q: %w", k[2:], err)
			}
			e.mu.instances[in.Name] = &in
		case metaTable:
			t := new(Table)
			if err := json.Unmarshal(v, t); err != nil {
				return fmt.Errorf("storage: table %q: %w", k[2:], err)
			}
			e.mu.tables[tableName{t.Instance, t.Name}] = t
			st := &tableState{}
			// Whether the last run swept what it wrote is unknown: the
			// first sweep after opening visits every table.
			st.dirty.Store(true)
			e.mu.states[t.ID] = st
		default:
			return fmt.Errorf("storage: unknown metadata key %q", k)
		}
	}
	return it.Error()
}

// EnsureInstance returns the named instance, creating it if needed (any
// project and instance are accepted and created on first use).
func (e *Engine) EnsureInstance(ctx context.Context, name string) (*Instance, error) {
	if in, err := e.GetInstance(name); err == nil {
		return in, nil
	}
	e.adminMu.Lock()
	defer e.adminMu.Unlock()
	return e.ensureInstanceLocked(name, "")
}

// CreateInstance creates an instance; it fails with ErrAlreadyExists if it
// exists.
func (e *Engine) CreateInstance(ctx context.Context, name, displayName string) (*Instance, error) {
	e.adminMu.Lock()
	defer e.adminMu.Unlock()
	if _, err := e.GetInstance(name); err == nil {
		return nil, fmt.Errorf("%w: instance %q", ErrAlreadyExists, name)
	}
	return e.ensureInstanceLocked(name, displayName)
}

// ensureInstanceLocked requires adminMu.
func (e *Engine) ensureInstanceLocked(name, displayName string) (*Instance, error) {
	if err := e.checkOpen(); err != nil {
		return nil, err
	}
	e.mu.RLock()
	in := e.mu.instances[name]
	e.mu.RUnlock()
	if in != nil {
		return in, nil
	}
	if name == "" {
		return nil, fmt.Errorf("%w: empty instance name", ErrInvalidArgument)
	}
	in = &Instance{Name: name, DisplayName: displayName, CreateTime: e.opts.Clock().UTC()}
	v, _ := json.Marshal(in)
	if err := e.write(func() error { return e.db.Set(instanceKey(name), v, pebble.Sync) }); err != nil {
		return nil, err
	}
	e.mu.Lock()
	e.mu.instances[name] = in
	e.mu.Unlock()
	return in, nil
}

// GetInstance returns the named instance or ErrNotFound.
func (e *Engine) GetInstance(name string) (*Instance, error) {
	e.mu.RLock()
	defer e.mu.RUnlock()
	if in := e.mu.instances[name]; in != nil {
		return in, nil
	}
	return nil, fmt.Errorf("%w: instance %q", ErrNotFound, name)
}

// ListInstances returns every instance, sorted by name.
func (e *Engine) ListInstances() []*Instance {
	e.mu.RLock()
	defer e.mu.RUnlock()
	out := make([]*Instance, 0, len(e.mu.instances))
	for _, in := range e.mu.instances {
		out = append(out, in)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// DeleteInstance deletes an instance and all its tables. It fails with
// ErrFailedPrecondition when a table is deletion protected.
func (e *Engine) DeleteInstance(ctx context.Context, name string) error {
	if _, err := e.GetInstance(name); err != nil {
		return err
	}
	for _, t := range e.ListTables(name) {
		if err := checkDeletable(t); err != nil {
			return err
		}
	}
	for _, t := range e.ListTables(name) {
		if err := e.DeleteTable(ctx, name, t.Name); err != nil {
			return err
		}
	}
	e.adminMu.Lock()
	defer e.adminMu.Unlock()
	if err := e.write(func() error { return e.db.Delete(instanceKey(name), pebble.Sync) }); err != nil {
		return err
	}
	e.mu.Lock()
	delete(e.mu.instances, name)
	e.mu.Unlock()
	return nil
}

// CreateTable creates a table in an instance (the instance is created on
// first use).
func (e *Engine) CreateTable(ctx context.Context, instance, name string, spec TableSpec) (*Table, error) {
	if err := validateTableID(name); err != nil {
		return nil, err
	}
	fams := append([]Family(nil), spec.Families...)
	sortFamilies(fams)
	if len(fams) > MaxFamilies {
		return nil, fmt.Errorf("%w: %d column families, the limit is %d", ErrInvalidArgument, len(fams), MaxFamilies)
	}
	for i := range fams {
		if err := validateFamily(&fams[i]); err != nil {
			return nil, err
		}
		if i > 0 && fams[i].Name == fams[i-1].Name {
			return nil, fmt.Errorf("%w: duplicate column family %q", ErrInvalidArgument, fams[i].Name)
		}
	}
	splits, err := normalizeSplits(spec.InitialSplits)
	if err != nil {
		return nil, err
	}
	gran := spec.Granularity
	if gran == 0 {
		gran = Millis
	}
	e.adminMu.Lock()
	defer e.adminMu.Unlock()
	if _, err := e.ensureInstanceLocked(instance, ""); err != nil {
		return nil, err
	}
	e.mu.RLock()
	_, exists := e.mu.tables[tableName{instance, name}]
	count := 0
	for n := range e.mu.tables {
		if n.instance == instance {
			count++
		}
	}
	id := e.mu.nextID
	e.mu.RUnlock()
	if exists {
		return nil, fmt.Errorf("%w: table %q", ErrAlreadyExists, name)
	}
	if count >= MaxTablesPerInstance {
		return nil, fmt.Errorf("%w: instance %q already has %d tables", ErrResourceExhausted, instance, count)
	}
	t := &Table{
		ID:                 id,
		Instance:           instance,
		Name:               name,
		Families:           fams,
		Granularity:        gran,
		DeletionProtection: spec.DeletionProtection,
		Splits:             splits,
		RowKeySchema:       spec.RowKeySchema,
		CreateTime:         e.opts.Clock().UTC(),
	}
	b := e.db.NewBatch()
	defer b.Close()
	_ = b.Set([]byte{metaPrefix, metaNextID}, binary.BigEndian.AppendUint64(nil, id+1), nil)
	if err := putTable(b, t); err != nil {
		return nil, err
	}
	// A stale range of a table with this id cannot exist (ids are never
	// reused), but clear it anyway so a corrupted counter cannot resurrect
	// data.
	tp := tablePrefix(id)
	_ = b.DeleteRange(tp, prefixSuccessor(tp), nil)
	if err := e.commit(b, pebble.Sync); err != nil {
		return nil, err
	}
	e.mu.Lock()
	e.mu.nextID = id + 1
	e.mu.tables[tableName{instance, name}] = t
	e.catalogEpoch.Add(1)
	e.mu.states[id] = &tableState{}
	e.mu.Unlock()
	return t, nil
}

func putTable(b *pebble.Batch, t *Table) error {
	v, err := json.Marshal(t)
	if err != nil {
		return err
	}
	return b.Set(tableKey(t.Instance, t.Name), v, nil)
}

// GetTable returns the current snapshot of a table or ErrNotFound.
func (e *Engine) GetTable(instance, name string) (*Table, error) {
	t, _, err := e.lookup(instance, name)
	return t, err
}

// lookup returns a table and its runtime state; on a closed engine it fails
// with ErrClosed, so that no catalog call reaches the closed database.
func (e *Engine) lookup(instance, name string) (*Table, *tableState, error) {
	if err := e.checkOpen(); err != nil {
		return nil, nil, err
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	t := e.mu.tables[tableName{instance, name}]
	if t == nil {
		return nil, nil, fmt.Errorf("%w: table %q not found", ErrNotFound, name)
	}
	return t, e.mu.states[t.ID], nil
}

// ListTables returns the tables of an instance, sorted by name.
func (e *Engine) ListTables(instance string) []*Table {
	e.mu.RLock()
	defer e.mu.RUnlock()
	var out []*Table
	for n, t := range e.mu.tables {
		if n.instance == instance {
			out = append(out, t)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func checkDeletable(t *Table) error {
	if t.DeletionProtection {
		return fmt.Errorf("%w: table %q is deletion protected", ErrFailedPrecondition, t.Name)
	}
	for _, v := range t.Views {
		if v.DeletionProtection {
			return fmt.Errorf("%w: table %q has the deletion-protected authorized view %q", ErrFailedPrecondition, t.Name, v.Name)
		}
	}
	return nil
}

// DeleteTable deletes a table and all its data.
func (e *Engine) DeleteTable(ctx context.Context, instance, name string) error {
	e.adminMu.Lock()
	defer e.adminMu.Unlock()
	t, st, err := e.lookup(instance, name)
	if err != nil {
		return err
	}
	if err := checkDeletable(t); err != nil {
		return err
	}
	// Hold writers off (S3): a write that resolved the table before the
	// delete must not commit cells after the range deletion, where nothing
	// would ever remove them. Writers that wait find the table gone.
	st.dataMu.Lock()
	defer st.dataMu.Unlock()
	b := e.db.NewBatch()
	defer b.Close()
	_ = b.Delete(tableKey(instance, name), nil)
	tp := tablePrefix(t.ID)
	_ = b.DeleteRange(tp, prefixSuccessor(tp), nil)
	if err := e.commit(b, pebble.Sync); err != nil {
		return err
	}
	e.mu.Lock()
	delete(e.mu.tables, tableName{instance, name})
	e.catalogEpoch.Add(1)
	delete(e.mu.states, t.ID)
	e.mu.Unlock()
	return nil
}

// AlterTable applies fn to a copy of the table's descriptor and stores the
// result: the way callers change deletion protection, the row-key schema,
// authorized views and schema bundles. fn must not change the table's id,
// name or families (ModifyFamilies does that); an error from fn aborts the
// change and is returned as is.
func (e *Engine) AlterTable(ctx context.Context, instance, name string, fn func(t *Table) error) (*Table, error) {
	e.adminMu.Lock()
	defer e.adminMu.Unlock()
	old, _, err := e.lookup(instance, name)
	if err != nil {
		return nil, err
	}
	t := old.clone()
	if err := fn(t); err != nil {
		return nil, err
	}
	if t.ID != old.ID || t.Name != old.Name || t.Instance != old.Instance || !sameFamilies(t.Families, old.Families) {
		return nil, fmt.Errorf("%w: AlterTable may not change the id, name or families", ErrInvalidArgument)
	}
	sort.Slice(t.Views, func(i, j int) bool { return t.Views[i].Name < t.Views[j].Name })
	sort.Slice(t.Bundles, func(i, j int) bool { return t.Bundles[i].Name < t.Bundles[j].Name })
	if err := e.storeTableLocked(t); err != nil {
		return nil, err
	}
	return t, nil
}

// storeTableLocked persists a new descriptor and publishes it. Requires
// adminMu.
func (e *Engine) storeTableLocked(t *Table) error {
	b := e.db.NewBatch()
	defer b.Close()
	if err := putTable(b, t); err != nil {
		return err
	}
	if err := e.commit(b, pebble.Sync); err != nil {
		return err
	}
	e.mu.Lock()
	e.mu.tables[tableName{t.Instance, t.Name}] = t
	e.catalogEpoch.Add(1)
	e.mu.Unlock()
	return nil
}

func sameFamilies(a, b []Family) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Aggregate != b[i].Aggregate || a[i].GC.String() != b[i].GC.String() {
			return false
		}
	}
	return true
}

func validateTableID(name string) error {
	if len(name) == 0 || len(name) > MaxTableIDLen || !tableIDPattern.MatchString(name) {
		return fmt.Errorf("%w: invalid table id %q: it must match [_a-zA-Z0-9][-_.a-zA-Z0-9]* and be at most %d characters", ErrInvalidArgument, name, MaxTableIDLen)
	}
	return nil
}

func validateFamily(f *Family) error {
	if len(f.Name) == 0 || len(f.Name) > MaxFamilyNameLen || !familyIDPattern.MatchString(f.Name) {
		return fmt.Errorf("%w: invalid column family name %q: it must match [-_.a-zA-Z0-9]+ and be at most %d characters", ErrInvalidArgument, f.Name, MaxFamilyNameLen)
	}
	if f.Aggregate > Max {
		return fmt.Errorf("%w: unknown aggregate %d for family %q", ErrInvalidArgument, f.Aggregate, f.Name)
	}
	return f.GC.validate(0)
}

// normalizeSplits sorts and de-duplicates split keys; empty keys are invalid.
func normalizeSplits(in [][]byte) ([][]byte, error) {
	out := make([][]byte, 0, len(in))
	for _, s := range in {
		if len(s) == 0 {
			return nil, fmt.Errorf("%w: split keys must be non-empty", ErrInvalidArgument)
		}
		if len(s) > MaxRowKeySize {
			return nil, fmt.Errorf("%w: split key is %d bytes, the limit is %d", ErrInvalidArgument, len(s), MaxRowKeySize)
		}
		out = append(out, append([]byte(nil), s...))
	}
	sort.Slice(out, func(i, j int) bool { return bytes.Compare(out[i], out[j]) < 0 })
	dedup := out[:0]
	for i, s := range out {
		if i == 0 || !bytes.Equal(s, out[i-1]) {
			dedup = append(dedup, s)
		}
	}
	return dedup, nil
}

// CatalogEpoch returns a number that changes whenever a table is created,
// dropped or altered in any instance: what was derived from the catalog
// (a cached query plan) is current while the epoch is unchanged.
func (e *Engine) CatalogEpoch() uint64 { return e.catalogEpoch.Load() }
