package pgcatalog

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// cast converts v of static type from to type to, as PostgreSQL's casts
// and input functions do for the types catalog queries use.
func (ev *evaluator) cast(v Value, from, to uint32) (Value, error) {
	if v.isNull() || from == to {
		return v, nil
	}
	if to == tTime {
		return ev.castToTime(v, from)
	}
	if to == tTimetz {
		return ev.castToTimetz(v, from)
	}
	if (to == tTimestamptz || to == tTimestamp || to == tDate) && v.k == kText {
		return ev.castTime(v.s, from, to)
	}
	if to == tInterval && from != tInterval {
		iv, err := parseInterval(ev.text(v, from))
		if err != nil {
			return null, err
		}
		return textV(iv.String()), nil
	}
	if to == tBytea {
		if v.k == kText {
			return byteaIn(v.s)
		}
		return byteaIn(ev.text(v, from))
	}
	if isJSONType(to) {
		return castJSON(ev.text(v, from), from, to)
	}
	if from == tJSONB && jsonScalarTarget(to) {
		return ev.castFromJSONB(v, to)
	}
	if to == tUUID && v.k == kText {
		return uuidIn(v.s)
	}
	if to == tJSONPath && from != tJSONPath {
		path, err := parseJSONPath(ev.text(v, from))
		if err != nil {
			return null, err
		}
		return textV(path.String()), nil
	}
	if from == tChar && to == tInt4 { // the byte's code, as char_int4
		return intV(charCode(v.s)), nil
	}
	if to == tChar && from == tInt4 {
		return charFromCode(v)
	}
	if isTextType(to) && v.k == kBool { // boolean's cast to text spells it out
		return textV(strconv.FormatBool(v.b)), nil
	}
	if isTextType(to) || to == tNodeTree {
		if v.k == kText && from != tTimestamptz && from != tBpchar && from != tInterval { // an instant reads in the session's zone
			return castText(v.s, to), nil
		}
		if to == tBpchar || from == tInterval { // an interval prints in the session's IntervalStyle
			return castText(ev.text(v, from), to), nil
		}
		return castText(ev.asText(v, from), to), nil
	}
	switch kindOf(to) {
	case kBool:
		return castBool(v)
	case kInt:
		if isRegType(to) && v.k == kText {
			return ev.regIn(v.s, to)
		}
		return castInt(v, to)
	case kFloat:
		return castFloat(v, to)
	case kNumeric:
		if from == tFloat4 && v.k == kFloat && !math.IsNaN(v.f) && !math.IsInf(v.f, 0) {
			return castNumeric(textV(strconv.FormatFloat(v.f, 'g', 6, 32))) // FLT_DIG digits, as float4_numeric
		}
		return castNumeric(v)
	case kArray:
		return ev.castArray(v, from, to)
	}
	return v, nil
}

// timeInputs are the spellings castTime reads: ISO 8601 with T or a space,
// seconds optional, zones as Z, ±hh, ±hhmm or ±hh:mm, or none (then the
// session's TimeZone), or a date alone.
var timeInputs = []string{"2006-01-02T15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999-07", "2006-01-02T15:04:05.999999999-07", "2006-01-02 15:04:05.999999999-0700",
	"2006-01-02T15:04:05.999999999-0700", "2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999", "2006-01-02",
	// Without seconds, as PostgreSQL also reads them.
	"2006-01-02 15:04Z07:00", "2006-01-02T15:04Z07:00", "2006-01-02 15:04-07", "2006-01-02T15:04-07",
	"2006-01-02 15:04", "2006-01-02T15:04"}

// castTime reads a date or timestamp and renders it in its type's output
// form, so that values of the type compare correctly as text. A
// timestamptz becomes its UTC text (an instant); one written without a
// zone, or a timestamp or date made one, is a wall time in the session's
// zone; a timestamptz made a timestamp or date is its wall time there.
// PostgreSQL's special inputs now, today, yesterday, tomorrow and epoch
// read as such; infinity and -infinity stay words, which sort after and
// before every date as text; anything else is 22007.
func (ev *evaluator) castTime(s string, from, to uint32) (Value, error) {
	t, ok := parseTime(s)
	zoned := ok && hasZone(s)
	if !ok {
		var err error
		if t, ok, err = parseNamedZoneTime(s); err != nil {
			return null, err
		}
		zoned = ok
	}
	if !ok {
		special, err := ev.specialTime(s, to)
		if err != nil || special.k != kNull {
			return special, err
		}
		if from == tTimestamptz || from == tTimestamp || from == tDate {
			return textV(s), nil // a value of a time type already: keep it
		}
		if err := timeFieldOverflow(s); err != nil {
			return null, err
		}
		name := formatType(to, -1)
		if to == tTimestamp {
			name = "timestamp" // as PostgreSQL's date/time input errors name it
		}
		return null, errorf(CodeInvalidDatetimeFormat, noPos, "invalid input syntax for type %s: \"%s\"", name, s)
	}
	switch {
	case to == tTimestamptz && (from == tTimestamp || from == tDate || !zoned):
		t = wallTime(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), ev.zone())
	case to != tTimestamptz && from == tTimestamptz:
		t = t.In(ev.zone())
	}
	if to == tTimestamptz {
		t = t.UTC()
	}
	return timeValue(t, to), nil
}

// specialTime reads PostgreSQL's special date and time inputs; NULL (and
// no error) for other text.
func (ev *evaluator) specialTime(s string, to uint32) (Value, error) {
	word := strings.ToLower(strings.TrimSpace(s))
	midnight := func(days int) (Value, error) {
		y, m, d := ev.now.In(ev.zone()).Date()
		t := wallTime(y, m, d+days, 0, 0, 0, 0, ev.zone())
		if to == tTimestamptz {
			t = t.UTC()
		}
		return timeValue(t, to), nil
	}
	switch word {
	case "now":
		t := ev.now
		if to != tTimestamptz {
			t = t.In(ev.zone())
		}
		return timeValue(t, to), nil
	case "today":
		return midnight(0)
	case "yesterday":
		return midnight(-1)
	case "tomorrow":
		return midnight(1)
	case "epoch":
		return timeValue(time.Unix(0, 0).UTC(), to), nil
	case "infinity", "-infinity":
		return textV(word), nil
	}
	return null, nil
}

// hasZone reports whether date or timestamp text names its zone (Z, or an
// offset after the time).
func hasZone(s string) bool {
	s = strings.TrimSpace(s)
	if strings.HasSuffix(s, "Z") || strings.HasSuffix(s, "z") {
		return true
	}
	i := strings.LastIndexAny(s, "+-")
	return i > 10 // past the date's own dashes (2006-01-02)
}

// zoneAbbrevs are the abbreviations of PostgreSQL's Default
// timezone_abbreviations set that timestamp input reads most often, with
// their fixed UTC offsets in seconds.
var zoneAbbrevs = map[string]int{
	"utc": 0, "ut": 0, "gmt": 0, "z": 0, "zulu": 0, "wet": 0,
	"est": -5 * 3600, "edt": -4 * 3600, "cst": -6 * 3600, "cdt": -5 * 3600,
	"mst": -7 * 3600, "mdt": -6 * 3600, "pst": -8 * 3600, "pdt": -7 * 3600,
	"akst": -9 * 3600, "akdt": -8 * 3600, "hst": -10 * 3600,
	"cet": 3600, "cest": 2 * 3600, "bst": 3600, "eet": 2 * 3600, "eest": 3 * 3600,
	"ist": 2 * 3600, "msk": 3 * 3600, "jst": 9 * 3600, "kst": 9 * 3600,
	"aest": 10 * 3600, "aedt": 11 * 3600, "nzst": 12 * 3600, "nzdt": 13 * 3600,
}

// parseNamedZoneTime reads a date or timestamp without an offset followed
// by a zone's name ("2024-03-09 12:00 Europe/Berlin", "... UTC", "...
// PST"), as PostgreSQL's datetime input does: the wall time in that zone.
// ok is false when s is not of that shape; an unknown name with a slash
// is PostgreSQL's 22023 error.
func parseNamedZoneTime(s string) (time.Time, bool, error) {
	in := strings.TrimSpace(s)
	i := strings.LastIndexAny(in, " \t")
	if i < 0 {
		return time.Time{}, false, nil
	}
	head, name := strings.TrimSpace(in[:i]), in[i+1:]
	t, ok := parseTime(head)
	if !ok || hasZone(head) {
		return time.Time{}, false, nil
	}
	var loc *time.Location
	if name[0] == '+' || name[0] == '-' { // an offset after a space, east of UTC
		l, ok := offsetZone(name, false)
		if !ok {
			return time.Time{}, false, nil
		}
		loc = l
	} else if off, ok := zoneAbbrevs[strings.ToLower(name)]; ok {
		loc = time.FixedZone(name, off)
	} else if l, err := loadZoneName(name); err == nil {
		loc = l
	} else if strings.Contains(name, "/") {
		return time.Time{}, false, errorf(CodeInvalidParameter, noPos, "time zone \"%s\" not recognized", strings.ToLower(name))
	} else {
		return time.Time{}, false, nil
	}
	return wallTime(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), loc), true, nil
}

// loadZoneName loads an IANA zone by its name in any case, as PostgreSQL
// matches them ("america/new_york"): as written, else with each word
// capitalized.
func loadZoneName(name string) (*time.Location, error) {
	if name == "" || name[0] == '+' || name[0] == '-' || name[0] >= '0' && name[0] <= '9' || strings.ToLower(name) == "local" {
		return nil, errors.New("not a zone name")
	}
	loc, err := time.LoadLocation(name)
	if err == nil {
		return loc, nil
	}
	b := []byte(strings.ToLower(name))
	for i := range b {
		if (i == 0 || b[i-1] == '/' || b[i-1] == '_' || b[i-1] == '-') && b[i] >= 'a' && b[i] <= 'z' {
			b[i] -= 'a' - 'A'
		}
	}
	if l, err2 := time.LoadLocation(string(b)); err2 == nil {
		return l, nil
	}
	return nil, err
}

// parseTime reads a date or timestamp in one of timeInputs' spellings.
func parseTime(s string) (time.Time, bool) {
	in := strings.TrimSpace(s)
	for _, layout := range timeInputs {
		if t, err := time.Parse(layout, in); err == nil {
			return t, true
		}
	}
	if iso, ok := isoDate(in); ok {
		for _, layout := range timeInputs {
			if t, err := time.Parse(layout, iso); err == nil {
				return t, true
			}
		}
	}
	return time.Time{}, false
}

// monthNumbers maps the months' names and their three-letter abbreviations
// (and sept) to their numbers.
var monthNumbers = func() map[string]int {
	m := map[string]int{"sept": 9}
	for i := time.January; i <= time.December; i++ {
		n := strings.ToLower(i.String())
		m[n], m[n[:3]] = int(i), int(i)
	}
	return m
}()

// isoDate rewrites date input in PostgreSQL's other spellings under
// DateStyle MDY into ISO form, the time after it kept: 02/01/2024 (month
// first), 2024/01/05, 2024.01.05, 20240105, January 5, 2024, 5 Jan 2024,
// Jan-05-2024, 2024-Jan-05, with an optional weekday name before it. A
// two-digit year is 1970 to 2069. Fields out of range are kept so that
// timeFieldOverflow reports them.
func isoDate(in string) (string, bool) {
	fields := strings.Fields(in)
	var parts []string
	i := 0
	for ; i < len(fields) && len(parts) < 3; i++ {
		f := strings.TrimSuffix(fields[i], ",")
		if strings.Contains(f, ":") || f == "" {
			break
		}
		lf := strings.ToLower(f)
		if len(parts) == 0 && len(lf) >= 3 && isWeekday(lf) {
			continue
		}
		if len(parts) == 0 {
			if sub := strings.FieldsFunc(f, func(r rune) bool { return r == '/' || r == '.' || r == '-' }); len(sub) == 3 {
				parts = sub
				continue
			}
			if len(f) == 8 && allDigits(f) {
				parts = []string{f[:4], f[4:6], f[6:]}
				continue
			}
		}
		parts = append(parts, f)
	}
	if len(parts) != 3 {
		return "", false
	}
	rest := fields[i:]
	if len(rest) == 1 && len(rest[0]) == 6 && allDigits(rest[0]) { // 20240105 103000
		r := rest[0]
		rest = []string{r[:2] + ":" + r[2:4] + ":" + r[4:]}
	}
	month, mi := 0, -1
	for j, p := range parts {
		if m, ok := monthNumbers[strings.ToLower(p)]; ok {
			if mi >= 0 {
				return "", false
			}
			month, mi = m, j
		} else if !allDigits(p) || len(p) > 4 {
			return "", false
		}
	}
	var nums []string
	for j, p := range parts {
		if j != mi {
			nums = append(nums, p)
		}
	}
	var y, m, d string
	switch {
	case mi >= 0 && len(nums[0]) > 2: // 2024-Jan-05
		y, d = nums[0], nums[1]
	case mi >= 0: // Jan 5 2024, 5 Jan 2024
		d, y = nums[0], nums[1]
	case len(parts[0]) > 2: // 2024/01/05
		y, m, d = parts[0], parts[1], parts[2]
	default: // 02/01/2024, month first
		m, d, y = parts[0], parts[1], parts[2]
	}
	if mi >= 0 {
		m = strconv.Itoa(month)
	}
	if len(m) > 2 || len(d) > 2 {
		return "", false
	}
	year := atoiPrefix(y)
	if len(y) <= 2 {
		if year < 70 {
			year += 2000
		} else {
			year += 1900
		}
	} else if len(y) == 3 {
		return "", false
	}
	iso := fmt.Sprintf("%04d-%02d-%02d", year, atoiPrefix(m), atoiPrefix(d))
	if len(rest) > 0 {
		iso += " " + strings.Join(rest, " ")
	}
	return iso, true
}

// isWeekday reports whether the lowercase word is a weekday's name or a
// prefix of one of at least three letters.
func isWeekday(w string) bool {
	for d := time.Sunday; d <= time.Saturday; d++ {
		if strings.HasPrefix(strings.ToLower(d.String()), w) {
			return true
		}
	}
	return false
}

// allDigits reports whether s is a nonempty run of ASCII digits.
func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// timeFieldOverflow is PostgreSQL's 22008 error for a date or time in
// one of timeInputs' shapes whose field is out of range (February 30th, hour
// 25), or nil. As in PostgreSQL, a month past 12 or a day past 31 hints at
// DateStyle.
func timeFieldOverflow(s string) *Error {
	in := strings.TrimSpace(s)
	if _, ok := parseTime(in); ok {
		return nil
	}
	if iso, ok := isoDate(in); ok {
		in = iso
	}
	for _, layout := range timeInputs {
		_, err := time.Parse(layout, in)
		var pe *time.ParseError
		if !errors.As(err, &pe) || !strings.HasSuffix(pe.Message, "out of range") {
			continue
		}
		if _, err := time.Parse(layout, digitsAsOnes(in)); err != nil {
			continue // malformed besides ('2020-13-45x'): PostgreSQL's 22007
		}
		e := errorf("22008", noPos, "date/time field value out of range: \"%s\"", s)
		if m, d := atoiPrefix(in[5:]), atoiPrefix(in[min(8, len(in)):]); m < 1 || m > 12 || d > 31 {
			e.Hint = `Perhaps you need a different "datestyle" setting.`
		}
		return e
	}
	return nil
}

// digitsAsOnes is s with every digit 1: its shape with each field in
// range, so that a layout that parses it tells a field out of range from
// text that is malformed as well.
func digitsAsOnes(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= '0' && c <= '9' {
			b[i] = '1'
		}
	}
	return string(b)
}

// atoiPrefix reads the decimal digits s starts with (0 for none).
func atoiPrefix(s string) int {
	n := 0
	for i := 0; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

// timeValue prints t as a value of type typ (a date, a timestamp, or a
// timestamptz, whose zone t is already in).
func timeValue(t time.Time, typ uint32) Value {
	switch typ {
	case tTimestamp:
		return textV(t.Format("2006-01-02 15:04:05.999999"))
	case tDate:
		return textV(t.Format("2006-01-02"))
	}
	return textV(t.Format(timestampLayout))
}

// jsonScalarTarget reports whether to is a type jsonb casts a scalar to
// (boolean, the integers, numeric and the floats).
func jsonScalarTarget(to uint32) bool {
	switch kindOf(to) {
	case kBool, kFloat, kNumeric:
		return true
	case kInt:
		return !isRegType(to)
	}
	return false
}

// castFromJSONB is jsonb's cast to a jsonScalarTarget: a jsonb boolean to
// boolean, a jsonb number to the numeric types (rounded as numeric is);
// any other jsonb value is an error naming its type.
func (ev *evaluator) castFromJSONB(v Value, to uint32) (Value, error) {
	n, err := jsonArg(v, tJSONB)
	if err != nil {
		return null, err
	}
	switch {
	case kindOf(to) == kBool && n.kind == jsonBool:
		return boolV(n.b), nil
	case kindOf(to) != kBool && n.kind == jsonNumber:
		num, err := castNumeric(textV(n.str))
		if err != nil {
			return null, err
		}
		return ev.cast(num, tNumeric, to)
	}
	name := n.typeName()
	if n.kind == jsonNumber {
		name = "numeric"
	}
	return null, errorf(CodeInvalidParameter, noPos, "cannot cast jsonb %s to type %s", name, formatType(to, -1))
}

// castJSON reads text as json or jsonb, as their input functions do: json
// keeps the text as written once it parses, jsonb normalizes it. jsonb
// text is valid json already.
func castJSON(s string, from, to uint32) (Value, error) {
	if to == tJSON {
		if from != tJSONB {
			if _, err := parseJSON(s, false); err != nil {
				return null, err
			}
		}
		return textV(s), nil
	}
	return jsonValue(s, tJSONB)
}

// charCode is a "char"'s byte as a signed integer; its text is the byte,
// \ooo for one with the high bit set, or "" for 0 (charout).
func charCode(s string) int64 {
	if len(s) == 4 && s[0] == '\\' {
		if n, err := strconv.ParseUint(s[1:], 8, 8); err == nil {
			return int64(int8(n))
		}
	}
	if s == "" {
		return 0
	}
	return int64(int8(s[0]))
}

// charFromCode is i4tochar: the "char" whose byte is the integer.
func charFromCode(v Value) (Value, error) {
	n, ok := v.asInt()
	if !ok || n < math.MinInt8 || n > math.MaxInt8 {
		return null, errorf(CodeOutOfRange, noPos, "\"char\" out of range")
	}
	return textV(charText(byte(n))), nil
}

// charText is a "char" holding byte b as charout prints it: the byte, \ooo
// for one with the high bit set (alone it is no UTF-8 character), or ""
// for 0.
func charText(b byte) string {
	switch {
	case b == 0:
		return ""
	case b >= 0x80:
		return fmt.Sprintf("\\%03o", b)
	}
	return string(rune(b))
}

// charIn is text made a "char", as charin and text_char read it: \ooo (three
// octal digits) is that byte, anything else its first byte, so that 'é'
// keeps the first byte of its UTF-8 encoding, not a broken character.
func charIn(s string) string {
	if len(s) == 4 && s[0] == '\\' && isOctal(s[1]) && isOctal(s[2]) && isOctal(s[3]) {
		return charText(byte(int(s[1]-'0')<<6 + int(s[2]-'0')<<3 + int(s[3]-'0')))
	}
	if s == "" {
		return ""
	}
	return charText(s[0])
}

func castText(s string, to uint32) Value {
	if to == tChar {
		s = charIn(s)
	}
	if to == tName && len(s) > 63 { // NAMEDATALEN-1 bytes, cut at a character's start, as namein
		n := 63
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s = s[:n]
	}
	return textV(s)
}

func castBool(v Value) (Value, error) {
	switch v.k {
	case kBool:
		return v, nil
	case kInt:
		return boolV(v.i != 0), nil
	case kText:
		if b, ok := ParseBool(v.s); ok {
			return boolV(b), nil
		}
	}
	return null, errorf(CodeInvalidText, noPos, "invalid input syntax for type boolean: \"%s\"", plainText(v))
}

// ParseBool reads boolean input as PostgreSQL's boolin does: true, yes,
// on, 1, false, no, off, 0 or a unique prefix of a word, in any case, with
// white space around.
func ParseBool(s string) (value, ok bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return false, false
	}
	for _, w := range []struct {
		word string
		min  int // the shortest unique prefix
		val  bool
	}{{"true", 1, true}, {"yes", 1, true}, {"on", 2, true}, {"1", 1, true},
		{"false", 1, false}, {"no", 1, false}, {"off", 2, false}, {"0", 1, false}} {
		if len(s) >= w.min && strings.HasPrefix(w.word, s) {
			return w.val, true
		}
	}
	return false, false
}

func castFloat(v Value, to uint32) (Value, error) {
	f, ok := v.asFloat()
	if !ok {
		if v.k == kText || v.k == kNumeric {
			if _, err := strconv.ParseFloat(strings.TrimSpace(v.s), 64); errors.Is(err, strconv.ErrRange) {
				return null, errorf(CodeOutOfRange, noPos, "\"%s\" is out of range for type %s", plainText(v), formatType(to, -1))
			}
		}
		return null, errorf(CodeInvalidText, noPos, "invalid input syntax for type %s: \"%s\"", formatType(to, -1), plainText(v))
	}
	if (v.k == kText || v.k == kNumeric) && (f == 0 || to == tFloat4 && float32(f) == 0) && nonzeroMantissa(plainText(v)) {
		// underflow to zero is out of range, as in float8in and float4in
		return null, errorf(CodeOutOfRange, noPos, "\"%s\" is out of range for type %s", plainText(v), formatType(to, -1))
	}
	if to == tFloat4 && !math.IsInf(f, 0) && math.Abs(f) > math.MaxFloat32 {
		if v.k == kText {
			return null, errorf(CodeOutOfRange, noPos, "\"%s\" is out of range for type real", plainText(v))
		}
		return null, errorf(CodeOutOfRange, noPos, "value out of range: overflow")
	}
	if to == tFloat4 { // a real holds a float32: 0.1::real::float8 is 0.10000000149011612
		f = float64(float32(f))
	}
	return floatV(f), nil
}

// nonzeroMantissa reports whether float input s has a digit other than 0
// before its exponent: a value that is not zero.
func nonzeroMantissa(s string) bool {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		s = s[:i]
	}
	return strings.ContainsAny(s, "123456789")
}

func castNumeric(v Value) (Value, error) {
	if v.k == kNumeric {
		return v, nil
	}
	n, err := numericOf(v)
	if err != nil {
		return null, err
	}
	return numericV(n), nil
}

func castInt(v Value, to uint32) (Value, error) {
	if v.k == kFloat { // NaN and values past int64 do not convert
		if r := math.RoundToEven(v.f); math.IsNaN(r) || r < math.MinInt64 || r >= math.MaxInt64 {
			return null, errorf(CodeOutOfRange, noPos, "%s out of range", formatType(to, -1))
		}
	}
	n, ok := v.asInt()
	if !ok {
		if v.k == kText {
			if _, err := strconv.ParseInt(strings.TrimSpace(v.s), 10, 64); errors.Is(err, strconv.ErrRange) {
				return null, errorf(CodeOutOfRange, noPos, "value \"%s\" is out of range for type %s", plainText(v), formatType(to, -1))
			}
		}
		return null, errorf(CodeInvalidText, noPos, "invalid input syntax for type %s: \"%s\"", formatType(to, -1), plainText(v))
	}
	lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
	switch to {
	case tInt2:
		lo, hi = math.MinInt16, math.MaxInt16
	case tInt4:
		lo, hi = math.MinInt32, math.MaxInt32
	case tOid:
		if v.k == kText { // oidin takes what a signed int4 holds, too
			lo, hi = math.MinInt32, math.MaxUint32
		} else {
			lo, hi = 0, math.MaxUint32
		}
	case tXid, tRegclass, tRegtype, tRegproc, tRegprocedure, tRegnamespace, tRegrole:
		lo, hi = 0, math.MaxUint32
	}
	if n < lo || n > hi {
		switch {
		case v.k == kText: // PostgreSQL's input functions quote the input
			return null, errorf(CodeOutOfRange, noPos, "value \"%s\" is out of range for type %s", plainText(v), formatType(to, -1))
		case to == tOid:
			return null, errorf(CodeOutOfRange, noPos, "OID out of range")
		}
		return null, errorf(CodeOutOfRange, noPos, "%s out of range", formatType(to, -1))
	}
	if to == tOid && n < 0 {
		n += 1 << 32
	}
	return intV(n), nil
}

// castArray converts text in array syntax, or an array of another element
// type, to the array type to.
func (ev *evaluator) castArray(v Value, from, to uint32) (Value, error) {
	elem := elemType(to)
	var elems []Value
	switch v.k {
	case kArray:
		elems = v.a
	case kText:
		var err error
		if to == tInt2Vector || to == tOidVector {
			for _, f := range strings.Fields(v.s) {
				elems = append(elems, textV(f))
			}
		} else if elems, err = parseArray(v.s); err != nil {
			return null, err
		}
		from = arrayOf(tUnknown)
	default:
		return null, errorf(CodeDatatypeMismatch, noPos, "cannot cast %s to %s", formatType(from, -1), formatType(to, -1))
	}
	out := make([]Value, len(elems))
	fromElem := elemType(from)
	if v.k == kText {
		fromElem = tUnknown
	}
	for i, e := range elems {
		c, err := ev.cast(e, fromElem, elem)
		if err != nil {
			return null, err
		}
		out[i] = c
	}
	return arrayV(out), nil
}

// parseArray parses a one-dimensional array literal such as {a,"b c",NULL}
// as PostgreSQL's array_in does: double quotes only open an element,
// backslashes escape the next character inside or outside quotes, unquoted
// elements lose surrounding whitespace, and an unquoted, unescaped NULL is
// the null value. Malformed text fails with array_in's message and detail.
func parseArray(s string) ([]Value, error) {
	malformed := func(detail string) error {
		e := errorf(CodeInvalidText, noPos, "malformed array literal: \"%s\"", s)
		e.Detail = detail
		return e
	}
	unexpected := func(c byte) error {
		return malformed(fmt.Sprintf("Unexpected \"%c\" character.", c))
	}
	isSpace := func(c byte) bool {
		return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
	}
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	if i == len(s) || s[i] != '{' {
		if i < len(s) && s[i] == '[' {
			return nil, malformed("")
		}
		return nil, malformed("Array value must start with \"{\" or dimension information.")
	}
	i++
	const (
		levelStarted = iota
		elemStarted
		quotedStarted
		quotedDone
		elemDelimited
	)
	state := levelStarted
	var out []Value
	var sb strings.Builder
	keep := 0 // length of sb up to its last escaped or non-space byte
	quoted := false
	finish := func() {
		if !quoted && strings.EqualFold(sb.String()[:keep], "NULL") {
			out = append(out, null)
		} else {
			out = append(out, textV(sb.String()[:keep]))
		}
		sb.Reset()
		keep, quoted = 0, false
	}
	for {
		if i == len(s) {
			return nil, malformed("Unexpected end of input.")
		}
		c := s[i]
		i++
		if state == quotedStarted {
			switch c {
			case '\\':
				if i == len(s) {
					return nil, malformed("Unexpected end of input.")
				}
				sb.WriteByte(s[i])
				i++
			case '"':
				state = quotedDone
			default:
				sb.WriteByte(c)
			}
			keep = sb.Len()
			continue
		}
		switch {
		case c == '\\':
			if state == quotedDone {
				return nil, unexpected(c)
			}
			if i == len(s) {
				return nil, malformed("Unexpected end of input.")
			}
			sb.WriteByte(s[i])
			i++
			keep, quoted, state = sb.Len(), true, elemStarted
		case c == '"':
			if state != levelStarted && state != elemDelimited {
				return nil, malformed("Unexpected array element.")
			}
			quoted, state = true, quotedStarted
		case c == '{':
			if state == levelStarted {
				return nil, errMultiDim(noPos)
			}
			return nil, unexpected(c)
		case c == '}' || c == ',':
			switch state {
			case elemStarted, quotedDone:
				finish()
			case levelStarted:
				if c == ',' {
					return nil, unexpected(c)
				}
			default:
				return nil, unexpected(c)
			}
			if c == ',' {
				state = elemDelimited
				continue
			}
			for ; i < len(s); i++ {
				if !isSpace(s[i]) {
					return nil, malformed("Junk after closing right brace.")
				}
			}
			return out, nil
		case isSpace(c):
			if state == elemStarted {
				sb.WriteByte(c)
			}
		default:
			if state == quotedDone {
				return nil, malformed("Unexpected array element.")
			}
			sb.WriteByte(c)
			keep, state = sb.Len(), elemStarted
		}
	}
}

// regIn is the input function of the OID alias types: a number, or a name
// resolved in the catalog.
func (ev *evaluator) regIn(s string, to uint32) (Value, error) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return intV(n), nil
	}
	if s == "-" && to != tRegclass {
		return intV(0), nil
	}
	parts := splitQualified(s)
	switch to {
	case tRegclass:
		snap, err := ev.catalog()
		if err != nil {
			return null, err
		}
		schema, name := "", parts[len(parts)-1]
		if len(parts) > 1 {
			schema = parts[len(parts)-2]
		}
		if r := snap.resolveRel(schema, name); r != nil {
			return oidV(r.oid), nil
		}
		return null, errorf(CodeUndefinedTable, noPos, "relation \"%s\" does not exist", s)
	case tRegtype:
		if t, ok := lookupTypeName(s); ok {
			return oidV(t.oid), nil
		}
		return null, errorf(CodeUndefinedObject, noPos, "type \"%s\" does not exist", s)
	case tRegnamespace:
		if o, ok := nspOID(parts[len(parts)-1]); ok {
			return oidV(o), nil
		}
		return null, errorf(CodeUndefinedObject, noPos, "schema \"%s\" does not exist", s)
	case tRegrole:
		if o, ok := ev.roleOIDByName(parts[len(parts)-1]); ok {
			return oidV(o), nil
		}
		return null, errorf(CodeUndefinedObject, noPos, "role \"%s\" does not exist", s)
	case tRegproc:
		return regprocIn(s)
	case tRegprocedure:
		return regprocedureIn(s)
	}
	return null, errorf(CodeInvalidText, noPos, "invalid input syntax for type oid: \"%s\"", s)
}

// splitQualified splits a possibly quoted, dotted name; unquoted parts are
// lower-cased.
func splitQualified(s string) []string {
	var parts []string
	var cur strings.Builder
	quoted := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' && quoted && i+1 < len(s) && s[i+1] == '"':
			cur.WriteByte('"')
			i++
		case c == '"':
			quoted = !quoted
		case c == '.' && !quoted:
			parts = append(parts, cur.String())
			cur.Reset()
		case !quoted:
			cur.WriteString(strings.ToLower(string(c)))
		default:
			cur.WriteByte(c)
		}
	}
	return append(parts, cur.String())
}

// uuidIn reads a uuid as PostgreSQL's uuid_in does: 32 hex digits, in
// either case, optionally in braces, with a hyphen allowed after any group
// of four; it prints as lower-case 8-4-4-4-12.
func uuidIn(s string) (Value, error) {
	in := s
	if strings.HasPrefix(in, "{") && strings.HasSuffix(in, "}") && len(in) >= 2 {
		in = in[1 : len(in)-1]
	}
	var digits []byte
	for i := 0; i < len(in); i++ {
		c := in[i]
		switch {
		case c >= '0' && c <= '9' || c >= 'a' && c <= 'f':
			digits = append(digits, c)
		case c >= 'A' && c <= 'F':
			digits = append(digits, c+'a'-'A')
		case c == '-' && len(digits) > 0 && len(digits)%4 == 0 && i+1 < len(in) && in[i+1] != '-':
		default:
			digits = nil
			i = len(in)
		}
	}
	if len(digits) != 32 {
		return null, errorf(CodeInvalidText, noPos, "invalid input syntax for type uuid: \"%s\"", s)
	}
	d := string(digits)
	return textV(d[:8] + "-" + d[8:12] + "-" + d[12:16] + "-" + d[16:20] + "-" + d[20:]), nil
}

// castKinds sorts the types noCastBetween knows into kinds: 'n' numbers,
// 'o' bool, 't' dates and times, 'b' bytea, 'u' uuid.
var castKinds = map[uint32]byte{
	tInt2: 'n', tInt4: 'n', tInt8: 'n', tNumeric: 'n', tFloat4: 'n', tFloat8: 'n', tBool: 'o',
	tDate: 't', tTime: 't', tTimestamp: 't', tTimestamptz: 't', tInterval: 't',
	tBytea: 'b', tUUID: 'u',
}

// noCastBetween reports a cast PostgreSQL has no pg_cast entry for, among
// the common types: numbers, dates and times, bytea and uuid convert to
// each other only within their kind, and bool only to and from integer
// (text takes them all).
func noCastBetween(from, to uint32) bool {
	if from == tBool && to == tInt4 || from == tInt4 && to == tBool {
		return false
	}
	f, t := castKinds[from], castKinds[to]
	return f != 0 && t != 0 && f != t
}
