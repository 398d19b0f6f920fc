package pgcatalog

import (
	"fmt"
	"math"
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

// LoadZone resolves a TimeZone setting: an IANA name, UTC, a number of
// hours east of UTC ("-7", "5.5", as SET TIME ZONE reads a number), the
// name PostgreSQL gives a fixed offset ("<+05:30>-05:30", OffsetZoneName),
// or a POSIX offset, hours west of UTC ("+05:30" is UTC-5:30).
func LoadZone(v string) (*time.Location, error) {
	if east, ok := HoursZoneOffset(v); ok {
		return time.FixedZone(OffsetZoneName(east), east), nil
	}
	if loc, ok := offsetNameZone(v); ok {
		return loc, nil
	}
	return zoneArg(v)
}

// MaxZoneOffset bounds a fixed zone's offset, as PostgreSQL's does: less
// than a week.
const MaxZoneOffset = 168 * 3600

// HoursZoneOffset reads a TimeZone setting that is a number, hours east of
// UTC (check_timezone reads it with strtod), as seconds east: ok is false
// for anything else and for offsets of MaxZoneOffset and more.
func HoursZoneOffset(v string) (east int, ok bool) {
	h, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || math.IsNaN(h) || math.Abs(h*3600) >= MaxZoneOffset {
		return 0, false
	}
	return int(h * 3600), true // truncated, as PostgreSQL's (long) cast
}

// OffsetZoneName is the name PostgreSQL gives the zone east seconds east of
// UTC (pg_tzset_offset): a POSIX zone whose abbreviation is the offset,
// "<+05:30>-05:30", "<-08>+08", "<+00>-00". SHOW and ParameterStatus report
// it after SET TIME ZONE 5.5 or INTERVAL '+05:30' HOUR TO MINUTE.
func OffsetZoneName(east int) string {
	abs := east
	if abs < 0 {
		abs = -abs
	}
	off := fmt.Sprintf("%02d", abs/3600)
	if m, s := abs/60%60, abs%60; s != 0 {
		off += fmt.Sprintf(":%02d:%02d", m, s)
	} else if m != 0 {
		off += fmt.Sprintf(":%02d", m)
	}
	if east >= 0 {
		return "<+" + off + ">-" + off
	}
	return "<-" + off + ">+" + off
}

// offsetNameZone reads a name OffsetZoneName gives, and only such a name:
// the offset in angle brackets, east of UTC, then the same offset as POSIX
// writes it. The fields are summed as they come; a name that is not
// exactly what OffsetZoneName gives for the sum is refused.
func offsetNameZone(v string) (*time.Location, bool) {
	if len(v) < 4 || v[0] != '<' || v[1] != '+' && v[1] != '-' {
		return nil, false
	}
	abbrev, _, _ := strings.Cut(v[2:], ">")
	east, unit := 0, 3600
	for _, f := range strings.SplitN(abbrev, ":", 3) {
		n, err := strconv.Atoi(f)
		if err != nil {
			return nil, false
		}
		east += n * unit
		unit /= 60
	}
	if v[1] == '-' {
		east = -east
	}
	if OffsetZoneName(east) != v {
		return nil, false
	}
	return time.FixedZone(v, east), true
}

// zoneArg resolves a zone a function or AT TIME ZONE names: an IANA name,
// UTC, or a POSIX offset in hours west of UTC ("+3", "-05:30").
func zoneArg(v string) (*time.Location, error) {
	switch strings.ToLower(v) {
	case "utc", "gmt", "z", "zulu", "local", "default", "":
		return time.UTC, nil
	}
	if loc, ok := offsetZone(v, true); ok {
		return loc, nil
	}
	return time.LoadLocation(v)
}

// offsetZone reads [+-]hh[:mm] as a fixed zone: hours east of UTC, or with
// west set, as POSIX reads them, west.
func offsetZone(v string, west bool) (*time.Location, bool) {
	if v == "" || !(v[0] == '+' || v[0] == '-' || v[0] >= '0' && v[0] <= '9') {
		return nil, false
	}
	h, m, _ := strings.Cut(strings.TrimLeft(v, "+-"), ":")
	hh, err1 := strconv.Atoi(h)
	mm := 0
	var err2 error
	if m != "" {
		mm, err2 = strconv.Atoi(m)
	}
	if err1 != nil || err2 != nil || hh > 15 || mm >= 60 {
		return nil, false
	}
	off := hh*3600 + mm*60
	if (v[0] == '-') != west {
		off = -off
	}
	return time.FixedZone(v, off), true
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
	var loc *time.Location
	if t[0] == tInterval { // AT TIME ZONE INTERVAL '-02:30': that offset east of UTC
		iv, err := parseInterval(a[0].s)
		if err != nil {
			return null, err
		}
		if iv.months != 0 || iv.days != 0 {
			return null, errorf(CodeInvalidParameter, noPos, "interval time zone \"%s\" must not include months or days", a[0].s)
		}
		loc = time.FixedZone("", int(iv.micros/1e6))
	} else {
		var err error
		if loc, err = zoneArg(strings.TrimSpace(a[0].s)); err != nil {
			return null, errorf(CodeInvalidParameter, noPos, "time zone \"%s\" not recognized", a[0].s)
		}
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
