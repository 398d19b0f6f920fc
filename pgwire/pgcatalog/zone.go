package pgcatalog

import (
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // zone names do not depend on the machine's tz database
)

// Time zones. A timestamptz value is an instant, held as its UTC text
// (timestampLayout with +00), so that values compare and push down as
// text; the session's TimeZone decides how one reads as local time: its
// text output, to_char, extract, date_trunc, casts to and from timestamp
// and date, and AT TIME ZONE, as in PostgreSQL.

// LoadZone resolves a TimeZone value: an IANA name, UTC, or a numeric
// offset in hours ("-7", "+05:30", the ISO sign convention).
func LoadZone(v string) (*time.Location, error) {
	switch strings.ToLower(v) {
	case "utc", "gmt", "z", "zulu", "local", "default", "":
		return time.UTC, nil
	}
	if v[0] == '+' || v[0] == '-' || v[0] >= '0' && v[0] <= '9' {
		h, m, _ := strings.Cut(strings.TrimLeft(v, "+-"), ":")
		hh, err1 := strconv.Atoi(h)
		mm := 0
		var err2 error
		if m != "" {
			mm, err2 = strconv.Atoi(m)
		}
		if err1 == nil && err2 == nil && hh <= 15 && mm < 60 {
			off := hh*3600 + mm*60
			if v[0] == '-' {
				off = -off
			}
			return time.FixedZone(v, off), nil
		}
	}
	return time.LoadLocation(v)
}

// zone is the session's time zone (UTC when its TimeZone does not load).
func (ev *evaluator) zone() *time.Location {
	if ev.loc == nil {
		ev.loc = time.UTC
		if v, ok := lookupSetting(ev.sess, "timezone"); ok {
			if loc, err := LoadZone(v); err == nil {
				ev.loc = loc
			}
		}
	}
	return ev.loc
}

// localTime reads a date or timestamp value of type typ as the time a
// reader in the session sees: a timestamptz in the session's zone, the
// others as written.
func (ev *evaluator) localTime(v Value, typ uint32) (time.Time, error) {
	t, err := timeArg(v)
	if err != nil || typ != tTimestamptz {
		return t, err
	}
	return t.In(ev.zone()), nil
}

// zoneOffset prints a zone offset as PostgreSQL does: +hh, or +hh:mm.
func zoneOffset(t time.Time) string {
	_, off := t.Zone()
	sign := "+"
	if off < 0 {
		sign, off = "-", -off
	}
	s := sign + twoDigits(off/3600)
	if m := off % 3600 / 60; m != 0 {
		s += ":" + twoDigits(m)
	}
	return s
}

func twoDigits(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}

// atTimeZone is AT TIME ZONE (PostgreSQL's timezone(zone, t)): a
// timestamptz becomes the wall time in zone, a timestamp (or date) is read
// as a wall time in zone and becomes an instant.
func atTimeZone(_ *evaluator, a []Value, t []uint32) (Value, error) {
	loc, err := LoadZone(strings.TrimSpace(a[0].s))
	if err != nil {
		return null, errorf(CodeInvalidParameter, noPos, "time zone \"%s\" not recognized", a[0].s)
	}
	ts, err := timeArg(a[1])
	if err != nil {
		return null, err
	}
	if t[1] == tTimestamptz {
		return timeValue(ts.In(loc), tTimestamp), nil
	}
	wall := wallTime(ts.Year(), ts.Month(), ts.Day(), ts.Hour(), ts.Minute(), ts.Second(), ts.Nanosecond(), loc)
	return timeValue(instantIfZoned(wall, tTimestamptz), tTimestamptz), nil
}

func atTimeZoneType(t []uint32) uint32 {
	if t[1] == tTimestamptz {
		return tTimestamp
	}
	return tTimestamptz
}

// wallTime is time.Date for a wall time in loc, resolving a time a
// daylight-saving transition skips or repeats as PostgreSQL does: a
// skipped time reads with the offset before the transition (02:30 on a
// spring-forward night is 03:30 daylight time), a repeated one with the
// offset after it (the standard-time reading). Both are the smaller of
// the two offsets around the transition. Out-of-range fields normalize
// as time.Date's do.
func wallTime(y int, mo time.Month, d, h, mi, s, ns int, loc *time.Location) time.Time {
	u := time.Date(y, mo, d, h, mi, s, ns, time.UTC)
	if loc == time.UTC {
		return u
	}
	offAt := func(t time.Time) int {
		_, off := t.In(loc).Zone()
		return off
	}
	before, after := offAt(u.Add(-26*time.Hour)), offAt(u.Add(26*time.Hour))
	fits := func(off int) bool { return offAt(u.Add(-time.Duration(off)*time.Second)) == off }
	var off int
	switch b, a := fits(before), fits(after); {
	case before == after && !b:
		off = offAt(u) // two transitions within the window: rare, approximate
	case before == after || b && !a:
		off = before
	case a && !b:
		off = after
	default: // both (a repeated time) or neither (a skipped one)
		off = min(before, after)
	}
	return u.Add(-time.Duration(off) * time.Second).In(loc)
}
