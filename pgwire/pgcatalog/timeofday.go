package pgcatalog

import (
	"errors"
	"strconv"
	"strings"
	"time"
)

// The time type (time without time zone): a time of day, held as its
// output text HH:MM:SS[.ffffff], which orders as the times do. It is what
// ts::time and localtime give, and takes + and - with intervals (wrapping
// at midnight), - with another time, and + with a date.

const microsPerDay = int64(86400e6)

// parseTimeOfDay reads time input: H[H]:MM[:SS[.frac]], or the time of a
// timestamp's text.
func parseTimeOfDay(s string) (int64, error) {
	in := strings.TrimSpace(s)
	if t, ok := parseTime(in); ok && len(in) > 10 {
		return clockMicros(t), nil
	}
	bad := errorf(CodeInvalidDatetimeFormat, noPos, "invalid input syntax for type time: \"%s\"", s)
	parts := strings.Split(in, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, bad
	}
	h, err1 := strconv.Atoi(parts[0])
	m, err2 := strconv.Atoi(parts[1])
	sec := 0.0
	var err3 error
	if len(parts) == 3 {
		sec, err3 = strconv.ParseFloat(parts[2], 64)
	}
	if err1 != nil || err2 != nil || err3 != nil || len(parts[1]) != 2 {
		return 0, bad
	}
	us := int64(h)*3600e6 + int64(m)*60e6 + int64(sec*1e6+0.5)
	if h < 0 || m < 0 || m > 59 || sec < 0 || sec >= 61 || us > microsPerDay {
		return 0, errorf("22008", noPos, "date/time field value out of range: \"%s\"", s)
	}
	return us, nil
}

// clockMicros is t's time of day in microseconds.
func clockMicros(t time.Time) int64 {
	h, m, s := t.Clock()
	return int64(h)*3600e6 + int64(m)*60e6 + int64(s)*1e6 + int64(t.Nanosecond()/1000)
}

// timeOfDay prints a time of day as time_out does.
func timeOfDay(us int64) Value {
	t := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(us) * time.Microsecond)
	if us == microsPerDay {
		return textV("24:00:00")
	}
	return textV(t.Format("15:04:05.999999"))
}

// castToTime converts a value of type from to a time of day: a timestamptz
// in the session's zone, a timetz without its offset, an interval's time
// part (its days and months left out) modulo a day, as interval_time.
func (ev *evaluator) castToTime(v Value, from uint32) (Value, error) {
	switch from {
	case tTimestamptz, tTimestamp:
		t, err := ev.localTime(v, from)
		if err != nil {
			return null, err
		}
		return timeOfDay(clockMicros(t)), nil
	case tTimetz:
		us, _, err := ev.parseTimetz(v.s)
		if err != nil {
			return null, err
		}
		return timeOfDay(us), nil
	case tInterval:
		iv, err := parseInterval(v.s)
		if err != nil {
			return null, err
		}
		return timeOfDay((iv.micros%microsPerDay + microsPerDay) % microsPerDay), nil
	}
	s := ev.text(v, from)
	us, err := parseTimeOfDay(s)
	if err != nil {
		// Time input reads a UTC offset after the time, as timetz's does,
		// and leaves it out ('10:00+02'::time is 10:00:00); its errors
		// other than bad syntax (which would name timetz) are time's too.
		tus, _, terr := ev.parseTimetz(s)
		var e *Error
		switch {
		case terr == nil:
			us, err = tus, nil
		case errors.As(terr, &e) && e.Code != CodeInvalidDatetimeFormat:
			err = terr
		}
	}
	if err != nil {
		return null, err
	}
	return timeOfDay(us), nil
}

// timeOfDayArith binds time ± interval, interval + time, time - time and
// date + time (either way round); ok is false for other operand types.
func (b *binder) timeOfDayArith(op string, l, r *cexpr) (*cexpr, bool) {
	switch {
	case op == "+" && (l.typ == tInterval || l.typ == tDate) && r.typ == tTime:
		l, r = r, l
	case op == "-" && l.typ == tTime && (r.typ == tTime || r.untyped):
		return strictBinary(tInterval, l, b.coerce(r, tTime), func(x, y Value) (Value, error) {
			a, err := parseTimeOfDay(x.s)
			if err != nil {
				return null, err
			}
			c, err := parseTimeOfDay(y.s)
			if err != nil {
				return null, err
			}
			return textV(interval{micros: a - c}.String()), nil
		}), true
	}
	if l.typ != tTime {
		return nil, false
	}
	switch {
	case op == "+" && r.typ == tDate:
		return strictBinary(tTimestamp, l, r, func(x, y Value) (Value, error) {
			us, err := parseTimeOfDay(x.s)
			if err != nil {
				return null, err
			}
			d, err := timeArg(y)
			if err != nil {
				return null, err
			}
			return timeValue(d.Add(time.Duration(us)*time.Microsecond), tTimestamp), nil
		}), true
	case (op == "+" || op == "-") && (r.typ == tInterval || r.untyped):
		sign := int64(1)
		if op == "-" {
			sign = -1
		}
		return strictBinary(tTime, l, b.coerce(r, tInterval), func(x, y Value) (Value, error) {
			us, err := parseTimeOfDay(x.s)
			if err != nil {
				return null, err
			}
			iv, err := parseInterval(y.s)
			if err != nil {
				return null, err
			}
			// Only the interval's time counts, modulo a day (time_pl_interval).
			us = ((us+sign*iv.micros)%microsPerDay + microsPerDay) % microsPerDay
			return timeOfDay(us), nil
		}), true
	}
	return nil, false
}

// timeOfDayPart is extract(field FROM time) and date_part.
func timeOfDayPart(field string, us int64, numericResult bool) (Value, error) {
	sec := us % 60e6
	switch field {
	case "hour":
		return intV(us / 3600e6), nil
	case "minute":
		return intV(us / 60e6 % 60), nil
	case "second", "milliseconds", "microseconds", "epoch":
		n := &numeric{}
		switch field {
		case "second":
			n.unscaled.SetInt64(sec)
			n.scale = 6
		case "milliseconds":
			n.unscaled.SetInt64(sec)
			n.scale = 3
		case "microseconds":
			n.unscaled.SetInt64(sec)
		default:
			n.unscaled.SetInt64(us)
			n.scale = 6
		}
		if numericResult {
			return numericV(n), nil
		}
		return floatV(n.float()), nil
	}
	return null, errorf(CodeNotSupported, noPos, "unit \"%s\" not supported for type time without time zone", field)
}
