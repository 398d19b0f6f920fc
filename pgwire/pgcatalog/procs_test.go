package pgcatalog

import "testing"

// TestProcsArePostgres requires every function the package evaluates to be
// listed in pg_proc with PostgreSQL's rows (proc_data.go): a function added
// without them shows in \df with no argument types. Regenerate the data
// with scripts/gen-pg-catalog.sh.
func TestProcsArePostgres(t *testing.T) {
	seen := map[uint32]string{}
	for _, p := range procs() {
		if other, dup := seen[p.oid]; dup {
			t.Errorf("pg_proc OID %d is both %s and %s", p.oid, other, p.name)
		}
		seen[p.oid] = p.name
		if p.oid >= syntheticProcOIDs && p.oid < 10000 {
			t.Errorf("%s has no PostgreSQL pg_proc row: run scripts/gen-pg-catalog.sh against a Shale built with it", p.name)
		}
	}
}

func TestRegprocedure(t *testing.T) {
	for in, want := range map[string]string{
		"lower(text)":                        "lower(text)",
		" pg_catalog.substr( text , int4 ) ": "substr(text,integer)",
		"count()":                            "count()",
		`count("any")`:                       `count("any")`,
		"round(numeric,integer)":             "round(numeric,integer)",
	} {
		v, err := regprocedureIn(in)
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		p, ok := procByOID(uint32(v.i))
		if !ok || procSignature(p) != want {
			t.Errorf("%q: got OID %d (%v), want %s", in, v.i, ok, want)
		}
	}
	for in, code := range map[string]string{
		"lower":                          CodeInvalidText,
		"lower(int)":                     CodeUndefinedFunc,
		"lower(nosuch)":                  CodeUndefinedObject,
		"nosuch(text)":                   CodeUndefinedFunc,
		"information_schema.lower(text)": CodeUndefinedFunc,
	} {
		if _, err := regprocedureIn(in); err == nil || err.(*Error).Code != code {
			t.Errorf("%q: %v, want %s", in, err, code)
		}
	}
	if _, err := regprocIn("lower"); err == nil || err.(*Error).Code != CodeAmbiguousFunc {
		t.Errorf("lower::regproc: %v, want %s", err, CodeAmbiguousFunc)
	}
}
