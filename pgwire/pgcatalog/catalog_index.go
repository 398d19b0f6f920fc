package pgcatalog

import "sync"

// catalogIndexDef is a catalogIndex resolved against its table's relDef
// once: the table and the attnums and columns of the index's key.
type catalogIndexDef struct {
	catalogIndex
	table            *relDef
	key              []int64
	cols             []colDef
	collation, class []int64
}

var (
	catalogIndexOnce sync.Once
	catalogIndexDefs []catalogIndexDef
)

// resolveCatalogIndexes resolves catalogIndexes once, after relation.go's
// init has built relDefs.
func resolveCatalogIndexes() {
	for _, ci := range catalogIndexes {
		d, ok := relDefs["pg_catalog."+ci.table]
		if !ok {
			panic("pgcatalog: index " + ci.name + " of unknown catalog " + ci.table)
		}
		def := catalogIndexDef{catalogIndex: ci, table: d}
		for i, c := range ci.cols {
			n, ok := d.idx[c]
			if !ok {
				panic("pgcatalog: index " + ci.name + " on unknown column " + c)
			}
			def.key = append(def.key, int64(n+1))
			col := d.cols[n]
			if col.typ == tName { // name_ops keeps its keys as cstring
				col.typ = 2275
			}
			def.cols = append(def.cols, col)
			def.collation = append(def.collation, int64(ci.collation[i]))
			def.class = append(def.class, int64(ci.class[i]))
		}
		catalogIndexDefs = append(catalogIndexDefs, def)
	}
}

// addCatalogIndexes gives each emulated catalog table the indexes
// PostgreSQL 15 has on it (catalog_index_data.go), after the catalog
// relations are added.
func (s *snapshot) addCatalogIndexes() {
	catalogIndexOnce.Do(resolveCatalogIndexes)
	for i := range catalogIndexDefs {
		d := &catalogIndexDefs[i]
		t := s.relByOID[d.table.oid]
		idx := &rel{oid: d.oid, name: d.name, nsp: nspCatalog, kind: 'i', cols: d.cols, of: t, key: d.key,
			unique: d.unique, primary: d.primary, conOID: d.conOID, conType: d.conType,
			collation: d.collation, class: d.class}
		t.indexes = append(t.indexes, idx)
		s.add(idx)
	}
}
