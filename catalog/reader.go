package catalog

import (
	"context"
	"errors"
	"fmt"

	"github.com/shale-db/shale/storage"
)

// ErrTableNotFound is returned by a Reader for an unknown table.
var ErrTableNotFound = errors.New("catalog: table not found")

// Reader looks tables up by instance and name. It is the binder's only view
// of the schema.
type Reader interface {
	Table(ctx context.Context, instance, name string) (*Table, error)
}

// StorageReader reads table descriptors from a storage engine.
type StorageReader struct{ Store *storage.Engine }

var _ Reader = StorageReader{}

// Table implements Reader.
func (r StorageReader) Table(_ context.Context, instance, name string) (*Table, error) {
	st, err := r.Store.GetTable(instance, name)
	if err != nil {
		if errors.Is(err, storage.ErrNotFound) {
			return nil, fmt.Errorf("%w: %q", ErrTableNotFound, name)
		}
		return nil, err
	}
	return FromStorage(st)
}

// Static is an in-memory Reader (tests, fuzzing).
type Static map[string]*Table

// Table implements Reader; instance is ignored.
func (s Static) Table(_ context.Context, _ string, name string) (*Table, error) {
	if t, ok := s[name]; ok {
		return t, nil
	}
	return nil, fmt.Errorf("%w: %q", ErrTableNotFound, name)
}
