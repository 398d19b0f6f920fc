package pgcatalog

import (
	"fmt"
	"strconv"
)

func init() {
	rowFuncs["information_schema.tables"] = infoTablesRows
	rowFuncs["information_schema.columns"] = infoColumnsRows
	rowFuncs["information_schema.schemata"] = infoSchemataRows
	rowFuncs["information_schema.table_constraints"] = infoConstraintRows
	rowFuncs["information_schema.check_constraints"] = infoCheckRows
	rowFuncs["information_schema.key_column_usage"] = infoKeyColumnRows
	rowFuncs["information_schema.constraint_column_usage"] = infoConstraintColumnRows
	rowFuncs["information_schema.table_privileges"] = infoTablePrivilegeRows
}

func infoTablesRows(s *snapshot, b *rowBuilder) {
	for _, r := range s.rels {
		typ := ""
		switch r.kind {
		case 'r':
			typ = "BASE TABLE"
		case 'v':
			typ = "VIEW"
		default:
			continue
		}
		b.add("table_catalog", s.sess.Database, "table_schema", nspName(r.nsp), "table_name", r.name,
			"table_type", typ, "is_insertable_into", "NO", "is_typed", "NO")
	}
}

func infoColumnsRows(s *snapshot, b *rowBuilder) {
	for _, r := range s.rels {
		if r.kind != 'r' && r.kind != 'v' {
			continue
		}
		for i, c := range r.cols {
			t := typeByOID[c.typ]
			if t == nil {
				t = typeByOID[tText]
			}
			nullable := "YES"
			if r.isNotNull(i + 1) {
				nullable = "NO"
			}
			prec, radix, scale, dtPrec := numericInfo(c.typ)
			// A column collated other than by default names its
			// collation (the catalogs' "C"); one of information_schema's
			// domains is named too, as pg_attribute declares it.
			var collCatalog, collSchema, collName, domCatalog, domSchema, domName any
			if attCollation(r, i, t) == 950 {
				collCatalog, collSchema, collName = s.sess.Database, "pg_catalog", "C"
			}
			if r.def != nil && r.nsp == nspInfoSchema {
				if d := columnDomain(r.name, c.name, c.typ); d != nil {
					domCatalog, domSchema, domName = s.sess.Database, "information_schema", d.name
					if d.collation == 950 {
						collCatalog, collSchema, collName = s.sess.Database, "pg_catalog", "C"
					}
				}
			}
			b.add("table_catalog", s.sess.Database, "table_schema", nspName(r.nsp), "table_name", r.name,
				"column_name", c.name, "ordinal_position", i+1, "is_nullable", nullable,
				"data_type", infoDataType(t), "numeric_precision", prec, "numeric_precision_radix", radix,
				"numeric_scale", scale, "datetime_precision", dtPrec,
				"collation_catalog", collCatalog, "collation_schema", collSchema, "collation_name", collName,
				"domain_catalog", domCatalog, "domain_schema", domSchema, "domain_name", domName,
				"udt_catalog", s.sess.Database, "udt_schema", "pg_catalog", "udt_name", t.name,
				"dtd_identifier", strconv.Itoa(i+1), "is_self_referencing", "NO", "is_identity", "NO",
				"identity_cycle", "NO", "is_generated", "NEVER", "is_updatable", "NO")
		}
	}
}

// infoDataType is information_schema's data_type for a type: ARRAY, or
// the type's name, as for every type in pg_catalog (USER-DEFINED is for
// types in other schemas, which no column has here).
func infoDataType(t *pgType) string {
	switch {
	case t.category == 'A':
		return "ARRAY"
	case t.oid == tName:
		return "name"
	case t.oid == tChar:
		return `"char"`
	}
	return t.formatName
}

// numericInfo gives numeric_precision, _radix, _scale and
// datetime_precision (NULL where PostgreSQL has NULL).
func numericInfo(oid uint32) (prec, radix, scale, dtPrec any) {
	switch oid {
	case tInt2:
		return 16, 2, 0, nil
	case tInt4:
		return 32, 2, 0, nil
	case tInt8:
		return 64, 2, 0, nil
	case tFloat4:
		return 24, 2, nil, nil
	case tFloat8:
		return 53, 2, nil, nil
	case tNumeric:
		return nil, 10, nil, nil
	case 1082:
		return nil, nil, nil, 0
	case 1083, 1114, tTimestamptz, 1266, 1186:
		return nil, nil, nil, 6
	}
	return nil, nil, nil, nil
}

func infoSchemataRows(s *snapshot, b *rowBuilder) {
	for _, n := range namespaces {
		b.add("catalog_name", s.sess.Database, "schema_name", n.name, "schema_owner", s.sess.User)
	}
}

func infoConstraintRows(s *snapshot, b *rowBuilder) {
	for _, r := range s.rels {
		if r.table == nil || r.conOID == 0 {
			continue
		}
		add := func(name, typ string) {
			b.add("constraint_catalog", s.sess.Database, "constraint_schema", nspName(r.nsp),
				"constraint_name", name, "table_catalog", s.sess.Database, "table_schema", nspName(r.nsp),
				"table_name", r.name, "constraint_type", typ, "is_deferrable", "NO",
				"initially_deferred", "NO", "enforced", "YES", "nulls_distinct", nil)
		}
		add(r.name+"_pkey", "PRIMARY KEY")
		for _, n := range r.pkey { // a NOT NULL column is a CHECK constraint here, as in PostgreSQL
			add(notNullName(r, n), "CHECK")
		}
	}
}

// notNullName is the name information_schema gives the NOT NULL
// constraint of column attnum n of r: namespace OID, table OID, attnum.
func notNullName(r *rel, n int64) string {
	return fmt.Sprintf("%d_%d_%d_not_null", r.nsp, r.oid, n)
}

// infoCheckRows is information_schema.check_constraints: the NOT NULL
// columns' checks.
func infoCheckRows(s *snapshot, b *rowBuilder) {
	for _, r := range s.rels {
		if r.table == nil || r.conOID == 0 {
			continue
		}
		for _, n := range r.pkey {
			b.add("constraint_catalog", s.sess.Database, "constraint_schema", nspName(r.nsp),
				"constraint_name", notNullName(r, n), "check_clause", quoteIdent(r.cols[n-1].name)+" IS NOT NULL")
		}
	}
}

func infoKeyColumnRows(s *snapshot, b *rowBuilder) {
	for _, r := range s.rels {
		for i, n := range r.pkey {
			b.add("constraint_catalog", s.sess.Database, "constraint_schema", nspName(r.nsp),
				"constraint_name", r.name+"_pkey", "table_catalog", s.sess.Database,
				"table_schema", nspName(r.nsp), "table_name", r.name, "column_name", r.cols[n-1].name,
				"ordinal_position", i+1)
		}
	}
}

func infoConstraintColumnRows(s *snapshot, b *rowBuilder) {
	for _, r := range s.rels {
		for _, n := range r.pkey {
			b.add("table_catalog", s.sess.Database, "table_schema", nspName(r.nsp), "table_name", r.name,
				"column_name", r.cols[n-1].name, "constraint_catalog", s.sess.Database,
				"constraint_schema", nspName(r.nsp), "constraint_name", r.name+"_pkey")
		}
	}
}

// infoTablePrivilegeRows: the session user may SELECT every Shale table.
func infoTablePrivilegeRows(s *snapshot, b *rowBuilder) {
	for _, r := range s.rels {
		if r.table == nil {
			continue
		}
		b.add("grantor", s.sess.User, "grantee", s.sess.User, "table_catalog", s.sess.Database,
			"table_schema", nspName(r.nsp), "table_name", r.name, "privilege_type", "SELECT",
			"is_grantable", "YES", "with_hierarchy", "YES")
	}
}
