package sql

import (
	"bytes"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

// Conversions between text and its encodings: hex, base32 and base64,
// Unicode code points (ASCII, CHR, UNICODE, TO_CODE_POINTS and back),
// repairing UTF-8 (SAFE_CONVERT_BYTES_TO_STRING) and Unicode normalization
// (NORMALIZE, NORMALIZE_AND_CASEFOLD).
func init() {
	str, byt, i64 := types.String, types.Bytes, types.Int64
	Register("TO_HEX", fixed(str, encToHex, byt))
	Register("FROM_HEX", fixed(byt, encFromHex, str))
	Register("TO_BASE32", fixed(str, encToBase32, byt))
	Register("FROM_BASE32", fixed(byt, encFromBase32, str))
	Register("TO_BASE64", fixed(str, encToBase64, byt))
	Register("FROM_BASE64", fixed(byt, encFromBase64, str))
	registerStr("TO_CODE_POINTS", func(*types.Type) *types.Type { return types.ArrayOf(i64) }, encToCodePoints, nil)
	Register("CODE_POINTS_TO_STRING", fixed(str, encCodePointsToText, types.ArrayOf(i64)))
	Register("CODE_POINTS_TO_BYTES", fixed(byt, encCodePointsToText, types.ArrayOf(i64)))
	Register("SAFE_CONVERT_BYTES_TO_STRING", fixed(str, encSafeConvertBytes, byt))
	registerStr("ASCII", strRetInt64, encASCII, nil)
	Register("UNICODE", fixed(i64, encUnicode, str))
	Register("CHR", fixed(str, encChr, i64))
	for _, name := range []string{"NORMALIZE", "NORMALIZE_AND_CASEFOLD"} {
		fold := name == "NORMALIZE_AND_CASEFOLD"
		Register(name, fixed(str, encNormalizer(fold), str), fixed(str, encNormalizer(fold), str, str))
		RegisterKeywordArg(name, 1, "NFC", "NFKC", "NFD", "NFKD")
	}
}

// encDecodeError is the error of a malformed encoded input.
func encDecodeError(fn, what string, in []byte) error {
	return sqlerr.New(sqlerr.InvalidValue, "%s: invalid %s string %q", fn, what, in)
}

func encToHex(a []types.Value, _ *types.Type) (types.Value, error) {
	return types.StringValue(hex.EncodeToString(a[0].Bytes())), nil
}

// encFromHex decodes hex digits of either case; an odd count reads as if it
// had a leading 0.
func encFromHex(a []types.Value, _ *types.Type) (types.Value, error) {
	s := a[0].Bytes()
	for i, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return types.Value{}, sqlerr.New(sqlerr.InvalidValue,
				"FROM_HEX: invalid hexadecimal string %q: bad character at offset %d", s, i)
		}
	}
	out := make([]byte, (len(s)+1)/2)
	if len(s)%2 == 1 {
		hex.Decode(out, append([]byte{'0'}, s...))
	} else {
		hex.Decode(out, s)
	}
	return types.BytesValue(out), nil
}

func encToBase32(a []types.Value, _ *types.Type) (types.Value, error) {
	return types.StringValue(base32.StdEncoding.EncodeToString(a[0].Bytes())), nil
}

// encFromBase32 decodes RFC 4648 base32, with or without the padding.
func encFromBase32(a []types.Value, _ *types.Type) (types.Value, error) {
	s := a[0].Bytes()
	enc := base32.StdEncoding
	if !bytes.HasSuffix(s, []byte("=")) {
		enc = enc.WithPadding(base32.NoPadding)
	}
	out := make([]byte, enc.DecodedLen(len(s)))
	n, err := enc.Decode(out, s)
	if err != nil {
		return types.Value{}, encDecodeError("FROM_BASE32", "base32", s)
	}
	return types.BytesValue(out[:n]), nil
}

func encToBase64(a []types.Value, _ *types.Type) (types.Value, error) {
	return types.StringValue(base64.StdEncoding.EncodeToString(a[0].Bytes())), nil
}

// encFromBase64 decodes base64 of the alphabet [A-Za-z0-9+/], with or without
// the padding; white space is ignored.
func encFromBase64(a []types.Value, _ *types.Type) (types.Value, error) {
	s := a[0].Bytes()
	if bytes.ContainsAny(s, " \t\n\r\v\f") {
		s = bytes.Map(func(r rune) rune {
			if strings.ContainsRune(" \t\n\r\v\f", r) {
				return -1
			}
			return r
		}, s)
	}
	enc := base64.StdEncoding
	if !bytes.HasSuffix(s, []byte("=")) {
		enc = base64.RawStdEncoding
	}
	out := make([]byte, enc.DecodedLen(len(s)))
	n, err := enc.Decode(out, s)
	if err != nil {
		return types.Value{}, encDecodeError("FROM_BASE64", "base64", a[0].Bytes())
	}
	return types.BytesValue(out[:n]), nil
}

// encToCodePoints returns a STRING's code points or a BYTES' byte values.
func encToCodePoints(a []types.Value, ret *types.Type) (types.Value, error) {
	s := a[0].Bytes()
	var out []types.Value
	if strIsChars(a[0]) {
		out = make([]types.Value, 0, utf8.RuneCount(s))
		for _, r := range string(s) {
			out = append(out, types.Int64Value(int64(r)))
		}
	} else {
		out = make([]types.Value, len(s))
		for i, c := range s {
			out[i] = types.Int64Value(int64(c))
		}
	}
	return types.ArrayValue(ret, out), nil
}

// encValidCodePoint reports whether c is a Unicode scalar value (not a
// surrogate).
func encValidCodePoint(c int64) bool {
	return 0 <= c && c <= utf8.MaxRune && !(0xD800 <= c && c <= 0xDFFF)
}

// encCodePointsToText implements CODE_POINTS_TO_STRING (code points) and
// CODE_POINTS_TO_BYTES (byte values); a NULL element makes the result NULL.
func encCodePointsToText(a []types.Value, ret *types.Type) (types.Value, error) {
	elems := a[0].Elems()
	out := make([]byte, 0, len(elems))
	for _, e := range elems {
		if e.IsNull() {
			return types.NullOf(ret), nil
		}
		c := e.Int64()
		if ret.Kind == types.KindBytes {
			if c < 0 || c > 255 {
				return types.Value{}, strError("CODE_POINTS_TO_BYTES: invalid byte value %d", c)
			}
			out = append(out, byte(c))
			continue
		}
		if !encValidCodePoint(c) {
			return types.Value{}, strError("CODE_POINTS_TO_STRING: invalid code point %d", c)
		}
		out = utf8.AppendRune(out, rune(c))
	}
	return strValue(ret, out), nil
}

// encChr returns the character of a code point; CHR(0) is the NUL character.
func encChr(a []types.Value, _ *types.Type) (types.Value, error) {
	c := a[0].Int64()
	if !encValidCodePoint(c) {
		return types.Value{}, strError("CHR: invalid code point %d", c)
	}
	return types.StringBytesValue(utf8.AppendRune(nil, rune(c))), nil
}

// encASCII returns the code of the first character or byte (0 when
// empty); a STRING's first character must be ASCII.
func encASCII(a []types.Value, _ *types.Type) (types.Value, error) {
	s := a[0].Bytes()
	if len(s) == 0 {
		return types.Int64Value(0), nil
	}
	if strIsChars(a[0]) && s[0] >= utf8.RuneSelf {
		return types.Value{}, strError("ASCII: the first character of %q is not ASCII", s)
	}
	return types.Int64Value(int64(s[0])), nil
}

// encUnicode returns the code point of the first character (0 when
// empty).
func encUnicode(a []types.Value, _ *types.Type) (types.Value, error) {
	r, _ := utf8.DecodeRune(a[0].Bytes())
	if r == utf8.RuneError && len(a[0].Bytes()) == 0 {
		r = 0
	}
	return types.Int64Value(int64(r)), nil
}

// encSafeConvertBytes returns BYTES as a STRING, each byte that is not part of
// a valid UTF-8 sequence replaced with U+FFFD.
func encSafeConvertBytes(a []types.Value, _ *types.Type) (types.Value, error) {
	s := a[0].Bytes()
	if utf8.Valid(s) {
		return types.StringBytesValue(s), nil
	}
	out := make([]byte, 0, len(s)+8)
	for len(s) > 0 {
		r, w := utf8.DecodeRune(s)
		if r == utf8.RuneError && w == 1 {
			out = utf8.AppendRune(out, utf8.RuneError)
		} else {
			out = append(out, s[:w]...)
		}
		s = s[w:]
	}
	return types.StringBytesValue(out), nil
}

// encNormForms maps NORMALIZE's modes to their forms.
var encNormForms = map[string]norm.Form{"NFC": norm.NFC, "NFKC": norm.NFKC, "NFD": norm.NFD, "NFKD": norm.NFKD}

// encNormalizer returns NORMALIZE or NORMALIZE_AND_CASEFOLD: the value in a
// normalization form (default NFC), then case folded if fold is set.
func encNormalizer(fold bool) func([]types.Value, *types.Type) (types.Value, error) {
	return func(a []types.Value, _ *types.Type) (types.Value, error) {
		form := norm.NFC
		if len(a) > 1 {
			f, ok := encNormForms[strings.ToUpper(string(a[1].Bytes()))]
			if !ok {
				return types.Value{}, strError("NORMALIZE: invalid normalization mode %q", a[1].Bytes())
			}
			form = f
		}
		s := a[0].Bytes()
		switch {
		case strIsASCII(s) && fold:
			return types.StringBytesValue(strMapASCII(s, strLowerASCII)), nil
		case strIsASCII(s):
			return a[0], nil
		}
		s = form.Bytes(s)
		if fold {
			s = cases.Fold().Bytes(s)
		}
		return types.StringBytesValue(s), nil
	}
}

// encNFKCCasefold returns s in NFKC, case folded: the form CONTAINS_SUBSTR
// compares.
func encNFKCCasefold(s []byte) []byte {
	if strIsASCII(s) {
		return strMapASCII(s, strLowerASCII)
	}
	return norm.NFKC.Bytes(cases.Fold().Bytes(norm.NFKC.Bytes(s)))
}
