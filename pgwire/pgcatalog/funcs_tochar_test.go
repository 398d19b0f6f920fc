package pgcatalog

import (
	"testing"
	"time"
)

// FuzzToCharTime: any template formats a timestamp, a zoned one, a date
// before year 1 and an interval without panicking, and reading the
// template back through to_date's parser does not panic either.
func FuzzToCharTime(f *testing.F) {
	for _, s := range []string{"YYYY-MM-DD HH24:MI:SS.US", "FMDDth Month", `"a\"b" \"Y`, "IYYY-IW-ID TZH:TZM OF",
		"Y,YYY CC RM rm FF6 SSSSS", "TMDay FXDD SP", "FM", `\`, `"`, "TH"} {
		f.Add(s)
	}
	zone := time.FixedZone("X", 5*3600+1800)
	f.Fuzz(func(t *testing.T, format string) {
		if len(format) > 200 {
			return
		}
		for _, fields := range []*dchFields{
			timeFields(time.Date(2020, 5, 17, 13, 4, 5, 123456000, time.UTC), false),
			timeFields(time.Date(2020, 5, 17, 13, 4, 5, 0, zone), true),
			timeFields(time.Date(-44, 3, 15, 0, 0, 0, 0, time.UTC), false),
			intervalFields(interval{months: -14, days: 3, micros: -90061000001}),
		} {
			_, _ = formatDCH(fields, format)
		}
		_, _ = fromChar("2020-05-17 13:04:05", format)
	})
}
