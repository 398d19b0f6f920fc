package catalog

import (
	"crypto/sha256"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/shale-db/shale/protoschema"
	"github.com/shale-db/shale/storage"
)

// Bundle is a table's schema bundle as SQL sees it: loaded, or the
// reason it does not load (reported when a query names it).
type Bundle struct {
	Name   string
	Schema *protoschema.Bundle
	Err    error
}

// Bundle returns the table's schema bundle name (spec §6.1: bundles are
// table-scoped).
func (t *Table) Bundle(name string) (*protoschema.Bundle, error) {
	for _, b := range t.Bundles {
		if b.Name == name {
			return b.Schema, b.Err
		}
	}
	return nil, fmt.Errorf("table %s has no schema bundle %s; its bundles: %s", t.Name, name, strings.Join(t.BundleNames(), ", "))
}

// BundleNames lists the table's bundle names, sorted.
func (t *Table) BundleNames() []string {
	out := make([]string, len(t.Bundles))
	for i, b := range t.Bundles {
		out[i] = b.Name
	}
	sort.Strings(out)
	return out
}

// bundleCache shares loaded bundles across table snapshots: FromStorage
// runs per query, loading a descriptor set does not.
var bundleCache struct {
	sync.Mutex
	m map[[sha256.Size]byte]*Bundle
}

func loadBundle(sb storage.SchemaBundle) Bundle {
	h := sha256.New()
	h.Write([]byte(sb.Name))
	h.Write([]byte{0})
	h.Write(sb.Descriptors)
	var key [sha256.Size]byte
	h.Sum(key[:0])
	bundleCache.Lock()
	defer bundleCache.Unlock()
	if b, ok := bundleCache.m[key]; ok {
		return *b
	}
	s, err := protoschema.Load(sb.Name, sb.Descriptors)
	b := &Bundle{Name: sb.Name, Schema: s, Err: err}
	if bundleCache.m == nil || len(bundleCache.m) > 1024 {
		bundleCache.m = map[[sha256.Size]byte]*Bundle{}
	}
	bundleCache.m[key] = b
	return *b
}
