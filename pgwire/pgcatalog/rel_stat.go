package pgcatalog

// The cumulative statistics views of tables (pg_stat_*_tables,
// pg_statio_*_tables). Shale keeps no access statistics: every table is
// listed, as PostgreSQL lists one no session has read yet, with its
// counters zero and its times NULL; the index counters are NULL for a
// table without indexes and the TOAST ones NULL throughout, as for a table
// without a TOAST table. ORMs join them for column comments (Sequelize's
// describeTable reads pg_statio_all_tables).

func init() {
	for _, v := range []struct {
		suffix string
		keep   func(r *rel) bool
	}{
		{"all", func(r *rel) bool { return true }},
		{"sys", func(r *rel) bool { return r.table == nil }},
		{"user", func(r *rel) bool { return r.table != nil }},
	} {
		keep := v.keep
		rowFuncs["pg_catalog.pg_stat_"+v.suffix+"_tables"] = func(s *snapshot, b *rowBuilder) {
			statTables(s, keep, func(r *rel, idx any) {
				b.add("relid", r.oid, "schemaname", nspName(r.nsp), "relname", r.name,
					"seq_scan", 0, "seq_tup_read", 0, "idx_scan", idx, "idx_tup_fetch", idx,
					"n_tup_ins", 0, "n_tup_upd", 0, "n_tup_del", 0, "n_tup_hot_upd", 0,
					"n_live_tup", 0, "n_dead_tup", 0, "n_mod_since_analyze", 0, "n_ins_since_vacuum", 0,
					"vacuum_count", 0, "autovacuum_count", 0, "analyze_count", 0, "autoanalyze_count", 0)
			})
		}
		rowFuncs["pg_catalog.pg_statio_"+v.suffix+"_tables"] = func(s *snapshot, b *rowBuilder) {
			statTables(s, keep, func(r *rel, idx any) {
				b.add("relid", r.oid, "schemaname", nspName(r.nsp), "relname", r.name,
					"heap_blks_read", 0, "heap_blks_hit", 0, "idx_blks_read", idx, "idx_blks_hit", idx)
			})
		}
	}
}

// statTables calls row for each table keep accepts, with idx 0 when the
// table has indexes and NULL when it has none.
func statTables(s *snapshot, keep func(*rel) bool, row func(r *rel, idx any)) {
	for _, r := range s.rels {
		if r.kind != 'r' || !keep(r) {
			continue
		}
		var idx any = null
		if len(r.indexes) > 0 {
			idx = 0
		}
		row(r, idx)
	}
}
