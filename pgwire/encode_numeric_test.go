package pgwire

import (
	"encoding/hex"
	"testing"

	"github.com/shale-db/shale/sql/types"
)

// TestAppendNumeric pins numeric_send's bytes (as PostgreSQL 15 sends
// them: SELECT numeric_send(x)) and reads them back with decodeNumeric,
// and exactly, scale included, with numericText.
func TestAppendNumeric(t *testing.T) {
	for _, tc := range []struct {
		text, hex string
		f         float64
	}{
		{"0", "0000000000000000", 0},
		{"0.000", "0000000000000003", 0},
		{"1.50", "000200000000000200011388", 1.5},
		{"-12345.678", "0003000140000003000109291a7c", -12345.678},
		{"10000", "00010001000000000001", 10000},
		{"0.0001", "0001ffff000000040001", 0.0001},
		{"123456789012345678901234567890", "0008000700000000000c0d801ed204d2162e23340d801ed2", 1.2345678901234568e29},
	} {
		got, err := appendNumeric(nil, types.StringValue(tc.text))
		if err != nil {
			t.Fatalf("%s: %v", tc.text, err)
		}
		if hex.EncodeToString(got) != tc.hex {
			t.Errorf("%s: got %x, want %s", tc.text, got, tc.hex)
		}
		back, err := decodeNumeric(got)
		if err != nil || back.Float64() != tc.f {
			t.Errorf("%s: read back %v, %v", tc.text, back, err)
		}
		if exact, err := numericText(got); err != nil || exact != tc.text {
			t.Errorf("%s: read back as text %q, %v", tc.text, exact, err)
		}
	}
	if _, err := appendNumeric(nil, types.StringValue("1.2.3")); err == nil {
		t.Error("1.2.3: no error")
	}
}
