package pgcatalog

import (
	"math"
	"strconv"
	"strings"
)

// kind is the runtime representation of a Value; the PostgreSQL type lives
// beside it, statically, in each bound expression.
type kind uint8

const (
	kNull kind = iota
	kBool
	kInt
	kFloat
	kNumeric // numeric, held as its canonical text in s (numeric.go)
	kText
	kArray
	kRecord
)

// Value is a datum: NULL, bool, integer (int2/4/8, oid and the reg* types),
// float (float4/8), numeric, text (text, name, "char", varchar, json...),
// array (including int2vector and oidvector) or record.
type Value struct {
	k     kind
	b     bool
	i     int64
	f     float64
	s     string
	a     []Value
	names []string // field names of a record
	types []uint32 // field types of a record (nil: unknown)
	nat   *native  // a scanned table value's Datum.Native (usertable.go)
}

var null = Value{}

func boolV(b bool) Value     { return Value{k: kBool, b: b} }
func intV(i int64) Value     { return Value{k: kInt, i: i} }
func oidV(o uint32) Value    { return Value{k: kInt, i: int64(o)} }
func floatV(f float64) Value { return Value{k: kFloat, f: f} }
func textV(s string) Value   { return Value{k: kText, s: s} }
func arrayV(a []Value) Value { return Value{k: kArray, a: a} }
func (v Value) isNull() bool { return v.k == kNull }
func (v Value) truthy() bool { return v.k == kBool && v.b }
func textArray(ss ...string) Value {
	a := make([]Value, len(ss))
	for i, s := range ss {
		a[i] = textV(s)
	}
	return arrayV(a)
}
func intArray(is ...int64) Value {
	a := make([]Value, len(is))
	for i, n := range is {
		a[i] = intV(n)
	}
	return arrayV(a)
}

// field returns a record's field by name.
func (v Value) field(name string) (Value, bool) {
	for i, n := range v.names {
		if n == name {
			return v.a[i], true
		}
	}
	return null, false
}

// asInt converts numeric-looking values to int64.
func (v Value) asInt() (int64, bool) {
	switch v.k {
	case kInt:
		return v.i, true
	case kFloat: // rounded half to even, as PostgreSQL's rint
		return int64(math.RoundToEven(v.f)), true
	case kNumeric:
		n, err := parseNumeric(v.s)
		if err != nil {
			return 0, false
		}
		return n.integer()
	case kBool:
		if v.b {
			return 1, true
		}
		return 0, true
	case kText:
		n, err := strconv.ParseInt(strings.TrimSpace(v.s), 10, 64)
		return n, err == nil
	}
	return 0, false
}

func (v Value) asFloat() (float64, bool) {
	switch v.k {
	case kInt:
		return float64(v.i), true
	case kFloat:
		return v.f, true
	case kText, kNumeric:
		f, err := strconv.ParseFloat(strings.TrimSpace(v.s), 64)
		return f, err == nil
	}
	return 0, false
}

// compare orders two non-NULL values: -1, 0 or 1. Values of different kinds
// are compared numerically when both look like numbers, otherwise as text.
func compare(a, b Value) int {
	if a.k == b.k {
		switch a.k {
		case kBool:
			return cmpBool(a.b, b.b)
		case kInt:
			return cmpOrdered(a.i, b.i)
		case kFloat:
			return cmpFloat(a.f, b.f)
		case kText:
			return strings.Compare(a.s, b.s)
		case kNumeric:
			return compareNumeric(a, b)
		case kArray, kRecord:
			return compareSlices(a.a, b.a)
		}
		return 0
	}
	if a.k == kNumeric && b.k == kInt || a.k == kInt && b.k == kNumeric {
		return compareNumeric(a, b)
	}
	if af, ok := a.asFloat(); ok {
		if bf, ok := b.asFloat(); ok {
			return cmpFloat(af, bf)
		}
	}
	return strings.Compare(plainText(a), plainText(b))
}

// compareAs orders two non-NULL values of type typ: intervals, which are
// text, by their length as PostgreSQL's interval_cmp does ('1 day' before
// '25 hours'); dates and timestamps, text too, with years past 9999 after
// the others (compareTimeText); timetz values by compareTimetz; "char"
// values by their byte, unsigned (\303 after z, though \ is before z in
// text); every other type as compare does.
func compareAs(a, b Value, typ uint32) int {
	if a.k == kText && b.k == kText {
		switch {
		case typ == tTimetz:
			if c, ok := compareTimetz(a.s, b.s); ok {
				return c
			}
		case typ == tChar:
			return cmpOrdered(int(uint8(charCode(a.s))), int(uint8(charCode(b.s))))
		case typ == tInterval:
			x, errX := parseInterval(a.s)
			y, errY := parseInterval(b.s)
			if errX == nil && errY == nil {
				return x.compare(y)
			}
		case timeRank(typ) > 0:
			return compareTimeText(a.s, b.s)
		}
	}
	return compare(a, b)
}

// compareTimeText orders the texts of two dates or timestamps (of one
// type, timestamptz in UTC), which order as text while their years have
// the same number of digits: a year past 9999 has more. The words
// infinity and -infinity order as text, after and before every date.
func compareTimeText(a, b string) int {
	da, db := leadingDigits(a), leadingDigits(b)
	if da >= 4 && db >= 4 && da != db {
		return cmpOrdered(da, db)
	}
	return strings.Compare(a, b)
}

// leadingDigits counts the decimal digits s starts with.
func leadingDigits(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

// compareNumeric orders numerics (and integers) exactly: 1.50 = 1.5.
func compareNumeric(a, b Value) int {
	x, y, err := numericPair(a, b)
	if err != nil {
		return strings.Compare(plainText(a), plainText(b))
	}
	return x.cmp(y)
}

func compareSlices(a, b []Value) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if c := compareNullsLast(a[i], b[i]); c != 0 {
			return c
		}
	}
	return cmpOrdered(len(a), len(b))
}

// compareNullsLast orders NULL after everything, as ORDER BY ASC does.
func compareNullsLast(a, b Value) int {
	switch {
	case a.isNull() && b.isNull():
		return 0
	case a.isNull():
		return 1
	case b.isNull():
		return -1
	}
	return compare(a, b)
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

// cmpFloat orders two floats as PostgreSQL's float8_cmp does: NaN equals
// itself and sorts above every other value, Infinity included.
func cmpFloat(a, b float64) int {
	switch an, bn := math.IsNaN(a), math.IsNaN(b); {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	}
	return cmpOrdered(a, b)
}

func cmpOrdered[T int | int64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// plainText renders a value without type knowledge (for text coercions of
// values whose static type is lost, and for hashing).
func plainText(v Value) string {
	switch v.k {
	case kBool:
		if v.b {
			return "true"
		}
		return "false"
	case kInt:
		return strconv.FormatInt(v.i, 10)
	case kFloat:
		return formatFloat(v.f)
	case kText, kNumeric:
		return v.s
	case kArray, kRecord:
		var sb strings.Builder
		open, close := "{", "}"
		if v.k == kRecord {
			open, close = "(", ")"
		}
		sb.WriteString(open)
		for i, e := range v.a {
			if i > 0 {
				sb.WriteByte(',')
			}
			if e.isNull() {
				if v.k == kArray {
					sb.WriteString("NULL")
				}
				continue
			}
			if v.k == kRecord {
				sb.WriteString(quoteRecordField(plainText(e)))
			} else {
				sb.WriteString(quoteArrayElem(plainText(e)))
			}
		}
		sb.WriteString(close)
		return sb.String()
	}
	return ""
}

func formatFloat(f float64) string { return formatFloatBits(f, 64) }

// formatFloatBits is formatFloat for a float of bits precision (32: a
// real, whose shortest digits are float4out's).
func formatFloatBits(f float64, bits int) string {
	switch {
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case math.IsNaN(f):
		return "NaN"
	}
	// As PostgreSQL's float8out: the shortest digits that read back,
	// written plainly unless the exponent is below -4 or above 14.
	// Exponent form past FLT_DIG (6) or DBL_DIG (15) digits before the point.
	limit := 15
	if bits == 32 {
		limit = 6
	}
	e := strconv.FormatFloat(f, 'e', -1, bits)
	if exp, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:]); exp < -4 || exp >= limit {
		return e
	}
	return strconv.FormatFloat(f, 'f', -1, bits)
}

// quoteArrayElem quotes an array element as array_out does.
func quoteArrayElem(s string) string {
	if s == "" || strings.EqualFold(s, "NULL") || strings.ContainsAny(s, "{},\"\\ \t\n\r\v\f") {
		r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
		return `"` + r.Replace(s) + `"`
	}
	return s
}

// key is a hashable rendering of a row, for DISTINCT, UNION and GROUP BY.
// trimNumeric drops a numeric text's trailing fraction zeros, and the sign
// of zero.
func trimNumeric(s string) string {
	if strings.IndexByte(s, '.') >= 0 {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		return "0"
	}
	return s
}

func key(vals []Value) string {
	var sb strings.Builder
	for _, v := range vals {
		sb.WriteByte(byte('0' + v.k))
		s := plainText(v)
		if v.k == kNumeric { // equal numerics group together: 1.50 = 1.5
			s = trimNumeric(s)
		}
		sb.WriteString(strconv.Itoa(len(s)))
		sb.WriteByte(':')
		sb.WriteString(s)
	}
	return sb.String()
}
