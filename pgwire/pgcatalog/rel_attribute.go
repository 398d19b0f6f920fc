package pgcatalog

func init() {
	rowFuncs["pg_catalog.pg_attribute"] = attributeRows
}

// attributeRows lists the columns of every relation, attnum from 1. Key
// columns of Shale tables are NOT NULL; information_schema's columns are
// of its domains (infoschema_domain.go).
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
			typ, coll := c.typ, attCollation(r, i, t)
			if r.def != nil && r.nsp == nspInfoSchema {
				if d := columnDomain(r.name, c.name, c.typ); d != nil {
					typ, coll = d.oid, d.collation
				}
			}
			b.add("attrelid", r.oid, "attname", c.name, "atttypid", typ, "attstattarget", -1,
				"attlen", t.length, "attnum", i+1, "attndims", ndims, "attcacheoff", -1, "atttypmod", -1,
				"attbyval", t.byVal, "attalign", string(t.align), "attstorage", string(t.storage),
				"attnotnull", r.isNotNull(i+1), "attislocal", true, "attcollation", coll)
		}
	}
}

// cCollated are the columns of pg_catalog views that PostgreSQL collates
// "C" because they come straight from a catalog table's text column.
var cCollated = map[string]bool{
	"pg_roles.rolconfig": true, "pg_shadow.passwd": true, "pg_shadow.useconfig": true,
	"pg_user.useconfig": true, "pg_policies.qual": true, "pg_policies.with_check": true,
	"pg_available_extensions.installed_version": true, "pg_seclabels.objname": true,
	"pg_seclabels.provider": true, "pg_seclabels.label": true, "pg_user_mappings.umoptions": true,
}

// attCollation is the collation of column i of r: its type's, except that
// PostgreSQL collates the text columns of its catalog tables (and the
// views' columns taken from them, and their indexes' columns) "C", which \d
// shows.
func attCollation(r *rel, i int, t *pgType) uint32 {
	if r.collation != nil { // a catalog index's, as pg_index has it
		return uint32(r.collation[i])
	}
	col := r.cols[i].name
	if t.collation != defaultColl || r.table != nil || r.nsp != nspCatalog {
		return t.collation
	}
	if r.kind == 'r' || cCollated[r.name+"."+col] {
		return 950
	}
	return t.collation
}

// isNotNull says whether a column is NOT NULL: a key column of a Shale
// table, or a catalog table's column that PostgreSQL's genbki.pl makes NOT
// NULL (catalogNotNull). An index's columns are not, as in PostgreSQL.
func (r *rel) isNotNull(attnum int) bool {
	if r.table == nil && r.kind == 'r' && r.nsp == nspCatalog {
		return r.catalogNotNull(attnum)
	}
	return r.isKeyColumn(attnum)
}

// catalogNotNull follows genbki.pl: a catalog table's column is NOT NULL
// when it is fixed-width (or name, oidvector, int2vector) and every column
// before it is NOT NULL, unless the catalog forces it otherwise
// (catalogNullability).
func (r *rel) catalogNotNull(attnum int) bool {
	prior, notNull := true, false
	for _, c := range r.cols[:attnum] {
		if force, ok := catalogNullability[r.name+"."+c.name]; ok {
			notNull = force
		} else {
			t := typeByOID[c.typ]
			notNull = prior && t != nil && (t.length > 0 || c.typ == tName || c.typ == 30 || c.typ == 22)
		}
		prior = prior && notNull
	}
	return notNull
}

// catalogNullability are the catalog columns whose NOT NULL PostgreSQL sets
// with BKI_FORCE_NOT_NULL (true) or BKI_FORCE_NULL (false).
var catalogNullability = map[string]bool{
	"pg_attrdef.adbin": true, "pg_database.datcollate": true, "pg_database.datctype": true,
	"pg_default_acl.defaclacl": true, "pg_description.description": true,
	"pg_extension.extversion": true, "pg_init_privs.initprivs": true, "pg_largeobject.data": true,
	"pg_parameter_acl.parname": true, "pg_policy.polroles": true, "pg_proc.prosrc": true,
	"pg_rewrite.ev_action": true, "pg_rewrite.ev_qual": true, "pg_shdescription.description": true,
	"pg_shseclabel.label": true, "pg_shseclabel.provider": true, "pg_statistic_ext.stxkind": true,
	"pg_subscription.subconninfo": true, "pg_subscription.subpublications": true,
	"pg_subscription.subsynccommit": true, "pg_trigger.tgargs": true, "pg_subscription.subslotname": false,
}

func (r *rel) isKeyColumn(attnum int) bool {
	for _, k := range r.pkey {
		if k == int64(attnum) {
			return true
		}
	}
	return false
}
