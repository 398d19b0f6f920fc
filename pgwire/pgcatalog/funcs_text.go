package pgcatalog

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

func init() {
	register("quote_ident", textFn(1, func(_ *evaluator, a []Value) string { return quoteIdent(a[0].s) }))
	// quote_literal(anyelement) and quote_nullable(anyelement) quote the
	// value's text (its cast to text): 42 is '42', true 'true', an array
	// '{1,2}'.
	register("quote_literal", &builtin{min: 1, ret: tText, fn: func(ev *evaluator, a []Value, t []uint32) (Value, error) {
		return textV(quoteLiteral(castToText(ev, a[0], t[0]))), nil
	}})
	register("quote_nullable", &builtin{min: 1, ret: tText, lenient: true, fn: func(ev *evaluator, a []Value, t []uint32) (Value, error) {
		if a[0].isNull() {
			return textV("NULL"), nil
		}
		return textV(quoteLiteral(castToText(ev, a[0], t[0]))), nil
	}})
	register("lower", textFn(1, func(_ *evaluator, a []Value) string { return strings.ToLower(a[0].s) }))
	register("upper", textFn(1, func(_ *evaluator, a []Value) string { return strings.ToUpper(a[0].s) }))
	for _, n := range []string{"length", "char_length", "character_length"} {
		register(n, &builtin{min: 1, ret: tInt4, fn: func(_ *evaluator, a []Value, t []uint32) (Value, error) {
			s := a[0].s
			switch t[0] {
			case tBpchar: // char(n)'s padding does not count
				s = strings.TrimRight(s, " ")
			case tBytea: // bytes, not characters
				return intV(int64(len(byteaBytes(a[0])))), nil
			}
			return intV(int64(utf8.RuneCountInString(s))), nil
		}})
	}
	register("octet_length", &builtin{min: 1, ret: tInt4, fn: func(_ *evaluator, a []Value, t []uint32) (Value, error) {
		if t[0] == tBytea {
			return intV(int64(len(byteaBytes(a[0])))), nil
		}
		return intV(int64(len(a[0].s))), nil
	}})
	for _, n := range []string{"substring", "substr"} {
		register(n, &builtin{min: 2, max: 3, args: []uint32{tText, tText}, retFn: textOrBytea, fn: substring})
	}
	register("btrim", trimFn("btrim", strings.Trim, true, true))
	register("ltrim", trimFn("ltrim", strings.TrimLeft, true, false))
	register("rtrim", trimFn("rtrim", strings.TrimRight, false, true))
	register("replace", textFn(3, func(_ *evaluator, a []Value) string { return strings.ReplaceAll(a[0].s, a[1].s, a[2].s) }))
	register("translate", textFn(3, func(_ *evaluator, a []Value) string { return translate(a[0].s, a[1].s, a[2].s) }))
	register("starts_with", &builtin{min: 2, ret: tBool, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		return boolV(strings.HasPrefix(a[0].s, a[1].s)), nil
	}})
	for _, n := range []string{"strpos", "position"} {
		register(n, &builtin{min: 2, ret: tInt4, fn: func(_ *evaluator, a []Value, t []uint32) (Value, error) {
			if t[0] == tBytea { // a byte position
				return intV(int64(bytes.Index(byteaBytes(a[0]), byteaBytes(a[1])) + 1)), nil
			}
			i := strings.Index(a[0].s, a[1].s)
			if i < 0 {
				return intV(0), nil
			}
			return intV(int64(utf8.RuneCountInString(a[0].s[:i]) + 1)), nil
		}})
	}
	register("left", &builtin{min: 2, args: []uint32{tText, tInt4}, ret: tText, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		r := []rune(a[0].s)
		n := int(a[1].i)
		if n < 0 {
			n = max(len(r)+n, 0)
		}
		return textV(string(r[:min(n, len(r))])), nil
	}})
	register("right", &builtin{min: 2, args: []uint32{tText, tInt4}, ret: tText, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		r := []rune(a[0].s)
		n := int(a[1].i)
		if n < 0 {
			n = max(len(r)+n, 0)
		}
		return textV(string(r[len(r)-min(n, len(r)):])), nil
	}})
	register("split_part", &builtin{min: 3, args: []uint32{tText, tText, tInt4}, ret: tText, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		parts := []string{a[0].s} // an empty delimiter: one field
		if a[1].s != "" {
			parts = strings.Split(a[0].s, a[1].s)
		}
		n := int(a[2].i)
		if n == 0 {
			return null, errorf(CodeInvalidParameter, noPos, "field position must not be zero")
		}
		if n < 0 {
			n = len(parts) + n + 1
		}
		if n < 1 || n > len(parts) {
			return textV(""), nil
		}
		return textV(parts[n-1]), nil
	}})
	register("regexp_replace", &builtin{min: 3, max: 6, ret: tText, fn: regexpReplace})
	register("concat", &builtin{min: 1, max: -1, ret: tText, lenient: true, fn: func(ev *evaluator, a []Value, t []uint32) (Value, error) {
		var sb strings.Builder
		for i, v := range a {
			if !v.isNull() {
				sb.WriteString(ev.text(v, t[i]))
			}
		}
		return textV(sb.String()), nil
	}})
	register("concat_ws", &builtin{min: 2, max: -1, ret: tText, lenient: true, fixedParams: 1, fn: func(ev *evaluator, a []Value, t []uint32) (Value, error) {
		if a[0].isNull() {
			return null, nil
		}
		var parts []string
		for i, v := range a[1:] {
			if !v.isNull() {
				parts = append(parts, ev.text(v, t[i+1]))
			}
		}
		return textV(strings.Join(parts, a[0].s)), nil
	}})
	register("similar_to_escape", &builtin{min: 1, max: 2, ret: tText, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		esc := `\`
		if len(a) > 1 {
			esc = a[1].s
		}
		return similarToRegex(a[0].s, esc, false)
	}})
	register("md5", &builtin{min: 1, ret: tText, fn: func(_ *evaluator, a []Value, t []uint32) (Value, error) {
		if t[0] == tBytea { // md5(bytea) digests the bytes, not their text
			return textV(md5Hex(string(byteaBytes(a[0])))), nil
		}
		return textV(md5Hex(a[0].s)), nil
	}})
	for _, left := range []bool{true, false} {
		name := map[bool]string{true: "lpad", false: "rpad"}[left]
		register(name, &builtin{min: 2, max: 3, args: []uint32{tText, tInt4, tText}, ret: tText, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
			fill := " "
			if len(a) > 2 {
				fill = a[2].s
			}
			if a[1].i > maxRepeatBytes {
				return null, errorf("54000", noPos, "requested length too large")
			}
			return textV(pad(a[0].s, a[1].i, fill, left)), nil
		}})
	}
	register("initcap", textFn(1, func(_ *evaluator, a []Value) string { return initcap(a[0].s) }))
	register("reverse", textFn(1, func(_ *evaluator, a []Value) string {
		r := []rune(a[0].s)
		slices.Reverse(r)
		return string(r)
	}))
	register("ascii", &builtin{min: 1, ret: tInt4, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		for _, r := range a[0].s {
			return intV(int64(r)), nil
		}
		return intV(0), nil
	}})
	register("repeat", &builtin{min: 2, args: []uint32{tText, tInt4}, ret: tText, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		n := max(a[1].i, 0)
		if n > 0 && int64(len(a[0].s)) > maxRepeatBytes/n {
			return null, errorf("54000", noPos, "requested length too large")
		}
		return textV(strings.Repeat(a[0].s, int(n))), nil
	}})
	register("format", &builtin{min: 1, max: -1, ret: tText, lenient: true, fixedParams: 1, nullVariadicIsEmpty: true, fn: pgFormat})
	registerArrayFuncs()
}

// pad is lpad or rpad: s cut or filled with fill (repeated) to n
// characters, on the left or the right.
func pad(s string, n int64, fill string, left bool) string {
	r := []rune(s)
	if n <= 0 {
		return ""
	}
	if int64(len(r)) >= n {
		return string(r[:n])
	}
	f := []rune(fill)
	if len(f) == 0 {
		return s
	}
	extra := make([]rune, 0, n-int64(len(r)))
	for i := 0; int64(len(extra)) < n-int64(len(r)); i++ {
		extra = append(extra, f[i%len(f)])
	}
	if left {
		return string(extra) + s
	}
	return s + string(extra)
}

// initcap capitalizes the first letter of each word (a run of letters and
// digits) and lowercases the rest.
func initcap(s string) string {
	var b strings.Builder
	inWord := false
	for _, r := range s {
		alnum := unicode.IsLetter(r) || unicode.IsDigit(r)
		switch {
		case alnum && !inWord:
			b.WriteRune(unicode.ToUpper(r))
		case alnum:
			b.WriteRune(unicode.ToLower(r))
		default:
			b.WriteRune(r)
		}
		inWord = alnum
	}
	return b.String()
}

// maxRepeatBytes bounds a text value a statement builds (repeat, lpad,
// rpad, ||, string_agg): PostgreSQL's bound is a gigabyte, but one
// catalog-dialect statement should not take that much of the server's
// memory.
const maxRepeatBytes = 1 << 28

// textTooLong is the error for a text value past maxRepeatBytes, as
// PostgreSQL reports one past its own bound.
func textTooLong(have, more int) error {
	e := errorf("54000", noPos, "out of memory")
	e.Detail = fmt.Sprintf("Cannot enlarge string buffer containing %d bytes by %d more bytes.", have, more)
	return e
}

// castToText is v's cast to text: its output, but a boolean spelled out.
func castToText(ev *evaluator, v Value, typ uint32) string {
	if v.k == kBool {
		return strconv.FormatBool(v.b)
	}
	return ev.asText(v, typ)
}

func quoteLiteral(s string) string {
	q := "'" + strings.ReplaceAll(s, "'", "''") + "'"
	if strings.Contains(s, `\`) {
		return "E" + strings.ReplaceAll(q, `\`, `\\`)
	}
	return q
}

// textOrBytea is the type of a function of a string that keeps its
// kind: bytea for bytea, else text.
func textOrBytea(t []uint32) uint32 {
	if t[0] == tBytea {
		return tBytea
	}
	return tText
}

// matchOrGroup is the first match of pattern in s, or its first
// parenthesized group when it has one; NULL without a match.
func matchOrGroup(ev *evaluator, pattern, s string) (Value, error) {
	re, err := ev.pgRegexp(pattern, reOptions{newline: 's'})
	if err != nil {
		return null, err
	}
	m := re.FindStringSubmatch(s)
	switch {
	case m == nil:
		return null, nil
	case len(m) > 1:
		return textV(m[1]), nil
	}
	return textV(m[0]), nil
}

func substring(ev *evaluator, a []Value, t []uint32) (Value, error) {
	if len(a) == 2 && a[1].k == kText { // substring(s FROM pattern): the first match, or its first group
		return matchOrGroup(ev, a[1].s, a[0].s)
	}
	if _, isInt := a[min(1, len(a)-1)].asInt(); len(a) == 3 && a[1].k == kText && a[2].k == kText && !isInt {
		// substring(s SIMILAR pattern ESCAPE e): the part between the e"
		// separators of a SIMILAR TO pattern matching all of s.
		pat, err := similarToRegex(a[1].s, a[2].s, true)
		if err != nil {
			return null, err
		}
		return matchOrGroup(ev, pat.s, a[0].s)
	}
	for i := 1; i < len(a); i++ { // positions given as text ('2') read as integers
		if a[i].k == kText {
			n, ok := a[i].asInt()
			if !ok {
				return null, errorf(CodeInvalidText, noPos, "invalid input syntax for type integer: \"%s\"", a[i].s)
			}
			a[i] = intV(n)
		}
	}
	if t[0] == tBytea { // bytes, not characters
		b := byteaBytes(a[0])
		lo, hi, err := substringBounds(a, len(b))
		if err != nil {
			return null, err
		}
		return byteaV(b[lo:hi]), nil
	}
	r := []rune(a[0].s)
	lo, hi, err := substringBounds(a, len(r))
	if err != nil {
		return null, err
	}
	return textV(string(r[lo:hi])), nil
}

// substringBounds turns substring's 1-based start (which may be 0 or less)
// and optional length into the [lo, hi) of a string of n units.
func substringBounds(a []Value, n int) (lo, hi int, err error) {
	start, end := a[1].i, int64(n)+1
	if len(a) > 2 {
		if a[2].i < 0 {
			return 0, 0, errorf(CodeSubstring, noPos, "negative substring length not allowed")
		}
		end = start + a[2].i
	}
	start, end = max(start, 1), min(end, int64(n)+1)
	if start >= end {
		return 0, 0, nil
	}
	return int(start - 1), int(end - 1), nil
}

func trimFn(name string, trim func(string, string) string, left, right bool) *builtin {
	return &builtin{min: 1, max: 2, retFn: textOrBytea, fn: func(_ *evaluator, a []Value, t []uint32) (Value, error) {
		if t[0] == tBytea { // bytes, trimmed of the bytes of the second argument
			if len(a) < 2 {
				return null, errorf(CodeUndefinedFunc, noPos, "function %s(bytea) does not exist", name)
			}
			set, err := byteaArg(a, t, 1)
			if err != nil {
				return null, err
			}
			b := byteaBytes(a[0])
			for left && len(b) > 0 && bytes.IndexByte(set, b[0]) >= 0 {
				b = b[1:]
			}
			for right && len(b) > 0 && bytes.IndexByte(set, b[len(b)-1]) >= 0 {
				b = b[:len(b)-1]
			}
			return byteaV(b), nil
		}
		chars := " "
		if len(a) > 1 {
			chars = a[1].s
		}
		return textV(trim(a[0].s, chars)), nil
	}}
}

func translate(s, from, to string) string {
	f, t := []rune(from), []rune(to)
	var sb strings.Builder
	for _, c := range s {
		i := strings.IndexRune(string(f), c)
		switch {
		case i < 0:
			sb.WriteRune(c)
		default:
			if j := utf8.RuneCountInString(string(f)[:i]); j < len(t) {
				sb.WriteRune(t[j])
			}
		}
	}
	return sb.String()
}

// similarToRegex converts a SIMILAR TO pattern to the regular expression
// it means, as PostgreSQL's similar_to_escape does: anchored at both ends,
// % any text, _ any character, . and a backslash literal, ( a
// non-capturing group, the escape character making the next one literal,
// and the other regular-expression operators (| * + ? {} []) as they are.
// For substring(s SIMILAR pattern ESCAPE e) (substring set), the two
// e" separators mark the part returned: the regular expression's first
// group, what comes before it matched as little as it can.
func similarToRegex(pattern, escape string, substring bool) (Value, error) {
	if utf8.RuneCountInString(escape) > 1 {
		return null, errorf(CodeInvalidEscape, noPos, "invalid escape string")
	}
	var b strings.Builder
	b.WriteString("^(?:")
	inClass, escaped, separators := false, false, 0
	for _, c := range pattern {
		switch {
		case escaped && substring && c == '"':
			if separators++; separators > 2 {
				return null, errorf(CodeInvalidParameter, noPos, "SQL regular expression may not contain more than two escape-double-quote separators")
			}
			b.WriteString([]string{"", "){1,1}?(", "){1,1}(?:"}[separators])
			escaped = false
		case escaped:
			b.WriteString(regexp.QuoteMeta(string(c)))
			escaped = false
		case escape != "" && string(c) == escape:
			escaped = true
		case inClass:
			b.WriteRune(c)
			inClass = c != ']'
		case c == '%':
			b.WriteString(".*")
		case c == '_':
			b.WriteByte('.')
		case c == '(':
			b.WriteString("(?:")
		case c == '.' || c == '\\' || c == '^' || c == '$':
			b.WriteByte('\\')
			b.WriteRune(c)
		case c == '[':
			inClass = true
			b.WriteRune(c)
		default:
			b.WriteRune(c)
		}
	}
	b.WriteString(")$")
	return textV(b.String()), nil
}
