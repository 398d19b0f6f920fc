package pgcatalog

import (
	"strconv"
	"strings"
	"time"
	"unicode"
)

// to_timestamp(text, format) and to_date(text, format): dates and times
// read through to_char's template patterns (funcs_tochar.go), as
// PostgreSQL's from_char reads them. Numbers take at most their field's
// width in digits (YYYY four, MS three...), month and day names match
// without case, a separator in the format matches any one separator in
// the input, and white space is skipped. The wall time read is in the
// session's zone (to_timestamp) or a date (to_date); fields not given
// default to January 1 of year 1, midnight. TZ and OF, which PostgreSQL
// reads only in to_char, are refused as it refuses them.

func init() {
	register("to_date", &builtin{min: 2, args: []uint32{tText, tText}, ret: tDate, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		t, err := fromChar(a[0].s, a[1].s)
		if err != nil {
			return null, err
		}
		return timeValue(t, tDate), nil
	}})
}

// toTimestampText is to_timestamp(text, format).
func toTimestampText(ev *evaluator, text, format string) (Value, error) {
	t, err := fromChar(text, format)
	if err != nil {
		return null, err
	}
	wall := wallTime(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), ev.zone())
	return timeValue(instantIfZoned(wall, tTimestamptz), tTimestamptz), nil
}

// fromCharWidths are the digits a numeric pattern reads at most.
var fromCharWidths = map[string]int{
	"YYYY": 4, "IYYY": 4, "YYY": 3, "YY": 2, "Y": 1, "MM": 2, "DD": 2, "DDD": 3, "D": 1, "ID": 1,
	"HH": 2, "HH12": 2, "HH24": 2, "MI": 2, "SS": 2, "MS": 3, "US": 6, "IW": 2, "WW": 2, "Q": 1, "J": 7,
}

var monthNames = []string{"january", "february", "march", "april", "may", "june", "july", "august",
	"september", "october", "november", "december"}

var dayNames = []string{"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"}

// fromChar reads text by format into a wall time (in UTC).
func fromChar(text, format string) (time.Time, error) {
	year, month, day := 1, 1, 1
	hour, minute, sec, micro := 0, 0, 0, 0
	pm, hour12, yearDigits := -1, false, 0
	in := text
	bad := func(pat, detail string) error {
		e := errorf(CodeInvalidDatetimeFormat, noPos, "invalid value \"%s\" for \"%s\"", firstToken(in), pat)
		e.Detail = detail
		return e
	}
	const notAllowed = "The given value did not match any of the allowed values for this field."
	skipSpace := func() { in = strings.TrimLeft(in, " \t\n") }
	for _, node := range parseDCH(format) {
		switch {
		case node.key == nil && node.quoted:
			in = strings.TrimPrefix(in, node.text)
			continue
		case node.key == nil: // a separator or other text: matches one separator
			if node.text == " " {
				skipSpace()
			} else if in != "" && !isAlnum(in[0]) {
				in = in[1:]
			}
			continue
		case node.key.id == "FX":
			continue
		}
		pat := node.key.name
		skipSpace()
		switch up := node.key.id; {
		case up == "TZ" || up == "OF":
			return time.Time{}, errorf(CodeNotSupported, noPos, "formatting field \"%s\" is only supported in to_char", pat)
		case up == "MON" || up == "MONTH":
			n, rest, ok := matchName(in, monthNames, up == "MON")
			if !ok {
				return time.Time{}, bad(pat, notAllowed)
			}
			month, in = n+1, rest
		case up == "DAY" || up == "DY":
			_, rest, ok := matchName(in, dayNames, up == "DY")
			if !ok {
				return time.Time{}, bad(pat, notAllowed)
			}
			in = rest
		case up == "AM" || up == "PM" || up == "A.M." || up == "P.M.":
			word := strings.ToUpper(in[:min(len(pat), len(in))])
			switch strings.ReplaceAll(word, ".", "") {
			case "AM":
				pm = 0
			case "PM":
				pm = 1
			default:
				return time.Time{}, bad(pat, notAllowed)
			}
			in = in[len(word):]
		default:
			width, ok := fromCharWidths[up]
			if !ok {
				return time.Time{}, errorf(CodeNotSupported, noPos, "formatting field \"%s\" is not supported in to_timestamp and to_date", pat)
			}
			n, digits, rest := leadingNumber(in, width)
			if digits == 0 {
				return time.Time{}, bad(pat, "Value must be an integer.")
			}
			in = rest
			switch up {
			case "YYYY", "IYYY", "YYY", "YY", "Y":
				year, yearDigits = n, digits
			case "MM":
				month = n
			case "DD":
				day = n
			case "HH", "HH12":
				hour, hour12 = n, true
			case "HH24":
				hour = n
			case "MI":
				minute = n
			case "SS":
				sec = n
			case "MS":
				micro = n * pow10Int(3-digits) * 1000
			case "US":
				micro = n * pow10Int(6-digits)
			}
		}
	}
	if yearDigits > 0 && yearDigits < 4 {
		year = adjustYear(year, yearDigits)
	}
	if pm >= 0 || hour12 {
		if hour < 1 || hour > 12 {
			return time.Time{}, errorf("22008", noPos, "hour \"%d\" is invalid for the 12-hour clock", hour)
		}
		hour %= 12
		if pm == 1 {
			hour += 12
		}
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, micro*1000, time.UTC)
	if month < 1 || month > 12 || day < 1 || t.Day() != day || hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, errorf("22008", noPos, "date/time field value out of range: \"%s\"", text)
	}
	return t, nil
}

// adjustYear completes a year of fewer than four digits as PostgreSQL
// does: YY 70-99 is 19xx and 00-69 20xx, YYY 100-999 is 1xxx, Y 20x.
func adjustYear(year, digits int) int {
	switch digits {
	case 1:
		return 2000 + year
	case 2:
		if year < 70 {
			return 2000 + year
		}
		return 1900 + year
	}
	if year < 100 {
		return 2000 + year
	}
	return 1000 + year
}

// leadingNumber reads up to width digits from s.
func leadingNumber(s string, width int) (n, digits int, rest string) {
	for digits < width && digits < len(s) && s[digits] >= '0' && s[digits] <= '9' {
		digits++
	}
	n, _ = strconv.Atoi(s[:digits])
	return n, digits, s[digits:]
}

// matchName matches the start of s against names, whole or (abbrev) by
// their first three letters, ignoring case.
func matchName(s string, names []string, abbrev bool) (int, string, bool) {
	low := strings.ToLower(s)
	for i, n := range names {
		if abbrev {
			n = n[:3]
		}
		if strings.HasPrefix(low, n) {
			return i, s[len(n):], true
		}
	}
	return 0, s, false
}

func isAlnum(c byte) bool {
	return c < 0x80 && (unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c)))
}

// firstToken is the input where reading failed, up to its next space.
func firstToken(s string) string {
	if i := strings.IndexAny(s, " \t\n"); i >= 0 {
		return s[:i]
	}
	return s
}

func pow10Int(n int) int {
	p := 1
	for range n {
		p *= 10
	}
	return p
}
