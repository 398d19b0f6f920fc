package pgcatalog

import (
	"cmp"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
)

// The interval type and date/time arithmetic: now() - interval '1 hour'
// in users' queries, NOW() + INTERVAL '-30 day' in Metabase's relative
// date filters. An interval value is its PostgreSQL output text (the
// postgres IntervalStyle); it is read back into months, days and
// microseconds, PostgreSQL's own three fields, to compute with.

// interval is PostgreSQL's interval: months, days and microseconds, each
// with its own sign.
type interval struct {
	months, days, micros int64
}

// intervalUnits are the units interval input reads, by name: months, days
// or microseconds per unit.
var intervalUnits = map[string]interval{
	"microsecond": {micros: 1}, "microseconds": {micros: 1}, "us": {micros: 1}, "usec": {micros: 1}, "usecs": {micros: 1},
	"millisecond": {micros: 1000}, "milliseconds": {micros: 1000}, "ms": {micros: 1000}, "msec": {micros: 1000}, "msecs": {micros: 1000},
	"second": {micros: 1e6}, "seconds": {micros: 1e6}, "sec": {micros: 1e6}, "secs": {micros: 1e6}, "s": {micros: 1e6},
	"minute": {micros: 60e6}, "minutes": {micros: 60e6}, "min": {micros: 60e6}, "mins": {micros: 60e6}, "m": {micros: 60e6},
	"hour": {micros: 3600e6}, "hours": {micros: 3600e6}, "hr": {micros: 3600e6}, "hrs": {micros: 3600e6}, "h": {micros: 3600e6},
	"day": {days: 1}, "days": {days: 1}, "d": {days: 1},
	"week": {days: 7}, "weeks": {days: 7}, "w": {days: 7},
	"month": {months: 1}, "months": {months: 1}, "mon": {months: 1}, "mons": {months: 1},
	"year": {months: 12}, "years": {months: 12}, "yr": {months: 12}, "yrs": {months: 12}, "y": {months: 12},
	"decade": {months: 120}, "decades": {months: 120},
	"century": {months: 1200}, "centuries": {months: 1200},
	"millennium": {months: 12000}, "millennia": {months: 12000},
}

// parseInterval reads interval input: number-and-unit pairs, an
// [-]hh:mm[:ss[.frac]] time, a bare number of seconds, an optional leading
// @ and trailing "ago". Fractions of months and days spill into days (30
// a month) and microseconds, as in PostgreSQL.
// isoIntervalWords spells an ISO 8601 interval with designators
// (P1Y2M3DT4H5M6S, PT1.5S, P2W; numbers may be signed or fractional) as
// the words parseInterval reads ("1 year 2 month ..."); ok is false for
// other text.
func isoIntervalWords(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if len(s) < 2 || s[0] != 'P' {
		return "", false
	}
	date := map[byte]string{'Y': "year", 'M': "month", 'W': "week", 'D': "day"}
	clock := map[byte]string{'H': "hour", 'M': "minute", 'S': "second"}
	units, words := date, []string{}
	for i := 1; i < len(s); {
		if s[i] == 'T' && len(units) == len(date) {
			units, i = clock, i+1
			continue
		}
		j := i
		for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.' || j == i && (s[j] == '-' || s[j] == '+')) {
			j++
		}
		if j == i || j == len(s) {
			return "", false
		}
		unit, ok := units[s[j]]
		if !ok {
			return "", false
		}
		words = append(words, s[i:j], unit)
		i = j + 1
	}
	switch {
	case len(words) > 0:
		return strings.Join(words, " "), true
	case s == "PT":
		return "0", true
	}
	return "", false
}

func parseInterval(s string) (interval, error) {
	bad := errorf(CodeInvalidDatetimeFormat, noPos, "invalid input syntax for type interval: \"%s\"", s)
	text := s
	if words, ok := isoIntervalWords(s); ok {
		text = words
	} else if strings.HasPrefix(strings.TrimSpace(s), "P") {
		return interval{}, bad
	}
	fields := strings.Fields(strings.ToLower(strings.TrimSpace(text)))
	if len(fields) > 0 && fields[0] == "@" {
		fields = fields[1:]
	}
	ago := len(fields) > 0 && fields[len(fields)-1] == "ago"
	if ago {
		fields = fields[:len(fields)-1]
	}
	if len(fields) == 0 {
		return interval{}, bad
	}
	var iv interval
	var fracDays float64 // days from fractional months, added at the end
	var fracMicros float64
	bareSeconds := false // a number without a unit was read (as seconds)
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		if strings.Contains(f, ":") {
			us, ok := parseClock(f)
			if !ok {
				if clockFieldsNumeric(f) {
					return interval{}, errorf("22015", noPos, "interval field value out of range: \"%s\"", s)
				}
				return interval{}, bad
			}
			iv.micros += us
			continue
		}
		// A number, and its unit (attached, as in 1h, or the next field).
		numEnd := 0
		for numEnd < len(f) && (f[numEnd] >= '0' && f[numEnd] <= '9' || f[numEnd] == '.' || numEnd == 0 && (f[0] == '-' || f[0] == '+')) {
			numEnd++
		}
		n, err := strconv.ParseFloat(f[:numEnd], 64)
		if err != nil {
			return interval{}, bad
		}
		unitName := f[numEnd:]
		if unitName == "" && i+1 < len(fields) {
			if _, ok := intervalUnits[fields[i+1]]; ok {
				i++
				unitName = fields[i]
			}
		}
		if unitName == "" {
			switch {
			case i+1 < len(fields) && strings.Contains(fields[i+1], ":"):
				unitName = "days" // days before a time: '1 2:03'
			case bareSeconds:
				return interval{}, bad
			default:
				unitName, bareSeconds = "seconds", true // a bare number is seconds
			}
		}
		unit, ok := intervalUnits[unitName]
		if !ok {
			return interval{}, bad
		}
		switch {
		case unit.months != 0:
			total := n * float64(unit.months)
			whole := math.Trunc(total)
			iv.months += int64(whole)
			fracDays += (total - whole) * 30
		case unit.days != 0:
			total := n * float64(unit.days)
			whole := math.Trunc(total)
			iv.days += int64(whole)
			fracMicros += (total - whole) * 86400e6
		default:
			fracMicros += n * float64(unit.micros)
		}
	}
	wholeDays := math.Trunc(fracDays)
	iv.days += int64(wholeDays)
	fracMicros += (fracDays - wholeDays) * 86400e6
	iv.micros += int64(math.Round(fracMicros))
	if ago {
		iv = interval{-iv.months, -iv.days, -iv.micros}
	}
	return iv, nil
}

// clockFieldsNumeric reports whether f is [-]h:m[:s] made of numbers,
// so that parseClock refused it for a field out of range.
func clockFieldsNumeric(f string) bool {
	parts := strings.Split(strings.TrimLeft(f, "+-"), ":")
	if len(parts) < 2 || len(parts) > 3 {
		return false
	}
	for _, p := range parts {
		if _, err := strconv.ParseFloat(p, 64); err != nil || p == "" {
			return false
		}
	}
	return true
}

// parseClock reads [-]hh:mm[:ss[.frac]] as microseconds.
func parseClock(f string) (int64, bool) {
	neg := strings.HasPrefix(f, "-")
	f = strings.TrimLeft(f, "+-")
	parts := strings.Split(f, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return 0, false
	}
	h, err1 := strconv.ParseInt(parts[0], 10, 64)
	m, err2 := strconv.ParseInt(parts[1], 10, 64)
	sec := 0.0
	var err3 error
	if len(parts) == 3 {
		sec, err3 = strconv.ParseFloat(parts[2], 64)
	}
	if err1 != nil || err2 != nil || err3 != nil || m >= 60 || sec >= 60 {
		return 0, false
	}
	us := h*3600e6 + m*60e6 + int64(math.Round(sec*1e6))
	if neg {
		us = -us
	}
	return us, true
}

// String prints an interval as PostgreSQL's postgres IntervalStyle does:
// years, mons and days, then the time; a field after a negative one shows
// its + sign.
func (iv interval) String() string {
	var b strings.Builder
	negSeen := false
	part := func(n int64, unit string) {
		if n == 0 {
			return
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		if negSeen && n > 0 {
			b.WriteByte('+')
		}
		fmt.Fprintf(&b, "%d %s", n, unit)
		if n != 1 {
			b.WriteByte('s')
		}
		negSeen = negSeen || n < 0
	}
	part(iv.months/12, "year")
	part(iv.months%12, "mon")
	part(iv.days, "day")
	if iv.micros != 0 || b.Len() == 0 {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		us := iv.micros
		switch {
		case us < 0:
			b.WriteByte('-')
			us = -us
		case negSeen:
			b.WriteByte('+')
		}
		fmt.Fprintf(&b, "%02d:%02d:%02d", us/3600e6, us/60e6%60, us/1e6%60)
		if frac := us % 1e6; frac != 0 {
			b.WriteString(strings.TrimRight(fmt.Sprintf(".%06d", frac), "0"))
		}
	}
	return b.String()
}

// addInterval is t + sign*iv: months first (a day past the month's end
// becomes its last day), then days, both on the wall clock of t's zone (a
// timestamptz's is the session's: across a daylight-saving change '1 day'
// is 23 or 25 hours, as in PostgreSQL), then microseconds.
func addInterval(t time.Time, iv interval, sign int64) time.Time {
	if m := sign * iv.months; m != 0 {
		y, mon, d := t.Date()
		first := wallTime(y, mon+time.Month(m), 1, 0, 0, 0, 0, t.Location())
		last := first.AddDate(0, 1, -1).Day()
		hh, mm, ss := t.Clock()
		t = wallTime(first.Year(), first.Month(), min(d, last), hh, mm, ss, t.Nanosecond(), t.Location())
	}
	if dd := sign * iv.days; dd != 0 {
		y, mon, d := t.Date()
		hh, mm, ss := t.Clock()
		t = wallTime(y, mon, d+int(dd), hh, mm, ss, t.Nanosecond(), t.Location())
	}
	return t.Add(time.Duration(sign*iv.micros) * time.Microsecond)
}

// instantIfZoned is t as a value of typ holds it: a timestamptz as its
// UTC instant, other types as the wall time t shows.
func instantIfZoned(t time.Time, typ uint32) time.Time {
	if typ == tTimestamptz {
		return t.UTC()
	}
	return t
}

// timeArith binds + and - between dates, timestamps and intervals; ok is
// false for other operand types.
func (b *binder) timeArith(op string, l, r *cexpr) (*cexpr, bool) {
	isTime := func(t uint32) bool { return t == tTimestamptz || t == tTimestamp || t == tDate }
	sign := int64(1)
	if op == "-" {
		sign = -1
	}
	if op == "-" && isTime(l.typ) && isTime(r.typ) && l.typ != r.typ { // date - timestamp: as timestamps
		t := unifyTypes(l.typ, r.typ)
		l, r = b.coerce(l, t), b.coerce(r, t)
	}
	switch {
	case op == "+" && l.typ == tInterval && isTime(r.typ):
		l, r = r, l
		fallthrough
	case (op == "+" || op == "-") && isTime(l.typ) && (r.typ == tInterval || r.untyped):
		typ := l.typ
		if typ == tDate {
			typ = tTimestamp
		}
		r := b.coerce(r, tInterval)
		return &cexpr{typ: typ, name: "?column?", fn: func(ev *evaluator, e *env) (Value, error) {
			x, y, err := eval2(ev, e, l, r)
			if err != nil || x.isNull() || y.isNull() {
				return null, err
			}
			t, err := ev.localTime(x, l.typ)
			if err != nil {
				return null, err
			}
			iv, err := parseInterval(y.s)
			if err != nil {
				return null, err
			}
			return timeValue(instantIfZoned(addInterval(t, iv, sign), typ), typ), nil
		}}, true
	case op == "-" && (l.typ == tTimestamptz || l.typ == tTimestamp) && (r.typ == tTimestamptz || r.typ == tTimestamp):
		return strictBinary(tInterval, l, r, timeDiff(func(d time.Duration) Value {
			us := d.Microseconds()
			return textV(interval{days: us / 86400e6, micros: us % 86400e6}.String())
		})), true
	case op == "-" && l.typ == tDate && r.typ == tDate:
		return strictBinary(tInt4, l, r, timeDiff(func(d time.Duration) Value {
			return intV(int64(d.Hours() / 24))
		})), true
	case (op == "+" || op == "-") && l.typ == tDate && (r.typ == tInt2 || r.typ == tInt4 || r.typ == tInt8):
		return strictBinary(tDate, l, r, func(x, y Value) (Value, error) {
			t, err := timeArg(x)
			if err != nil {
				return null, err
			}
			return timeValue(t.AddDate(0, 0, int(sign*y.i)), tDate), nil
		}), true
	case op == "*" && isNumericType(l.typ) && r.typ == tInterval:
		l, r = r, l
		fallthrough
	case (op == "*" || op == "/") && l.typ == tInterval && (isNumericType(r.typ) || r.untyped):
		return strictBinary(tInterval, l, b.coerce(r, tFloat8), func(x, y Value) (Value, error) {
			iv, err := parseInterval(x.s)
			if err != nil {
				return null, err
			}
			f, _ := y.asFloat()
			if op == "/" && f == 0 {
				return null, errorf(CodeDivisionByZero, noPos, "division by zero")
			}
			by := f
			if op == "/" {
				by = 1 / f
			}
			if !iv.scalesInRange(by) {
				return null, errorf("22008", noPos, "interval out of range")
			}
			return textV(iv.scale(f, op == "/").String()), nil
		}), true
	case (op == "+" || op == "-") && l.typ == tInterval && (r.typ == tInterval || r.untyped):
		return strictBinary(tInterval, l, b.coerce(r, tInterval), intervals(func(a, c interval) Value {
			return textV(a.add(interval{sign * c.months, sign * c.days, sign * c.micros}).String())
		})), true
	}
	return nil, false
}

// strictBinary is an expression of type typ over l and r that is NULL
// when either is, else fn of their values. A constant r (cf->>'q', n + 1)
// is read once, here.
func strictBinary(typ uint32, l, r *cexpr, fn func(x, y Value) (Value, error)) *cexpr {
	if r.isConst && !r.val.isNull() {
		y := r.val
		return &cexpr{typ: typ, name: "?column?", fn: func(ev *evaluator, e *env) (Value, error) {
			x, err := l.fn(ev, e)
			if err != nil || x.isNull() {
				return null, err
			}
			return fn(x, y)
		}}
	}
	return &cexpr{typ: typ, name: "?column?", fn: func(ev *evaluator, e *env) (Value, error) {
		x, y, err := eval2(ev, e, l, r)
		if err != nil || x.isNull() || y.isNull() {
			return null, err
		}
		return fn(x, y)
	}}
}

// timeDiff adapts fn of the time between two date or timestamp values.
func timeDiff(fn func(d time.Duration) Value) func(x, y Value) (Value, error) {
	return func(x, y Value) (Value, error) {
		t1, err := timeArg(x)
		if err != nil {
			return null, err
		}
		t2, err := timeArg(y)
		if err != nil {
			return null, err
		}
		return fn(t1.Sub(t2)), nil
	}
}

// intervals adapts fn of two interval values.
func intervals(fn func(a, c interval) Value) func(x, y Value) (Value, error) {
	return func(x, y Value) (Value, error) {
		a, err := parseInterval(x.s)
		if err != nil {
			return null, err
		}
		c, err := parseInterval(y.s)
		if err != nil {
			return null, err
		}
		return fn(a, c), nil
	}
}

// scale multiplies an interval by f, or divides it when divide is set, as
// PostgreSQL's interval_mul and interval_div do: each field is scaled on
// its own, and the fractions of months and days spill into days (30 a
// month) and seconds (rounded to microseconds).
func (iv interval) scale(f float64, divide bool) interval {
	by := func(x int64) float64 {
		if divide {
			return float64(x) / f
		}
		return float64(x) * f
	}
	months, days := by(iv.months), by(iv.days)
	out := interval{months: int64(months), days: int64(days)}
	monthDays := (months - float64(out.months)) * 30
	secs := math.RoundToEven((days-float64(out.days)+monthDays-math.Trunc(monthDays))*86400*1e6) / 1e6
	if math.Abs(secs) >= 86400 {
		out.days += int64(secs / 86400)
		secs -= math.Trunc(secs/86400) * 86400
	}
	out.days += int64(monthDays)
	out.micros = int64(math.RoundToEven(by(iv.micros) + secs*1e6))
	return out
}

// scalesInRange reports whether iv times f keeps PostgreSQL's interval
// fields in range: 32-bit months and days, 64-bit microseconds.
func (iv interval) scalesInRange(f float64) bool {
	m, d, us := float64(iv.months)*f, float64(iv.days)*f, float64(iv.micros)*f
	return !math.IsNaN(m+d+us) && math.Abs(m) <= math.MaxInt32 && math.Abs(d) <= math.MaxInt32 && math.Abs(us) < math.MaxInt64
}

// add is the sum of two intervals, field by field.
func (iv interval) add(o interval) interval {
	return interval{iv.months + o.months, iv.days + o.days, iv.micros + o.micros}
}

// compare orders intervals by their length, as interval_cmp does: in 128
// bits, which a long interval's microseconds need (span would overflow).
func (iv interval) compare(o interval) int {
	wide := func(x interval) *big.Int {
		d := big.NewInt(x.months*30 + x.days)
		d.Mul(d, big.NewInt(86400e6))
		return d.Add(d, big.NewInt(x.micros))
	}
	if a, b := iv.months*30+iv.days, o.months*30+o.days; max(a, -a, b, -b) < 100_000_000 {
		return cmp.Compare(iv.span(), o.span()) // no overflow
	}
	return wide(iv).Cmp(wide(o))
}

// span is the length PostgreSQL compares intervals by: a month is 30
// days, a day 24 hours.
func (iv interval) span() int64 {
	return (iv.months*30+iv.days)*86400e6 + iv.micros
}

// intervalCmp compares two intervals by their spans (text comparison
// would order '10 days' before '2 days').
func intervalCmp(op string, l, r *cexpr) *cexpr {
	return strictBinary(tBool, l, r, intervals(func(a, c interval) Value {
		return boolV(cmpResult(op, a.compare(c)))
	}))
}

// FormatInterval is the text of the interval of months, days and
// microseconds (its binary form's parts), as interval_out writes it:
// pgwire reads a binary interval parameter with it.
func FormatInterval(months, days, micros int64) string {
	return interval{months, days, micros}.String()
}

// FormatTime is a time of day of us microseconds as time_out writes it.
func FormatTime(us int64) string { return timeOfDay(us).s }

// ParseInterval reads an interval's text (PostgreSQL's output or input
// forms) as its months, days and microseconds, the parts of its binary
// form: pgwire sends a catalog statement's intervals in binary with it.
func ParseInterval(s string) (months, days, micros int64, err error) {
	iv, err := parseInterval(s)
	return iv.months, iv.days, iv.micros, err
}

// styled prints an interval as IntervalStyle style does (EncodeInterval):
// iso_8601, postgres_verbose or sql_standard; postgres (or anything else)
// is String.
func (iv interval) styled(style string) string {
	year, mon, mday := iv.months/12, iv.months%12, iv.days
	hour, min := iv.micros/3600e6, iv.micros/60e6%60
	sec, fsec := iv.micros/1e6%60, iv.micros%1e6
	abs := func(n int64) int64 {
		if n < 0 {
			return -n
		}
		return n
	}
	// seconds is AppendSeconds: |sec|, zero-padded to two digits when
	// fill, then |fsec| as a fraction without trailing zeros.
	seconds := func(fill bool) string {
		s := strconv.FormatInt(abs(sec), 10)
		if fill && len(s) < 2 {
			s = "0" + s
		}
		if fsec != 0 {
			s += strings.TrimRight(fmt.Sprintf(".%06d", abs(fsec)), "0")
		}
		return s
	}
	var b strings.Builder
	switch strings.ToLower(style) {
	case "iso_8601":
		if iv.months == 0 && mday == 0 && iv.micros == 0 {
			return "PT0S"
		}
		b.WriteByte('P')
		part := func(n int64, unit byte) {
			if n != 0 {
				fmt.Fprintf(&b, "%d%c", n, unit)
			}
		}
		part(year, 'Y')
		part(mon, 'M')
		part(mday, 'D')
		if iv.micros != 0 {
			b.WriteByte('T')
		}
		part(hour, 'H')
		part(min, 'M')
		if sec != 0 || fsec != 0 {
			if sec < 0 || fsec < 0 {
				b.WriteByte('-')
			}
			b.WriteString(seconds(false) + "S")
		}
	case "postgres_verbose":
		b.WriteByte('@')
		isZero, isBefore := true, false
		part := func(n int64, unit string) {
			if n == 0 {
				return
			}
			if isZero {
				isBefore, n = n < 0, abs(n)
			} else if isBefore {
				n = -n
			}
			fmt.Fprintf(&b, " %d %s", n, unit)
			if n != 1 {
				b.WriteByte('s')
			}
			isZero = false
		}
		part(year, "year")
		part(mon, "mon")
		part(mday, "day")
		part(hour, "hour")
		part(min, "min")
		if sec != 0 || fsec != 0 {
			b.WriteByte(' ')
			if sec < 0 || sec == 0 && fsec < 0 {
				if isZero {
					isBefore = true
				} else if !isBefore {
					b.WriteByte('-')
				}
			} else if isBefore {
				b.WriteByte('-')
			}
			b.WriteString(seconds(false) + " sec")
			if abs(sec) != 1 || fsec != 0 {
				b.WriteByte('s')
			}
			isZero = false
		}
		if isZero {
			b.WriteString(" 0")
		}
		if isBefore {
			b.WriteString(" ago")
		}
	case "sql_standard":
		neg := year < 0 || mon < 0 || mday < 0 || iv.micros < 0
		pos := year > 0 || mon > 0 || mday > 0 || iv.micros > 0
		yearMonth, dayTime := year != 0 || mon != 0, mday != 0 || iv.micros != 0
		standard := !(neg && pos) && !(yearMonth && dayTime)
		if neg && standard {
			b.WriteByte('-')
			year, mon, mday, hour, min, sec, fsec = -year, -mon, -mday, -hour, -min, -sec, -fsec
		}
		switch {
		case !neg && !pos:
			b.WriteByte('0')
		case !standard:
			sign := func(neg bool) byte {
				if neg {
					return '-'
				}
				return '+'
			}
			fmt.Fprintf(&b, "%c%d-%d %c%d %c%d:%02d:%s", sign(year < 0 || mon < 0), abs(year), abs(mon),
				sign(mday < 0), abs(mday), sign(iv.micros < 0), abs(hour), abs(min), seconds(true))
		case yearMonth:
			fmt.Fprintf(&b, "%d-%d", year, mon)
		case mday != 0:
			fmt.Fprintf(&b, "%d %d:%02d:%s", mday, hour, min, seconds(true))
		default:
			fmt.Fprintf(&b, "%d:%02d:%s", hour, min, seconds(true))
		}
	default:
		return iv.String()
	}
	return b.String()
}
