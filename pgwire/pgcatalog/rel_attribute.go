package pgcatalog

func init() {
	rowFuncs["pg_catalog.pg_attribute"] = attributeRows
}

// attributeRows lists the columns of every relation, attnum from 1. Key
// columns of Shale tables are NOT NULL.
func attributeRows(s *snapshot, b *rowBuilder) {
	for _, r := range s.rels {
		for i, c := range r.cols {
			t := typeByOID[c.typ]
			if t == nil {
				t = typeByOID[tText]
			}
			ndims := 0
			if t.category == 'A' {
				ndims = 1
			}
			b.add("attrelid", r.oid, "attname", c.name, "atttypid", c.typ, "attstattarget", -1,
				"attlen", t.length, "attnum", i+1, "attndims", ndims, "attcacheoff", -1, "atttypmod", -1,
				"attbyval", t.byVal, "attalign", string(t.align), "attstorage", string(t.storage),
				"attnotnull", r.isKeyColumn(i+1), "attislocal", true, "attcollation", t.collation)
		}
	}
}

func (r *rel) isKeyColumn(attnum int) bool {
	for _, k := range r.pkey {
		if k == int64(attnum) {
			return true
		}
	}
	return r.kind == 'i'
}
