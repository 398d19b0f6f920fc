package pgcatalog

import (
	"sort"
	"sync"
)

var (
	catalogRelsOnce sync.Once
	catalogRels     []*rel // by OID
)

// sharedCatalogRels are the emulated catalog relations, and the indexes
// PostgreSQL 15 has on its catalog tables (catalog_index_data.go), built
// once after relation.go's init has built relDefs. Every snapshot lists
// the same rels: nothing changes them once built.
func sharedCatalogRels() []*rel {
	catalogRelsOnce.Do(func() {
		byOID := map[uint32]*rel{}
		for _, d := range relDefs {
			r := &rel{oid: d.oid, name: d.name, nsp: d.nsp, kind: d.kind, cols: d.cols, def: d}
			catalogRels = append(catalogRels, r)
			byOID[d.oid] = r
		}
		for _, ci := range catalogIndexes {
			catalogRels = append(catalogRels, catalogIndexRel(ci, byOID))
		}
		sort.Slice(catalogRels, func(i, j int) bool { return catalogRels[i].oid < catalogRels[j].oid })
	})
	return catalogRels
}

// catalogIndexRel makes the rel of a catalog table's index, and lists it
// with its table's indexes.
func catalogIndexRel(ci catalogIndex, byOID map[uint32]*rel) *rel {
	d, ok := relDefs["pg_catalog."+ci.table]
	if !ok {
		panic("pgcatalog: index " + ci.name + " of unknown catalog " + ci.table)
	}
	t := byOID[d.oid]
	idx := &rel{oid: ci.oid, name: ci.name, nsp: nspCatalog, kind: 'i', of: t, unique: ci.unique,
		primary: ci.primary, conOID: ci.conOID, conType: ci.conType}
	for i, c := range ci.cols {
		n, ok := d.idx[c]
		if !ok {
			panic("pgcatalog: index " + ci.name + " on unknown column " + c)
		}
		col := d.cols[n]
		if col.typ == tName { // name_ops keeps its keys as cstring
			col.typ = 2275
		}
		idx.key = append(idx.key, int64(n+1))
		idx.cols = append(idx.cols, col)
		idx.collation = append(idx.collation, int64(ci.collation[i]))
		idx.class = append(idx.class, int64(ci.class[i]))
	}
	t.indexes = append(t.indexes, idx)
	return idx
}
