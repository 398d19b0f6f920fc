package pgcatalog

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// pgFormat is PostgreSQL's format(). A specifier is
// %[position$][-...][width|*|*position$]type: type s is the argument's
// text (NULL: empty), I an identifier quoted as needed (NULL: an error), L
// a literal (NULL: NULL); position numbers the argument from 1; width pads
// the result with spaces to that many characters, on the left, or on the
// right with the - flag or a negative width; * takes the width from the
// next argument, *n$ from argument n (NULL: no width). Arguments without a
// position follow the last one used. %% is a %.
func pgFormat(ev *evaluator, a []Value, t []uint32) (Value, error) {
	if a[0].isNull() {
		return null, nil
	}
	f := ev.text(a[0], t[0])
	var sb strings.Builder
	arg := 1 // the next argument without a position
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			sb.WriteByte(f[i])
			continue
		}
		if i++; i >= len(f) {
			return null, errUnterminatedFormat()
		}
		if f[i] == '%' {
			sb.WriteByte('%')
			continue
		}
		spec, next, err := parseFormatSpec(f, i)
		if err != nil {
			return null, err
		}
		i = next
		if c := f[i]; c != 's' && c != 'I' && c != 'L' {
			_, size := utf8.DecodeRuneInString(f[i:])
			e := errorf(CodeInvalidParameter, noPos, "unrecognized format() type specifier \"%s\"", f[i:i+size])
			e.Hint = percentHint
			return null, e
		}
		width, left := spec.width, spec.left
		if spec.widthArg >= 0 {
			if spec.widthArg > 0 {
				arg = spec.widthArg
			}
			if arg >= len(a) {
				return null, errTooFewFormatArgs()
			}
			w, err := formatWidth(ev, a[arg], t[arg])
			if err != nil {
				return null, err
			}
			arg++
			if w < 0 {
				if w == math.MinInt32 {
					return null, errorf(CodeOutOfRange, noPos, "number is out of range")
				}
				w, left = -w, true
			}
			width = int(w)
		}
		if spec.arg > 0 {
			arg = spec.arg
		}
		if arg >= len(a) {
			return null, errTooFewFormatArgs()
		}
		v, typ := a[arg], t[arg]
		arg++
		var s string
		switch {
		case f[i] == 's' && !v.isNull():
			s = ev.text(v, typ)
		case f[i] == 'I' && v.isNull():
			return null, errorf(CodeNullValue, noPos, "null values cannot be formatted as an SQL identifier")
		case f[i] == 'I':
			s = quoteIdent(ev.text(v, typ))
		case f[i] == 'L' && v.isNull():
			s = "NULL"
		case f[i] == 'L':
			s = quoteLiteral(ev.text(v, typ))
		}
		pad := width - utf8.RuneCountInString(s)
		if pad > 0 && sb.Len()+len(s)+pad > maxRepeatBytes {
			return null, errorf("54000", noPos, "requested length too large")
		}
		if pad > 0 && !left {
			sb.WriteString(strings.Repeat(" ", pad))
		}
		sb.WriteString(s)
		if pad > 0 && left {
			sb.WriteString(strings.Repeat(" ", pad))
		}
	}
	return textV(sb.String()), nil
}

// The errors are built per call: a caller may set an error's position.
func errUnterminatedFormat() error {
	e := errorf(CodeInvalidParameter, noPos, "unterminated format() type specifier")
	e.Hint = percentHint
	return e
}

// percentHint is PostgreSQL's hint for a specifier it cannot read.
const percentHint = `For a single "%" use "%%".`

func errTooFewFormatArgs() error {
	return errorf(CodeInvalidParameter, noPos, "too few arguments for format()")
}

func errFormatArgZero() error {
	return errorf(CodeInvalidParameter, noPos, "format specifies argument 0, but arguments are numbered from 1")
}

// formatSpec is what comes between a specifier's % and its type.
type formatSpec struct {
	arg      int  // 1-based argument position; 0: the next argument
	left     bool // the - flag
	width    int
	widthArg int // -1: no *; 0: * (the next argument); n: *n$
}

// parseFormatSpec parses f[i:] up to the type character, whose index it
// returns, as PostgreSQL's text_format_parse_format does: leading digits
// are a position when a $ follows and otherwise the width.
func parseFormatSpec(f string, i int) (formatSpec, int, error) {
	spec := formatSpec{widthArg: -1}
	n, j, err := formatDigits(f, i)
	if err != nil {
		return spec, 0, err
	}
	if j > i {
		if f[j] != '$' {
			spec.width = n
			return spec, j, nil
		}
		if n == 0 {
			return spec, 0, errFormatArgZero()
		}
		spec.arg = n
		if j++; j >= len(f) {
			return spec, 0, errUnterminatedFormat()
		}
	}
	for ; f[j] == '-'; j++ {
		spec.left = true
		if j+1 >= len(f) {
			return spec, 0, errUnterminatedFormat()
		}
	}
	if f[j] != '*' {
		spec.width, j, err = formatDigits(f, j)
		return spec, j, err
	}
	if j++; j >= len(f) {
		return spec, 0, errUnterminatedFormat()
	}
	spec.widthArg = 0
	n, k, err := formatDigits(f, j)
	if err != nil || k == j {
		return spec, j, err
	}
	if f[k] != '$' {
		return spec, 0, errorf(CodeInvalidParameter, noPos, "width argument position must be ended by \"$\"")
	}
	if n == 0 {
		return spec, 0, errFormatArgZero()
	}
	spec.widthArg = n
	if k++; k >= len(f) {
		return spec, 0, errUnterminatedFormat()
	}
	return spec, k, nil
}

// formatDigits reads the decimal number at f[i:], returning it and the
// index after it (i when there is none). The number must fit an int32, and
// text must follow it.
func formatDigits(f string, i int) (int, int, error) {
	n, j := 0, i
	for ; j < len(f) && '0' <= f[j] && f[j] <= '9'; j++ {
		if n = n*10 + int(f[j]-'0'); n > math.MaxInt32 {
			return 0, 0, errorf(CodeOutOfRange, noPos, "number is out of range")
		}
	}
	if j >= len(f) {
		return 0, 0, errUnterminatedFormat()
	}
	return n, j, nil
}

// formatWidth reads a width argument: an int4, or — as PostgreSQL reads
// any other type — its text read as an int4; NULL is no width.
func formatWidth(ev *evaluator, v Value, typ uint32) (int64, error) {
	switch {
	case v.isNull():
		return 0, nil
	case v.k == kInt && v.i >= math.MinInt32 && v.i <= math.MaxInt32:
		return v.i, nil
	}
	s := ev.text(v, typ)
	w, err := strconv.ParseInt(strings.TrimSpace(s), 10, 32)
	switch {
	case errors.Is(err, strconv.ErrRange):
		return 0, errorf(CodeOutOfRange, noPos, "value \"%s\" is out of range for type integer", s)
	case err != nil:
		return 0, errorf(CodeInvalidText, noPos, "invalid input syntax for type integer: \"%s\"", s)
	}
	return w, nil
}
