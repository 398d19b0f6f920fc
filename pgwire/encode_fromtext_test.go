package pgwire

import (
	"encoding/hex"
	"testing"

	"github.com/shale-db/shale/sql/types"
)

// TestBinaryFromText: a catalog value given as PostgreSQL's text goes out
// in the binary form PostgreSQL's send function writes.
func TestBinaryFromText(t *testing.T) {
	for _, c := range []struct {
		text string
		oid  uint32
		hex  string
	}{
		{"t", oidBool, "01"},
		{"42", oidInt2, "002a"},
		{"4294967295", oidOID, "ffffffff"},
		{"1.5", oidFloat8, "3ff8000000000000"},
		{"2000-01-02", oidDate, "00000001"},
		{"2000-01-01 00:00:01+00", oidTimestamptz, "00000000000f4240"},
		{"12:34:00", oidTime, "0000000a88839e00"},
		{"24:00:00", oidTime, "000000141dd76000"},
		{"1 year 2 mons 3 days 04:05:06.5", oidInterval, "000000036c9361a0" + "00000003" + "0000000e"},
		{"-1 days", oidInterval, "0000000000000000" + "ffffffff" + "00000000"},
		// array_send: ndim, has-null flag, element type, length and lower
		// bound, then each element's length (-1: NULL) and bytes.
		{"{16,17}", oidOIDArray, "00000001" + "00000000" + "0000001a" + "00000002" + "00000001" +
			"00000004" + "00000010" + "00000004" + "00000011"},
		{`{"a b",NULL}`, oidTextArray, "00000001" + "00000001" + "00000019" + "00000002" + "00000001" +
			"00000003" + "612062" + "ffffffff"},
		{"{}", oidNameArray, "00000000" + "00000000" + "00000013"},
	} {
		got, err := newEncoder().appendBinaryFromText(nil, c.text, c.oid)
		if err != nil {
			t.Errorf("%s as %s: %v", c.text, typeName(c.oid), err)
			continue
		}
		if h := hex.EncodeToString(got); h != c.hex {
			t.Errorf("%s as %s: %s, want %s", c.text, typeName(c.oid), h, c.hex)
		}
		// appendBinary takes the same route for a STRING of a type the
		// catalog gives as text (it gives numbers and booleans as such).
		switch c.oid {
		case oidBool, oidInt2, oidOID, oidFloat8:
			continue
		}
		if got, err := newEncoder().appendBinary(nil, types.StringValue(c.text), c.oid); err != nil || hex.EncodeToString(got) != c.hex {
			t.Errorf("appendBinary of %s as %s: %x, %v, want %s", c.text, typeName(c.oid), got, err, c.hex)
		}
	}
	if _, err := newEncoder().appendBinary(nil, types.StringValue("soon"), oidDate); err == nil {
		t.Error("a bad date encoded")
	}
}
