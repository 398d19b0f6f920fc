package pgcatalog

import (
	"errors"
	"strconv"
	"strings"
	"time"
)

// The timetz type (time with time zone): a time of day and a fixed UTC
// offset, held as its output text HH:MM:SS[.ffffff]±hh[:mm[:ss]]. Input
// without an offset takes the session TimeZone's offset on the current
// date, as PostgreSQL does (a zone's offset depends on the date, which a
// timetz lacks).

// maxZoneOffset is the largest UTC offset PostgreSQL accepts, 15:59:59.
const maxZoneOffset = 16*3600 - 1

// timetzText prints a time of day (microseconds) and a UTC offset
// (seconds east) as timetz_out does.
func timetzText(us int64, off int) Value {
	return textV(timeOfDay(us).s + offsetText(off))
}

// offsetText prints a UTC offset as PostgreSQL prints a timetz's: +hh,
// +hh:mm, or +hh:mm:ss when it has seconds (a local mean time's).
func offsetText(off int) string {
	sign := "+"
	if off < 0 {
		sign, off = "-", -off
	}
	s := sign + twoDigits(off/3600)
	if off%3600 != 0 {
		s += ":" + twoDigits(off%3600/60)
	}
	if off%60 != 0 {
		s += ":" + twoDigits(off%60)
	}
	return s
}

// sessionOffset is the session TimeZone's offset for the wall time us on
// the current date: the offset a time without one takes.
func (ev *evaluator) sessionOffset(us int64) int {
	y, m, d := ev.now.In(ev.zone()).Date()
	t := wallTime(y, m, d, int(us/3600e6), int(us/60e6%60), int(us/1e6%60), int(us%1e6*1000), ev.zone())
	_, off := t.Zone()
	return off
}

// parseTimetz reads timetz input: a time as the time type reads it, then
// an optional offset (Z, UTC, GMT, ±h, ±hh, ±hhmm, ±hh:mm or ±hh:mm:ss,
// spaces allowed before it), or a timestamp's text, whose time and offset
// count. Zone names are not read (PostgreSQL reads abbreviations such as
// EST; a name such as America/Chicago it refuses without a date).
func (ev *evaluator) parseTimetz(s string) (us int64, off int, err error) {
	in := strings.TrimSpace(s)
	bad := errorf(CodeInvalidDatetimeFormat, noPos, "invalid input syntax for type time with time zone: \"%s\"", s)
	if t, ok := parseTime(in); ok && len(in) > 10 {
		if !hasZone(in) {
			t = wallTime(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), ev.zone())
		}
		_, off := t.Zone()
		return clockMicros(t), off, nil
	}
	clock, zone := in, ""
	if i := strings.IndexAny(in, "+-Zz"); i > 0 {
		clock, zone = in[:i], in[i:]
	} else if i := strings.IndexAny(strings.ToUpper(in), "UG"); i > 0 {
		clock, zone = in[:i], in[i:]
	}
	clock = strings.TrimSpace(clock)
	if clock == "" || strings.ContainsAny(clock, " \t") {
		return 0, 0, bad
	}
	if us, err = parseTimeOfDay(clock); err != nil {
		if e := (*Error)(nil); errors.As(err, &e) && e.Code == "22008" {
			return 0, 0, errorf("22008", noPos, "date/time field value out of range: \"%s\"", s)
		}
		return 0, 0, bad
	}
	if zone == "" {
		return us, ev.sessionOffset(us), nil
	}
	off, ok := parseOffset(zone)
	if !ok {
		return 0, 0, bad
	}
	if off > maxZoneOffset || off < -maxZoneOffset {
		return 0, 0, errorf("22009", noPos, "time zone displacement out of range: \"%s\"", s)
	}
	return us, off, nil
}

// parseOffset reads a UTC offset as parseTimetz takes it, in seconds east.
func parseOffset(z string) (int, bool) {
	switch strings.ToUpper(z) {
	case "Z", "UTC", "GMT":
		return 0, true
	}
	sign := 1
	switch z[0] {
	case '-':
		sign = -1
	case '+':
	default:
		return 0, false
	}
	z = z[1:]
	var fields []string
	if strings.Contains(z, ":") {
		fields = strings.Split(z, ":")
	} else if len(z) > 2 { // hhmm
		fields = []string{z[:len(z)-2], z[len(z)-2:]}
	} else {
		fields = []string{z}
	}
	if len(fields) > 3 {
		return 0, false
	}
	secs := 0
	for i, f := range fields {
		n, err := strconv.Atoi(f)
		if err != nil || f == "" || f[0] == '+' || f[0] == '-' || i > 0 && (len(f) != 2 || n > 59) {
			return 0, false
		}
		secs += n * []int{3600, 60, 1}[i]
	}
	return sign * secs, true
}

// castToTimetz converts a value of type from to a timetz: a timestamptz
// is its time and offset in the session's zone; a time takes the
// session's offset (sessionOffset); text is read as input.
func (ev *evaluator) castToTimetz(v Value, from uint32) (Value, error) {
	switch from {
	case tTimestamptz:
		t, err := ev.localTime(v, from)
		if err != nil {
			return null, err
		}
		_, off := t.Zone()
		return timetzText(clockMicros(t), off), nil
	case tTime:
		us, err := parseTimeOfDay(v.s)
		if err != nil {
			return null, err
		}
		return timetzText(us, ev.sessionOffset(us)), nil
	}
	us, off, err := ev.parseTimetz(ev.text(v, from))
	if err != nil {
		return null, err
	}
	return timetzText(us, off), nil
}

// roundTimePrecision rounds microseconds to p fractional digits of the
// second, half away from zero: a time of day (time(p) and timetz(p), which
// like PostgreSQL's may round up to 24:00:00 and do not wrap), or a
// timestamp counted from 2000-01-01, PostgreSQL's epoch (so a half before
// 2000 rounds down, as PostgreSQL's does).
func roundTimePrecision(us int64, p int64) int64 {
	if p >= 6 {
		return us
	}
	scale := int64(1)
	for i := p; i < 6; i++ {
		scale *= 10
	}
	if us < 0 {
		return -((-us + scale/2) / scale * scale)
	}
	return (us + scale/2) / scale * scale
}

// pgEpochMicros is 2000-01-01 00:00 UTC in Unix microseconds.
const pgEpochMicros = int64(946684800e6)

// compareTimetz orders two timetz texts as timetz_cmp does: by the instant
// in UTC, then (equal instants at different offsets) the one further east
// first, so that 10:00+02 comes before 09:00+01 and equals neither. ok is
// false when either is not timetz text.
func compareTimetz(a, b string) (c int, ok bool) {
	// A value's text always carries its offset, so the session's zone,
	// which this evaluator lacks (UTC stands in), is not read.
	if strings.LastIndexAny(a, "+-") < 1 || strings.LastIndexAny(b, "+-") < 1 {
		return 0, false
	}
	ev := evaluator{loc: time.UTC}
	x, xoff, errX := ev.parseTimetz(a)
	y, yoff, errY := ev.parseTimetz(b)
	if errX != nil || errY != nil {
		return 0, false
	}
	if c := cmpOrdered(x-int64(xoff)*1e6, y-int64(yoff)*1e6); c != 0 {
		return c, true
	}
	return cmpOrdered(-xoff, -yoff), true
}

// timetzPart is extract(field FROM timetz) and date_part: the fields of
// the time of day as for time, the offset (timezone, in seconds east, and
// its hours and minutes, signed), and the epoch of the time in UTC
// (10:30+05:30 is 18000).
func (ev *evaluator) timetzPart(field, s string, numericResult bool) (Value, error) {
	us, off, err := ev.parseTimetz(s)
	if err != nil {
		return null, err
	}
	switch field {
	case "timezone":
		return intV(int64(off)), nil
	case "timezone_hour":
		return intV(int64(off / 3600)), nil
	case "timezone_minute":
		return intV(int64(off / 60 % 60)), nil
	case "epoch":
		us -= int64(off) * 1e6
	case "hour", "minute", "second", "milliseconds", "microseconds":
	default:
		return null, errorf(CodeNotSupported, noPos, "unit \"%s\" not supported for type time with time zone", field)
	}
	return timeOfDayPart(field, us, numericResult)
}
