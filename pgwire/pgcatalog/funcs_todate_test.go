package pgcatalog

import "testing"

// FuzzFromChar: to_date and to_timestamp never panic, and what they accept
// is a real date.
func FuzzFromChar(f *testing.F) {
	for _, s := range [][2]string{{"2020-05-01", "YYYY-MM-DD"}, {"01 May 2020", "DD Mon YYYY"},
		{"05/01/2020 10:30 PM", "MM/DD/YYYY HH:MI AM"}, {"12:3", "SS:MS"}, {"x", `"T"\Y`}, {"Friday", "Day"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, text, format string) {
		tm, err := fromChar(text, format)
		if err == nil && (tm.Month() < 1 || tm.Month() > 12 || tm.Hour() > 23) {
			t.Fatalf("fromChar(%q, %q) = %v", text, format, tm)
		}
	})
}
