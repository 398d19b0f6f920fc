package pgcatalog

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// to_char(timestamp | date | interval, format): BI tools format dates with
// it, a timestamptz in the session's zone. The template is read as
// PostgreSQL 15's formatting.c reads it (parseDCH): its keywords, in the
// cases it accepts (dchKeywords), the FM and TM prefixes, the TH and th
// ordinal suffixes of numeric fields, "..." literal text (\ escapes a
// character inside it) and \" outside it. to_char of a number is in
// funcs_tocharnum.go; to_date and to_timestamp read dates through the
// same keywords (funcs_todate.go).

func init() {
	register("to_char", &builtin{min: 2, args: []uint32{tTimestamptz, tText}, ret: tText, fn: func(ev *evaluator, a []Value, t []uint32) (Value, error) {
		switch t[0] {
		case tTimestamptz, tTimestamp, tDate:
		case tInterval:
			iv, err := parseInterval(a[0].s)
			if err != nil {
				return null, err
			}
			s, err := formatDCH(intervalFields(iv), a[1].s)
			return textV(s), err
		default:
			if !isNumericType(t[0]) {
				return null, errorf(CodeUndefinedFunc, noPos, "function to_char(%s, text) does not exist", formatType(t[0], -1))
			}
			n, err := numericOf(a[0])
			if err != nil {
				return null, err
			}
			s, err := toCharNumber(n, a[1].s)
			return textV(s), err
		}
		ts, err := ev.localTime(a[0], t[0])
		if err != nil {
			return null, err
		}
		s, err := formatDCH(timeFields(ts, t[0] == tTimestamptz), a[1].s)
		return textV(s), err
	}})
}

// dchKeyword is a date and time template pattern. Patterns whose case
// variants mean the same share an id (the upper-case name); the variants
// of names (Month, month, MONTH) keep their own spelling in name, which
// sets the case of what they print.
type dchKeyword struct {
	name  string
	id    string
	digit bool // a number: takes the TH suffix, and to_date reads digits for it
}

// dchKeywords are formatting.c's DCH_keywords: each upper-case pattern,
// its lower-case spelling, and the mixed-case names.
var dchKeywords = func() []dchKeyword {
	var out []dchKeyword
	add := func(digit bool, names ...string) {
		for _, n := range names {
			out = append(out, dchKeyword{name: n, id: strings.ToUpper(n), digit: digit})
			if low := strings.ToLower(n); low != n {
				out = append(out, dchKeyword{name: low, id: strings.ToUpper(n), digit: digit})
			}
		}
	}
	add(false, "A.D.", "A.M.", "AD", "AM", "B.C.", "BC", "DAY", "DY", "FF1", "FF2", "FF3", "FF4", "FF5", "FF6",
		"FX", "MONTH", "MON", "OF", "P.M.", "PM", "RM", "TZH", "TZ")
	add(true, "CC", "DDD", "DD", "D", "HH24", "HH12", "HH", "IDDD", "ID", "IW", "IYYY", "IYY", "IY", "I", "J",
		"MI", "MM", "MS", "Q", "SSSSS", "SSSS", "SS", "TZM", "US", "WW", "W", "Y,YYY", "YYYY", "YYY", "YY", "Y")
	for _, n := range []string{"Day", "Dy", "Month", "Mon"} {
		out = append(out, dchKeyword{name: n, id: strings.ToUpper(n)})
	}
	return out
}()

// dchNode is one piece of a parsed template: a keyword with its prefixes
// and suffix, or text to copy.
type dchNode struct {
	key    *dchKeyword // nil: text
	text   string
	quoted bool   // text written in double quotes
	fm, tm bool   // FM: no padding; TM: names untranslated here, but unpadded
	th     string // "TH" or "th": an ordinal suffix; "" for none
}

// parseDCH splits a template as formatting.c's parse_format does: an
// optional FM or TM prefix, then the longest keyword (in the case
// written) and a TH, th or SP suffix (which only numbers apply); otherwise a
// quoted string or one character. A prefix before a non-keyword is
// dropped.
func parseDCH(format string) []dchNode {
	var nodes []dchNode
	for i := 0; i < len(format); {
		var n dchNode
		switch {
		case strings.HasPrefix(format[i:], "FM"), strings.HasPrefix(format[i:], "fm"):
			n.fm, i = true, i+2
		case strings.HasPrefix(format[i:], "TM"), strings.HasPrefix(format[i:], "tm"):
			n.tm, i = true, i+2
		}
		if i >= len(format) {
			break
		}
		for k := range dchKeywords {
			kw := &dchKeywords[k]
			if strings.HasPrefix(format[i:], kw.name) && (n.key == nil || len(kw.name) > len(n.key.name)) {
				n.key = kw
			}
		}
		if n.key != nil {
			i += len(n.key.name)
			switch {
			case strings.HasPrefix(format[i:], "TH"), strings.HasPrefix(format[i:], "th"):
				if n.key.digit { // read after any keyword, applied to numbers
					n.th = format[i : i+2]
				}
				i += 2
			case strings.HasPrefix(format[i:], "SP"): // spell mode: accepted, not applied
				i += 2
			}
			nodes = append(nodes, n)
			continue
		}
		if format[i] == '"' {
			var b strings.Builder
			for i++; i < len(format) && format[i] != '"'; i++ {
				if format[i] == '\\' && i+1 < len(format) {
					i++
				}
				b.WriteByte(format[i])
			}
			nodes = append(nodes, dchNode{text: b.String(), quoted: true})
			i++
			continue
		}
		if format[i] == '\\' && i+1 < len(format) && format[i+1] == '"' {
			i++
		}
		nodes = append(nodes, dchNode{text: format[i : i+1]})
		i++
	}
	return nodes
}

// dchFields are the fields a template prints, as formatting.c's pg_tm
// holds them: a date and time, or an interval's (hours not reduced to a
// day, yday its span in days).
type dchFields struct {
	year, month, day, hour, minute, second, micro int
	wday, yday                                    int
	offset                                        int    // seconds east of UTC
	zone                                          string // abbreviation; "" without a zone
	interval                                      bool
}

func timeFields(t time.Time, zoned bool) *dchFields {
	f := &dchFields{year: t.Year(), month: int(t.Month()), day: t.Day(), hour: t.Hour(), minute: t.Minute(),
		second: t.Second(), micro: t.Nanosecond() / 1000, wday: int(t.Weekday()), yday: t.YearDay()}
	if zoned {
		f.zone, f.offset = t.Zone()
	}
	return f
}

func intervalFields(iv interval) *dchFields {
	f := &dchFields{interval: true, year: int(iv.months / 12), month: int(iv.months % 12), day: int(iv.days)}
	us := iv.micros
	f.hour, us = int(us/3600e6), us%3600e6
	f.minute, us = int(us/60e6), us%60e6
	f.second, f.micro = int(us/1e6), int(us%1e6)
	f.yday = (f.year*12+f.month)*30 + f.day
	return f
}

// formatDCH prints f by the template.
func formatDCH(f *dchFields, format string) (string, error) {
	var b strings.Builder
	for _, n := range parseDCH(format) {
		if n.key == nil {
			b.WriteString(n.text)
			continue
		}
		s, err := f.field(n)
		if err != nil {
			return "", err
		}
		if n.th == "TH" && s != "" {
			s += strings.ToUpper(ordinalSuffix(s))
		} else if n.th == "th" && s != "" {
			s += ordinalSuffix(s)
		}
		b.WriteString(s)
	}
	return b.String(), nil
}

// adjustedYear is the year as printed: before 1 AD, counted back from 1
// BC (an interval's years are printed as they are).
func (f *dchFields) adjustedYear(y int) int {
	if !f.interval && y <= 0 {
		return 1 - y
	}
	return y
}

// field prints one keyword, as DCH_to_char does.
func (f *dchFields) field(n dchNode) (string, error) {
	fixed := func(v, width int) string { // DD and DDD: no room for a sign
		if n.fm {
			width = 0
		}
		return fmt.Sprintf("%0*d", width, v)
	}
	num := func(v, width int) string {
		if n.fm {
			width = 0
		} else if v < 0 {
			width++
		}
		return fmt.Sprintf("%0*d", width, v)
	}
	name := func(s string) string {
		s = caseLike(n.key.name, s)
		if n.fm || n.tm {
			return s
		}
		return fmt.Sprintf("%-9s", s)
	}
	id := n.key.id
	if f.interval {
		switch id {
		case "A.D.", "AD", "B.C.", "BC", "TZ", "TZH", "TZM", "OF", "MONTH", "MON", "DAY", "DY", "D", "ID":
			e := errorf(CodeInvalidDatetimeFormat, noPos, "invalid format specification for an interval value")
			e.Hint = "Intervals are not tied to specific calendar dates."
			return "", e
		}
	}
	hour12 := f.hour % 12
	if hour12 == 0 {
		hour12 = 12
	}
	isoYear, isoWeek := time.Date(f.year, time.Month(f.month), f.day, 0, 0, 0, 0, time.UTC).ISOWeek()
	year := f.adjustedYear(f.year)
	if id[0] == 'I' && strings.Trim(id, "IY") == "" { // IYYY, IYY, IY, I: the ISO year
		year = f.adjustedYear(isoYear)
	}
	switch id {
	case "A.D.", "B.C.":
		return caseLike(n.key.name, map[bool]string{true: "B.C.", false: "A.D."}[f.year <= 0]), nil
	case "AD", "BC":
		return caseLike(n.key.name, map[bool]string{true: "BC", false: "AD"}[f.year <= 0]), nil
	case "A.M.", "P.M.":
		return caseLike(n.key.name, map[bool]string{true: "P.M.", false: "A.M."}[f.hour%24 >= 12]), nil
	case "AM", "PM":
		return caseLike(n.key.name, map[bool]string{true: "PM", false: "AM"}[f.hour%24 >= 12]), nil
	case "HH", "HH12":
		return num(hour12, 2), nil
	case "HH24":
		return num(f.hour, 2), nil
	case "MI":
		return num(f.minute, 2), nil
	case "SS":
		return num(f.second, 2), nil
	case "FF1", "FF2", "FF3", "FF4", "FF5", "FF6":
		digits := int(id[2] - '0')
		return fmt.Sprintf("%0*d", digits, f.micro/pow10Int(6-digits)), nil
	case "MS":
		return fmt.Sprintf("%03d", f.micro/1000), nil
	case "US":
		return fmt.Sprintf("%06d", f.micro), nil
	case "SSSS", "SSSSS":
		return strconv.Itoa(f.hour*3600 + f.minute*60 + f.second), nil
	case "TZ":
		return caseLike(n.key.name, f.zone), nil
	case "TZH", "TZM", "OF":
		sign, off := '+', f.offset
		if off < 0 {
			sign, off = '-', -off
		}
		switch id {
		case "TZH":
			return fmt.Sprintf("%c%02d", sign, off/3600), nil
		case "TZM":
			return fmt.Sprintf("%02d", off%3600/60), nil
		}
		s := fmt.Sprintf("%c%s", sign, num(off/3600, 2))
		if off%3600 != 0 {
			s += fmt.Sprintf(":%02d", off%3600/60)
		}
		return s, nil
	case "MONTH", "MON":
		if f.month == 0 {
			return "", nil
		}
		m := time.Month(f.month).String()
		if id == "MON" {
			return caseLike(n.key.name, m[:3]), nil
		}
		return name(m), nil
	case "MM":
		return num(f.month, 2), nil
	case "DAY":
		return name(time.Weekday(f.wday).String()), nil
	case "DY":
		return caseLike(n.key.name, time.Weekday(f.wday).String()[:3]), nil
	case "DDD":
		return fixed(f.yday, 3), nil
	case "IDDD":
		wd := (f.wday+6)%7 + 1
		return num((isoWeek-1)*7+wd, 3), nil
	case "DD":
		return fixed(f.day, 2), nil
	case "D":
		return strconv.Itoa(f.wday + 1), nil
	case "ID":
		return strconv.Itoa((f.wday+6)%7 + 1), nil
	case "WW":
		return num((f.yday-1)/7+1, 2), nil
	case "IW":
		return num(isoWeek, 2), nil
	case "Q":
		if f.month == 0 {
			return "", nil
		}
		return strconv.Itoa((f.month-1)/3 + 1), nil
	case "CC":
		c := (f.year-1)/100 + 1
		switch {
		case f.interval:
			c = f.year / 100
		case f.year <= 0:
			c = f.year/100 - 1
		}
		if c > 99 || c < -99 {
			return strconv.Itoa(c), nil
		}
		return num(c, 2), nil
	case "Y,YYY":
		return fmt.Sprintf("%d,%03d", year/1000, year%1000), nil
	case "YYYY", "IYYY":
		return num(year, 4), nil
	case "YYY", "IYY":
		return num(year%1000, 3), nil
	case "YY", "IY":
		return num(year%100, 2), nil
	case "Y", "I":
		return strconv.Itoa(year % 10), nil
	case "RM":
		m := f.month
		switch {
		case m == 0 && f.year == 0:
			return "", nil
		case m == 0 && f.year > 0: // an interval of whole years
			m = 12
		case m == 0:
			m = 1
		case m < 0: // a negative interval's months, as PostgreSQL 15 prints them
			m += 13
		}
		s := caseLike(n.key.name, romanMonths[m-1])
		if n.fm {
			return s, nil
		}
		return fmt.Sprintf("%-4s", s), nil
	case "W":
		return strconv.Itoa((f.day-1)/7 + 1), nil
	case "J":
		return strconv.Itoa(date2j(f.year, f.month, f.day)), nil
	}
	return "", nil // FX
}

var romanMonths = []string{"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"}

// date2j is the Julian day number of a date, as PostgreSQL computes it.
func date2j(year, month, day int) int {
	if month > 2 {
		month++
		year += 4800
	} else {
		month += 13
		year += 4799
	}
	century := year / 100
	j := year*365 - 32167
	j += year/4 - century + century/4
	return j + 7834*month/256 + day
}

// caseLike writes a name (capitalized, as Go writes month and day names)
// in the case of the pattern naming it: MONTH upper, month lower, Month as
// it is.
func caseLike(pat, name string) string {
	switch pat {
	case strings.ToUpper(pat):
		return strings.ToUpper(name)
	case strings.ToLower(pat):
		return strings.ToLower(name)
	}
	return name
}
