package pgcatalog

import (
	"fmt"
	"strconv"
	"strings"
)

// to_char(number, format): numbers through PostgreSQL's numeric template
// patterns (formatting.c's NUM_processor) in the C locale: 9 (a digit, or
// a space for a leading zero), 0 (a digit, zeros kept), . and D (the
// decimal point), , and G (a group separator, a space before the first
// digit), S, MI, PL and SG (signs), FM (no padding, no trailing zeros
// under 9), EEEE (scientific notation), V (shift by the digits after it),
// L (the currency symbol, a space in C), th and TH (ordinal suffixes) and
// "..." literal text. A number too wide for the digits prints as #s.
// RN and rn (Roman numerals, 1 to 3999).

// numFormat is a parsed numeric template.
type numFormat struct {
	items     []numItem
	intDigits int  // digit positions before the point
	fracDigit int  // digit positions after the point
	zeroFrom  int  // the first integer position (from the left) a 0 pads from; -1: none
	fm        bool // fill mode: no padding
	signToken bool // S, MI or SG place the sign themselves (PL only a plus)
	eeee      bool
	shift     int // V: the digits after it
	point     bool
	roman     string // RN or rn: Roman numerals
}

type numItem struct {
	kind byte   // '9', '0', '.', ',', 'S', 'M' (MI), 'P' (PL), 'G' (SG), 'L', 't' (th), 'T' (TH), 'E', 'x' literal
	text string // literal text
}

func parseNumFormat(f string) (numFormat, error) {
	nf := numFormat{zeroFrom: -1}
	afterV := false
	for i := 0; i < len(f); {
		rest := f[i:]
		up := strings.ToUpper(rest)
		switch {
		case strings.HasPrefix(up, "FM"):
			nf.fm = true
			i += 2
		case rest[0] == '9' || rest[0] == '0':
			if afterV {
				nf.shift++
			}
			if nf.point {
				nf.fracDigit++
			} else {
				if rest[0] == '0' && nf.zeroFrom < 0 {
					nf.zeroFrom = nf.intDigits
				}
				nf.intDigits++
			}
			nf.items = append(nf.items, numItem{kind: rest[0]})
			i++
		case rest[0] == '.' || up[0] == 'D':
			if nf.point {
				return nf, errorf(CodeSyntax, noPos, "multiple decimal points")
			}
			nf.point = true
			nf.items = append(nf.items, numItem{kind: '.'})
			i++
		case rest[0] == ',' || up[0] == 'G' && !strings.HasPrefix(up, "SG"):
			nf.items = append(nf.items, numItem{kind: ','})
			i++
		case strings.HasPrefix(up, "SG"), strings.HasPrefix(up, "MI"), strings.HasPrefix(up, "PL"):
			kind := map[string]byte{"SG": 'G', "MI": 'M', "PL": 'P'}[up[:2]]
			nf.items = append(nf.items, numItem{kind: kind})
			i += 2
		case up[0] == 'S':
			nf.items = append(nf.items, numItem{kind: 'S'})
			i++
		case up[0] == 'L':
			nf.items = append(nf.items, numItem{kind: 'L'})
			i++
		case up[0] == 'V':
			afterV = true
			i++
		case strings.HasPrefix(up, "EEEE"):
			nf.eeee = true
			nf.items = append(nf.items, numItem{kind: 'E'})
			i += 4
		case strings.HasPrefix(rest, "th"), strings.HasPrefix(rest, "TH"):
			nf.items = append(nf.items, numItem{kind: map[bool]byte{true: 't', false: 'T'}[rest[0] == 't']})
			i += 2
		case strings.HasPrefix(up, "RN"):
			nf.roman = rest[:2]
			i += 2
		case rest[0] == '"':
			j := strings.IndexByte(rest[1:], '"')
			lit := rest[1:]
			if j >= 0 {
				lit = rest[1 : 1+j]
			}
			nf.items = append(nf.items, numItem{kind: 'x', text: lit})
			i += len(lit) + 2
		case rest[0] == '\\' && len(rest) > 1:
			nf.items = append(nf.items, numItem{kind: 'x', text: rest[1:2]})
			i += 2
		default:
			nf.items = append(nf.items, numItem{kind: 'x', text: rest[:1]})
			i++
		}
	}
	has := func(k byte) bool {
		for _, it := range nf.items {
			if it.kind == k {
				return true
			}
		}
		return false
	}
	nf.signToken = has('S') || has('M') || has('G')
	return nf, nil
}

// toCharNumber renders n with format.
func toCharNumber(n *numeric, format string) (string, error) {
	nf, err := parseNumFormat(format)
	if err != nil {
		return "", err
	}
	if n.nan {
		return fmt.Sprintf("%*s", nf.intDigits+1, "NaN"), nil
	}
	if nf.roman != "" {
		return romanNumeral(n, nf), nil
	}
	if nf.shift > 0 {
		n = n.shifted(nf.shift)
	}
	neg := n.unscaled.Sign() < 0
	abs := n.abs()
	sign := map[bool]string{true: "-", false: "+"}[neg]
	if nf.eeee {
		s := strconv.FormatFloat(abs.float(), 'e', nf.fracDigit, 64)
		switch {
		case neg:
			return "-" + s, nil
		case nf.fm:
			return s, nil
		}
		return " " + s, nil
	}
	intPart, frac, _ := strings.Cut(abs.round(int32(nf.fracDigit), false).String(), ".")
	if intPart == "0" && nf.fracDigit > 0 {
		intPart = "" // a zero integer part shows only where 0 positions force it
	}
	overflow := len(intPart) > nf.intDigits
	lead := nf.intDigits - len(intPart) // integer positions before the number's digits
	type cell struct {
		text  string
		kind  byte // the item's kind
		frac  bool // a fraction digit
		isNum bool // part of the number: a digit, a forced zero or the point
	}
	var cells []cell
	pos, fracPos, sPos := 0, 0, -1
	for _, it := range nf.items {
		switch it.kind {
		case '9', '0':
			if nf.point && pos >= nf.intDigits {
				c := "0"
				if fracPos < len(frac) {
					c = frac[fracPos : fracPos+1]
				}
				if overflow {
					c = "#"
				}
				fracPos++
				cells = append(cells, cell{c, it.kind, true, true})
				continue
			}
			i := pos
			pos++
			switch {
			case overflow:
				cells = append(cells, cell{"#", it.kind, false, true})
			case i >= lead:
				cells = append(cells, cell{intPart[i-lead : i-lead+1], it.kind, false, true})
			case nf.zeroFrom >= 0 && i >= nf.zeroFrom:
				cells = append(cells, cell{"0", it.kind, false, true})
			case !nf.fm:
				cells = append(cells, cell{" ", it.kind, false, false})
			}
		case '.':
			cells = append(cells, cell{".", '.', false, true})
		case ',':
			started := false
			for _, c := range cells {
				started = started || c.isNum
			}
			switch {
			case started:
				cells = append(cells, cell{",", ',', false, true})
			case !nf.fm:
				cells = append(cells, cell{" ", ',', false, false})
			}
		case 'S':
			sPos = len(cells)
		case 'M':
			if neg {
				cells = append(cells, cell{"-", 'M', false, false})
			} else if !nf.fm {
				cells = append(cells, cell{" ", 'M', false, false})
			}
		case 'P':
			if !neg {
				cells = append(cells, cell{"+", 'P', false, false})
			} else if !nf.fm {
				cells = append(cells, cell{" ", 'P', false, false})
			}
		case 'G':
			cells = append(cells, cell{sign, 'G', false, false})
		case 'L':
			if !nf.fm {
				cells = append(cells, cell{" ", 'L', false, false})
			}
		case 't', 'T':
			suffix := ordinalSuffix(intPart)
			if it.kind == 'T' {
				suffix = strings.ToUpper(suffix)
			}
			cells = append(cells, cell{suffix, it.kind, false, false})
		case 'x':
			cells = append(cells, cell{it.text, 'x', false, false})
		}
	}
	if nf.fm && !overflow { // fill mode drops the fraction's trailing zeros under 9
		for len(cells) > 0 {
			last := len(cells) - 1
			c := cells[last]
			if c.frac && c.kind == '9' && c.text == "0" {
				cells = append(cells[:last], cells[last+1:]...)
				continue
			}
			if !c.isNum && c.kind != '.' {
				// Text after the number: look past it.
				j := last - 1
				for j >= 0 && !cells[j].isNum {
					j--
				}
				if j >= 0 && cells[j].frac && cells[j].kind == '9' && cells[j].text == "0" {
					cells = append(cells[:j], cells[j+1:]...)
					continue
				}
			}
			break
		}
	}
	first, last := -1, -1 // the number's first and last cells
	for i, c := range cells {
		if c.isNum {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	insert := func(at int, text string) {
		cells = append(cells[:at], append([]cell{{text: text}}, cells[at:]...)...)
	}
	switch {
	case sPos >= 0 && first >= 0 && sPos <= first:
		insert(first, sign) // S before the digits binds to the number's start
	case sPos >= 0 && last >= 0:
		insert(last+1, sign) // and after them, to its end
	case sPos >= 0:
		insert(sPos, sign)
	case !nf.signToken:
		at := max(first, 0)
		if neg {
			insert(at, "-")
		} else if !nf.fm {
			insert(at, " ")
		}
	}
	var b strings.Builder
	for _, c := range cells {
		b.WriteString(c.text)
	}
	return b.String(), nil
}

// ordinalSuffix is st, nd, rd or th for the number whose integer digits
// are s.
func ordinalSuffix(s string) string {
	if s == "" {
		s = "0"
	}
	if len(s) > 1 && s[len(s)-2] == '1' {
		return "th"
	}
	switch s[len(s)-1] {
	case '1':
		return "st"
	case '2':
		return "nd"
	case '3':
		return "rd"
	}
	return "th"
}

// shifted is n × 10^k.
func (n *numeric) shifted(k int) *numeric {
	out := &numeric{scale: n.scale}
	out.unscaled.Mul(&n.unscaled, pow10(k))
	return out
}

// romanNumeral renders n rounded to an integer in Roman numerals, right
// aligned in 15 characters unless in fill mode; #s outside 1 to 3999.
func romanNumeral(n *numeric, nf numFormat) string {
	v, ok := n.integer()
	out := strings.Repeat("#", 15)
	if ok && v >= 1 && v <= 3999 {
		var b strings.Builder
		for _, r := range []struct {
			n int64
			s string
		}{{1000, "M"}, {900, "CM"}, {500, "D"}, {400, "CD"}, {100, "C"}, {90, "XC"}, {50, "L"}, {40, "XL"},
			{10, "X"}, {9, "IX"}, {5, "V"}, {4, "IV"}, {1, "I"}} {
			for ; v >= r.n; v -= r.n {
				b.WriteString(r.s)
			}
		}
		out = b.String()
		if !nf.fm {
			out = fmt.Sprintf("%15s", out)
		}
	}
	if nf.roman == "rn" {
		out = strings.ToLower(out)
	}
	return out
}
