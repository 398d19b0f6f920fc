package sql

import (
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

// FORMAT(format_string, value...): printf-style formatting with GoogleSQL's
// specifiers %d %i %o %x %X %f %F %e %E %g %G %s %t %T and %%, the flags
// - + space # 0 and ' (grouping), a width and a precision, each also as a
// * argument. %t prints any value readably, %T as a SQL literal. A format
// string parses once, into a bounded cache.
func init() {
	Register("FORMAT", &Overload{Args: []*types.Type{types.String, nil}, Variadic: true,
		Ret: types.String, Eval: fmtEval, NullCalls: true})
}

// fmtStar marks a width or precision given by an argument.
const fmtStar = -2

// fmtSpec is one % specifier of a format string and the text before it.
type fmtSpec struct {
	lit   string
	verb  byte // d i o x X f F e E g G s t T u p P, or % for %%
	flags fmtFlags
	// width and prec are -1 when absent, fmtStar when given by an argument.
	width, prec int
}

type fmtFlags struct{ minus, plus, space, sharp, zero, group bool }

// fmtPattern is a parsed format string.
type fmtPattern struct {
	pattern string
	specs   []fmtSpec
	tail    string // the text after the last specifier
	nargs   int    // the values the specifiers consume
}

var formatPatterns strPatternCache[*fmtPattern]

func fmtError(format string, args ...any) error {
	return sqlerr.New(sqlerr.InvalidArgument, "FORMAT: "+format, args...)
}

// fmtParse parses "%[flags][width][.precision]specifier" specifiers.
func fmtParse(_, pattern string) (*fmtPattern, error) {
	p := &fmtPattern{pattern: pattern}
	s := pattern
	for {
		i := strings.IndexByte(s, '%')
		if i < 0 {
			p.tail = s
			return p, nil
		}
		sp := fmtSpec{lit: s[:i], width: -1, prec: -1}
		s = s[i+1:]
		plain := true // no flags, width or precision: required by %%
		for ; len(s) > 0 && strings.IndexByte("-+ #'0", s[0]) >= 0; s = s[1:] {
			plain = false
			switch s[0] {
			case '-':
				sp.flags.minus = true
			case '+':
				sp.flags.plus = true
			case ' ':
				sp.flags.space = true
			case '#':
				sp.flags.sharp = true
			case '0':
				sp.flags.zero = true
			case '\'':
				sp.flags.group = true
			}
		}
		var n int
		if len(s) > 0 && s[0] == '*' {
			sp.width, s, plain = fmtStar, s[1:], false
		} else if n, s = fmtNumber(s); n >= 0 {
			if n > strMaxOutput {
				return nil, fmtError("width %d in %q exceeds the maximum of %d", n, pattern, strMaxOutput)
			}
			sp.width, plain = n, false
		}
		if len(s) > 0 && s[0] == '.' {
			plain = false
			if s = s[1:]; len(s) > 0 && s[0] == '*' {
				sp.prec, s = fmtStar, s[1:]
			} else {
				n, s = fmtNumber(s)
				sp.prec = max(n, 0) // "." alone is precision 0
			}
		}
		if len(s) == 0 {
			return nil, fmtError("invalid format string %q", pattern)
		}
		r, w := utf8.DecodeRuneInString(s)
		s = s[w:]
		switch {
		case r == '%':
			if !plain {
				return nil, fmtError("invalid format string %q", pattern)
			}
		case r < utf8.RuneSelf && strings.IndexByte("diuoxXfFeEgGstTpP", byte(r)) >= 0:
			if sp.prec >= 0 {
				var err error
				if sp.prec, err = fmtPrecision(byte(r), int64(sp.prec)); err != nil {
					return nil, err
				}
			}
			p.nargs++
		default:
			return nil, fmtError("invalid format specifier %q in %q", string(r), pattern)
		}
		sp.verb = byte(r)
		if sp.width == fmtStar {
			p.nargs++
		}
		if sp.prec == fmtStar {
			p.nargs++
		}
		p.specs = append(p.specs, sp)
	}
}

// fmtNumber parses the decimal digits s starts with: -1 when there are
// none; it saturates instead of overflowing.
func fmtNumber(s string) (int, string) {
	if len(s) == 0 || s[0] < '0' || s[0] > '9' {
		return -1, s
	}
	n := 0
	for len(s) > 0 && '0' <= s[0] && s[0] <= '9' {
		n = min(n*10+int(s[0]-'0'), math.MaxInt32)
		s = s[1:]
	}
	return n, s
}

// fmtMaxFloatPrecision is the most digits after the point any float64 has.
const fmtMaxFloatPrecision = 1074

// fmtPrecision bounds a precision: %e and %f print that many digits, %g
// drops trailing zeros so a larger one is only capped.
func fmtPrecision(verb byte, prec int64) (int, error) {
	limit := int64(strMaxOutput)
	switch verb {
	case 'e', 'E', 'f', 'F':
		limit = fmtMaxFloatPrecision
	case 'g', 'G':
		return int(min(prec, fmtMaxFloatPrecision)), nil
	}
	if prec > limit {
		return 0, fmtError("precision %d exceeds the maximum of %d", prec, limit)
	}
	return int(prec), nil
}

// check matches the values against the specifiers: their number, and the
// type each specifier formats.
func (p *fmtPattern) check(vals []types.Value) error {
	i := 0
	arg := func(want string, ok func(types.Kind) bool) error {
		defer func() { i++ }()
		if i >= len(vals) || vals[i].Type() == nil || ok(vals[i].Kind()) {
			return nil
		}
		return sqlerr.New(sqlerr.TypeMismatch, "FORMAT: argument %d for %q must be %s, got %s",
			i+2, p.pattern, want, vals[i].Type())
	}
	isInt := func(k types.Kind) bool { return k == types.KindInt64 }
	for _, sp := range p.specs {
		if sp.verb == '%' {
			continue
		}
		var err error
		if sp.width == fmtStar {
			err = arg("INT64", isInt)
		}
		if sp.prec == fmtStar && err == nil {
			err = arg("INT64", isInt)
		}
		if err != nil {
			return err
		}
		switch sp.verb {
		case 'd', 'i', 'o', 'x', 'X':
			err = arg("INT64", isInt)
		case 'f', 'F', 'e', 'E', 'g', 'G':
			err = arg("FLOAT64", func(k types.Kind) bool { return k == types.KindFloat64 || k == types.KindFloat32 })
		case 's':
			err = arg("STRING", func(k types.Kind) bool { return k == types.KindString })
		case 'u':
			err = arg("an unsigned integer", func(types.Kind) bool { return false })
		case 'p', 'P':
			if i < len(vals) && vals[i].Kind() == types.KindProto {
				return sqlerr.New(sqlerr.NotSupported, "FORMAT: %%%c of a PROTO is not supported", sp.verb)
			}
			err = arg("PROTO or JSON", func(types.Kind) bool { return false })
		default:
			i++
		}
		if err != nil {
			return err
		}
	}
	if i != len(vals) {
		return fmtError("%q takes %d values, got %d", p.pattern, i, len(vals))
	}
	return nil
}

// fmtEval implements FORMAT. A NULL format string, or a NULL value for
// any specifier but %t and %T (which print NULL), makes the result NULL.
func fmtEval(a []types.Value, _ *types.Type) (types.Value, error) {
	if a[0].IsNull() {
		return types.NullOf(types.String), nil
	}
	p, err := formatPatterns.get("FORMAT", a[0].Bytes(), fmtParse)
	if err != nil {
		return types.Value{}, err
	}
	vals := a[1:]
	if err := p.check(vals); err != nil {
		return types.Value{}, err
	}
	null := types.NullOf(types.String)
	var out []byte
	i := 0
	for _, sp := range p.specs {
		out = append(out, sp.lit...)
		if sp.verb == '%' {
			out = append(out, '%')
			continue
		}
		fl, width, prec := sp.flags, sp.width, sp.prec
		if width == fmtStar {
			if vals[i].IsNull() {
				return null, nil
			}
			w := vals[i].Int64()
			i++
			if w < 0 {
				fl.minus, w = true, -w
			}
			if w > strMaxOutput {
				return types.Value{}, fmtError("width %d exceeds the maximum of %d", w, strMaxOutput)
			}
			width = int(w)
		}
		if prec == fmtStar {
			if vals[i].IsNull() {
				return null, nil
			}
			pr := vals[i].Int64()
			i++
			if prec = -1; pr >= 0 {
				if prec, err = fmtPrecision(sp.verb, pr); err != nil {
					return types.Value{}, err
				}
			}
		}
		v := vals[i]
		i++
		if v.IsNull() && sp.verb != 't' && sp.verb != 'T' {
			return null, nil
		}
		if out, err = fmtValue(out, sp.verb, fl, width, prec, v); err != nil {
			return types.Value{}, err
		}
		if len(out) > strMaxOutput {
			return types.Value{}, strTooLong("FORMAT")
		}
	}
	out = append(out, p.tail...)
	if len(out) > strMaxOutput {
		return types.Value{}, strTooLong("FORMAT")
	}
	return types.StringBytesValue(out), nil
}

func fmtValue(b []byte, verb byte, fl fmtFlags, width, prec int, v types.Value) ([]byte, error) {
	switch verb {
	case 'd', 'i', 'o', 'x', 'X':
		n := v.Int64()
		if n < 0 && verb != 'd' && verb != 'i' {
			return nil, strError("FORMAT: %%%c cannot format the negative value %d", verb, n)
		}
		return fmtIntSpec(b, verb, fl, width, prec, n), nil
	case 'f', 'F', 'e', 'E', 'g', 'G':
		return fmtFloatSpec(b, verb, fl, width, prec, v.Float64()), nil
	case 's':
		return fmtStrSpec(b, fl, width, prec, v.Bytes()), nil
	case 't':
		return fmtStrSpec(b, fl, width, prec, fmtValueText(nil, v)), nil
	}
	return fmtStrSpec(b, fl, width, prec, fmtValueLiteral(nil, v)), nil
}

// fmtPadded appends body padded to width: with spaces on the left (or on
// the right with the - flag), or with zeros after the sign and prefix.
func fmtPadded(b []byte, fl fmtFlags, width int, sign, prefix string, body []byte, zeros bool) []byte {
	pad := width - len(sign) - len(prefix) - utf8.RuneCount(body)
	if pad > 0 && !fl.minus && !zeros {
		b = fmtRepeat(b, ' ', pad)
	}
	b = append(append(b, sign...), prefix...)
	if pad > 0 && !fl.minus && zeros {
		b = fmtRepeat(b, '0', pad)
	}
	b = append(b, body...)
	if pad > 0 && fl.minus {
		b = fmtRepeat(b, ' ', pad)
	}
	return b
}

func fmtRepeat(b []byte, c byte, n int) []byte {
	for ; n > 0; n-- {
		b = append(b, c)
	}
	return b
}

func fmtSign(neg bool, fl fmtFlags) string {
	switch {
	case neg:
		return "-"
	case fl.plus:
		return "+"
	case fl.space:
		return " "
	}
	return ""
}

// fmtGroup appends digits with sep between groups of size, counted
// from the right.
func fmtGroup(b []byte, digits []byte, size int, sep byte) []byte {
	lead := (len(digits)-1)%size + 1
	b = append(b, digits[:lead]...)
	for i := lead; i < len(digits); i += size {
		b = append(append(b, sep), digits[i:i+size]...)
	}
	return b
}

// fmtIntSpec formats an integer for %d %i %o %x %X. The precision is the
// minimum number of digits (0 prints nothing for 0); # prefixes 0, 0x or
// 0X to a value other than 0; ' groups decimal digits by 3 with commas and
// octal and hex digits by 4 (hex with colons).
func fmtIntSpec(b []byte, verb byte, fl fmtFlags, width, prec int, n int64) []byte {
	mag := uint64(n)
	if n < 0 {
		mag = -mag
	}
	base, size, sep, prefix := 10, 3, byte(','), ""
	switch verb {
	case 'o':
		base, size, prefix = 8, 4, "0"
	case 'x':
		base, size, sep, prefix = 16, 4, ':', "0x"
	case 'X':
		base, size, sep, prefix = 16, 4, ':', "0X"
	}
	var digits []byte
	if prec != 0 || mag != 0 {
		digits = strconv.AppendUint(nil, mag, base)
	}
	if verb == 'X' {
		digits = []byte(strings.ToUpper(string(digits)))
	}
	if !fl.sharp || mag == 0 {
		prefix = ""
	}
	if prec > len(digits) {
		if verb == 'o' {
			prefix = ""
		}
		digits = append(fmtRepeat(nil, '0', prec-len(digits)), digits...)
	}
	if fl.group && len(digits) > 0 {
		digits = fmtGroup(nil, digits, size, sep)
	}
	return fmtPadded(b, fl, width, fmtSign(n < 0, fl), prefix, digits, fl.zero)
}

// fmtFloatSpec formats a float for %f %F %e %E %g %G as C's printf does
// (precision 6 by default); -0 prints as 0; ' groups the integer digits.
func fmtFloatSpec(b []byte, verb byte, fl fmtFlags, width, prec int, f float64) []byte {
	if f == 0 {
		f = 0
	}
	neg := math.Signbit(f) && !math.IsNaN(f)
	mag := math.Abs(f)
	if prec < 0 {
		prec = 6
	}
	upperCase := verb == 'F' || verb == 'E' || verb == 'G'
	var body []byte
	switch {
	case math.IsInf(mag, 0):
		body = []byte("inf")
	case math.IsNaN(mag):
		body = []byte("nan")
	case verb == 'f' || verb == 'F':
		body = strconv.AppendFloat(nil, mag, 'f', prec, 64)
		if fl.sharp && prec == 0 {
			body = append(body, '.')
		}
	case verb == 'e' || verb == 'E':
		body = strconv.AppendFloat(nil, mag, 'e', prec, 64)
		if fl.sharp && prec == 0 {
			body = append(body[:1], append([]byte{'.'}, body[1:]...)...)
		}
	default:
		body = fmtGeneral(mag, prec, fl.sharp)
	}
	if upperCase {
		body = []byte(strings.ToUpper(string(body)))
	}
	intDigits := 0
	for intDigits < len(body) && '0' <= body[intDigits] && body[intDigits] <= '9' {
		intDigits++
	}
	if fl.group && intDigits > 3 {
		body = append(fmtGroup(nil, body[:intDigits], 3, ','), body[intDigits:]...)
	}
	return fmtPadded(b, fl, width, fmtSign(neg, fl), "", body, fl.zero && intDigits > 0)
}

// fmtGeneral is C's %g: %e with precision p-1 when the exponent x is below -4
// or at least p (the precision, at least 1), else %f with precision p-1-x;
// then, without #, trailing fractional zeros and a bare point are dropped.
func fmtGeneral(mag float64, prec int, sharp bool) []byte {
	p := max(prec, 1)
	x := 0
	if mag != 0 {
		e := strconv.AppendFloat(nil, mag, 'e', p-1, 64)
		x, _ = strconv.Atoi(string(e[strings.IndexByte(string(e), 'e')+1:]))
	}
	var s []byte
	if x < -4 || x >= p {
		s = strconv.AppendFloat(nil, mag, 'e', p-1, 64)
	} else {
		s = strconv.AppendFloat(nil, mag, 'f', p-1-x, 64)
	}
	mant, exp := s, []byte(nil)
	if i := strings.IndexByte(string(s), 'e'); i >= 0 {
		mant, exp = s[:i], s[i:]
	}
	hasPoint := strings.IndexByte(string(mant), '.') >= 0
	switch {
	case !sharp && hasPoint:
		mant = []byte(strings.TrimRight(strings.TrimRight(string(mant), "0"), "."))
	case sharp && !hasPoint:
		mant = append(mant[:len(mant):len(mant)], '.')
	}
	return append(append([]byte(nil), mant...), exp...)
}

// fmtStrSpec formats text for %s %t %T: the precision is the most
// characters to print, the width the least.
func fmtStrSpec(b []byte, fl fmtFlags, width, prec int, s []byte) []byte {
	if prec >= 0 {
		s = s[:strRuneOffset(s, int64(prec))]
	}
	fl.zero = false
	return fmtPadded(b, fl, width, "", "", s, false)
}

// fmtValueText appends v as %t prints it: like CAST(v AS STRING), with
// BYTES escaped, floats always with a point or exponent, and arrays and
// structs as [a, b] and (a, b).
func fmtValueText(b []byte, v types.Value) []byte {
	if v.IsNull() {
		return append(b, "NULL"...)
	}
	switch v.Kind() {
	case types.KindFloat32, types.KindFloat64:
		if f := v.Float64(); math.IsInf(f, 0) || math.IsNaN(f) {
			return append(b, fmtNonFinite(f)...)
		}
	case types.KindString:
		return append(b, v.Bytes()...)
	case types.KindBytes:
		return fmtEscapeBytes(b, v.Bytes(), 0)
	case types.KindDate:
		return append(b, fmtDate(v.Int64())...)
	case types.KindTimestamp:
		return append(b, fmtTimestamp(v.Int64())...)
	case types.KindArray, types.KindStruct:
		open, end := "[", "]"
		if v.Kind() == types.KindStruct {
			open, end = "(", ")"
		}
		b = append(b, open...)
		for i, e := range v.Elems() {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = fmtValueText(b, e)
		}
		return append(b, end...)
	}
	return fmtValueLiteral(b, v)
}

// fmtValueLiteral appends v as %T prints it: a GoogleSQL literal of v's
// type (or a wider one).
func fmtValueLiteral(b []byte, v types.Value) []byte {
	if v.IsNull() {
		return append(b, "NULL"...)
	}
	switch v.Kind() {
	case types.KindBool:
		return strconv.AppendBool(b, v.Bool())
	case types.KindInt64, types.KindEnum:
		return strconv.AppendInt(b, v.Int64(), 10)
	case types.KindFloat32, types.KindFloat64:
		bits, name := 64, "FLOAT64"
		if v.Kind() == types.KindFloat32 {
			bits, name = 32, "FLOAT32"
		}
		if f := v.Float64(); math.IsInf(f, 0) || math.IsNaN(f) {
			return append(b, `CAST("`+fmtNonFinite(f)+`" AS `+name+`)`...)
		}
		return fmtFloatLiteral(b, v.Float64(), bits)
	case types.KindString:
		return fmtQuoted(b, "", v.Bytes())
	case types.KindBytes:
		return fmtQuoted(b, "b", v.Bytes())
	case types.KindDate:
		return append(append(append(b, `DATE "`...), fmtDate(v.Int64())...), '"')
	case types.KindTimestamp:
		return append(append(append(b, `TIMESTAMP "`...), fmtTimestamp(v.Int64())...), '"')
	case types.KindArray:
		b = append(b, '[')
		for i, e := range v.Elems() {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = fmtValueLiteral(b, e)
		}
		return append(b, ']')
	case types.KindStruct:
		if v.Len() < 2 {
			b = append(b, "STRUCT"...)
		}
		b = append(b, '(')
		for i, e := range v.Elems() {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = fmtValueLiteral(b, e)
		}
		return append(b, ')')
	}
	return append(b, v.String()...)
}

func fmtNonFinite(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case f > 0:
		return "inf"
	}
	return "-inf"
}

// fmtFloatLiteral appends a finite float in the fewest of 15 (float32:
// 6) or 17 (9) significant digits that read back the same, with ".0" added
// when it would look like an integer.
func fmtFloatLiteral(b []byte, f float64, bits int) []byte {
	short, long := 15, 17
	if bits == 32 {
		short, long = 6, 9
	}
	s := strconv.FormatFloat(f, 'g', short, bits)
	if g, err := strconv.ParseFloat(s, bits); err != nil || g != f {
		s = strconv.FormatFloat(f, 'g', long, bits)
	}
	b = append(b, s...)
	if strings.Trim(s, "-0123456789") == "" {
		b = append(b, ".0"...)
	}
	return b
}

func fmtDate(days int64) string {
	return time.Unix(days*86400, 0).UTC().Format("2006-01-02")
}

// fmtTimestamp formats a timestamp as GoogleSQL casts it to STRING in UTC:
// "2006-01-02 15:04:05[.fff[fff]]+00".
func fmtTimestamp(micros int64) string {
	t := time.UnixMicro(micros).UTC()
	s := t.Format("2006-01-02 15:04:05")
	switch us := t.Nanosecond() / 1000; {
	case us == 0:
	case us%1000 == 0:
		s += "." + strconv.Itoa(1000 + us/1000)[1:]
	default:
		s += "." + strconv.Itoa(1000000 + us)[1:]
	}
	return s + "+00"
}

// fmtQuoted appends a STRING (prefix "") or BYTES (prefix "b") literal:
// double-quoted, or single-quoted when s has " but no '.
func fmtQuoted(b []byte, prefix string, s []byte) []byte {
	q := byte('"')
	if strings.IndexByte(string(s), '"') >= 0 && strings.IndexByte(string(s), '\'') < 0 {
		q = '\''
	}
	b = append(append(b, prefix...), q)
	if prefix == "b" {
		b = fmtEscapeBytes(b, s, q)
	} else {
		b = fmtEscapeString(b, s, q)
	}
	return append(b, q)
}

const fmtHexDigits = "0123456789abcdef"

// fmtEscapeString escapes a STRING for a literal quoted with q: \n \r
// \t \\, the quote, and other ASCII control characters as \xNN.
func fmtEscapeString(b []byte, s []byte, q byte) []byte {
	lastHex := false
	for _, c := range s {
		hexEsc := false
		switch {
		case c == '\n':
			b = append(b, `\n`...)
		case c == '\r':
			b = append(b, `\r`...)
		case c == '\t':
			b = append(b, `\t`...)
		case c == '\\':
			b = append(b, `\\`...)
		case c == q:
			b = append(b, '\\', c)
		case c < utf8.RuneSelf && (c < 0x20 || c == 0x7f || lastHex && fmtIsHexDigit(c)):
			b = append(b, '\\', 'x', fmtHexDigits[c>>4], fmtHexDigits[c&15])
			hexEsc = true
		default:
			b = append(b, c)
		}
		lastHex = hexEsc
	}
	return b
}

func fmtIsHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// fmtEscapeBytes escapes BYTES: unprintable bytes as \xNN, \\, and the
// quote q (every quote when q is 0).
func fmtEscapeBytes(b []byte, s []byte, q byte) []byte {
	for _, c := range s {
		switch {
		case c < 0x20 || c >= 0x7f:
			b = append(b, '\\', 'x', fmtHexDigits[c>>4], fmtHexDigits[c&15])
		case c == '\\':
			b = append(b, `\\`...)
		case (c == '"' || c == '\'' || c == '`') && (q == 0 || c == q):
			b = append(b, '\\', c)
		default:
			b = append(b, c)
		}
	}
	return b
}
