package sql

import (
	"errors"
	"strings"
	"testing"

	"github.com/shale-db/shale/sql/sqlerr"
)

// TestLimits pins the statement limits: at the limit a statement parses,
// one past it is TooComplex at the construct that crossed it.
func TestLimits(t *testing.T) {
	nest := func(open, inner, close string, n int) string {
		return "SELECT " + strings.Repeat(open, n) + inner + strings.Repeat(close, n)
	}
	for _, tc := range []struct {
		name, text string
		wantCol    int // 0: no error
		wantMsg    string
	}{
		{"parentheses at the limit", nest("(", "1", ")", MaxBracketDepth), 0, ""},
		{"parentheses past it", nest("(", "1", ")", MaxBracketDepth+1), len("SELECT ") + MaxBracketDepth + 1,
			"brackets nest more than 250 deep"},
		{"arrays past it", nest("[", "1", "]", MaxBracketDepth+1), len("SELECT ") + MaxBracketDepth + 1,
			"brackets nest more than 250 deep"},
		{"brackets in a literal are not counted", "SELECT '" + strings.Repeat("(", 3*MaxBracketDepth) + "'", 0, ""},
		{"a chain of ORs at the limit", "SELECT TRUE" + strings.Repeat(" OR TRUE", MaxNesting-1), 0, ""},
		{"a chain of ORs past it", "SELECT TRUE" + strings.Repeat(" OR TRUE", MaxNesting), len("SELECT ") + 1,
			"expressions nest more than 1000 deep"},
		{"unary minus past it", "SELECT " + strings.Repeat("- ", MaxNesting) + "x", len("SELECT ") + 2*MaxNesting + 1,
			"expressions nest more than 1000 deep"},
		{"a long IN list is flat", "SELECT 1 IN (1" + strings.Repeat(", 1", 10*MaxNesting) + ")", 0, ""},
		{"longer than a MiB", "SELECT '" + strings.Repeat("x", MaxQueryBytes) + "'", -1,
			"the statement is 1048585 bytes long; the limit is 1048576"},
	} {
		_, err := parse(tc.text)
		if tc.wantCol == 0 {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		var se *sqlerr.Error
		if !errors.As(err, &se) || se.Code != sqlerr.TooComplex || !strings.Contains(se.Msg, tc.wantMsg) {
			t.Errorf("%s: %v, want TooComplex %q", tc.name, err, tc.wantMsg)
			continue
		}
		if tc.wantCol > 0 && se.Pos.Col != tc.wantCol {
			t.Errorf("%s: at column %d, want %d", tc.name, se.Pos.Col, tc.wantCol)
		}
	}
}
