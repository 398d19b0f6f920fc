package sql

import (
	"time"

	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

// Date and timestamp functions (GoogleSQL for Bigtable has DATE and
// TIMESTAMP, no DATETIME or TIME). A date part (HOUR, WEEK(MONDAY)...) is
// bound as an upper-case STRING constant; INTERVAL n PART as two arguments,
// the INT64 count and the part (bind_time.go). The default time zone is
// UTC. Civil-date arithmetic is done on day numbers and the *time.Location
// of a zone argument is cached (funcs_timefmt.go), so fixed-width results
// do not allocate. CURRENT_DATE and CURRENT_TIMESTAMP read the clock per
// call: the binder has no query-start clock yet.
func init() {
	ts, dt, i64, str := types.Timestamp, types.Date, types.Int64, types.String
	Register("CURRENT_DATE", fixed(dt, currentDate, str), fixed(dt, currentDate))
	Register("CURRENT_TIMESTAMP", fixed(ts, func([]types.Value, *types.Type) (types.Value, error) {
		return types.TimestampValue(time.Now().UnixMicro()), nil
	}))
	Register("DATE",
		fixed(dt, dateFromParts, i64, i64, i64),
		fixed(dt, dateFromTimestamp, ts),
		fixed(dt, dateFromTimestamp, ts, str))
	Register("TIMESTAMP",
		fixed(ts, timestampFromString, str),
		fixed(ts, timestampFromString, str, str),
		fixed(ts, timestampFromDate, dt),
		fixed(ts, timestampFromDate, dt, str))
	Register("STRING", fixed(str, timestampString, ts), fixed(str, timestampString, ts, str))

	Register("DATE_ADD", fixed(dt, dateAdd, dt, i64, str))
	Register("DATE_SUB", fixed(dt, dateSub, dt, i64, str))
	Register("TIMESTAMP_ADD", fixed(ts, timestampAdd, ts, i64, str))
	Register("TIMESTAMP_SUB", fixed(ts, timestampSub, ts, i64, str))

	Register("DATE_DIFF", fixed(i64, dateDiff, dt, dt, str), fixed(i64, timestampDiff, ts, ts, str))
	Register("TIMESTAMP_DIFF", fixed(i64, timestampDiff, ts, ts, str), fixed(i64, dateDiff, dt, dt, str))
	Register("DATE_TRUNC",
		fixed(dt, dateTrunc, dt, str),
		fixed(ts, timestampTrunc, ts, str),
		fixed(ts, timestampTrunc, ts, str, str))
	Register("TIMESTAMP_TRUNC", fixed(ts, timestampTrunc, ts, str), fixed(ts, timestampTrunc, ts, str, str))
	Register("LAST_DAY", fixed(dt, lastDay, dt), fixed(dt, lastDay, dt, str))
	for _, f := range []string{"DATE_DIFF", "TIMESTAMP_DIFF", "DATE_TRUNC", "TIMESTAMP_TRUNC", "LAST_DAY"} {
		i := 1
		if f == "DATE_DIFF" || f == "TIMESTAMP_DIFF" {
			i = 2
		}
		RegisterKeywordArg(f, i, "WEEK(SUNDAY)")
		for p := tpNanosecond; p <= tpISOYear; p++ {
			if p != tpDayOfWeek && p != tpDayOfYear {
				RegisterKeywordArg(f, i, partNames[p])
			}
		}
	}

	Register("TIMESTAMP_SECONDS", fixed(ts, timestampScaled(1e6), i64))
	Register("TIMESTAMP_MILLIS", fixed(ts, timestampScaled(1e3), i64))
	Register("TIMESTAMP_MICROS", fixed(ts, timestampScaled(1), i64))
	for name, scale := range map[string]int64{"TIMESTAMP_FROM_UNIX_SECONDS": 1e6,
		"TIMESTAMP_FROM_UNIX_MILLIS": 1e3, "TIMESTAMP_FROM_UNIX_MICROS": 1} {
		Register(name, fixed(ts, timestampScaled(scale), i64), fixed(ts, identityAs(ts), ts))
	}
	Register("UNIX_SECONDS", fixed(i64, unixScaled(1e6), ts))
	Register("UNIX_MILLIS", fixed(i64, unixScaled(1e3), ts))
	Register("UNIX_MICROS", fixed(i64, unixScaled(1), ts))
	Register("UNIX_DATE", fixed(i64, identityAs(i64), dt))
	Register("DATE_FROM_UNIX_DATE", fixed(dt, func(a []types.Value, _ *types.Type) (types.Value, error) {
		d := a[0].Int64()
		if d < minDate || d > maxDate {
			return types.Value{}, sqlerr.New(sqlerr.OutOfRange, "DATE_FROM_UNIX_DATE(%d) is out of the DATE range", d)
		}
		return types.DateValue(d), nil
	}, i64))
}

// The DATE and TIMESTAMP ranges: 0001-01-01 to 9999-12-31 (UTC).
const (
	minDate  = -719162
	maxDate  = 2932896
	usPerDay = int64(86400e6)
	minTS    = minDate * usPerDay
	maxTS    = (maxDate+1)*usPerDay - 1
)

func identityAs(t *types.Type) func([]types.Value, *types.Type) (types.Value, error) {
	return func(a []types.Value, _ *types.Type) (types.Value, error) {
		switch t.Kind {
		case types.KindTimestamp:
			return types.TimestampValue(a[0].Int64()), nil
		case types.KindDate:
			return types.DateValue(a[0].Int64()), nil
		}
		return types.Int64Value(a[0].Int64()), nil
	}
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func floorMod(a, b int64) int64 { return a - floorDiv(a, b)*b }

// daysFromCivil returns the day number (days since 1970-01-01) of a
// proleptic Gregorian date; m and d must be in range.
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := floorDiv(y, 400)
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// civilFromDays is the inverse of daysFromCivil.
func civilFromDays(z int64) (y, m, d int64) {
	z += 719468
	era := floorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	m = mp + 3
	if mp >= 10 {
		m = mp - 9
	}
	y = yoe + era*400
	if m <= 2 {
		y++
	}
	return y, m, d
}

func isLeapYear(y int64) bool { return y%4 == 0 && (y%100 != 0 || y%400 == 0) }

func daysInMonth(y, m int64) int64 {
	switch m {
	case 2:
		if isLeapYear(y) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// weekday returns the day of the week of a day number, 0 = Sunday.
func dayOfWeek(days int64) int64 { return floorMod(days+4, 7) }

// isoYear returns the ISO 8601 week-numbering year of a day number.
func isoYear(days int64) int64 {
	thursday := days - floorMod(dayOfWeek(days)-1, 7) + 3
	y, _, _ := civilFromDays(thursday)
	return y
}

// isoYearStart returns the Monday that starts ISO year y.
func isoYearStart(y int64) int64 {
	jan4 := daysFromCivil(y, 1, 4)
	return jan4 - floorMod(dayOfWeek(jan4)-1, 7)
}

// isoWeek returns the ISO 8601 week number (1-53) of a day number.
func isoWeek(days int64) int64 { return (days-isoYearStart(isoYear(days)))/7 + 1 }

// weekOfYear returns the week number (0-53) of a day number with weeks
// starting on weekday wd (0 = Sunday): days before the first such weekday
// of the year are in week 0 (EXTRACT(WEEK(...)), %U, %W).
func weekOfYear(days, wd int64) int64 {
	y, _, _ := civilFromDays(days)
	jan1 := daysFromCivil(y, 1, 1)
	first := jan1 + floorMod(wd-dayOfWeek(jan1), 7)
	if days < first {
		return 0
	}
	return (days-first)/7 + 1
}

// timePart is a date or time part argument (DAY, WEEK(MONDAY), ...).
type timePart uint8

const (
	tpInvalid timePart = iota
	tpNanosecond
	tpMicrosecond
	tpMillisecond
	tpSecond
	tpMinute
	tpHour
	tpDay
	tpDayOfWeek
	tpDayOfYear
	// tpWeek is WEEK = WEEK(SUNDAY); tpWeek+k is WEEK of weekday k
	// (0 = Sunday ... 6 = Saturday).
	tpWeek
	tpWeekMonday
	tpWeekTuesday
	tpWeekWednesday
	tpWeekThursday
	tpWeekFriday
	tpWeekSaturday
	tpISOWeek
	tpMonth
	tpQuarter
	tpYear
	tpISOYear
	tpDate
)

var partNames = [...]string{"", "NANOSECOND", "MICROSECOND", "MILLISECOND", "SECOND", "MINUTE", "HOUR", "DAY",
	"DAYOFWEEK", "DAYOFYEAR", "WEEK", "WEEK(MONDAY)", "WEEK(TUESDAY)", "WEEK(WEDNESDAY)", "WEEK(THURSDAY)",
	"WEEK(FRIDAY)", "WEEK(SATURDAY)", "ISOWEEK", "MONTH", "QUARTER", "YEAR", "ISOYEAR", "DATE"}

func (p timePart) String() string { return partNames[p] }

func (p timePart) isWeek() bool { return p >= tpWeek && p <= tpWeekSaturday }

// parsePart reads a part argument (an upper-case STRING constant); the
// switch on string(b) does not allocate.
func parsePart(b []byte) timePart {
	switch string(b) {
	case "NANOSECOND":
		return tpNanosecond
	case "MICROSECOND":
		return tpMicrosecond
	case "MILLISECOND":
		return tpMillisecond
	case "SECOND":
		return tpSecond
	case "MINUTE":
		return tpMinute
	case "HOUR":
		return tpHour
	case "DAY":
		return tpDay
	case "DAYOFWEEK":
		return tpDayOfWeek
	case "DAYOFYEAR":
		return tpDayOfYear
	case "WEEK", "WEEK(SUNDAY)":
		return tpWeek
	case "WEEK(MONDAY)":
		return tpWeekMonday
	case "WEEK(TUESDAY)":
		return tpWeekTuesday
	case "WEEK(WEDNESDAY)":
		return tpWeekWednesday
	case "WEEK(THURSDAY)":
		return tpWeekThursday
	case "WEEK(FRIDAY)":
		return tpWeekFriday
	case "WEEK(SATURDAY)":
		return tpWeekSaturday
	case "ISOWEEK":
		return tpISOWeek
	case "MONTH":
		return tpMonth
	case "QUARTER":
		return tpQuarter
	case "YEAR":
		return tpYear
	case "ISOYEAR":
		return tpISOYear
	case "DATE":
		return tpDate
	}
	return tpInvalid
}

func badPart(fn string, part []byte) error {
	return sqlerr.New(sqlerr.InvalidArgument, "%s does not support the %s date part", fn, part)
}

func dateOutOfRange(fn string) error {
	return sqlerr.New(sqlerr.OutOfRange, "%s: DATE value out of range", fn)
}

func timestampOutOfRange(fn string) error {
	return sqlerr.New(sqlerr.OutOfRange, "%s: TIMESTAMP value out of range", fn)
}

func checkDate(fn string, d int64) (types.Value, error) {
	if d < minDate || d > maxDate {
		return types.Value{}, dateOutOfRange(fn)
	}
	return types.DateValue(d), nil
}

func checkTimestamp(fn string, us int64) (types.Value, error) {
	if us < minTS || us > maxTS {
		return types.Value{}, timestampOutOfRange(fn)
	}
	return types.TimestampValue(us), nil
}

// zoneArg returns the time zone of optional argument i (UTC when absent).
func zoneArg(a []types.Value, i int) (*time.Location, error) {
	if len(a) <= i {
		return time.UTC, nil
	}
	return loadZone(a[i].Bytes())
}

func currentDate(a []types.Value, _ *types.Type) (types.Value, error) {
	loc, err := zoneArg(a, 0)
	if err != nil {
		return types.Value{}, err
	}
	return types.DateValue(floorDiv(toLocal(time.Now().UnixMicro(), loc), usPerDay)), nil
}

// dateFromParts is DATE(year, month, day); out-of-range parts are an error,
// not a normalized date (GoogleSQL does not roll 2024-02-30 over).
func dateFromParts(a []types.Value, _ *types.Type) (types.Value, error) {
	y, m, d := a[0].Int64(), a[1].Int64(), a[2].Int64()
	if y < 1 || y > 9999 || m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m) {
		return types.Value{}, sqlerr.New(sqlerr.OutOfRange, "DATE(%d, %d, %d) is not a valid date", y, m, d)
	}
	return types.DateValue(daysFromCivil(y, m, d)), nil
}

func dateFromTimestamp(a []types.Value, _ *types.Type) (types.Value, error) {
	loc, err := zoneArg(a, 1)
	if err != nil {
		return types.Value{}, err
	}
	return checkDate("DATE", floorDiv(toLocal(a[0].Int64(), loc), usPerDay))
}

func timestampFromDate(a []types.Value, _ *types.Type) (types.Value, error) {
	loc, err := zoneArg(a, 1)
	if err != nil {
		return types.Value{}, err
	}
	return checkTimestamp("TIMESTAMP", fromLocal(a[0].Int64()*usPerDay, loc))
}

func timestampFromString(a []types.Value, _ *types.Type) (types.Value, error) {
	loc, err := zoneArg(a, 1)
	if err != nil {
		return types.Value{}, err
	}
	us, ok, err := parseTimestampLiteral(a[0].Bytes(), loc)
	if err != nil {
		return types.Value{}, err
	}
	if !ok {
		return types.Value{}, sqlerr.New(sqlerr.InvalidValue, "Invalid timestamp: %q", a[0].Bytes())
	}
	return checkTimestamp("TIMESTAMP", us)
}

// timestampString is STRING(ts[, tz]): "2008-12-25 15:30:00+00", with 0, 3
// or 6 fractional digits.
func timestampString(a []types.Value, _ *types.Type) (types.Value, error) {
	loc, err := zoneArg(a, 1)
	if err != nil {
		return types.Value{}, err
	}
	us := a[0].Int64()
	off := zoneOffset(us, loc)
	local := us + off*1e6
	y, mo, d := civilFromDays(floorDiv(local, usPerDay))
	tod := floorMod(local, usPerDay)
	buf := make([]byte, 0, 32)
	buf = appendTimeInt(buf, y, 4)
	buf = append(buf, '-')
	buf = appendTimeInt(buf, mo, 2)
	buf = append(buf, '-')
	buf = appendTimeInt(buf, d, 2)
	buf = append(buf, ' ')
	buf = appendTimeInt(buf, tod/3600e6, 2)
	buf = append(buf, ':')
	buf = appendTimeInt(buf, tod/60e6%60, 2)
	buf = append(buf, ':')
	buf = appendTimeInt(buf, tod/1e6%60, 2)
	switch frac := tod % 1e6; {
	case frac == 0:
	case frac%1000 == 0:
		buf = append(buf, '.')
		buf = appendTimeInt(buf, frac/1000, 3)
	default:
		buf = append(buf, '.')
		buf = appendTimeInt(buf, frac, 6)
	}
	buf = appendZoneOffset(buf, off, true)
	if n := len(buf); buf[n-3] == ':' && buf[n-2] == '0' && buf[n-1] == '0' {
		buf = buf[:n-3]
	}
	return types.StringBytesValue(buf), nil
}

// addMonths adds n months to a day number, clamping the day to the last day
// of the resulting month.
func addMonths(days, n int64) (int64, bool) {
	if n > 12*10000 || n < -12*10000 {
		return 0, false
	}
	y, m, d := civilFromDays(days)
	t := y*12 + m - 1 + n
	y, m = floorDiv(t, 12), floorMod(t, 12)+1
	if y < 1 || y > 9999 {
		return 0, false
	}
	return daysFromCivil(y, m, min(d, daysInMonth(y, m))), true
}

func dateAdd(a []types.Value, _ *types.Type) (types.Value, error) {
	return dateAddN("DATE_ADD", a[0].Int64(), a[1].Int64(), a[2].Bytes())
}

func dateSub(a []types.Value, _ *types.Type) (types.Value, error) {
	n := a[1].Int64()
	if n == -1<<63 {
		return types.Value{}, dateOutOfRange("DATE_SUB")
	}
	return dateAddN("DATE_SUB", a[0].Int64(), -n, a[2].Bytes())
}

func dateAddN(fn string, d, n int64, part []byte) (types.Value, error) {
	var out int64
	ok := true
	switch p := parsePart(part); p {
	case tpDay, tpWeek:
		mul := int64(1)
		if p == tpWeek {
			mul = 7
		}
		if n > 1e8 || n < -1e8 {
			return types.Value{}, dateOutOfRange(fn)
		}
		out = d + n*mul
	case tpMonth:
		out, ok = addMonths(d, n)
	case tpQuarter:
		out, ok = addMonths(d, n*3)
		ok = ok && n <= 1e8 && n >= -1e8
	case tpYear:
		out, ok = addMonths(d, n*12)
		ok = ok && n <= 1e8 && n >= -1e8
	default:
		return types.Value{}, badPart(fn, part)
	}
	if !ok {
		return types.Value{}, dateOutOfRange(fn)
	}
	return checkDate(fn, out)
}

// partMicros returns the length of a fixed-size part in microseconds; 0 for
// NANOSECOND, -1 for parts of variable length.
func partMicros(p timePart) int64 {
	switch p {
	case tpNanosecond:
		return 0
	case tpMicrosecond:
		return 1
	case tpMillisecond:
		return 1e3
	case tpSecond:
		return 1e6
	case tpMinute:
		return 60e6
	case tpHour:
		return 3600e6
	case tpDay:
		return usPerDay
	}
	return -1
}

func timestampAdd(a []types.Value, _ *types.Type) (types.Value, error) {
	return timestampAddN("TIMESTAMP_ADD", a[0].Int64(), a[1].Int64(), a[2].Bytes())
}

func timestampSub(a []types.Value, _ *types.Type) (types.Value, error) {
	n := a[1].Int64()
	if n == -1<<63 {
		return types.Value{}, timestampOutOfRange("TIMESTAMP_SUB")
	}
	return timestampAddN("TIMESTAMP_SUB", a[0].Int64(), -n, a[2].Bytes())
}

func timestampAddN(fn string, us, n int64, part []byte) (types.Value, error) {
	unit := partMicros(parsePart(part))
	var delta int64
	switch {
	case unit < 0:
		return types.Value{}, badPart(fn, part)
	case unit == 0:
		delta = n / 1000
	default:
		delta = n * unit
		if n != 0 && (delta/unit != n || delta > maxTS-minTS || delta < minTS-maxTS) {
			return types.Value{}, timestampOutOfRange(fn)
		}
	}
	return checkTimestamp(fn, us+delta)
}

func dateDiff(a []types.Value, _ *types.Type) (types.Value, error) {
	x, y := a[0].Int64(), a[1].Int64()
	switch p := parsePart(a[2].Bytes()); {
	case p == tpDay:
		return types.Int64Value(x - y), nil
	case p.isWeek() || p == tpISOWeek:
		return types.Int64Value((truncDays(x, p) - truncDays(y, p)) / 7), nil
	case p == tpMonth || p == tpQuarter || p == tpYear:
		xy, xm, _ := civilFromDays(x)
		yy, ym, _ := civilFromDays(y)
		switch p {
		case tpMonth:
			return types.Int64Value(xy*12 + xm - yy*12 - ym), nil
		case tpQuarter:
			return types.Int64Value(xy*4 + (xm-1)/3 - yy*4 - (ym-1)/3), nil
		}
		return types.Int64Value(xy - yy), nil
	case p == tpISOYear:
		return types.Int64Value(isoYear(x) - isoYear(y)), nil
	}
	return types.Value{}, badPart("DATE_DIFF", a[2].Bytes())
}

func timestampDiff(a []types.Value, _ *types.Type) (types.Value, error) {
	d := a[0].Int64() - a[1].Int64()
	switch unit := partMicros(parsePart(a[2].Bytes())); {
	case unit < 0:
		return types.Value{}, badPart("TIMESTAMP_DIFF", a[2].Bytes())
	case unit == 0:
		if d > (1<<63-1)/1000 || d < -(1<<63-1)/1000 {
			return types.Value{}, sqlerr.New(sqlerr.OutOfRange,
				"TIMESTAMP_DIFF at NANOSECOND precision between values of %s and %s causes overflow", a[0], a[1])
		}
		return types.Int64Value(d * 1000), nil
	default:
		return types.Int64Value(d / unit), nil
	}
}

// truncDays truncates a day number to the start of a date part; parts
// below DAY leave it unchanged. The result may be outside the DATE range.
func truncDays(d int64, p timePart) int64 {
	switch {
	case p.isWeek():
		return d - floorMod(dayOfWeek(d)-int64(p-tpWeek), 7)
	case p == tpISOWeek:
		return d - floorMod(dayOfWeek(d)-1, 7)
	case p == tpISOYear:
		return isoYearStart(isoYear(d))
	case p == tpMonth || p == tpQuarter || p == tpYear:
		y, m, _ := civilFromDays(d)
		switch p {
		case tpQuarter:
			m = (m-1)/3*3 + 1
		case tpYear:
			m = 1
		}
		return daysFromCivil(y, m, 1)
	}
	return d
}

func isDatePart(p timePart) bool {
	return p == tpDay || p.isWeek() || p == tpISOWeek || p == tpMonth || p == tpQuarter || p == tpYear || p == tpISOYear
}

func dateTrunc(a []types.Value, _ *types.Type) (types.Value, error) {
	p := parsePart(a[1].Bytes())
	if !isDatePart(p) {
		return types.Value{}, badPart("DATE_TRUNC", a[1].Bytes())
	}
	return checkDate("DATE_TRUNC", truncDays(a[0].Int64(), p))
}

// timestampTrunc is TIMESTAMP_TRUNC(ts, part[, tz]). Parts of a day or more
// truncate the civil time in the zone; HOUR and MINUTE subtract the civil
// minutes and seconds from the timestamp, as GoogleSQL does.
func timestampTrunc(a []types.Value, _ *types.Type) (types.Value, error) {
	us := a[0].Int64()
	p := parsePart(a[1].Bytes())
	if p == tpNanosecond || p == tpMicrosecond {
		return types.TimestampValue(us), nil
	}
	if unit := partMicros(p); unit > 0 && unit < 60e6 {
		return types.TimestampValue(floorDiv(us, unit) * unit), nil
	}
	loc, err := zoneArg(a, 2)
	if err != nil {
		return types.Value{}, err
	}
	local := toLocal(us, loc)
	switch {
	case p == tpMinute || p == tpHour:
		unit := partMicros(p)
		return types.TimestampValue(us - floorMod(local, unit)), nil
	case isDatePart(p):
		d := truncDays(floorDiv(local, usPerDay), p)
		return checkTimestamp("TIMESTAMP_TRUNC", fromLocal(d*usPerDay, loc))
	}
	return types.Value{}, badPart("TIMESTAMP_TRUNC", a[1].Bytes())
}

// lastDay is LAST_DAY(date[, part]); the part defaults to MONTH.
func lastDay(a []types.Value, _ *types.Type) (types.Value, error) {
	d := a[0].Int64()
	p := tpMonth
	if len(a) > 1 {
		p = parsePart(a[1].Bytes())
	}
	var out int64
	switch {
	case p.isWeek() || p == tpISOWeek:
		out = truncDays(d, p) + 6
	case p == tpMonth:
		y, m, _ := civilFromDays(d)
		out = daysFromCivil(y, m, daysInMonth(y, m))
	case p == tpQuarter:
		y, m, _ := civilFromDays(d)
		m = (m-1)/3*3 + 3
		out = daysFromCivil(y, m, daysInMonth(y, m))
	case p == tpYear:
		y, _, _ := civilFromDays(d)
		out = daysFromCivil(y, 12, 31)
	case p == tpISOYear:
		out = isoYearStart(isoYear(d)+1) - 1
	default:
		return types.Value{}, badPart("LAST_DAY", a[1].Bytes())
	}
	return checkDate("LAST_DAY", out)
}

// extractPart is EXTRACT(part FROM x [AT TIME ZONE tz]) for a DATE (a
// day number, local = days*usPerDay) or a TIMESTAMP converted to local
// microseconds.
func extractPart(local int64, p timePart) int64 {
	days := floorDiv(local, usPerDay)
	tod := local - days*usPerDay
	switch {
	case p == tpNanosecond:
		return tod % 1e6 * 1000
	case p == tpMicrosecond:
		return tod % 1e6
	case p == tpMillisecond:
		return tod % 1e6 / 1000
	case p == tpSecond:
		return tod / 1e6 % 60
	case p == tpMinute:
		return tod / 60e6 % 60
	case p == tpHour:
		return tod / 3600e6
	case p == tpDayOfWeek:
		return dayOfWeek(days) + 1
	case p == tpDayOfYear:
		y, _, _ := civilFromDays(days)
		return days - daysFromCivil(y, 1, 1) + 1
	case p.isWeek():
		return weekOfYear(days, int64(p-tpWeek))
	case p == tpISOWeek:
		return isoWeek(days)
	case p == tpISOYear:
		return isoYear(days)
	case p == tpDate:
		return days
	}
	y, m, d := civilFromDays(days)
	switch p {
	case tpDay:
		return d
	case tpMonth:
		return m
	case tpQuarter:
		return (m-1)/3 + 1
	}
	return y
}

func extractDate(a []types.Value, ret *types.Type) (types.Value, error) {
	v := extractPart(a[0].Int64()*usPerDay, parsePart(a[1].Bytes()))
	return types.Int64Value(v), nil
}

func extractTimestamp(a []types.Value, ret *types.Type) (types.Value, error) {
	loc, err := zoneArg(a, 2)
	if err != nil {
		return types.Value{}, err
	}
	v := extractPart(toLocal(a[0].Int64(), loc), parsePart(a[1].Bytes()))
	if ret.Kind == types.KindDate {
		return checkDate("EXTRACT", v)
	}
	return types.Int64Value(v), nil
}

func timestampScaled(scale int64) func([]types.Value, *types.Type) (types.Value, error) {
	return func(a []types.Value, _ *types.Type) (types.Value, error) {
		n := a[0].Int64()
		if n > maxTS/scale || n < minTS/scale {
			return types.Value{}, sqlerr.New(sqlerr.OutOfRange, "%d is out of the TIMESTAMP range", n)
		}
		return types.TimestampValue(n * scale), nil
	}
}

func unixScaled(scale int64) func([]types.Value, *types.Type) (types.Value, error) {
	return func(a []types.Value, _ *types.Type) (types.Value, error) {
		return types.Int64Value(floorDiv(a[0].Int64(), scale)), nil
	}
}
