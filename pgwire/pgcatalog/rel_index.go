package pgcatalog

import "strings"

func init() {
	rowFuncs["pg_catalog.pg_index"] = indexRows
	rowFuncs["pg_catalog.pg_constraint"] = constraintRows
}

// indexRows: one unique primary-key index per Shale table with a key.
func indexRows(s *snapshot, b *rowBuilder) {
	for _, r := range s.rels {
		if r.indexOID == 0 {
			continue
		}
		zeros := make([]int64, len(r.pkey))
		b.add("indexrelid", r.indexOID, "indrelid", r.oid, "indnatts", len(r.pkey),
			"indnkeyatts", len(r.pkey), "indisunique", true, "indisprimary", true, "indimmediate", true,
			"indisvalid", true, "indisready", true, "indislive", true,
			"indkey", intArray(r.pkey...), "indcollation", intArray(zeros...),
			"indclass", intArray(zeros...), "indoption", intArray(zeros...))
	}
}

func constraintRows(s *snapshot, b *rowBuilder) {
	for _, r := range s.rels {
		if r.conOID == 0 {
			continue
		}
		b.add("oid", r.conOID, "conname", r.name+"_pkey", "connamespace", r.nsp, "contype", "p",
			"convalidated", true, "conrelid", r.oid, "conindid", r.indexOID,
			"confupdtype", " ", "confdeltype", " ", "confmatchtype", " ", "conislocal", true,
			"connoinherit", true, "conkey", intArray(r.pkey...))
	}
}

// keyColumns renders a table's key columns for index and constraint
// definitions.
func (r *rel) keyColumns() string {
	names := make([]string, len(r.pkey))
	for i, n := range r.pkey {
		names[i] = quoteIdent(r.cols[n-1].name)
	}
	return strings.Join(names, ", ")
}

// indexDef renders pg_get_indexdef(index, col): the whole CREATE INDEX
// statement for col 0, else the col-th key column.
func (s *snapshot) indexDef(idx *rel, col int64, pretty bool) string {
	t := idx.of
	if col > 0 {
		if col > int64(len(t.pkey)) {
			return ""
		}
		return quoteIdent(t.cols[t.pkey[col-1]-1].name)
	}
	// Pretty output names the table without its schema when the search
	// path finds it, as PostgreSQL's PRETTYFLAG_SCHEMA does.
	table := quoteIdent(nspName(t.nsp)) + "." + quoteIdent(t.name)
	if pretty && s.visible(t) {
		table = quoteIdent(t.name)
	}
	return "CREATE UNIQUE INDEX " + quoteIdent(idx.name) + " ON " + table + " USING btree (" + t.keyColumns() + ")"
}

// constraintDef renders pg_get_constraintdef.
func (s *snapshot) constraintDef(oid uint32) (string, bool) {
	for _, r := range s.rels {
		if r.conOID == oid && oid != 0 {
			return "PRIMARY KEY (" + r.keyColumns() + ")", true
		}
	}
	return "", false
}
