package sql

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/language"

	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

// String functions over STRING and BYTES, each with both overloads where
// GoogleSQL has both: lengths, case mapping, substrings, searches, padding,
// trimming, replacing and splitting. Positions and lengths count characters
// for STRING and bytes for BYTES. STRING values are valid UTF-8 (invariant
// T2), so nothing here validates them again. Regular expressions are in
// funcs_regexp.go, FORMAT in funcs_format.go, and the encodings and Unicode
// normalization in funcs_encoding.go.
func init() {
	i64 := types.Int64
	registerStrTo("STARTS_WITH", strRetBool, strStartsWith, nil, nil)
	registerStrTo("ENDS_WITH", strRetBool, strEndsWith, nil, nil)
	registerStrTo("LENGTH", strRetInt64, strLength, nil)
	registerStrTo("BYTE_LENGTH", strRetInt64, strByteLength, nil)
	for _, name := range []string{"CHAR_LENGTH", "CHARACTER_LENGTH"} {
		Register(name, fixedTo(i64, strLength, types.String))
	}
	registerStr("LOWER", strSameType, strLower, nil)
	registerStr("UPPER", strSameType, strUpper, nil)
	Register("INITCAP",
		fixed(types.String, strInitcap, types.String),
		fixed(types.String, strInitcap, types.String, types.String))
	for _, name := range []string{"SUBSTR", "SUBSTRING"} {
		registerStr(name, strSameType, strSubstr, nil, i64)
		registerStr(name, strSameType, strSubstr, nil, i64, i64)
	}
	registerStr("LEFT", strSameType, strLeftRight(false), nil, i64)
	registerStr("RIGHT", strSameType, strLeftRight(true), nil, i64)
	registerStr("STRPOS", strRetInt64, strInstr, nil, nil)
	for n := 2; n <= 4; n++ {
		registerStr("INSTR", strRetInt64, strInstr, []*types.Type{nil, nil, i64, i64}[:n]...)
	}
	registerStr("REPLACE", strSameType, strReplace, nil, nil, nil)
	registerStr("TRANSLATE", strSameType, strTranslate, nil, nil, nil)
	registerStr("REPEAT", strSameType, strRepeat, nil, i64)
	registerStr("REVERSE", strSameType, strReverse, nil)
	for _, name := range []string{"TRIM", "LTRIM", "RTRIM"} {
		// BYTES must name the bytes to trim; STRING defaults to white space.
		Register(name, fixed(types.String, strTrimmer(name), types.String))
		registerStr(name, strSameType, strTrimmer(name), nil, nil)
	}
	for _, name := range []string{"LPAD", "RPAD"} {
		registerStr(name, strSameType, strPadder(name), nil, i64)
		registerStr(name, strSameType, strPadder(name), nil, i64, nil)
	}
	for _, t := range strTypes {
		Register("CONCAT", &Overload{Args: []*types.Type{t}, Variadic: true, Ret: t, Eval: concatValues})
		Register("SPLIT", fixed(types.ArrayOf(t), strSplit, t, t))
	}
	// CONCAT also takes any values that cast to STRING: CONCAT('a', 1).
	Register("CONCAT", &Overload{Args: []*types.Type{nil}, Variadic: true, Result: strConcatCastable, Eval: strConcatCast})
	Register("SPLIT", fixed(types.ArrayOf(types.String), strSplit, types.String))
	Register("CONTAINS_SUBSTR", &Overload{Args: []*types.Type{nil, types.String},
		Result: strContainsSubstrResult, Eval: strContainsSubstr, NullCalls: true})
}

// strTypes are the two types string functions are defined over.
var strTypes = [...]*types.Type{types.String, types.Bytes}

// registerStr registers eval over STRING and over BYTES: a nil entry of
// sig stands for the text type t, and ret(t) is the result type.
func registerStr(name string, ret func(t *types.Type) *types.Type,
	eval func([]types.Value, *types.Type) (types.Value, error), sig ...*types.Type) {
	for _, t := range strTypes {
		Register(name, fixed(ret(t), eval, strSig(t, sig)...))
	}
}

// registerStrTo is registerStr for a function that writes its result
// (Overload.EvalTo).
func registerStrTo(name string, ret func(t *types.Type) *types.Type, to evalToFunc, sig ...*types.Type) {
	for _, t := range strTypes {
		Register(name, fixedTo(ret(t), to, strSig(t, sig)...))
	}
}

// strSig returns sig with its nil entries replaced by the text type t.
func strSig(t *types.Type, sig []*types.Type) []*types.Type {
	args := make([]*types.Type, len(sig))
	for i, a := range sig {
		args[i] = a
		if a == nil {
			args[i] = t
		}
	}
	return args
}

func strSameType(t *types.Type) *types.Type { return t }
func strRetInt64(*types.Type) *types.Type   { return types.Int64 }
func strRetBool(*types.Type) *types.Type    { return types.Bool }

// strValue returns b as a value of the text type t, aliasing b.
func strValue(t *types.Type, b []byte) types.Value {
	if t.Kind == types.KindString {
		return types.StringBytesValue(b)
	}
	return types.BytesValue(b)
}

// strIsChars reports whether v counts characters (STRING) rather than bytes.
func strIsChars(v types.Value) bool { return v.Kind() == types.KindString }

// strError is a run-time error of a string function's argument values.
func strError(format string, args ...any) error {
	return sqlerr.New(sqlerr.OutOfRange, format, args...)
}

// strMaxOutput caps the output of the functions that can blow up a small
// input (REPEAT, LPAD, RPAD, REPLACE, TRANSLATE), as GoogleSQL does.
const strMaxOutput = 1 << 20

func strTooLong(fn string) error {
	return strError("%s: output exceeds the maximum size of 1MB", fn)
}

func strStartsWith(dst *types.Value, a []types.Value, _ *types.Type) error {
	*dst = types.BoolValue(bytes.HasPrefix(a[0].Bytes(), a[1].Bytes()))
	return nil
}

func strEndsWith(dst *types.Value, a []types.Value, _ *types.Type) error {
	*dst = types.BoolValue(bytes.HasSuffix(a[0].Bytes(), a[1].Bytes()))
	return nil
}

func strLength(dst *types.Value, a []types.Value, _ *types.Type) error {
	n := len(a[0].Bytes())
	if strIsChars(a[0]) {
		n = utf8.RuneCount(a[0].Bytes())
	}
	*dst = types.Int64Value(int64(n))
	return nil
}

func strByteLength(dst *types.Value, a []types.Value, _ *types.Type) error {
	*dst = types.Int64Value(int64(len(a[0].Bytes())))
	return nil
}

// strIsASCII reports whether b has only 7-bit bytes.
func strIsASCII(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// strMapASCII returns b with f applied to each byte; BYTES case mapping leaves
// bytes above 127 alone.
func strMapASCII(b []byte, f func(byte) byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		out[i] = f(c)
	}
	return out
}

func strLowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func strUpperASCII(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// strLower and strUpper map STRING by the Unicode full case mappings of the
// root locale (UPPER('ß') is 'SS') and BYTES as ASCII.
func strLower(a []types.Value, ret *types.Type) (types.Value, error) {
	b := a[0].Bytes()
	if strIsChars(a[0]) && !strIsASCII(b) {
		return types.StringBytesValue(cases.Lower(language.Und).Bytes(b)), nil
	}
	return strValue(ret, strMapASCII(b, strLowerASCII)), nil
}

func strUpper(a []types.Value, ret *types.Type) (types.Value, error) {
	b := a[0].Bytes()
	if strIsChars(a[0]) && !strIsASCII(b) {
		return types.StringBytesValue(cases.Upper(language.Und).Bytes(b)), nil
	}
	return strValue(ret, strMapASCII(b, strUpperASCII)), nil
}

// strInitcapDelims are INITCAP's default word delimiters besides white space.
const strInitcapDelims = `[](){}/|\<>!?@"#$&~_,.:;*%+-^`

// strInitcap upper-cases the first character of each word and lower-cases the
// rest; words are separated by the delimiters argument, by default white
// space and strInitcapDelims.
func strInitcap(a []types.Value, _ *types.Type) (types.Value, error) {
	s := a[0].Bytes()
	var delims []byte
	deflt := len(a) == 1
	if !deflt {
		delims = a[1].Bytes()
	}
	isDelim := func(r rune) bool {
		if deflt {
			return unicode.IsSpace(r) || r < utf8.RuneSelf && strings.IndexByte(strInitcapDelims, byte(r)) >= 0
		}
		return bytes.ContainsRune(delims, r)
	}
	out := make([]byte, 0, len(s))
	capNext := true
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRune(s[i:])
		switch {
		case isDelim(r):
			capNext = true
		case capNext:
			r, capNext = unicode.ToUpper(r), false
		default:
			r = unicode.ToLower(r)
		}
		out = utf8.AppendRune(out, r)
		i += w
	}
	return types.StringBytesValue(out), nil
}

// strRuneOffset returns the byte offset of character n (0-based) of s, or
// len(s) when s has no more than n characters.
func strRuneOffset(s []byte, n int64) int {
	i := 0
	for ; n > 0 && i < len(s); n-- {
		if s[i] < utf8.RuneSelf {
			i++
		} else {
			_, w := utf8.DecodeRune(s[i:])
			i += w
		}
	}
	return i
}

// strSubstring implements SUBSTR(s, pos, length) with GoogleSQL's positions:
// 1-based; 0 is 1; negative counts from the end, clamped to the start.
func strSubstring(s []byte, pos, length int64, chars bool) []byte {
	if pos > 0 {
		pos--
	} else if pos < 0 {
		n := int64(len(s))
		if chars {
			n = int64(utf8.RuneCount(s))
		}
		pos = max(n+pos, 0)
	}
	if !chars {
		if pos >= int64(len(s)) {
			return s[:0]
		}
		return s[pos : pos+min(length, int64(len(s))-pos)]
	}
	start := strRuneOffset(s, pos)
	return s[start : start+strRuneOffset(s[start:], length)]
}

func strSubstr(a []types.Value, ret *types.Type) (types.Value, error) {
	length := int64(math.MaxInt64)
	if len(a) > 2 {
		if length = a[2].Int64(); length < 0 {
			return types.Value{}, strError("SUBSTR: length must not be negative, got %d", length)
		}
	}
	return strValue(ret, strSubstring(a[0].Bytes(), a[1].Int64(), length, strIsChars(a[0]))), nil
}

// strLeftRight returns LEFT or RIGHT: the first or last n characters or bytes.
func strLeftRight(right bool) func([]types.Value, *types.Type) (types.Value, error) {
	name := "LEFT"
	if right {
		name = "RIGHT"
	}
	return func(a []types.Value, ret *types.Type) (types.Value, error) {
		n := a[1].Int64()
		if n < 0 {
			return types.Value{}, strError("%s: length must not be negative, got %d", name, n)
		}
		pos := int64(1)
		if right {
			pos = -n
		}
		if n == 0 {
			return strValue(ret, a[0].Bytes()[:0]), nil
		}
		return strValue(ret, strSubstring(a[0].Bytes(), pos, n, strIsChars(a[0]))), nil
	}
}

// strInstr implements STRPOS(s, sub) and INSTR(s, sub[, pos[, occurrence]]):
// the 1-based position of the occurrence-th sub in s, searching forward
// from pos, or backward from the end when pos is negative; occurrences may
// overlap; 0 when there is none.
func strInstr(a []types.Value, _ *types.Type) (types.Value, error) {
	s, sub := a[0].Bytes(), a[1].Bytes()
	pos, occ := int64(1), int64(1)
	if len(a) > 2 {
		pos = a[2].Int64()
	}
	if len(a) > 3 {
		occ = a[3].Int64()
	}
	if occ < 1 {
		return types.Value{}, strError("INSTR: occurrence must be positive, got %d", occ)
	}
	if pos == 0 {
		return types.Value{}, strError("INSTR: position must not be zero")
	}
	var off int
	if pos > 0 {
		off = strInstrForward(s, sub, pos, occ, strIsChars(a[0]))
	} else {
		off = strInstrBackward(s, sub, pos, occ, strIsChars(a[0]))
	}
	switch {
	case off < 0:
		return types.Int64Value(0), nil
	case strIsChars(a[0]):
		return types.Int64Value(int64(utf8.RuneCount(s[:off])) + 1), nil
	}
	return types.Int64Value(int64(off) + 1), nil
}

// strInstrForward returns the byte offset of the occ-th sub at or after
// position pos (> 0), or -1.
func strInstrForward(s, sub []byte, pos, occ int64, chars bool) int {
	off := 0
	if chars {
		if off = strRuneOffset(s, pos-1); off == len(s) && int64(utf8.RuneCount(s)) < pos-1 {
			return -1
		}
	} else if pos-1 > int64(len(s)) {
		return -1
	} else {
		off = int(pos - 1)
	}
	for i := int64(0); i < occ; i++ {
		if i > 0 {
			// The next occurrence may overlap: search from the next character.
			if off >= len(s) {
				return -1
			}
			off += strCharWidth(s[off:], chars)
		}
		j := bytes.Index(s[off:], sub)
		if j < 0 {
			return -1
		}
		off += j
	}
	return off
}

// strInstrBackward returns the byte offset of the occ-th sub counting back
// from position pos (< 0, -1 the last character), or -1. An empty sub also
// matches just past the last character: position -1 finds it at len+1.
func strInstrBackward(s, sub []byte, pos, occ int64, chars bool) int {
	var off int
	if chars {
		off = len(s)
		for n := -(pos + 1); n > 0; n-- {
			if off == 0 {
				return -1
			}
			_, w := utf8.DecodeLastRune(s[:off])
			off -= w
		}
		if len(sub) > 0 {
			if off == 0 {
				return -1
			}
			off--
		}
	} else {
		if len(sub) == 0 {
			pos++
		}
		if int64(len(s))+pos < 0 {
			return -1
		}
		off = len(s) + int(pos)
	}
	for i := int64(0); i < occ; i++ {
		if i > 0 {
			if off == 0 {
				return -1
			}
			if chars {
				_, w := utf8.DecodeLastRune(s[:off])
				off -= w
			} else {
				off--
			}
		}
		// The last sub starting at or before off.
		end := min(off+len(sub), len(s))
		if off = bytes.LastIndex(s[:end], sub); off < 0 {
			return -1
		}
	}
	return off
}

// strCharWidth returns the width of the first character (STRING) or byte.
func strCharWidth(s []byte, chars bool) int {
	if !chars || s[0] < utf8.RuneSelf {
		return 1
	}
	_, w := utf8.DecodeRune(s)
	return w
}

// strReplace replaces every from with to; an empty from changes nothing.
func strReplace(a []types.Value, ret *types.Type) (types.Value, error) {
	s, from, to := a[0].Bytes(), a[1].Bytes(), a[2].Bytes()
	if len(from) == 0 {
		return a[0], nil
	}
	n := bytes.Count(s, from)
	if n == 0 {
		return a[0], nil
	}
	if len(s)+n*(len(to)-len(from)) > strMaxOutput {
		return types.Value{}, strTooLong("REPLACE")
	}
	return strValue(ret, bytes.ReplaceAll(s, from, to)), nil
}

// strTranslate replaces each character (byte) of s found in source with the
// one at the same position in target, dropping it when target is shorter.
func strTranslate(a []types.Value, ret *types.Type) (types.Value, error) {
	s, src, dst := a[0].Bytes(), a[1].Bytes(), a[2].Bytes()
	if !strIsChars(a[0]) {
		return strTranslateBytes(s, src, dst, ret)
	}
	type target struct {
		r    rune
		drop bool
	}
	m := make(map[rune]target, len(src))
	for len(src) > 0 {
		r, w := utf8.DecodeRune(src)
		src = src[w:]
		if _, dup := m[r]; dup {
			return types.Value{}, strError("TRANSLATE: duplicate character %q in source characters", string(r))
		}
		if len(dst) == 0 {
			m[r] = target{drop: true}
			continue
		}
		t, tw := utf8.DecodeRune(dst)
		dst = dst[tw:]
		m[r] = target{r: t}
	}
	out := make([]byte, 0, len(s))
	for _, r := range string(s) {
		if t, ok := m[r]; ok {
			if t.drop {
				continue
			}
			r = t.r
		}
		if out = utf8.AppendRune(out, r); len(out) > strMaxOutput {
			return types.Value{}, strTooLong("TRANSLATE")
		}
	}
	return types.StringBytesValue(out), nil
}

func strTranslateBytes(s, src, dst []byte, ret *types.Type) (types.Value, error) {
	var mapping [256]byte
	var seen, drop [256]bool
	for i := range mapping {
		mapping[i] = byte(i)
	}
	for i, c := range src {
		if seen[c] {
			return types.Value{}, strError("TRANSLATE: duplicate byte 0x%02x in source bytes", c)
		}
		seen[c] = true
		if i < len(dst) {
			mapping[c] = dst[i]
		} else {
			drop[c] = true
		}
	}
	out := make([]byte, 0, len(s))
	for _, c := range s {
		if !drop[c] {
			out = append(out, mapping[c])
		}
	}
	return strValue(ret, out), nil
}

func strRepeat(a []types.Value, ret *types.Type) (types.Value, error) {
	s, n := a[0].Bytes(), a[1].Int64()
	if n < 0 {
		return types.Value{}, strError("REPEAT: repetitions must not be negative, got %d", n)
	}
	if len(s) == 0 || n == 0 {
		return strValue(ret, s[:0]), nil
	}
	if n > strMaxOutput || int64(len(s))*n > strMaxOutput {
		return types.Value{}, strTooLong("REPEAT")
	}
	return strValue(ret, bytes.Repeat(s, int(n))), nil
}

// strReverse reverses the characters of a STRING or the bytes of BYTES.
func strReverse(a []types.Value, ret *types.Type) (types.Value, error) {
	s := a[0].Bytes()
	out := make([]byte, len(s))
	if !strIsChars(a[0]) {
		for i, c := range s {
			out[len(s)-1-i] = c
		}
		return strValue(ret, out), nil
	}
	for i := 0; i < len(s); {
		w := strCharWidth(s[i:], true)
		copy(out[len(s)-i-w:], s[i:i+w])
		i += w
	}
	return strValue(ret, out), nil
}

// strTrimmer returns TRIM, LTRIM or RTRIM: it removes the leading and/or
// trailing characters (bytes) found in the second argument; STRING's
// default set is Unicode white space.
func strTrimmer(name string) func([]types.Value, *types.Type) (types.Value, error) {
	left, right := name != "RTRIM", name != "LTRIM"
	return func(a []types.Value, ret *types.Type) (types.Value, error) {
		s := a[0].Bytes()
		var in func(r rune) bool
		switch {
		case len(a) == 1:
			in = unicode.IsSpace
		case strIsChars(a[0]):
			set := a[1].Bytes()
			in = func(r rune) bool { return bytes.ContainsRune(set, r) }
		default:
			var set [256]bool
			for _, c := range a[1].Bytes() {
				set[c] = true
			}
			if left {
				for len(s) > 0 && set[s[0]] {
					s = s[1:]
				}
			}
			if right {
				for len(s) > 0 && set[s[len(s)-1]] {
					s = s[:len(s)-1]
				}
			}
			return strValue(ret, s), nil
		}
		if left {
			s = bytes.TrimLeftFunc(s, in)
		}
		if right {
			s = bytes.TrimRightFunc(s, in)
		}
		return strValue(ret, s), nil
	}
}

// strPadder returns LPAD or RPAD: it pads the value on the left or right with
// repetitions of the pattern (default ' ') to n characters (bytes), or
// truncates it to n when it is longer.
func strPadder(name string) func([]types.Value, *types.Type) (types.Value, error) {
	left := name == "LPAD"
	return func(a []types.Value, ret *types.Type) (types.Value, error) {
		s, n := a[0].Bytes(), a[1].Int64()
		pat := []byte{' '}
		if len(a) > 2 {
			pat = a[2].Bytes()
		}
		switch {
		case n < 0:
			return types.Value{}, strError("%s: return length must not be negative, got %d", name, n)
		case n > strMaxOutput:
			return types.Value{}, strTooLong(name)
		case len(pat) == 0:
			return types.Value{}, strError("%s: pattern must not be empty", name)
		}
		chars := strIsChars(a[0])
		have, patLen := int64(len(s)), int64(len(pat))
		if chars {
			have, patLen = int64(utf8.RuneCount(s)), int64(utf8.RuneCount(pat))
		}
		if n <= have {
			return strValue(ret, strSubstring(s, 1, n, chars)), nil
		}
		reps, rest := (n-have)/patLen, (n-have)%patLen
		tail := strSubstring(pat, 1, rest, chars)
		size := int64(len(s)) + reps*int64(len(pat)) + int64(len(tail))
		if size > strMaxOutput {
			return types.Value{}, strTooLong(name)
		}
		out := make([]byte, 0, size)
		if !left {
			out = append(out, s...)
		}
		for ; reps > 0; reps-- {
			out = append(out, pat...)
		}
		out = append(out, tail...)
		if left {
			out = append(out, s...)
		}
		return strValue(ret, out), nil
	}
}

// strConcatCastable accepts CONCAT's arguments that are not all STRING or all
// BYTES: any mix of values that cast to STRING, but no BYTES.
func strConcatCastable(args []*types.Type) (*types.Type, error) {
	for _, t := range args {
		if t.Kind == types.KindBytes || !types.CanCast(t, types.String) {
			return nil, fmt.Errorf("CONCAT: cannot concatenate %s with STRING", t)
		}
	}
	return types.String, nil
}

// strConcatCast concatenates values cast to STRING.
func strConcatCast(a []types.Value, _ *types.Type) (types.Value, error) {
	var out []byte
	for _, v := range a {
		if v.Kind() != types.KindString {
			s, err := types.Cast(v, types.String)
			if err != nil {
				return types.Value{}, err
			}
			v = s
		}
		out = append(out, v.Bytes()...)
	}
	return types.StringBytesValue(out), nil
}

func strSplit(a []types.Value, ret *types.Type) (types.Value, error) {
	delim := []byte(",")
	if len(a) > 1 {
		delim = a[1].Bytes()
	}
	s := a[0].Bytes()
	var parts [][]byte
	switch {
	case len(s) == 0:
		parts = [][]byte{{}}
	case len(delim) == 0 && ret.Elem.Kind == types.KindString:
		for i := 0; i < len(s); {
			w := strCharWidth(s[i:], true)
			parts = append(parts, s[i:i+w])
			i += w
		}
	case len(delim) == 0:
		for i := range s {
			parts = append(parts, s[i:i+1])
		}
	default:
		parts = bytes.Split(s, delim)
	}
	out := make([]types.Value, len(parts))
	for i, p := range parts {
		out[i] = strValue(ret.Elem, p)
	}
	return types.ArrayValue(ret, out), nil
}

// strContainsSubstrResult accepts a value to search whose leaves (through
// arrays and structs) cast to STRING.
func strContainsSubstrResult(a []*types.Type) (*types.Type, error) {
	var ok func(t *types.Type) bool
	ok = func(t *types.Type) bool {
		switch t.Kind {
		case types.KindArray:
			return ok(t.Elem)
		case types.KindStruct:
			for _, f := range t.Fields {
				if !ok(f.Type) {
					return false
				}
			}
			return true
		}
		return types.CanCast(t, types.String)
	}
	if !ok(a[0]) {
		return nil, fmt.Errorf("CONTAINS_SUBSTR cannot search a value of type %s", a[0])
	}
	return types.Bool, nil
}

// strContainsSubstr implements CONTAINS_SUBSTR(value, search): whether search
// occurs in value, or in any element or field of it (cast to STRING), after
// both are normalized with NFKC and case folded. No match and a NULL among
// the searched values is NULL.
func strContainsSubstr(a []types.Value, _ *types.Type) (types.Value, error) {
	if a[0].IsNull() || a[1].IsNull() {
		return types.NullOf(types.Bool), nil
	}
	needle := a[1].Bytes()
	var folded []byte // needle, normalized once when needed
	var found, sawNull bool
	var search func(v types.Value)
	search = func(v types.Value) {
		switch {
		case found:
		case v.IsNull():
			sawNull = true
		case v.Kind() == types.KindArray || v.Kind() == types.KindStruct:
			for _, e := range v.Elems() {
				search(e)
			}
		default:
			if v.Kind() != types.KindString {
				s, err := types.Cast(v, types.String)
				if err != nil {
					return
				}
				v = s
			}
			hay := v.Bytes()
			if strIsASCII(hay) && strIsASCII(needle) {
				found = strContainsFoldASCII(hay, needle)
				return
			}
			if folded == nil {
				folded = encNFKCCasefold(needle)
			}
			found = bytes.Contains(encNFKCCasefold(hay), folded)
		}
	}
	search(a[0])
	if !found && sawNull {
		return types.NullOf(types.Bool), nil
	}
	return types.BoolValue(found), nil
}

// strContainsFoldASCII reports whether sub occurs in s ignoring ASCII case.
func strContainsFoldASCII(s, sub []byte) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		j := 0
		for j < len(sub) && strLowerASCII(s[i+j]) == strLowerASCII(sub[j]) {
			j++
		}
		if j == len(sub) {
			return true
		}
	}
	return false
}
