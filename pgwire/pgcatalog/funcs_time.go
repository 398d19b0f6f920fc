package pgcatalog

import (
	"math"
	"strings"
	"time"
)

// Date and time functions, for PostgreSQL-dialect queries over Shale's
// tables (a row-key schema's timestamp fields are timestamptz columns):
// extract and date_part, date_trunc and to_timestamp, which Grafana's
// $__timeEpoch and $__timeGroup macros and its users' queries call, and AT
// TIME ZONE. A timestamptz reads as a wall time in the session's TimeZone
// (zone.go).

func init() {
	register("extract", &builtin{min: 2, args: []uint32{tText, tTimestamptz}, ret: tNumeric, fn: byUnit(extract)})
	register("date_part", &builtin{min: 2, args: []uint32{tText, tTimestamptz}, ret: tFloat8, fn: byUnit(datePart)})
	register("timezone", &builtin{min: 2, max: 2, args: []uint32{tText, tTimestamptz}, retFn: atTimeZoneType, fn: atTimeZone})
	register("date_trunc", &builtin{min: 2, max: 3, args: []uint32{tText, tTimestamptz, tText}, retFn: func(t []uint32) uint32 {
		if t[1] == tTimestamp || t[1] == tInterval {
			return t[1]
		}
		return tTimestamptz // a date reads as a timestamptz, the preferred type
	}, fn: byUnit(dateTrunc)})
	register("to_timestamp", &builtin{min: 1, max: 2, args: []uint32{tText, tText}, ret: tTimestamptz, fn: func(ev *evaluator, a []Value, _ []uint32) (Value, error) {
		if len(a) == 2 {
			return toTimestampText(ev, a[0].s, a[1].s)
		}
		sec, ok := a[0].asFloat() // to_timestamp(double precision), or its text
		if !ok {
			return null, errorf(CodeInvalidText, noPos, "invalid input syntax for type double precision: \"%s\"", a[0].s)
		}
		switch {
		case math.IsNaN(sec):
			return null, errorf("22008", noPos, "timestamp cannot be NaN")
		case math.IsInf(sec, 1):
			return textV("infinity"), nil
		case math.IsInf(sec, -1):
			return textV("-infinity"), nil
		}
		if math.Abs(sec) > 9.2e12 {
			return null, errorf(CodeOutOfRange, noPos, "timestamp out of range: \"%s\"", formatFloat(sec))
		}
		whole, frac := math.Modf(sec)
		t := time.Unix(int64(whole), int64(math.Round(frac*1e6))*1000).UTC()
		return timeValue(t, tTimestamptz), nil
	}})
}

// timeArg reads a date or timestamp value (castTime's output form).
func timeArg(v Value) (time.Time, error) {
	if t, ok := parseTime(v.s); ok {
		return t.UTC(), nil
	}
	return time.Time{}, errorf(CodeInvalidDatetimeFormat, noPos, "invalid input syntax for type timestamp with time zone: \"%s\"", v.s)
}

// datePart is extract(field FROM t) and date_part(field, t).
func datePart(ev *evaluator, a []Value, t []uint32) (Value, error) {
	if t[1] == tInterval {
		v, err := intervalPart(strings.ToLower(a[0].s), a[1].s)
		if err != nil {
			return null, err
		}
		f, _ := v.asFloat()
		return floatV(f), nil
	}
	if t[1] == tTime || t[1] == tTimetz {
		var v Value
		var err error
		if t[1] == tTimetz {
			v, err = ev.timetzPart(strings.ToLower(a[0].s), a[1].s, false)
		} else {
			var us int64
			if us, err = parseTimeOfDay(a[1].s); err != nil {
				return null, err
			}
			v, err = timeOfDayPart(strings.ToLower(a[0].s), us, false)
		}
		if v.k == kInt {
			v = floatV(float64(v.i))
		}
		return v, err
	}
	ts, err := ev.localTime(a[1], t[1])
	if err != nil {
		return null, err
	}
	field := strings.ToLower(a[0].s)
	sec := float64(ts.Second()) + float64(ts.Nanosecond())/1e9
	year := ts.Year()
	isoYear, isoWeek := ts.ISOWeek()
	var v float64
	switch field {
	case "epoch":
		v = float64(ts.Unix()) + float64(ts.Nanosecond()/1000)/1e6
	case "year":
		v = float64(year)
	case "month":
		v = float64(ts.Month())
	case "day":
		v = float64(ts.Day())
	case "hour":
		v = float64(ts.Hour())
	case "minute":
		v = float64(ts.Minute())
	case "second":
		v = sec
	case "milliseconds":
		v = sec * 1000
	case "microseconds":
		v = float64(ts.Second()*1_000_000 + ts.Nanosecond()/1000)
	case "dow":
		v = float64(ts.Weekday())
	case "isodow":
		v = float64((int(ts.Weekday())+6)%7 + 1)
	case "doy":
		v = float64(ts.YearDay())
	case "week":
		v = float64(isoWeek)
	case "isoyear":
		v = float64(isoYear)
	case "quarter":
		v = float64((int(ts.Month())-1)/3 + 1)
	case "decade":
		v = math.Floor(float64(year) / 10)
	case "century":
		v = float64((year + 99) / 100)
	case "millennium":
		v = float64((year + 999) / 1000)
	case "julian":
		v = float64(julianDay(ts)) + float64(clockMicros(ts))/86_400e6
	case "timezone", "timezone_hour", "timezone_minute":
		if t[1] != tTimestamptz {
			return null, unitError(field, t[1])
		}
		_, off := ts.Zone()
		v = map[string]float64{"timezone": float64(off), "timezone_hour": float64(off / 3600), "timezone_minute": float64(off % 3600 / 60)}[field]
	default:
		return null, unitError(field, t[1])
	}
	return floatV(v), nil
}

// extract is date_part as a numeric: exact, with microseconds for the
// epoch and seconds and thousandths for milliseconds, as PostgreSQL 14 and
// later give them (1588291200.500000).
func extract(ev *evaluator, a []Value, t []uint32) (Value, error) {
	field := strings.ToLower(a[0].s)
	if t[1] == tInterval {
		return intervalPart(field, a[1].s)
	}
	if t[1] == tTime {
		us, err := parseTimeOfDay(a[1].s)
		if err != nil {
			return null, err
		}
		return timeOfDayPart(field, us, true)
	}
	if t[1] == tTimetz {
		return ev.timetzPart(field, a[1].s, true)
	}
	if field == "julian" && t[1] != tDate {
		// The day's number plus its fraction, divided as numerics divide.
		ts, err := ev.localTime(a[1], t[1])
		if err != nil {
			return null, err
		}
		frac, err := numericFromInt(clockMicros(ts)).div(numericFromInt(86_400_000_000))
		if err != nil {
			return null, err
		}
		n, err := numericArith("+", numericFromInt(julianDay(ts)), frac)
		if err != nil {
			return null, err
		}
		return numericV(n), nil
	}
	if t[1] == tDate {
		switch field {
		case "hour", "minute", "second", "milliseconds", "microseconds", "timezone", "timezone_hour", "timezone_minute":
			// extract_date refuses a time of day's parts, where date_part,
			// reading the date as a timestamp, gives 0.
			return null, errorf(CodeNotSupported, noPos, "unit \"%s\" not supported for type date", field)
		}
	}
	scale := map[string]int32{"epoch": 6, "second": 6, "milliseconds": 3}[field]
	if scale == 0 || t[1] == tDate {
		return datePart(ev, a, t)
	}
	ts, err := ev.localTime(a[1], t[1])
	if err != nil {
		return null, err
	}
	n := &numeric{scale: scale}
	if field == "epoch" {
		n.unscaled.SetInt64(ts.UnixMicro())
	} else {
		n.unscaled.SetInt64(int64(ts.Second())*1_000_000 + int64(ts.Nanosecond()/1000))
	}
	return numericV(n), nil
}

// intervalPart is extract(field FROM interval), a numeric: epoch counts a
// year as 365.25 days and a month as 30, as PostgreSQL's interval_part
// does; seconds and the epoch keep microseconds.
func intervalPart(field, text string) (Value, error) {
	iv, err := parseInterval(text)
	if err != nil {
		return null, err
	}
	micros := func(us int64, scale int32) Value {
		n := &numeric{scale: scale}
		n.unscaled.SetInt64(us)
		return numericV(n)
	}
	switch field {
	case "epoch":
		secs := iv.months/12*31_557_600 + iv.months%12*2_592_000 + iv.days*86400 // 365.25 and 30 days
		return micros(secs*1_000_000+iv.micros, 6), nil
	case "year":
		return numericV(numericFromInt(iv.months / 12)), nil
	case "month":
		return numericV(numericFromInt(iv.months % 12)), nil
	case "quarter":
		return numericV(numericFromInt(iv.months%12/3 + 1)), nil
	case "decade":
		return numericV(numericFromInt(iv.months / 120)), nil
	case "century":
		return numericV(numericFromInt(iv.months / 1200)), nil
	case "millennium":
		return numericV(numericFromInt(iv.months / 12000)), nil
	case "day":
		return numericV(numericFromInt(iv.days)), nil
	case "hour":
		return numericV(numericFromInt(iv.micros / 3600e6)), nil
	case "minute":
		return numericV(numericFromInt(iv.micros / 60e6 % 60)), nil
	case "second":
		return micros(iv.micros%60e6, 6), nil
	case "milliseconds":
		return micros(iv.micros%60e6, 3), nil
	case "microseconds":
		return numericV(numericFromInt(iv.micros % 60e6)), nil
	}
	if !knownUnits[field] {
		return null, unitError(field, tInterval)
	}
	return null, errorf(CodeInvalidParameter, noPos, "unit \"%s\" not supported for type interval", field)
}

// intervalTrunc is date_trunc(field, interval), as interval_trunc: the
// fields below field zeroed, each truncated toward zero.
func intervalTrunc(field, text string) (Value, error) {
	iv, err := parseInterval(text)
	if err != nil {
		return null, err
	}
	years, months := iv.months/12, iv.months%12
	days, us := iv.days, iv.micros
	hours, mins, secs, frac := us/3600e6, us/60e6%60, us/1e6%60, us%1e6
	switch field {
	case "millennium", "millennia":
		years, months, days, hours, mins, secs, frac = years/1000*1000, 0, 0, 0, 0, 0, 0
	case "century", "centuries":
		years, months, days, hours, mins, secs, frac = years/100*100, 0, 0, 0, 0, 0, 0
	case "decade", "decades":
		years, months, days, hours, mins, secs, frac = years/10*10, 0, 0, 0, 0, 0, 0
	case "year", "years":
		months, days, hours, mins, secs, frac = 0, 0, 0, 0, 0, 0
	case "quarter":
		months, days, hours, mins, secs, frac = months/3*3, 0, 0, 0, 0, 0
	case "month", "months":
		days, hours, mins, secs, frac = 0, 0, 0, 0, 0
	case "day", "days":
		hours, mins, secs, frac = 0, 0, 0, 0
	case "hour", "hours":
		mins, secs, frac = 0, 0, 0
	case "minute", "minutes":
		secs, frac = 0, 0
	case "second", "seconds":
		frac = 0
	case "milliseconds":
		frac = frac / 1000 * 1000
	case "microseconds":
	case "week", "weeks":
		e := errorf(CodeNotSupported, noPos, "unit \"%s\" not supported for type interval", field)
		e.Detail = "Months usually have fractional weeks."
		return null, e
	default:
		return null, unitError(field, tInterval)
	}
	out := interval{months: years*12 + months, days: days, micros: ((hours*60+mins)*60+secs)*1e6 + frac}
	return textV(out.String()), nil
}

func unitError(field string, typ uint32) error {
	return errorf(CodeInvalidParameter, noPos, "unit \"%s\" not recognized for type %s", field, formatType(typ, -1))
}

// dateTrunc is date_trunc(field, t [, zone]): a timestamptz is truncated
// as a wall time in zone, by default the session's.
func dateTrunc(ev *evaluator, a []Value, t []uint32) (Value, error) {
	if t[1] == tInterval {
		if len(a) > 2 {
			return null, errorf(CodeUndefinedFunc, noPos, "function date_trunc(text, interval, text) does not exist")
		}
		return intervalTrunc(strings.ToLower(a[0].s), a[1].s)
	}
	ts, err := ev.localTime(a[1], t[1])
	if err != nil {
		return null, err
	}
	typ := t[1]
	if typ == tDate { // as date_trunc(text, timestamptz) reads it: midnight in the session's zone
		y, m, d := ts.Date()
		ts, typ = wallTime(y, m, d, 0, 0, 0, 0, ev.zone()), tTimestamptz
	}
	if len(a) > 2 && typ == tTimestamptz {
		loc, err := zoneArg(strings.TrimSpace(a[2].s))
		if err != nil {
			return null, errorf(CodeInvalidParameter, noPos, "time zone \"%s\" not recognized", a[2].s)
		}
		ts = ts.In(loc)
	}
	loc := ts.Location()
	y, m, d := ts.Date()
	var out time.Time
	switch strings.ToLower(a[0].s) {
	case "microseconds":
		out = ts.Truncate(time.Microsecond)
	case "milliseconds":
		out = ts.Truncate(time.Millisecond)
	case "second":
		out = ts.Truncate(time.Second)
	case "minute":
		out = ts.Truncate(time.Minute)
	case "hour":
		out = wallTime(y, m, d, ts.Hour(), 0, 0, 0, loc)
	case "day":
		out = wallTime(y, m, d, 0, 0, 0, 0, loc)
	case "week":
		out = wallTime(y, m, d-(int(ts.Weekday())+6)%7, 0, 0, 0, 0, loc)
	case "month":
		out = wallTime(y, m, 1, 0, 0, 0, 0, loc)
	case "quarter":
		out = wallTime(y, m-(m-1)%3, 1, 0, 0, 0, 0, loc)
	case "year":
		out = wallTime(y, 1, 1, 0, 0, 0, 0, loc)
	case "decade":
		out = wallTime(y-y%10, 1, 1, 0, 0, 0, 0, loc)
	case "century":
		out = wallTime((y-1)/100*100+1, 1, 1, 0, 0, 0, 0, loc)
	case "millennium":
		out = wallTime((y-1)/1000*1000+1, 1, 1, 0, 0, 0, 0, loc)
	default:
		return null, errorf(CodeInvalidParameter, noPos, "unit \"%s\" not recognized for type %s", a[0].s, formatType(typ, -1))
	}
	return timeValue(instantIfZoned(out, typ), typ), nil
}

// julianDay is the Julian day number of t's date (its wall date): days
// since 24 November 4714 BC in the proleptic Gregorian calendar.
func julianDay(t time.Time) int64 {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC).Unix()/86400 + 2_440_588
}
