package pgcatalog

import "strings"

func init() {
	rowFuncs["pg_catalog.pg_index"] = indexRows
	rowFuncs["pg_catalog.pg_constraint"] = constraintRows
}

// indexRows: the unique primary-key index of each Shale table with a key,
// and the catalog tables' indexes.
func indexRows(s *snapshot, b *rowBuilder) {
	for _, r := range s.rels {
		if r.kind != 'i' {
			continue
		}
		zeros := make([]int64, len(r.key))
		collation, class := r.collation, r.class
		if collation == nil {
			collation = zeros
		}
		if class == nil {
			class = zeros
		}
		b.add("indexrelid", r.oid, "indrelid", r.of.oid, "indnatts", len(r.key),
			"indnkeyatts", len(r.key), "indisunique", r.unique, "indisprimary", r.primary, "indimmediate", true,
			"indisvalid", true, "indisready", true, "indislive", true,
			"indkey", intArray(r.key...), "indcollation", intArray(collation...),
			"indclass", intArray(class...), "indoption", intArray(zeros...))
	}
}

// constraintRows: the constraints indexes back (primary keys, and the
// catalogs' unique constraints), and information_schema's domains'
// checks.
func constraintRows(s *snapshot, b *rowBuilder) {
	for _, r := range s.rels {
		if r.kind != 'i' || r.conOID == 0 {
			continue
		}
		b.add("oid", r.conOID, "conname", r.name, "connamespace", r.nsp, "contype", string(r.conType),
			"convalidated", true, "conrelid", r.of.oid, "conindid", r.oid,
			"confupdtype", " ", "confdeltype", " ", "confmatchtype", " ", "conislocal", true,
			"connoinherit", true, "conkey", intArray(r.key...))
	}
	domainConstraintRows(b)
}

// keyColumns renders an index's key columns for index and constraint
// definitions.
func (idx *rel) keyColumns() string {
	names := make([]string, len(idx.key))
	for i, n := range idx.key {
		names[i] = quoteIdent(idx.of.cols[n-1].name)
	}
	return strings.Join(names, ", ")
}

// indexDef renders pg_get_indexdef(index, col): the whole CREATE INDEX
// statement for col 0, else the col-th key column.
func (s *snapshot) indexDef(idx *rel, col int64, pretty bool) string {
	t := idx.of
	if col > 0 {
		if col > int64(len(idx.key)) {
			return ""
		}
		return quoteIdent(t.cols[idx.key[col-1]-1].name)
	}
	// Pretty output names the table without its schema when the search
	// path finds it, as PostgreSQL's PRETTYFLAG_SCHEMA does.
	table := quoteIdent(nspName(t.nsp)) + "." + quoteIdent(t.name)
	if pretty && s.visible(t) {
		table = quoteIdent(t.name)
	}
	create := "CREATE INDEX "
	if idx.unique {
		create = "CREATE UNIQUE INDEX "
	}
	return create + quoteIdent(idx.name) + " ON " + table + " USING btree (" + idx.keyColumns() + ")"
}

// constraintDef renders pg_get_constraintdef.
func (s *snapshot) constraintDef(oid uint32, pretty bool) (string, bool) {
	if d, ok := domainConstraintDef(oid, pretty); ok {
		return d, true
	}
	for _, r := range s.rels {
		if r.kind == 'i' && r.conOID == oid && oid != 0 {
			if r.conType == 'u' {
				return "UNIQUE (" + r.keyColumns() + ")", true
			}
			return "PRIMARY KEY (" + r.keyColumns() + ")", true
		}
	}
	return "", false
}
