package pgcatalog

import "strings"

// information_schema's domains. PostgreSQL types every column of its
// information_schema views with one of five domains (sql_identifier over
// name, character_data and yes_or_no over varchar, cardinal_number over
// int4, time_stamp over timestamptz), which \d of such a view shows. The
// views here evaluate over the base types (shapes.go), as PostgreSQL
// sends them in RowDescription; pg_attribute and pg_type name the domains,
// with PostgreSQL 15's OIDs.

// infoDomain is one of information_schema's domains and its array type,
// and its CHECK constraint, if any, as pg_get_constraintdef renders it
// (and with pretty output).
type infoDomain struct {
	oid, array, base uint32
	name             string
	typmod           int
	collation        uint32
	def              any // typdefault: NULL or its text
	check            *domainCheck
}

type domainCheck struct {
	oid               uint32
	name, def, pretty string
}

var infoDomains = []infoDomain{
	{13221, 13220, tInt4, "cardinal_number", -1, 0, nil,
		&domainCheck{13222, "cardinal_number_domain_check", "CHECK ((VALUE >= 0))", "CHECK (VALUE >= 0)"}},
	{13224, 13223, tVarchar, "character_data", -1, 950, nil, nil},
	{13226, 13225, tName, "sql_identifier", -1, 950, nil, nil},
	{13232, 13231, tTimestamptz, "time_stamp", 2, 0, "CURRENT_TIMESTAMP(2)", nil},
	{13234, 13233, tVarchar, "yes_or_no", 7, 950, nil, &domainCheck{13235, "yes_or_no_check",
		"CHECK (((VALUE)::text = ANY ((ARRAY['YES'::character varying, 'NO'::character varying])::text[])))",
		"CHECK (VALUE::text = ANY (ARRAY['YES'::character varying, 'NO'::character varying]::text[]))"}},
}

// domainConstraintRows adds the domains' CHECK constraints to
// pg_constraint.
func domainConstraintRows(b *rowBuilder) {
	for _, d := range infoDomains {
		if c := d.check; c != nil {
			expr := strings.TrimSuffix(strings.TrimPrefix(c.def, "CHECK ("), ")") // as pg_get_expr(conbin) gives it
			b.add("oid", c.oid, "conname", c.name, "connamespace", uint32(nspInfoSchema), "contype", "c",
				"contypid", d.oid, "convalidated", true, "confupdtype", " ", "confdeltype", " ",
				"confmatchtype", " ", "conislocal", true, "conbin", expr)
		}
	}
}

// domainConstraintDef is pg_get_constraintdef of a domain's CHECK.
func domainConstraintDef(oid uint32, pretty bool) (string, bool) {
	for _, d := range infoDomains {
		if c := d.check; c != nil && c.oid == oid {
			if pretty {
				return c.pretty, true
			}
			return c.def, true
		}
	}
	return "", false
}

// yesOrNoColumns are the varchar columns of the emulated views that are
// yes_or_no (the others are character_data).
var yesOrNoColumns = map[string]bool{
	"columns.is_nullable": true, "columns.is_self_referencing": true, "columns.is_identity": true,
	"columns.identity_cycle": true, "columns.is_updatable": true, "routines.is_deterministic": true,
	"routines.is_null_call": true, "routines.schema_level_routine": true, "routines.is_user_defined_cast": true,
	"routines.is_implicitly_invocable": true, "routines.as_locator": true, "routines.new_savepoint_level": true,
	"routines.is_udt_dependent": true, "routines.result_cast_as_locator": true,
	"table_constraints.is_deferrable": true, "table_constraints.initially_deferred": true,
	"table_constraints.enforced": true, "table_constraints.nulls_distinct": true,
	"table_privileges.is_grantable": true, "table_privileges.with_hierarchy": true,
	"tables.is_insertable_into": true, "tables.is_typed": true, "views.is_updatable": true,
	"views.is_insertable_into": true, "views.is_trigger_updatable": true, "views.is_trigger_deletable": true,
	"views.is_trigger_insertable_into": true,
}

// columnDomain is the domain PostgreSQL declares column col (of base type
// typ) of information_schema view view with, or nil.
func columnDomain(view, col string, typ uint32) *infoDomain {
	name := ""
	switch typ {
	case tName:
		name = "sql_identifier"
	case tInt4:
		name = "cardinal_number"
	case tTimestamptz:
		name = "time_stamp"
	case tVarchar:
		name = "character_data"
		if yesOrNoColumns[view+"."+col] {
			name = "yes_or_no"
		}
	}
	for i := range infoDomains {
		if infoDomains[i].name == name {
			return &infoDomains[i]
		}
	}
	return nil
}

// infoDomainName is the qualified name of the domain (or its array type)
// with OID oid, as format_type prints it outside information_schema.
func infoDomainName(oid uint32) (string, bool) {
	for _, d := range infoDomains {
		switch oid {
		case d.oid:
			return "information_schema." + d.name, true
		case d.array:
			return "information_schema." + d.name + "[]", true
		}
	}
	return "", false
}

// infoDomainTypeRows adds the domains and their array types to pg_type.
func infoDomainTypeRows(b *rowBuilder) {
	for _, d := range infoDomains {
		t := typeByOID[d.base]
		b.add("oid", d.oid, "typname", d.name, "typnamespace", uint32(nspInfoSchema), "typowner", uint32(roleOID),
			"typlen", t.length, "typbyval", t.byVal, "typtype", "d", "typcategory", string(t.category),
			"typispreferred", false, "typisdefined", true, "typdelim", ",", "typelem", uint32(0), "typarray", d.array,
			"typinput", procOID("domain_in"), "typoutput", procOID(t.output), "typreceive", procOID("domain_recv"),
			"typsend", procOID(t.send), "typalign", string(t.align), "typstorage", string(t.storage),
			"typbasetype", d.base, "typtypmod", d.typmod, "typcollation", d.collation, "typdefault", d.def)
		align := "i"
		if t.align == 'd' {
			align = "d"
		}
		b.add("oid", d.array, "typname", "_"+d.name, "typnamespace", uint32(nspInfoSchema), "typowner", uint32(roleOID),
			"typlen", -1, "typbyval", false, "typtype", "b", "typcategory", "A", "typispreferred", false,
			"typisdefined", true, "typdelim", ",", "typelem", d.oid, "typarray", uint32(0),
			"typinput", procOID("array_in"), "typoutput", procOID("array_out"), "typreceive", procOID("array_recv"),
			"typsend", procOID("array_send"), "typalign", align, "typstorage", "x", "typtypmod", -1,
			"typcollation", d.collation, "typdefault", nil)
	}
}
