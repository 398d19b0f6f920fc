package sql

import (
	"strings"
	"sync"
	"time"
	_ "time/tzdata" // time zone names do not depend on the machine's tz database

	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

// Time zones, timestamp text, and the format elements of FORMAT_DATE,
// FORMAT_TIMESTAMP, PARSE_DATE and PARSE_TIMESTAMP (GoogleSQL's, which are
// strftime's in the C locale plus %E*S, %E<n>S, %E4Y, %Ez, %Q, %J and a %Z of
// the form UTC-7). Format strings and time zones are compiled once and kept
// in small bounded caches.
func init() {
	str := types.String
	Register("FORMAT_DATE", fixed(str, formatDate, str, types.Date))
	Register("FORMAT_TIMESTAMP",
		fixed(str, formatTimestamp, str, types.Timestamp),
		fixed(str, formatTimestamp, str, types.Timestamp, str))
	Register("PARSE_DATE", fixed(types.Date, parseDate, str, str))
	Register("PARSE_TIMESTAMP",
		fixed(types.Timestamp, parseTimestamp, str, str),
		fixed(types.Timestamp, parseTimestamp, str, str, str))
}

// timeCache maps strings to compiled values; it forgets everything when
// full. Lookups by a []byte key do not allocate.
type timeCache[V any] struct {
	mu sync.RWMutex
	m  map[string]V
}

func (c *timeCache[V]) get(key []byte, build func(string) V) V {
	c.mu.RLock()
	v, ok := c.m[string(key)]
	c.mu.RUnlock()
	if ok {
		return v
	}
	k := string(key)
	v = build(k)
	c.mu.Lock()
	if c.m == nil || len(c.m) >= 512 {
		c.m = map[string]V{}
	}
	c.m[k] = v
	c.mu.Unlock()
	return v
}

type zoneEntry struct {
	loc *time.Location
	err error
}

var zoneCache timeCache[zoneEntry]

// loadZone resolves a time zone argument: a tz database name
// ("America/Los_Angeles") or an offset "[UTC]+H[H][[:]MM]" ("-08",
// "+07:30", "UTC+3").
func loadZone(b []byte) (*time.Location, error) {
	if string(b) == "UTC" {
		return time.UTC, nil
	}
	e := zoneCache.get(b, func(name string) zoneEntry {
		loc, err := makeZone(name)
		return zoneEntry{loc, err}
	})
	return e.loc, e.err
}

func makeZone(name string) (*time.Location, error) {
	bad := sqlerr.New(sqlerr.InvalidValue, "Invalid time zone: %s", name)
	if off, isOffset, ok := parseOffsetZone(name); isOffset {
		if !ok {
			return nil, bad
		}
		if off == 0 {
			return time.UTC, nil
		}
		return time.FixedZone(name, int(off)), nil
	}
	if name == "" || name == "Local" {
		return nil, bad
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, bad
	}
	return loc, nil
}

// parseOffsetZone parses "[UTC]{+|-}H[H][[:]M[M]]" into seconds east of
// UTC; isOffset reports the form matched, ok that the offset is valid
// (at most 14:00).
func parseOffsetZone(s string) (off int64, isOffset, ok bool) {
	s = strings.TrimPrefix(s, "UTC")
	if s == "" || (s[0] != '+' && s[0] != '-') {
		return 0, false, false
	}
	sign := int64(1)
	if s[0] == '-' {
		sign = -1
	}
	h, rest, n := timeDigits(s[1:], 2)
	if n == 0 {
		return 0, false, false
	}
	var m int64
	if rest != "" {
		rest = strings.TrimPrefix(rest, ":")
		var k int
		m, rest, k = timeDigits(rest, 2)
		if k == 0 || rest != "" {
			return 0, false, false
		}
	}
	if h > 14 || m > 59 || (h == 14 && m != 0) {
		return 0, true, false
	}
	return sign * (h*3600 + m*60), true, true
}

func timeDigits(s string, max int) (v int64, rest string, n int) {
	for n < len(s) && n < max && s[n] >= '0' && s[n] <= '9' {
		v = v*10 + int64(s[n]-'0')
		n++
	}
	return v, s[n:], n
}

// zoneOffset returns the UTC offset of loc at instant us in seconds,
// truncated to whole minutes as GoogleSQL does (LMT offsets like -7:52:58).
func zoneOffset(us int64, loc *time.Location) int64 {
	if loc == time.UTC {
		return 0
	}
	_, off := time.Unix(floorDiv(us, 1e6), 0).In(loc).Zone()
	return int64(off) / 60 * 60
}

// toLocal returns the civil time of instant us in loc, as microseconds
// since the epoch of a UTC clock showing that civil time.
func toLocal(us int64, loc *time.Location) int64 {
	return us + zoneOffset(us, loc)*1e6
}

// fromLocal is the inverse of toLocal. A civil time that occurs twice (a
// DST fall-back) maps to its first occurrence; one skipped by a DST gap is
// read with the offset before the gap (absl's "pre" instant, as GoogleSQL
// does).
func fromLocal(local int64, loc *time.Location) int64 {
	if loc == time.UTC {
		return local
	}
	before, after := zoneOffset(local-usPerDay, loc), zoneOffset(local+usPerDay, loc)
	tb, ta := local-before*1e6, local-after*1e6
	if before == after || zoneOffset(tb, loc) == before {
		return tb
	}
	if zoneOffset(ta, loc) == after {
		return ta
	}
	return tb
}

// parseTimestampLiteral parses GoogleSQL's canonical timestamp text,
// YYYY-[M]M-[D]D[( |T)[H]H:[M]M[:[S]S[.F]]][zone] where zone is Z, an
// offset, " UTC" or " <tz name>"; without a zone the civil time is read in
// loc. ok is false when the text is malformed; err reports a bad zone name.
func parseTimestampLiteral(b []byte, loc *time.Location) (us int64, ok bool, err error) {
	s := strings.TrimSpace(string(b))
	y, s, n := timeDigits(s, 5)
	if n < 4 || !strings.HasPrefix(s, "-") {
		return 0, false, nil
	}
	mo, s, n := timeDigits(s[1:], 2)
	if n == 0 || !strings.HasPrefix(s, "-") {
		return 0, false, nil
	}
	d, s, n := timeDigits(s[1:], 2)
	if n == 0 || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) {
		return 0, false, nil
	}
	var h, mi, sec, frac int64
	if s != "" {
		if s[0] != ' ' && s[0] != 'T' && s[0] != 't' {
			return 0, false, nil
		}
		s = s[1:]
		if s != "" && s[0] >= '0' && s[0] <= '9' {
			if h, s, n = timeDigits(s, 2); !strings.HasPrefix(s, ":") {
				return 0, false, nil
			}
			if mi, s, n = timeDigits(s[1:], 2); n == 0 {
				return 0, false, nil
			}
			if strings.HasPrefix(s, ":") {
				if sec, s, n = timeDigits(s[1:], 2); n == 0 {
					return 0, false, nil
				}
				if strings.HasPrefix(s, ".") {
					var f int64
					if f, s, n = timeDigits(s[1:], 9); n == 0 {
						return 0, false, nil
					}
					for ; n < 6; n++ {
						f *= 10
					}
					for ; n > 6; n-- {
						f /= 10
					}
					frac = f
				}
			}
			if h > 23 || mi > 59 || sec > 59 {
				return 0, false, nil
			}
		} else if s == "" || (s[0] != '+' && s[0] != '-') {
			return 0, false, nil
		}
	}
	local := daysFromCivil(y, mo, d)*usPerDay + h*3600e6 + mi*60e6 + sec*1e6 + frac
	if s == "" {
		return fromLocal(local, loc), true, nil
	}
	if strings.HasPrefix(s, " UTC") {
		s = s[4:]
		if s == "" {
			return local, true, nil
		}
	}
	switch {
	case s == "Z" || s == "z":
		return local, true, nil
	case s[0] == '+' || s[0] == '-':
		off, _, valid := parseOffsetZone(s)
		if !valid {
			return 0, false, nil
		}
		return local - off*1e6, true, nil
	case len(s) < 2 || s[0] != ' ' || s[1] == '+' || s[1] == '-':
		return 0, false, nil
	}
	zl, err := loadZone([]byte(s[1:]))
	if err != nil {
		return 0, false, err
	}
	return fromLocal(local, zl), true, nil
}

// appendTimeInt appends v zero-padded to width digits.
func appendTimeInt(buf []byte, v int64, width int) []byte {
	if v < 0 {
		buf = append(buf, '-')
		v = -v
	}
	var tmp [20]byte
	i := len(tmp)
	for v >= 10 || len(tmp)-i < width-1 {
		i--
		tmp[i] = byte('0' + v%10)
		v /= 10
	}
	i--
	tmp[i] = byte('0' + v)
	return append(buf, tmp[i:]...)
}

// appendTimeSpaced appends a two-digit v with a leading space instead of 0.
func appendTimeSpaced(buf []byte, v int64) []byte {
	if v < 10 {
		return append(buf, ' ', byte('0'+v))
	}
	return appendTimeInt(buf, v, 2)
}

// appendZoneOffset appends an offset in seconds as +HHMM or +HH:MM.
func appendZoneOffset(buf []byte, off int64, colon bool) []byte {
	sign := byte('+')
	if off < 0 {
		sign, off = '-', -off
	}
	buf = appendTimeInt(append(buf, sign), off/3600, 2)
	if colon {
		buf = append(buf, ':')
	}
	return appendTimeInt(buf, off/60%60, 2)
}

var (
	timeMonthNames   = [12]string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
	timeWeekdayNames = [7]string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
)

// timeFmtItem is one piece of a compiled format string: a literal (verb 0) or
// a format element; mod is 'E'-style variant ('*', '#' with n digits, '4'
// for %E4Y, ':' for %Ez, 'z' for %E*z).
type timeFmtItem struct {
	verb byte
	mod  byte
	n    int
	lit  string
}

const timeFmtVerbs = "AaBbCcDdeFGgHhIJjklMmnPpQRrSsTtUuVWwXxYyZz%"

// compileTimeFormat splits a format string into items. Unknown elements come
// through as literal text, as in GoogleSQL; the timeComposite elements (%c, %D,
// %F...) are expanded into their parts.
func compileTimeFormat(f string) []timeFmtItem {
	var items []timeFmtItem
	lit := func(s string) {
		if n := len(items); n > 0 && items[n-1].verb == 0 {
			items[n-1].lit += s
			return
		}
		items = append(items, timeFmtItem{lit: s})
	}
	for i := 0; i < len(f); {
		j := strings.IndexByte(f[i:], '%')
		if j != 0 {
			if j < 0 {
				j = len(f) - i
			}
			lit(f[i : i+j])
			i += j
			continue
		}
		if i+1 == len(f) {
			lit("%")
			break
		}
		c := f[i+1]
		it, size := timeFmtItem{verb: c}, 2
		switch {
		case c == 'E':
			it, size = compileTimeE(f[i+2:])
		case c == 'O':
			it = timeFmtItem{}
			if i+2 < len(f) && strings.IndexByte("deHIMmSUuVWwy", f[i+2]) >= 0 {
				it, size = timeFmtItem{verb: f[i+2]}, 3
			}
		case strings.IndexByte(timeFmtVerbs, c) < 0:
			it = timeFmtItem{}
		}
		if it.verb == 0 {
			lit(f[i : i+size])
		} else if sub := timeComposite(it.verb); sub != "" {
			items = append(items, compileTimeFormat(sub)...)
		} else {
			items = append(items, it)
		}
		i += size
	}
	return items
}

// compileTimeE compiles the element after "%E"; size counts the "%E".
func compileTimeE(s string) (timeFmtItem, int) {
	switch {
	case strings.HasPrefix(s, "z"):
		return timeFmtItem{verb: 'z', mod: ':'}, 3
	case strings.HasPrefix(s, "*z"):
		return timeFmtItem{verb: 'z', mod: 'z'}, 4
	case strings.HasPrefix(s, "*S"), strings.HasPrefix(s, "*f"):
		return timeFmtItem{verb: s[1], mod: '*'}, 4
	case strings.HasPrefix(s, "4Y"):
		return timeFmtItem{verb: 'Y', mod: '4'}, 4
	case s != "" && strings.IndexByte("CcXxYy", s[0]) >= 0:
		return timeFmtItem{verb: s[0]}, 3
	}
	n, rest, k := timeDigits(s, 4)
	if k > 0 && rest != "" && (rest[0] == 'S' || rest[0] == 'f') {
		return timeFmtItem{verb: rest[0], mod: '#', n: int(n)}, 3 + k
	}
	return timeFmtItem{}, 2
}

// timeComposite returns the expansion of a timeComposite element.
func timeComposite(verb byte) string {
	switch verb {
	case 'c':
		return "%a %b %e %H:%M:%S %Y"
	case 'D', 'x':
		return "%m/%d/%y"
	case 'F':
		return "%Y-%m-%d"
	case 'R':
		return "%H:%M"
	case 'r':
		return "%I:%M:%S %p"
	case 'T', 'X':
		return "%H:%M:%S"
	}
	return ""
}

var timeFormatCache timeCache[[]timeFmtItem]

func compiledTimeFormat(f []byte) []timeFmtItem { return timeFormatCache.get(f, compileTimeFormat) }

// civilTime is an instant broken down in a time zone.
type civilTime struct {
	us, off          int64 // the instant (UTC micros) and the zone offset (seconds)
	days, tod        int64 // local day number and microseconds into the day
	year, month, day int64
}

func newCivil(us, off int64) civilTime {
	local := us + off*1e6
	c := civilTime{us: us, off: off, days: floorDiv(local, usPerDay)}
	c.tod = local - c.days*usPerDay
	c.year, c.month, c.day = civilFromDays(c.days)
	return c
}

func formatDate(a []types.Value, _ *types.Type) (types.Value, error) {
	items := compiledTimeFormat(a[0].Bytes())
	c := newCivil(a[1].Int64()*usPerDay, 0)
	return types.StringBytesValue(appendTimeFormat(nil, items, &c)), nil
}

func formatTimestamp(a []types.Value, _ *types.Type) (types.Value, error) {
	loc, err := zoneArg(a, 2)
	if err != nil {
		return types.Value{}, err
	}
	items := compiledTimeFormat(a[0].Bytes())
	us := a[1].Int64()
	c := newCivil(us, zoneOffset(us, loc))
	return types.StringBytesValue(appendTimeFormat(nil, items, &c)), nil
}

func appendTimeFormat(buf []byte, items []timeFmtItem, c *civilTime) []byte {
	if buf == nil {
		buf = []byte{}
	}
	for _, it := range items {
		if it.verb == 0 {
			buf = append(buf, it.lit...)
			continue
		}
		buf = appendTimeElem(buf, it, c)
	}
	return buf
}

func appendTimeElem(buf []byte, it timeFmtItem, c *civilTime) []byte {
	wd := dayOfWeek(c.days)
	hour := c.tod / 3600e6
	h12 := (hour+11)%12 + 1
	sub := c.tod % 1e6 * 1000 // nanoseconds
	switch it.verb {
	case 'A':
		return append(buf, timeWeekdayNames[wd]...)
	case 'a':
		return append(buf, timeWeekdayNames[wd][:3]...)
	case 'B':
		return append(buf, timeMonthNames[c.month-1]...)
	case 'b', 'h':
		return append(buf, timeMonthNames[c.month-1][:3]...)
	case 'C':
		return appendTimeInt(buf, floorDiv(c.year, 100), 2)
	case 'd':
		return appendTimeInt(buf, c.day, 2)
	case 'e':
		return appendTimeSpaced(buf, c.day)
	case 'G':
		return appendTimeInt(buf, isoYear(c.days), 1)
	case 'g':
		return appendTimeInt(buf, floorMod(isoYear(c.days), 100), 2)
	case 'H':
		return appendTimeInt(buf, hour, 2)
	case 'I':
		return appendTimeInt(buf, h12, 2)
	case 'J':
		return appendTimeInt(buf, c.days-isoYearStart(isoYear(c.days))+1, 3)
	case 'j':
		return appendTimeInt(buf, c.days-daysFromCivil(c.year, 1, 1)+1, 3)
	case 'k':
		return appendTimeSpaced(buf, hour)
	case 'l':
		return appendTimeSpaced(buf, h12)
	case 'M':
		return appendTimeInt(buf, c.tod/60e6%60, 2)
	case 'm':
		return appendTimeInt(buf, c.month, 2)
	case 'n':
		return append(buf, '\n')
	case 't':
		return append(buf, '\t')
	case 'P', 'p':
		ampm := "AM"
		if hour >= 12 {
			ampm = "PM"
		}
		if it.verb == 'P' {
			ampm = strings.ToLower(ampm)
		}
		return append(buf, ampm...)
	case 'Q':
		return appendTimeInt(buf, (c.month-1)/3+1, 1)
	case 'S':
		buf = appendTimeInt(buf, c.tod/1e6%60, 2)
		if it.mod == '*' && sub != 0 || it.mod == '#' && it.n > 0 {
			buf = append(buf, '.')
			return appendTimeFraction(buf, sub, it)
		}
		return buf
	case 'f':
		return appendTimeFraction(buf, sub, it)
	case 's':
		return appendTimeInt(buf, floorDiv(c.us, 1e6), 1)
	case 'U':
		return appendTimeInt(buf, weekOfYear(c.days, 0), 2)
	case 'W':
		return appendTimeInt(buf, weekOfYear(c.days, 1), 2)
	case 'V':
		return appendTimeInt(buf, isoWeek(c.days), 2)
	case 'u':
		if wd == 0 {
			wd = 7
		}
		return appendTimeInt(buf, wd, 1)
	case 'w':
		return appendTimeInt(buf, wd, 1)
	case 'Y':
		if it.mod == '4' {
			return appendTimeInt(buf, c.year, 4)
		}
		return appendTimeInt(buf, c.year, 1)
	case 'y':
		return appendTimeInt(buf, floorMod(c.year, 100), 2)
	case 'Z':
		buf = append(buf, "UTC"...)
		if c.off == 0 {
			return buf
		}
		off := c.off
		if off < 0 {
			buf, off = append(buf, '-'), -off
		} else {
			buf = append(buf, '+')
		}
		if off%3600 == 0 {
			return appendTimeInt(buf, off/3600, 1)
		}
		return appendTimeInt(appendTimeInt(buf, off/3600, 2), off/60%60, 2)
	case 'z':
		buf = appendZoneOffset(buf, c.off, it.mod != 0)
		if it.mod == 'z' {
			buf = append(buf, ":00"...)
		}
		return buf
	case '%':
		return append(buf, '%')
	}
	return buf
}

// appendTimeFraction appends the fractional-second digits of %E*S / %E<n>S
// (and the %E*f / %E<n>f variants).
func appendTimeFraction(buf []byte, nanos int64, it timeFmtItem) []byte {
	var digits [9]byte
	for i := 8; i >= 0; i-- {
		digits[i] = byte('0' + nanos%10)
		nanos /= 10
	}
	if it.mod == '#' {
		n := min(it.n, 9)
		buf = append(buf, digits[:n]...)
		for i := n; i < it.n && i < 18; i++ {
			buf = append(buf, '0')
		}
		return buf
	}
	n := 9
	for n > 0 && digits[n-1] == '0' {
		n--
	}
	if n == 0 {
		return append(buf, '0')
	}
	return append(buf, digits[:n]...)
}

// timeFields holds the fields PARSE_DATE / PARSE_TIMESTAMP read. Unspecified
// fields are those of 1970-01-01 00:00:00.
type timeFields struct {
	year, month, mday, hour, min, sec, nanos int64
	century                                  int64
	useCentury, explicitCentury              bool
	twelveHour, afternoon                    bool
	unixSec                                  int64
	sawUnix                                  bool
	offset                                   int64 // seconds, when sawOffset
	sawOffset                                bool
	loc                                      *time.Location
	// Day-of-year, week and ISO elements, with the position of the last
	// element that set the month or day (the last one wins).
	posMD, posYday, posWeek   int
	yday, week, wday          int64
	weekVerb                  byte
	nonISO, sawWday           bool
	isoYear, isoWeek, isoYday int64
}

func parseTimeFail(s []byte) error {
	return sqlerr.New(sqlerr.InvalidValue, "Failed to parse input string %q", s)
}

func parseDate(a []types.Value, _ *types.Type) (types.Value, error) {
	p, err := parseTimeWith(a[0].Bytes(), a[1].Bytes(), time.UTC, true)
	if err != nil {
		return types.Value{}, err
	}
	d, err := p.date(a[1].Bytes())
	if err != nil {
		return types.Value{}, err
	}
	return checkDate("PARSE_DATE", d)
}

func parseTimestamp(a []types.Value, _ *types.Type) (types.Value, error) {
	loc, err := zoneArg(a, 2)
	if err != nil {
		return types.Value{}, err
	}
	p, err := parseTimeWith(a[0].Bytes(), a[1].Bytes(), loc, false)
	if err != nil {
		return types.Value{}, err
	}
	if p.sawUnix {
		return checkTimestamp("PARSE_TIMESTAMP", p.unixSec*1e6)
	}
	d, err := p.date(a[1].Bytes())
	if err != nil {
		return types.Value{}, err
	}
	hour := p.hour
	if p.twelveHour && p.afternoon {
		hour += 12
	}
	// A leap second 60 is the first instant of the next minute.
	nanos := p.nanos
	if p.sec == 60 {
		nanos = 1e9
	}
	local := d*usPerDay + hour*3600e6 + p.min*60e6 + min(p.sec, 59)*1e6 + nanos/1000
	var us int64
	if p.sawOffset {
		us = local - p.offset*1e6
	} else {
		us = fromLocal(local, p.loc)
	}
	return checkTimestamp("PARSE_TIMESTAMP", us)
}

// date computes the timeFields date (day number).
func (p *timeFields) date(input []byte) (int64, error) {
	year := p.year
	if p.useCentury {
		year = p.century*100 + p.year
	}
	bad := sqlerr.New(sqlerr.OutOfRange, "Out-of-range datetime field in parsing function: %q", input)
	if p.isoYear >= 0 && !p.nonISO {
		start := isoYearStart(p.isoYear)
		switch {
		case p.isoWeek > 0:
			off := int64(0)
			if p.sawWday {
				off = floorMod(p.wday-1, 7)
			}
			return start + (p.isoWeek-1)*7 + off, nil
		case p.isoYday > 0:
			return start + p.isoYday - 1, nil
		}
		return start, nil
	}
	if p.month < 1 || p.month > 12 || p.mday < 1 || p.mday > daysInMonth(year, p.month) {
		return 0, bad
	}
	d := daysFromCivil(year, p.month, p.mday)
	switch {
	case p.posYday > p.posMD && p.posYday > p.posWeek:
		if p.yday > 365 && !isLeapYear(year) {
			return 0, bad
		}
		return daysFromCivil(year, 1, 1) + p.yday - 1, nil
	case p.posWeek > p.posMD:
		start := int64(0)
		if p.weekVerb == 'W' {
			start = 1
		}
		jan1 := daysFromCivil(year, 1, 1)
		first := jan1 + floorMod(start-dayOfWeek(jan1), 7)
		d = first + (p.week-1)*7
		if p.sawWday {
			d += floorMod(p.wday-start, 7)
		}
	}
	return d, nil
}

// dateOnlyBad are the elements PARSE_DATE rejects.
const dateOnlyBad = "HIklMPpSsZz"

// parseTimeWith reads input with a format string (GoogleSQL's PARSE_* rules:
// whitespace in the format matches any run of whitespace, leading and
// trailing whitespace is ignored, names are case-insensitive).
func parseTimeWith(format, input []byte, loc *time.Location, dateOnly bool) (*timeFields, error) {
	if n := len(format); n > 0 && format[n-1] == '%' {
		k := 0
		for k < n && format[n-1-k] == '%' {
			k++
		}
		if k%2 == 1 {
			return nil, sqlerr.New(sqlerr.InvalidValue, "Format string cannot end with a single '%%'")
		}
	}
	items := compiledTimeFormat(format)
	p := &timeFields{year: 1970, month: 1, mday: 1, loc: loc, isoYear: -1, posMD: -1, posYday: -1, posWeek: -1}
	s := string(input)
	i := skipTimeSpace(s, 0)
	for k, it := range items {
		if it.verb == 0 {
			var err error
			if i, err = matchTimeLiteral(s, i, it.lit, format); err != nil {
				return nil, err
			}
			continue
		}
		if dateOnly && (strings.IndexByte(dateOnlyBad, it.verb) >= 0 || it.verb == 'f') {
			return nil, sqlerr.New(sqlerr.InvalidValue, "Invalid format: %%%c is not allowed for the DATE type.", it.verb)
		}
		nextIsElem := k+1 < len(items) && items[k+1].verb != 0
		var ok bool
		if i, ok = p.element(s, i, it, k, nextIsElem); !ok {
			return nil, parseTimeFail(input)
		}
	}
	if skipTimeSpace(s, i) != len(s) {
		return nil, parseTimeFail(input)
	}
	return p, nil
}

func skipTimeSpace(s string, i int) int {
	for i < len(s) && isTimeSpace(s[i]) {
		i++
	}
	return i
}

func isTimeSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

func matchTimeLiteral(s string, i int, lit string, format []byte) (int, error) {
	for j := 0; j < len(lit); j++ {
		if isTimeSpace(lit[j]) {
			i = skipTimeSpace(s, i)
			continue
		}
		if i >= len(s) || s[i] != lit[j] {
			got := "end of string"
			if i < len(s) {
				got = "'" + s[i:i+1] + "'"
			}
			return i, sqlerr.New(sqlerr.InvalidValue, "Mismatch between format character '%c' and string character %s at string index: %d with format: '%s'",
				lit[j], got, i, format)
		}
		i++
	}
	return i, nil
}

// num reads at most width digits (an optional '-' when min < 0) in
// [min, max].
func parseTimeNum(s string, i, width int, min, max int64) (int64, int, bool) {
	neg := false
	if min < 0 && i < len(s) && s[i] == '-' {
		neg = true
		i++
	}
	v, _, n := timeDigits(s[i:], width)
	if n == 0 {
		return 0, i, false
	}
	if neg {
		v = -v
	}
	return v, i + n, v >= min && v <= max
}

// name matches one of names (full, or its first three letters),
// case-insensitively; it returns the index.
func parseTimeName(s string, i int, names []string) (int64, int, bool) {
	for k, n := range names {
		if len(s)-i >= len(n) && strings.EqualFold(s[i:i+len(n)], n) {
			return int64(k), i + len(n), true
		}
	}
	for k, n := range names {
		if len(s)-i >= 3 && strings.EqualFold(s[i:i+3], n[:3]) {
			return int64(k), i + 3, true
		}
	}
	return 0, i, false
}

// element parses one format element at s[i:]; pos is its position in the
// format (later elements override earlier ones).
func (p *timeFields) element(s string, i int, it timeFmtItem, pos int, nextIsElem bool) (int, bool) {
	var v int64
	ok := true
	switch it.verb {
	case 'Y':
		width, max := 5, int64(10000)
		if nextIsElem || it.mod == '4' {
			width, max = 4, 9999
		}
		start := i
		v, i, ok = parseTimeNum(s, i, width, 0, max)
		if it.mod == '4' && i-start != 4 {
			ok = false
		}
		p.year, p.useCentury, p.explicitCentury, p.nonISO = v, false, false, true
	case 'C':
		width, max := 3, int64(100)
		if nextIsElem {
			width, max = 2, 99
		}
		v, i, ok = parseTimeNum(s, i, width, 0, max)
		if !p.useCentury {
			p.year = 0
		}
		p.century, p.useCentury, p.explicitCentury, p.nonISO = v, true, true, true
	case 'y':
		v, i, ok = parseTimeNum(s, i, 2, 0, 99)
		p.year, p.useCentury, p.nonISO = v, true, true
		if !p.explicitCentury {
			p.century = 19
			if v < 69 {
				p.century = 20
			}
		}
	case 'm':
		p.month, i, ok = parseTimeNum(s, i, 2, 1, 12)
		p.posMD, p.nonISO = pos, true
	case 'd', 'e':
		if it.verb == 'e' {
			i = skipTimeSpace(s, i)
		}
		p.mday, i, ok = parseTimeNum(s, i, 2, 1, 31)
		p.posMD, p.nonISO = pos, true
	case 'B', 'b', 'h':
		v, i, ok = parseTimeName(s, i, timeMonthNames[:])
		p.month, p.posMD, p.nonISO = v+1, pos, true
	case 'Q':
		v, i, ok = parseTimeNum(s, i, 1, 1, 4)
		p.month, p.mday, p.posMD, p.nonISO = (v-1)*3+1, 1, pos, true
	case 'A', 'a':
		p.wday, i, ok = parseTimeName(s, i, timeWeekdayNames[:])
		p.sawWday = true
	case 'u':
		v, i, ok = parseTimeNum(s, i, 1, 1, 7)
		p.wday, p.sawWday = v%7, true
	case 'w':
		p.wday, i, ok = parseTimeNum(s, i, 1, 0, 6)
		p.sawWday = true
	case 'j':
		p.yday, i, ok = parseTimeNum(s, i, 3, 1, 366)
		p.posYday, p.nonISO = pos, true
	case 'U', 'W':
		p.week, i, ok = parseTimeNum(s, i, 2, 0, 53)
		p.weekVerb, p.posWeek, p.nonISO = it.verb, pos, true
	case 'G':
		p.isoYear, i, ok = parseTimeNum(s, i, 5, 0, 99999)
	case 'g':
		v, i, ok = parseTimeNum(s, i, 2, 0, 99)
		p.isoYear = 1900 + v
		if v <= 68 {
			p.isoYear = 2000 + v
		}
	case 'V':
		p.isoWeek, i, ok = parseTimeNum(s, i, 2, 1, 53)
	case 'J':
		p.isoYday, i, ok = parseTimeNum(s, i, 3, 1, 371)
	case 'H', 'k':
		if it.verb == 'k' {
			i = skipTimeSpace(s, i)
		}
		p.hour, i, ok = parseTimeNum(s, i, 2, 0, 23)
		p.twelveHour = false
	case 'I', 'l':
		v, i, ok = parseTimeNum(s, skipTimeSpace(s, i), 2, 1, 12)
		p.hour, p.twelveHour = v%12, true
	case 'p', 'P':
		switch {
		case len(s)-i >= 2 && strings.EqualFold(s[i:i+2], "PM"):
			p.afternoon = true
		case len(s)-i >= 2 && strings.EqualFold(s[i:i+2], "AM"):
			p.afternoon = false
		default:
			return i, false
		}
		i += 2
	case 'M':
		p.min, i, ok = parseTimeNum(s, i, 2, 0, 59)
	case 'S':
		p.sec, i, ok = parseTimeNum(s, i, 2, 0, 60)
		if ok && it.mod != 0 && i < len(s) && s[i] == '.' {
			max := 9
			if it.mod == '#' {
				if it.n == 0 {
					break
				}
				max = it.n
			}
			i, ok = p.fraction(s, i+1, max)
		}
	case 'f':
		i, ok = p.fraction(s, i, 9)
	case 's':
		p.unixSec, i, ok = parseTimeNum(s, i, 12, minTS/1000000, maxTS/1000000)
		p.sawUnix = true
	case 'z':
		if it.mod != 0 && i < len(s) && (s[i] == 'Z' || s[i] == 'z') {
			p.offset, p.sawOffset = 0, true
			return i + 1, true
		}
		i, ok = p.parseOffset(s, i, it.mod != 0)
	case 'Z':
		j := i
		for j < len(s) && !isTimeSpace(s[j]) {
			j++
		}
		if j == i {
			return i, false
		}
		loc, err := loadZone([]byte(s[i:j]))
		if err != nil {
			return i, false
		}
		p.loc, p.sawOffset, i = loc, false, j
	case 'n', 't':
		i = skipTimeSpace(s, i)
	case '%':
		if i >= len(s) || s[i] != '%' {
			return i, false
		}
		i++
	}
	return i, ok
}

// fraction reads fractional-second digits (at most max are significant;
// more are consumed and dropped).
func (p *timeFields) fraction(s string, i, max int) (int, bool) {
	start := i
	var v int64
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		if i-start < 9 && i-start < max {
			v = v*10 + int64(s[i]-'0')
		}
		i++
	}
	if i == start {
		return i, false
	}
	for n := min(i-start, max, 9); n < 9; n++ {
		v *= 10
	}
	p.nanos = v
	return i, true
}

// parseOffset reads +HH[MM] (or +HH[:MM] with colon) at most 14:00.
func (p *timeFields) parseOffset(s string, i int, colon bool) (int, bool) {
	if i >= len(s) || (s[i] != '+' && s[i] != '-') {
		return i, false
	}
	sign := int64(1)
	if s[i] == '-' {
		sign = -1
	}
	h, _, n := timeDigits(s[i+1:], 2)
	if n != 2 {
		return i, false
	}
	i += 3
	var m int64
	j := i
	if colon && j < len(s) && s[j] == ':' {
		j++
	}
	if mm, _, k := timeDigits(s[j:], 2); k == 2 && mm < 60 {
		m, i = mm, j+2
	}
	if h > 14 || (h == 14 && m > 0) {
		return i, false
	}
	p.offset, p.sawOffset = sign*(h*3600+m*60), true
	return i, true
}
