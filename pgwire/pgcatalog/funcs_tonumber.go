package pgcatalog

import (
	"strconv"
	"strings"
)

// to_number(text, format): text read back into a numeric through the
// numeric template patterns, as PostgreSQL 15's numeric_to_number does in
// the C locale (decimal point '.', group separator ',', a currency symbol
// of one space, signs '-' and '+').
//
// The template is scanned from left to right and the input with it, one
// pattern at a time, keeping PostgreSQL's quirks:
//
//   - 9, 0, '.' and D each look at one input character (after skipping at
//     most one space): a digit is taken, even before the point more digits
//     than the template has (12.5 with 9.99 then overflows, as numeric(2,1)
//     would), the point is taken once where the template has one, and
//     anything else is skipped; digits after the point beyond the
//     template's are dropped ('12.345', '99.9' is 12.3). Before the first
//     digit a '-' or '+' (or '<' under PR) is the sign; after a digit, S
//     reads a trailing sign next to it and MI, PL or SG one in the place of
//     a digit.
//   - ',' and G take a ',' if one is there (and nothing in fill mode), MI,
//     PL and SG a sign if one is there; otherwise MI, PL, SG, L (one
//     character) and TH or th (two) skip characters that cannot belong to
//     a number (TH does nothing when the template has a decimal point).
//     S, PR, B, C, SP, FM and V take no input.
//   - Any other template character, and each character of "quoted text",
//     skips one input character, whatever it is.
//   - The digits read become numeric(pre+V digits+read fraction digits,
//     read fraction digits): a number with more integer digits than the
//     template's fails with "numeric field overflow"; no digits at all is
//     invalid input syntax for numeric, quoting the sign slot (" ").
//   - V divides by 10^n through numeric power, so the result has 16
//     fraction digits (and is 0 for n over 16).
//   - The template errors of NUMDesc_prepare (multiple decimal points, S
//     twice, V with a point, PR after digits, EEEE rules...), then EEEE and
//     RN refused for input; an empty template gives NULL.
//
// Not kept: reading more than 1023 fraction digits, or templates of
// 32768 digits or more, where PostgreSQL's numeric typmod wraps (it reads
// 0 for '0.' followed by 1100 ones with a matching template; this gives
// the digits).
//
// The template is parsed here rather than by parseNumFormat (to_char's):
// to_number needs every keyword, case sensitive as PostgreSQL matches them
// (MI or mi, not Mi), each literal character as its own node, and the
// template errors, which to_char's parser does not report.
func init() {
	register("to_number", &builtin{min: 2, args: []uint32{tText, tText}, ret: tNumeric, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		if a[1].s == "" {
			return null, nil
		}
		n, err := toNumber(a[0].s, a[1].s)
		if err != nil {
			return null, err
		}
		return numericV(n), nil
	}})
}

// toNumKind is a to_number template node: a keyword, or tnChar for any
// other character.
type toNumKind uint8

const (
	tnChar toNumKind = iota
	tnComma
	tnDec
	tnZero
	tnNine
	tnB
	tnC
	tnD
	tnEEEE
	tnFM
	tnG
	tnL
	tnMI
	tnPL
	tnPR
	tnRN
	tnSG
	tnSP
	tnS
	tnTH
	tnV
)

// toNumKeywords are the numeric template keywords in PostgreSQL's order:
// the first one the template continues with is taken (SG before S).
var toNumKeywords = []struct {
	name string
	kind toNumKind
}{
	{",", tnComma}, {".", tnDec}, {"0", tnZero}, {"9", tnNine},
	{"B", tnB}, {"C", tnC}, {"D", tnD}, {"EEEE", tnEEEE}, {"FM", tnFM}, {"G", tnG}, {"L", tnL},
	{"MI", tnMI}, {"PL", tnPL}, {"PR", tnPR}, {"RN", tnRN}, {"SG", tnSG}, {"SP", tnSP}, {"S", tnS},
	{"TH", tnTH}, {"V", tnV},
	{"b", tnB}, {"c", tnC}, {"d", tnD}, {"eeee", tnEEEE}, {"fm", tnFM}, {"g", tnG}, {"l", tnL},
	{"mi", tnMI}, {"pl", tnPL}, {"pr", tnPR}, {"rn", tnRN}, {"sg", tnSG}, {"sp", tnSP}, {"s", tnS},
	{"th", tnTH}, {"v", tnV},
}

// toNumDesc is what the template says about the number (NUMDesc).
type toNumDesc struct {
	pre, post, multi int // digit positions before and after the point, and after V
	decimal          bool
	zero, blank      bool
	fill             bool
	lsign            bool // S
	bracket          bool // PR
	minus, plus      bool // MI or SG, PL or SG
	roman            bool
	multiF           bool // V
	eeee             bool
}

// mbLen is the length of the UTF-8 character s[i] starts, as pg_mblen
// reads it from its first byte, cut at the end of s.
func mbLen(s string, i int) int {
	c := s[i]
	n := 1
	switch {
	case c&0xe0 == 0xc0:
		n = 2
	case c&0xf0 == 0xe0:
		n = 3
	case c&0xf8 == 0xf0:
		n = 4
	}
	return min(n, len(s)-i)
}

// parseToNumFormat splits a template into nodes and describes it,
// reporting the template errors PostgreSQL reports while parsing.
func parseToNumFormat(f string) ([]toNumKind, toNumDesc, error) {
	var nodes []toNumKind
	var d toNumDesc
	for i := 0; i < len(f); {
		kind, klen := tnChar, 0
		for _, kw := range toNumKeywords {
			if strings.HasPrefix(f[i:], kw.name) {
				kind, klen = kw.kind, len(kw.name)
				break
			}
		}
		if kind != tnChar {
			if err := d.add(kind); err != nil {
				return nil, d, err
			}
			nodes = append(nodes, kind)
			i += klen
			continue
		}
		if f[i] == '"' { // quoted text: a node a character; \ quotes the next
			for i++; i < len(f); {
				if f[i] == '"' {
					i++
					break
				}
				if f[i] == '\\' && i+1 < len(f) {
					i++
				}
				nodes = append(nodes, tnChar)
				i += mbLen(f, i)
			}
			continue
		}
		if f[i] == '\\' && i+1 < len(f) && f[i+1] == '"' { // \" is a literal quote
			i++
		}
		nodes = append(nodes, tnChar)
		i += mbLen(f, i)
	}
	return nodes, d, nil
}

// add records keyword k in the description, as NUMDesc_prepare does.
func (d *toNumDesc) add(k toNumKind) error {
	syntax := func(msg string) error { return errorf(CodeSyntax, noPos, "%s", msg) }
	if d.eeee && k != tnEEEE {
		return syntax(`"EEEE" must be the last pattern used`)
	}
	switch k {
	case tnNine, tnZero:
		if d.bracket {
			digit := "0"
			if k == tnNine {
				digit = "9"
			}
			return syntax(`"` + digit + `" must be ahead of "PR"`)
		}
		switch {
		case k == tnNine && d.multiF:
			d.multi++ // a 0 after V counts as before the point, as in PostgreSQL
		case d.decimal:
			d.post++
		default:
			if k == tnZero {
				d.zero = true
			}
			d.pre++
		}
	case tnB:
		if d.pre == 0 && d.post == 0 && !d.zero {
			d.blank = true
		}
	case tnD, tnDec:
		if d.decimal {
			return syntax("multiple decimal points")
		}
		if d.multiF {
			return syntax(`cannot use "V" and decimal point together`)
		}
		d.decimal = true
	case tnFM:
		d.fill = true
	case tnS:
		if d.lsign {
			return syntax(`cannot use "S" twice`)
		}
		if d.plus || d.minus || d.bracket {
			return syntax(`cannot use "S" and "PL"/"MI"/"SG"/"PR" together`)
		}
		d.lsign = true
	case tnMI, tnPL, tnSG:
		if d.lsign {
			name := "SG"
			switch k {
			case tnMI:
				name = "MI"
			case tnPL:
				name = "PL"
			}
			return syntax(`cannot use "S" and "` + name + `" together`)
		}
		d.minus = d.minus || k != tnPL
		d.plus = d.plus || k != tnMI
	case tnPR:
		if d.lsign || d.plus || d.minus {
			return syntax(`cannot use "PR" and "S"/"PL"/"MI"/"SG" together`)
		}
		d.bracket = true
	case tnRN:
		d.roman = true
	case tnV:
		if d.decimal {
			return syntax(`cannot use "V" and decimal point together`)
		}
		d.multiF = true
	case tnEEEE:
		if d.eeee {
			return syntax(`cannot use "EEEE" twice`)
		}
		if d.blank || d.fill || d.lsign || d.bracket || d.minus || d.plus || d.roman || d.multiF {
			e := errorf(CodeSyntax, noPos, `"EEEE" is incompatible with other formats`)
			e.Detail = `"EEEE" may only be used together with digit and decimal point patterns.`
			return e
		}
		d.eeee = true
	}
	return nil
}

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

// toNumReader reads input against a template (NUMProc, from_char side).
type toNumReader struct {
	d         *toNumDesc
	in        string
	p         int
	sign      byte // ' ' until a sign is read
	digits    []byte
	readPre   int
	readPost  int
	readPoint bool
}

func (r *toNumReader) atEnd() bool { return r.p >= len(r.in) }

// numPart reads at a 9, 0, '.' or D node (NUM_numpart_from_char). It
// leaves r.p on the last character it took; the caller steps past it.
func (r *toNumReader) numPart(k toNumKind) {
	if r.atEnd() {
		return
	}
	if r.in[r.p] == ' ' {
		r.p++
	}
	if r.atEnd() {
		return
	}
	if r.sign == ' ' && (k == tnNine || k == tnZero) && r.readPre+r.readPost == 0 {
		// A sign before the number.
		switch c := r.in[r.p]; {
		case c == '-' || c == '<' && r.d.bracket: // PR excludes S
			r.sign = '-'
			r.p++
		case c == '+':
			r.sign = '+'
			r.p++
		}
	}
	if r.atEnd() {
		return
	}
	read := false
	if c := r.in[r.p]; isDigitByte(c) {
		if r.readPoint && r.readPost == r.d.post {
			return
		}
		r.digits = append(r.digits, c)
		if r.readPoint {
			r.readPost++
		} else {
			r.readPre++
		}
		read = true
	} else if r.d.decimal && !r.readPoint && c == '.' {
		r.digits = append(r.digits, '.')
		r.readPoint = true
		read = true
	}
	if r.atEnd() || r.sign != ' ' || r.readPre+r.readPost == 0 {
		return
	}
	// A sign after the number.
	switch {
	case r.d.lsign:
		// S: a sign right after the last character read, if no digit follows.
		if read && r.p+1 < len(r.in) && !isDigitByte(r.in[r.p+1]) {
			if c := r.in[r.p+1]; c == '-' || c == '+' {
				r.sign = c
				r.p++
			}
		}
	case !read && (r.d.plus || r.d.minus):
		// MI, PL or SG in a digit's place.
		if c := r.in[r.p]; c == '-' || c == '+' {
			r.sign = c
		}
	}
}

// eatNonData skips up to n input characters that cannot be part of a
// number (NUM_eat_non_data_chars).
func (r *toNumReader) eatNonData(n int) {
	for ; n > 0 && !r.atEnd(); n-- {
		if strings.IndexByte("0123456789.,+-", r.in[r.p]) >= 0 {
			return
		}
		r.p += mbLen(r.in, r.p)
	}
}

// toNumber is to_number(in, format) for a non-empty format.
func toNumber(in, format string) (*numeric, error) {
	nodes, d, err := parseToNumFormat(format)
	if err != nil {
		return nil, err
	}
	if d.eeee {
		return nil, errorf(CodeNotSupported, noPos, `"EEEE" not supported for input`)
	}
	if d.roman {
		return nil, errorf(CodeNotSupported, noPos, `"RN" not supported for input`)
	}
	r := &toNumReader{d: &d, in: in, sign: ' '}
	for _, k := range nodes {
		if r.atEnd() {
			break
		}
		c := r.in[r.p]
		switch k {
		case tnNine, tnZero, tnDec, tnD:
			r.numPart(k)
		case tnComma, tnG:
			if d.fill || c != ',' {
				continue
			}
		case tnL:
			r.eatNonData(1) // the C locale's currency symbol is one space
			continue
		case tnTH:
			if !d.decimal {
				r.eatNonData(2)
			}
			continue
		case tnMI, tnPL, tnSG:
			if c == '-' && k != tnPL || c == '+' && k != tnMI {
				r.sign = c
			} else {
				r.eatNonData(1)
				continue
			}
		case tnChar:
			r.p += mbLen(r.in, r.p)
			continue
		default: // S, PR, B, C, SP, FM, V: nothing to read
			continue
		}
		r.p++
	}
	digits := string(r.digits)
	digits = strings.TrimSuffix(digits, ".")
	text := string(r.sign) + digits
	intPart, frac, _ := strings.Cut(digits, ".")
	if intPart+frac == "" {
		return nil, errorf(CodeInvalidText, noPos, "invalid input syntax for type numeric: \"%s\"", text)
	}
	n := &numeric{scale: int32(len(frac))}
	n.unscaled.SetString(intPart+frac, 10)
	if r.sign == '-' {
		n.unscaled.Neg(&n.unscaled)
	}
	// numeric(pre+multi+scale, scale): the integer digits must fit.
	maxDigits := d.pre + d.multi
	if intDigits := len(strings.TrimLeft(intPart, "0")); intDigits > maxDigits {
		e := errorf(CodeOutOfRange, noPos, "numeric field overflow")
		limit := "1"
		if maxDigits > 0 {
			limit = "10^" + strconv.Itoa(maxDigits)
		}
		e.Detail = "A field with precision " + strconv.Itoa(maxDigits+len(frac)) + ", scale " + strconv.Itoa(len(frac)) +
			" must round to an absolute value less than " + limit + "."
		return nil, e
	}
	if d.multiF {
		// × 10^-multi, the power rounded to 16 places as numeric power
		// rounds it.
		const powScale = 16
		if d.multi > powScale {
			n.unscaled.SetInt64(0)
		} else {
			n.unscaled.Mul(&n.unscaled, pow10(powScale-d.multi))
		}
		n.scale += powScale
	}
	return n, nil
}
