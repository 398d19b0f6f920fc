package pgcatalog

import (
	"testing"
	"time"
)

func TestParseMemory(t *testing.T) {
	for in, want := range map[string]int64{"64kB": 64, "64": 64, "4MB": 4096, " 1 GB ": 1 << 20, "1TB": 1 << 30, "2048B": 2, "-1": -1} {
		if got, ok := ParseMemory(in); !ok || got != want {
			t.Errorf("%q: %d %v, want %d", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "MB", "4 mb", "4XB", "1.5MB", "99999999999999999999"} {
		if got, ok := ParseMemory(in); ok {
			t.Errorf("%q: %d, want an error", in, got)
		}
	}
}

func TestParseDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{"0": 0, "5000": 5 * time.Second, "5s": 5 * time.Second,
		" 1.5 min ": 90 * time.Second, "250us": 250 * time.Microsecond, "2h": 2 * time.Hour, "1d": 24 * time.Hour} {
		if got, ok := ParseDuration(in); !ok || got != want {
			t.Errorf("%q: %v %v, want %v", in, got, ok, want)
		}
	}
	for _, in := range []string{"", "s", "5 parsecs", "-"} {
		if got, ok := ParseDuration(in); ok {
			t.Errorf("%q: %v, want an error", in, got)
		}
	}
}
