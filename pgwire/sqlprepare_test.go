package pgwire

import (
	"slices"
	"testing"
)

func TestSQLPrepareParsing(t *testing.T) {
	st, err := parseLocal(`PREPARE q (varchar(10), numeric(5, 2), double precision, mytype) AS SELECT $1, $2`)
	if err != nil || st == nil || st.kind != localPrepare || st.name != "q" || st.query != "SELECT $1, $2" {
		t.Fatalf("PREPARE: %+v %v", st, err)
	}
	if got := sqlTypeOIDs(st.items); !slices.Equal(got, []uint32{oidVarchar, oidNumeric, oidFloat8, 0}) {
		t.Errorf("PREPARE types %q: %v", st.items, got)
	}
	st, err = parseLocal(`EXECUTE q ('it''s', -1.5e3, NULL, TRUE, 'x'::text, f(1, 2))`)
	if err != nil || st == nil || st.kind != localExecute || len(st.items) != 6 {
		t.Fatalf("EXECUTE: %+v %v", st, err)
	}
	for i, want := range []struct {
		text string
		null bool
		ok   bool
	}{{"it's", false, true}, {"-1.5e3", false, true}, {"", true, true}, {"true", false, true}, {"x", false, true}, {"", false, false}} {
		text, null, err := literalText(st.items[i])
		if text != want.text || null != want.null || (err == nil) != want.ok {
			t.Errorf("value %q: %q %v %v", st.items[i], text, null, err)
		}
	}
	for _, bad := range []string{"PREPARE q AS", "PREPARE (int) AS SELECT 1", "EXECUTE q (1", "EXECUTE q (1) x", "PREPARE TRANSACTION 'x'"} {
		if _, err := parseLocal(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
