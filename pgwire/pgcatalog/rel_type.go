package pgcatalog

func init() {
	rowFuncs["pg_catalog.pg_type"] = typeRows
	rowFuncs["pg_catalog.pg_am"] = amRows
	rowFuncs["pg_catalog.pg_language"] = languageRows
	rowFuncs["pg_catalog.pg_range"] = rangeRows
	rowFuncs["pg_catalog.pg_collation"] = collationRows
}

func typeRows(s *snapshot, b *rowBuilder) {
	for _, t := range builtinTypes {
		b.add("oid", t.oid, "typname", t.name, "typnamespace", uint32(nspCatalog), "typowner", uint32(roleOID),
			"typlen", t.length, "typbyval", t.byVal, "typtype", string(t.typtype),
			"typcategory", string(t.category), "typispreferred", preferredTypes[t.oid], "typisdefined", true,
			"typdelim", ",", "typelem", t.elem, "typarray", t.array, "typinput", procOID(t.input),
			"typoutput", procOID(t.output), "typreceive", procOID(t.receive), "typsend", procOID(t.send), "typalign", string(t.align), "typstorage", string(t.storage),
			"typtypmod", -1, "typcollation", t.collation, "typdefault", nil)
	}
	infoDomainTypeRows(b)
	// Each table's row type, as PostgreSQL makes one for every table
	// (pgJDBC's getUDTs lists them). Shale makes no array type of it.
	for _, r := range s.rels {
		if r.table == nil {
			continue
		}
		b.add("oid", r.oid+rowTypeOffset, "typname", r.name, "typnamespace", r.nsp, "typowner", uint32(roleOID),
			"typlen", -1, "typbyval", false, "typtype", "c", "typcategory", "C", "typispreferred", false,
			"typisdefined", true, "typdelim", ",", "typrelid", r.oid, "typelem", uint32(0), "typarray", uint32(0),
			"typinput", procOID("record_in"), "typoutput", procOID("record_out"), "typreceive", procOID("record_recv"),
			"typsend", procOID("record_send"), "typalign", "d", "typstorage", "x", "typtypmod", -1,
			"typcollation", uint32(0), "typdefault", nil)
	}
}

var preferredTypes = map[uint32]bool{tBool: true, tText: true, tOid: true, tFloat8: true, tTimestamptz: true, 1186: true}

// amDescriptions are PostgreSQL's comments on the access methods pg_am
// lists (\dA+).
var amDescriptions = map[uint32]string{
	heapAM:  "heap table access method",
	btreeAM: "b-tree index access method",
}

func amRows(s *snapshot, b *rowBuilder) {
	b.add("oid", uint32(heapAM), "amname", "heap", "amhandler", uint32(0), "amtype", "t")
	b.add("oid", uint32(btreeAM), "amname", "btree", "amhandler", uint32(0), "amtype", "i")
}

// rangeRows describes the one range type pg_type lists, int4range, as
// PostgreSQL 15 does: drivers (Npgsql) read a range's element type here.
func rangeRows(s *snapshot, b *rowBuilder) {
	b.add("rngtypid", uint32(3904), "rngsubtype", uint32(tInt4), "rngmultitypid", uint32(4451), "rngcollation", uint32(0),
		"rngsubopc", uint32(1978), "rngcanonical", uint32(0), "rngsubdiff", uint32(0))
}

// languages are PostgreSQL's built-in languages, with their OIDs (pg_proc's
// rows are all LANGUAGE internal, 12) and the comments initdb leaves on them
// (\dLS shows them).
var languages = []struct {
	oid               uint32
	name, description string
}{{12, "internal", "built-in functions"}, {13, "c", "dynamically-loaded C functions"},
	{14, "sql", "SQL-language functions"}}

// languageDescription is the comment on the language with OID oid.
func languageDescription(oid uint32) (string, bool) {
	for _, l := range languages {
		if l.oid == oid {
			return l.description, true
		}
	}
	return "", false
}

func languageRows(s *snapshot, b *rowBuilder) {
	for _, l := range languages {
		b.add("oid", l.oid, "lanname", l.name, "lanowner", uint32(roleOID), "lanispl", false,
			"lanpltrusted", l.name == "sql", "lanplcallfoid", uint32(0), "laninline", uint32(0), "lanvalidator", uint32(0))
	}
}

func collationRows(s *snapshot, b *rowBuilder) {
	for _, c := range []struct {
		oid      uint32
		name     string
		provider string
	}{{defaultColl, "default", "d"}, {950, "C", "c"}, {951, "POSIX", "c"}} {
		b.add("oid", c.oid, "collname", c.name, "collnamespace", uint32(nspCatalog), "collowner", uint32(roleOID),
			"collprovider", c.provider, "collisdeterministic", true, "collencoding", -1,
			"collcollate", nil, "collctype", nil, "colliculocale", nil, "collversion", nil)
	}
}
