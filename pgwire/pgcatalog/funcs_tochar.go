package pgcatalog

import (
	"fmt"
	"strings"
	"time"
)

// to_char(timestamp, format): BI tools format dates with it, a timestamptz
// in the session's zone. The template patterns are PostgreSQL's
// (formatting.c): YYYY, YYY, YY, Y, IYYY, MM, Mon/MON/mon, Month/MONTH/month, DD, DDD, D, ID, Day/DAY/day,
// Dy/DY/dy, HH, HH12, HH24, MI, SS, MS, US, AM/PM/am/pm (and A.M. forms),
// Q, WW, IW, J, TZ/tz, OF; the FM prefix drops padding, "..." is literal
// text and \ escapes a character. to_char of a number is in
// funcs_tocharnum.go.

func init() {
	register("to_char", &builtin{min: 2, args: []uint32{tTimestamptz, tText}, ret: tText, fn: func(ev *evaluator, a []Value, t []uint32) (Value, error) {
		switch t[0] {
		case tTimestamptz, tTimestamp, tDate:
		default:
			if !isNumericType(t[0]) {
				return null, errorf(CodeNotSupported, noPos, "to_char(%s, text) is not supported", formatType(t[0], -1))
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
		return textV(toChar(ts, a[1].s, t[0] == tTimestamptz)), nil
	}})
}

// toCharPatterns are the template patterns, longest first where one is a
// prefix of another.
var toCharPatterns = []string{
	"A.M.", "P.M.", "a.m.", "p.m.", "HH24", "HH12", "IYYY", "YYYY", "MONTH", "Month", "month", "YYY",
	"DAY", "Day", "day", "DDD", "MON", "Mon", "mon", "IW", "WW", "YY", "MM", "DD", "DY", "Dy", "dy",
	"HH", "MI", "SS", "MS", "US", "AM", "PM", "am", "pm", "ID", "TZ", "tz", "OF", "Y", "D", "Q", "J",
}

func toChar(t time.Time, format string, withZone bool) string {
	var b strings.Builder
	for i := 0; i < len(format); {
		if format[i] == '"' { // literal text
			j := strings.IndexByte(format[i+1:], '"')
			if j < 0 {
				b.WriteString(format[i+1:])
				break
			}
			b.WriteString(format[i+1 : i+1+j])
			i += j + 2
			continue
		}
		if format[i] == '\\' && i+1 < len(format) {
			b.WriteByte(format[i+1])
			i += 2
			continue
		}
		fm := strings.HasPrefix(format[i:], "FM")
		if fm {
			i += 2
		}
		pat := ""
		for _, p := range toCharPatterns {
			if strings.HasPrefix(format[i:], p) {
				pat = p
				break
			}
		}
		if pat == "" {
			if !fm {
				b.WriteByte(format[i])
				i++
			}
			continue
		}
		b.WriteString(toCharField(t, pat, fm, withZone))
		i += len(pat)
	}
	return b.String()
}

// toCharField renders one pattern; fm drops zero padding and name padding.
func toCharField(t time.Time, pat string, fm, withZone bool) string {
	num := func(n, width int) string {
		if fm {
			return fmt.Sprint(n)
		}
		return fmt.Sprintf("%0*d", width, n)
	}
	name := func(s string) string {
		if fm {
			return s
		}
		return fmt.Sprintf("%-9s", s)
	}
	isoYear, isoWeek := t.ISOWeek()
	hour12 := t.Hour() % 12
	if hour12 == 0 {
		hour12 = 12
	}
	switch pat {
	case "YYYY":
		return num(t.Year(), 4)
	case "YYY":
		return num(t.Year()%1000, 3)
	case "YY":
		return num(t.Year()%100, 2)
	case "Y":
		return fmt.Sprint(t.Year() % 10)
	case "IYYY":
		return num(isoYear, 4)
	case "MM":
		return num(int(t.Month()), 2)
	case "MONTH", "Month", "month":
		return name(caseLike(pat, t.Month().String()))
	case "MON", "Mon", "mon":
		return caseLike(pat, t.Month().String()[:3])
	case "DD":
		return num(t.Day(), 2)
	case "DDD":
		return num(t.YearDay(), 3)
	case "D":
		return fmt.Sprint(int(t.Weekday()) + 1)
	case "ID":
		return fmt.Sprint((int(t.Weekday())+6)%7 + 1)
	case "DAY", "Day", "day":
		return name(caseLike(pat, t.Weekday().String()))
	case "DY", "Dy", "dy":
		return caseLike(pat, t.Weekday().String()[:3])
	case "HH", "HH12":
		return num(hour12, 2)
	case "HH24":
		return num(t.Hour(), 2)
	case "MI":
		return num(t.Minute(), 2)
	case "SS":
		return num(t.Second(), 2)
	case "MS":
		return num(t.Nanosecond()/1e6, 3)
	case "US":
		return num(t.Nanosecond()/1e3, 6)
	case "AM", "PM":
		return map[bool]string{true: "PM", false: "AM"}[t.Hour() >= 12]
	case "am", "pm":
		return map[bool]string{true: "pm", false: "am"}[t.Hour() >= 12]
	case "A.M.", "P.M.":
		return map[bool]string{true: "P.M.", false: "A.M."}[t.Hour() >= 12]
	case "a.m.", "p.m.":
		return map[bool]string{true: "p.m.", false: "a.m."}[t.Hour() >= 12]
	case "Q":
		return fmt.Sprint((int(t.Month())-1)/3 + 1)
	case "WW":
		return num((t.YearDay()-1)/7+1, 2)
	case "IW":
		return num(isoWeek, 2)
	case "J":
		return fmt.Sprint(floorDiv(t.Unix(), 86400) + 2440588) // 1970-01-01 is Julian day 2440588
	case "TZ", "tz", "OF":
		if !withZone {
			return ""
		}
		if pat == "OF" {
			return zoneOffset(t)
		}
		name, _ := t.Zone()
		if pat == "tz" {
			return strings.ToLower(name)
		}
		return name
	}
	return pat
}

// caseLike writes a month or day name (Go's capitalized form) in the case
// of the pattern naming it: MONTH upper, month lower, Month as it is.
func caseLike(pat, name string) string {
	switch pat {
	case strings.ToUpper(pat):
		return strings.ToUpper(name)
	case strings.ToLower(pat):
		return strings.ToLower(name)
	}
	return name
}

// floorDiv is a / b rounded down.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}
