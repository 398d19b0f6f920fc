package pgcatalog

import (
	"testing"
	"time"
)

// TestOffsetZoneName: a fixed offset is named as pg_tzset_offset names it,
// and the name loads as a zone of that offset again.
func TestOffsetZoneName(t *testing.T) {
	for _, tc := range []struct {
		east int
		name string
	}{
		{0, "<+00>-00"},
		{19800, "<+05:30>-05:30"},
		{-28800, "<-08>+08"},
		{18442, "<+05:07:22>-05:07:22"},
		{-(3*3600 + 45), "<-03:00:45>+03:00:45"},
		{167 * 3600, "<+167>-167"},
	} {
		if got := OffsetZoneName(tc.east); got != tc.name {
			t.Errorf("OffsetZoneName(%d) = %q, want %q", tc.east, got, tc.name)
		}
		loc, err := LoadZone(tc.name)
		if err != nil {
			t.Errorf("LoadZone(%q): %v", tc.name, err)
			continue
		}
		if _, off := time.Date(2020, 5, 1, 0, 0, 0, 0, time.UTC).In(loc).Zone(); off != tc.east {
			t.Errorf("LoadZone(%q) has offset %d, want %d", tc.name, off, tc.east)
		}
	}
	for _, bad := range []string{"<+05:30>", "<+5:30>-5:30", "<+05:60>-05:60", "<05>-05", "<+05>+05:30"} {
		if _, ok := offsetNameZone(bad); ok {
			t.Errorf("offsetNameZone(%q) loaded", bad)
		}
	}
}
