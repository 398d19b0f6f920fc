package pgcatalog

import "time"

func init() {
	rowFuncs["pg_catalog.pg_database"] = databaseRows
	rowFuncs["pg_catalog.pg_roles"] = rolesRows
	rowFuncs["pg_catalog.pg_authid"] = authidRows
	rowFuncs["pg_catalog.pg_user"] = userRows
	rowFuncs["pg_catalog.pg_settings"] = settingsRows
	rowFuncs["pg_catalog.pg_tablespace"] = tablespaceRows
	rowFuncs["pg_catalog.pg_stat_activity"] = activityRows
}

// databaseOID numbers databases (Shale instances) in name order.
func (s *snapshot) databaseOID(name string) uint32 {
	for i, d := range s.dbs {
		if d == name {
			return uint32(dbOIDBase + i)
		}
	}
	return 0
}

func databaseRows(s *snapshot, b *rowBuilder) {
	for _, d := range s.dbs {
		b.add("oid", s.databaseOID(d), "datname", d, "datdba", uint32(roleOID), "encoding", 6,
			"datlocprovider", "c", "datallowconn", true, "datconnlimit", -1, "dattablespace", uint32(1663),
			"datcollate", "C.UTF-8", "datctype", "C.UTF-8", "daticulocale", nil, "datcollversion", nil)
	}
}

func rolesRows(s *snapshot, b *rowBuilder) {
	b.add("rolname", s.sess.User, "rolsuper", true, "rolinherit", true, "rolcreaterole", true,
		"rolcreatedb", true, "rolcanlogin", true, "rolreplication", false, "rolconnlimit", -1,
		"rolpassword", "********", "rolbypassrls", true, "oid", uint32(roleOID))
	b.add("rolname", "pg_database_owner", "rolsuper", false, "rolinherit", true, "rolcreaterole", false,
		"rolcreatedb", false, "rolcanlogin", false, "rolreplication", false, "rolconnlimit", -1,
		"rolpassword", "********", "rolbypassrls", false, "oid", uint32(dbOwnerRoleOID))
}

func authidRows(s *snapshot, b *rowBuilder) {
	b.add("oid", uint32(roleOID), "rolname", s.sess.User, "rolsuper", true, "rolinherit", true,
		"rolcreaterole", true, "rolcreatedb", true, "rolcanlogin", true, "rolbypassrls", true,
		"rolconnlimit", -1, "rolpassword", nil, "rolvaliduntil", nil)
	b.add("oid", uint32(dbOwnerRoleOID), "rolname", "pg_database_owner", "rolsuper", false, "rolinherit", true,
		"rolcreaterole", false, "rolcreatedb", false, "rolcanlogin", false, "rolbypassrls", false,
		"rolconnlimit", -1, "rolpassword", nil, "rolvaliduntil", nil)
}

func userRows(s *snapshot, b *rowBuilder) {
	b.add("usename", s.sess.User, "usesysid", uint32(roleOID), "usecreatedb", true, "usesuper", true,
		"userepl", false, "usebypassrls", true, "passwd", "********")
}

func settingsRows(s *snapshot, b *rowBuilder) {
	for _, n := range settingNames(s.sess) {
		v := setting(s.sess, n)
		name := n
		if c, ok := mixedCaseSettings[n]; ok {
			name = c
		}
		b.add("name", name, "setting", v, "category", "Shale", "short_desc", "", "context", "user",
			"vartype", "string", "source", "default", "boot_val", v, "reset_val", v, "pending_restart", false)
	}
}

// mixedCaseSettings are the parameters pg_settings names in mixed case.
var mixedCaseSettings = map[string]string{"datestyle": "DateStyle", "intervalstyle": "IntervalStyle", "timezone": "TimeZone"}

func tablespaceRows(s *snapshot, b *rowBuilder) {
	b.add("oid", uint32(1663), "spcname", "pg_default", "spcowner", uint32(roleOID))
	b.add("oid", uint32(1664), "spcname", "pg_global", "spcowner", uint32(roleOID))
}

func activityRows(s *snapshot, b *rowBuilder) {
	now := textV(time.Now().UTC().Format(timestampLayout))
	b.add("datid", s.databaseOID(s.sess.Database), "datname", s.sess.Database, "pid", int(s.sess.BackendPID),
		"usesysid", uint32(roleOID), "usename", s.sess.User, "application_name", s.sess.ApplicationName,
		"backend_start", now, "state", "active", "backend_type", "client backend")
}
