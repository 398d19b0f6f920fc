package pgcatalog

import (
	"strconv"
	"time"
)

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
			"datcollate", "C", "datctype", "C", "daticulocale", nil, "datcollversion", nil)
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

// settingsRows describe each parameter as PostgreSQL's pg_settings does
// (settings_data.go). A parameter the session set, or a client's
// StartupMessage, says so in source; one whose value Shale fixes away from
// PostgreSQL's boot value (TimeZone UTC, server_encoding UTF8) is an
// override. Preset parameters (context internal) boot with Shale's value.
func settingsRows(s *snapshot, b *rowBuilder) {
	for _, n := range settingNames(s.sess) {
		v := setting(s.sess, n)
		def, known := pgSettingDefs[n]
		if !known {
			def = settingDef{name: n, category: "Customized Options", context: "user", vartype: "string"}
		}
		if def.context == "internal" {
			def.bootVal = v
		}
		v = inBaseUnit(v, def.unit)
		source := s.sess.Sources[n]
		if source == "" || source == "default" {
			source = "default"
			if known && v != def.bootVal && !dynamicDefaults[n] {
				source = "override"
			}
		}
		var enum Value = null
		if def.enumVals != nil {
			enum = textArray(def.enumVals...)
		}
		b.add("name", def.name, "setting", v, "unit", nullIfEmpty(def.unit), "category", def.category,
			"short_desc", def.shortDesc, "extra_desc", nullIfEmpty(def.extraDesc), "context", def.context,
			"vartype", def.vartype, "source", source, "min_val", nullIfEmpty(def.minVal), "max_val", nullIfEmpty(def.maxVal),
			"enumvals", enum, "boot_val", def.bootVal, "reset_val", v, "pending_restart", false)
	}
}

// dynamicDefaults are the parameters whose default PostgreSQL works out at
// startup rather than at boot (client_encoding follows the database's
// encoding): pg_settings calls such a value default, so \dconfig omits it.
var dynamicDefaults = map[string]bool{"client_encoding": true}

// inBaseUnit is a setting as pg_settings shows one with a unit: a number
// of that unit (work_mem 4MB is 4096 kB; statement_timeout 5s is 5000 ms).
// A value that does not read so is shown as it is.
func inBaseUnit(v, unit string) string {
	switch unit {
	case "kB":
		if kb, ok := ParseMemory(v); ok {
			return strconv.FormatInt(kb, 10)
		}
	case "ms":
		if d, ok := ParseDuration(v); ok {
			return strconv.FormatInt(d.Milliseconds(), 10)
		}
	}
	return v
}

// settingDef is pg_settings' description of a parameter.
type settingDef struct {
	name, unit, category, shortDesc, extraDesc, context, vartype, minVal, maxVal string
	enumVals                                                                     []string
	bootVal                                                                      string
}

func nullIfEmpty(s string) Value {
	if s == "" {
		return null
	}
	return textV(s)
}

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
