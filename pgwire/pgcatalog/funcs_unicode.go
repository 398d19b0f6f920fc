package pgcatalog

import (
	"strings"

	"golang.org/x/text/unicode/norm"
)

// Unicode normalization: normalize(text [, form]) and the IS [NOT] [form]
// NORMALIZED predicate (is_normalized), form being NFC (the default), NFD,
// NFKC or NFKD.
func init() {
	register("normalize", &builtin{min: 1, max: 2, ret: tText, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		f, err := normForm(a)
		if err != nil {
			return null, err
		}
		return textV(f.String(a[0].s)), nil
	}})
	register("is_normalized", &builtin{min: 1, max: 2, ret: tBool, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		f, err := normForm(a)
		if err != nil {
			return null, err
		}
		return boolV(f.IsNormalString(a[0].s)), nil
	}})
}

// normForm is the form a normalization function's second argument names.
func normForm(a []Value) (norm.Form, error) {
	if len(a) < 2 {
		return norm.NFC, nil
	}
	switch strings.ToUpper(a[1].s) {
	case "NFC":
		return norm.NFC, nil
	case "NFD":
		return norm.NFD, nil
	case "NFKC":
		return norm.NFKC, nil
	case "NFKD":
		return norm.NFKD, nil
	}
	return norm.NFC, errorf(CodeInvalidParameter, noPos, "invalid normalization form: %s", a[1].s)
}
