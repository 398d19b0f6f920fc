package pgcatalog

import (
	"sort"
	"sync"
)

func init() {
	rowFuncs["pg_catalog.pg_type"] = typeRows
	rowFuncs["pg_catalog.pg_proc"] = procRows
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
}

var preferredTypes = map[uint32]bool{tBool: true, tText: true, tOid: true, tFloat8: true, tTimestamptz: true, 1186: true}

// proc is a pg_proc row: the functions this package evaluates, plus the
// input functions of the types (for 'array_in'::regproc).
type proc struct {
	oid     uint32
	name    string
	retType uint32
	retSet  bool
	agg     bool
	strict  bool // NULL in, NULL out
}

var (
	procsOnce  sync.Once
	procList   []proc
	procByName map[string]uint32
)

// knownProcOIDs keep PostgreSQL's OIDs where tools compare against them.
var knownProcOIDs = map[string]uint32{"array_in": 750, "array_out": 751, "array_recv": 2400, "array_send": 2401,
	"record_in": 2290, "textin": 46, "boolin": 1242}

func procs() []proc {
	procsOnce.Do(func() {
		names := map[string]proc{}
		for _, t := range builtinTypes {
			names[t.input] = proc{name: t.input, retType: t.oid, strict: true}
			names[t.output] = proc{name: t.output, retType: 2275, strict: true} // cstring
			if t.receive != "" {
				names[t.receive] = proc{name: t.receive, retType: t.oid, strict: true}
				names[t.send] = proc{name: t.send, retType: tBytea, strict: true}
			}
		}
		for name, f := range funcs {
			names[name] = proc{name: name, retType: f.staticRet, strict: !f.lenient}
		}
		for name, f := range srfs {
			names[name] = proc{name: name, retType: f.retType, retSet: true, strict: true}
		}
		for name := range aggregates {
			names[name] = proc{name: name, agg: true}
		}
		sorted := make([]string, 0, len(names))
		for n := range names {
			sorted = append(sorted, n)
		}
		sort.Strings(sorted)
		procByName = map[string]uint32{}
		next := uint32(8000)
		for _, n := range sorted {
			p := names[n]
			if o, ok := knownProcOIDs[n]; ok {
				p.oid = o
			} else {
				p.oid = next
				next++
			}
			procByName[n] = p.oid
			procList = append(procList, p)
		}
	})
	return procList
}

func procOID(name string) uint32 {
	procs()
	return procByName[name]
}

func procName(oid uint32) (string, bool) {
	p, ok := procByOID(oid)
	return p.name, ok
}

func procByOID(oid uint32) (proc, bool) {
	for _, p := range procs() {
		if p.oid == oid {
			return p, true
		}
	}
	return proc{}, false
}

func procRows(s *snapshot, b *rowBuilder) {
	for _, p := range procs() {
		kind := "f"
		if p.agg {
			kind = "a"
		}
		b.add("oid", p.oid, "proname", p.name, "pronamespace", uint32(nspCatalog), "proowner", uint32(roleOID),
			"prolang", uint32(12), "procost", float64(1), "prokind", kind, "proretset", p.retSet, "proisstrict", p.strict,
			"provolatile", "s", "proparallel", "s", "prorettype", p.retType, "proargtypes", arrayV(nil),
			"prosrc", p.name)
	}
}

func amRows(s *snapshot, b *rowBuilder) {
	b.add("oid", uint32(heapAM), "amname", "heap", "amhandler", uint32(0), "amtype", "t")
	b.add("oid", uint32(btreeAM), "amname", "btree", "amhandler", uint32(0), "amtype", "i")
}

// languageRows are PostgreSQL's built-in languages, with their OIDs:
// pg_proc's rows are all LANGUAGE internal (12).
// rangeRows describes the one range type pg_type lists, int4range, as
// PostgreSQL 15 does: drivers (Npgsql) read a range's element type here.
func rangeRows(s *snapshot, b *rowBuilder) {
	b.add("rngtypid", uint32(3904), "rngsubtype", uint32(tInt4), "rngmultitypid", uint32(4451), "rngcollation", uint32(0),
		"rngsubopc", uint32(1978), "rngcanonical", uint32(0), "rngsubdiff", uint32(0))
}

func languageRows(s *snapshot, b *rowBuilder) {
	for _, l := range []struct {
		oid  uint32
		name string
	}{{12, "internal"}, {13, "c"}, {14, "sql"}} {
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
