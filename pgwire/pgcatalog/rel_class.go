package pgcatalog

func init() {
	rowFuncs["pg_catalog.pg_namespace"] = namespaceRows
	rowFuncs["pg_catalog.pg_init_privs"] = initPrivsRows
	rowFuncs["pg_catalog.pg_description"] = descriptionRows
	rowFuncs["pg_catalog.pg_class"] = classRows
	rowFuncs["pg_catalog.pg_tables"] = tablesViewRows
	rowFuncs["pg_catalog.pg_indexes"] = indexesViewRows
}

func namespaceRows(s *snapshot, b *rowBuilder) {
	for _, n := range namespaces {
		owner, acl := namespaceOwner(n.oid, s.sess.User)
		var nspacl Value = null
		if acl != nil {
			nspacl = arrayV(acl)
		}
		b.add("oid", n.oid, "nspname", n.name, "nspowner", owner, "nspacl", nspacl)
	}
}

// initPrivsRows: the schemas' and pg_catalog's relations' ACLs are as
// initdb left them (information_schema, made later, has none), so that
// pg_dump finds no GRANT to dump for them.
func initPrivsRows(s *snapshot, b *rowBuilder) {
	for _, n := range namespaces {
		if n.oid == nspInfoSchema || n.oid == nspToast {
			continue
		}
		_, acl := namespaceOwner(n.oid, s.sess.User)
		b.add("objoid", n.oid, "classoid", uint32(2615), "objsubid", 0, "privtype", "i", "initprivs", arrayV(acl))
	}
	for _, r := range s.rels {
		if r.def != nil && r.nsp == nspCatalog {
			b.add("objoid", r.oid, "classoid", uint32(1259), "objsubid", 0, "privtype", "i",
				"initprivs", catalogRelACL(r, s.sess.User))
		}
	}
}

// descriptionRows: Shale keeps no comments of its own; the schemas, built-in
// functions and types have PostgreSQL's.
func descriptionRows(s *snapshot, b *rowBuilder) {
	for _, n := range namespaces {
		if d, ok := namespaceDescriptions[n.oid]; ok {
			b.add("objoid", n.oid, "classoid", uint32(2615), "objsubid", 0, "description", d)
		}
	}
	for _, p := range procs() {
		if p.description != "" {
			b.add("objoid", p.oid, "classoid", uint32(1255), "objsubid", 0, "description", p.description)
		}
	}
	for _, t := range builtinTypes {
		if d, ok := typeDescriptions[t.oid]; ok {
			b.add("objoid", t.oid, "classoid", uint32(1247), "objsubid", 0, "description", d)
		}
	}
	for _, o := range pgOperators {
		if o.description != "" {
			b.add("objoid", o.oid, "classoid", uint32(2617), "objsubid", 0, "description", o.description)
		}
	}
	for _, oid := range []uint32{heapAM, btreeAM} {
		b.add("objoid", oid, "classoid", uint32(2601), "objsubid", 0, "description", amDescriptions[oid])
	}
	for _, l := range languages {
		b.add("objoid", l.oid, "classoid", uint32(2612), "objsubid", 0, "description", l.description)
	}
}

// classRows lists Shale tables, their primary-key indexes and the emulated
// catalog relations themselves (so that 'pg_class'::regclass and \d
// pg_class work).
func classRows(s *snapshot, b *rowBuilder) {
	for _, r := range s.rels {
		am := uint32(heapAM)
		switch r.kind {
		case 'i':
			am = btreeAM
		case 'v':
			am = 0
		}
		var rowType uint32
		if r.table != nil {
			rowType = r.oid + rowTypeOffset
		}
		b.add("oid", r.oid, "relname", r.name, "relnamespace", r.nsp, "reltype", rowType, "relowner", uint32(roleOID),
			"relam", am, "relfilenode", r.oid, "relpages", relPages(r), "reltuples", float64(-1), "relhasindex", len(r.indexes) > 0,
			"relpersistence", "p", "relkind", string(r.kind), "relnatts", len(r.cols),
			"relispopulated", true, "relreplident", replident(r), "relacl", catalogRelACL(r, s.sess.User))
	}
}

// catalogRelACL is an emulated catalog relation's ACL as initdb grants it:
// its owner's default privileges, and SELECT for PUBLIC except on the
// relations that hold secrets (pg_settings alone lets PUBLIC UPDATE, for
// SET). Shale's own tables and indexes have none (NULL, their owner's
// default).
func catalogRelACL(r *rel, owner string) Value {
	if r.def == nil {
		return null
	}
	items := []Value{textV(owner + "=arwdDxt/" + owner)}
	switch nspName(r.nsp) + "." + r.name {
	case "pg_catalog.pg_authid", "pg_catalog.pg_largeobject", "pg_catalog.pg_subscription":
	case "pg_catalog.pg_settings":
		items = append(items, textV("=rw/"+owner))
	default:
		items = append(items, textV("=r/"+owner))
	}
	return arrayV(items)
}

// relPages is a table's size in PostgreSQL's 8 kB pages.
func relPages(r *rel) int64 {
	if r.table == nil {
		return 0
	}
	return (r.table.Size + 8191) / 8192
}

// replident is a relation's replica identity: the default (its primary
// key) for a Shale table, nothing for the rest, catalog tables included
// (\d+ of one says so only when it is not).
func replident(r *rel) string {
	if r.kind == 'r' && r.table != nil {
		return "d"
	}
	return "n"
}

func tablesViewRows(s *snapshot, b *rowBuilder) {
	for _, r := range s.rels {
		if r.kind != 'r' {
			continue
		}
		b.add("schemaname", nspName(r.nsp), "tablename", r.name, "tableowner", s.sess.User,
			"hasindexes", len(r.indexes) > 0, "hasrules", false, "hastriggers", false, "rowsecurity", false)
	}
}

func indexesViewRows(s *snapshot, b *rowBuilder) {
	for _, r := range s.rels {
		if r.kind != 'i' {
			continue
		}
		b.add("schemaname", nspName(r.nsp), "tablename", r.of.name, "indexname", r.name,
			"indexdef", s.indexDef(r, 0, false))
	}
}
