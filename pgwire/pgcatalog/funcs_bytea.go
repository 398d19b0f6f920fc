package pgcatalog

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Functions between bytea and text, for PostgreSQL-dialect queries over
// Shale's tables, whose row keys are bytea: encode(_key, 'escape'),
// convert_from(_key, 'UTF8'), and their inverses. Errors are PostgreSQL
// 15's, code and text.

func init() {
	register("encode", &builtin{min: 2, args: []uint32{tBytea, tText}, ret: tText, fn: encodeBytea})
	register("decode", &builtin{min: 2, args: []uint32{tText, tText}, ret: tBytea, fn: decodeBytea})
	register("convert_from", &builtin{min: 2, args: []uint32{tBytea, tName}, ret: tText, fn: convertFrom})
	register("convert_to", &builtin{min: 2, args: []uint32{tText, tName}, ret: tBytea, fn: convertTo})
	register("chr", &builtin{min: 1, args: []uint32{tInt4}, ret: tText, fn: chr})
}

func encodeBytea(_ *evaluator, a []Value, _ []uint32) (Value, error) {
	b := byteaBytes(a[0])
	switch strings.ToLower(a[1].s) {
	case "hex":
		return textV(hex.EncodeToString(b)), nil
	case "base64":
		s := base64.StdEncoding.EncodeToString(b)
		var out strings.Builder
		for len(s) > 76 { // PostgreSQL breaks lines at 76 characters
			out.WriteString(s[:76])
			out.WriteByte('\n')
			s = s[76:]
		}
		out.WriteString(s)
		return textV(out.String()), nil
	case "escape":
		var out strings.Builder
		for _, c := range b {
			switch {
			case c == '\\':
				out.WriteString(`\\`)
			case c == 0 || c >= 0x80:
				fmt.Fprintf(&out, `\%03o`, c)
			default:
				out.WriteByte(c)
			}
		}
		return textV(out.String()), nil
	}
	return null, unknownFormat(a[1].s)
}

func decodeBytea(_ *evaluator, a []Value, _ []uint32) (Value, error) {
	s := a[0].s
	switch strings.ToLower(a[1].s) {
	case "hex":
		b, err := parseByteaHex(s)
		if err != nil {
			return null, err
		}
		return byteaV(b), nil
	case "base64":
		return base64Decode(s)
	case "escape":
		var b []byte
		for i := 0; i < len(s); i++ {
			switch {
			case s[i] != '\\':
				b = append(b, s[i])
			case i+1 < len(s) && s[i+1] == '\\':
				b = append(b, '\\')
				i++
			case i+3 < len(s) && isOctal(s[i+1]) && isOctal(s[i+2]) && isOctal(s[i+3]) && s[i+1] <= '3':
				n, _ := strconv.ParseUint(s[i+1:i+4], 8, 8)
				b = append(b, byte(n))
				i += 3
			default:
				return null, errorf(CodeInvalidText, noPos, "invalid input syntax for type bytea")
			}
		}
		return byteaV(b), nil
	}
	return null, unknownFormat(a[1].s)
}

// base64Decode is decode(s, 'base64'), PostgreSQL's pg_base64_decode:
// white space skipped anywhere, "=" allowed only as the third or fourth
// symbol of a group (and then marking the end: later groups give as many
// bytes as the first padded one), and a partial group at the end an error.
func base64Decode(s string) (Value, error) {
	var out []byte
	var buf uint32
	pos, end := 0, 0
	for i := 0; i < len(s); {
		c := s[i]
		i++
		var b uint32
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			continue
		case c == '=':
			if end == 0 {
				switch pos {
				case 2:
					end = 1
				case 3:
					end = 2
				default:
					return null, errorf(CodeInvalidParameter, noPos, "unexpected \"=\" while decoding base64 sequence")
				}
			}
		default:
			n := strings.IndexByte(base64Symbols, c)
			if n < 0 {
				r, size := utf8.DecodeRuneInString(s[i-1:])
				sym := s[i-1 : i-1+size]
				if r == utf8.RuneError {
					sym = s[i-1 : i]
				}
				return null, errorf(CodeInvalidParameter, noPos, "invalid symbol \"%s\" found while decoding base64 sequence", sym)
			}
			b = uint32(n)
		}
		buf = buf<<6 + b
		pos++
		if pos == 4 {
			out = append(out, byte(buf>>16))
			if end == 0 || end > 1 {
				out = append(out, byte(buf>>8))
			}
			if end == 0 || end > 2 {
				out = append(out, byte(buf))
			}
			buf, pos = 0, 0
		}
	}
	if pos != 0 {
		e := errorf(CodeInvalidParameter, noPos, "invalid base64 end sequence")
		e.Hint = "Input data is missing padding, is truncated, or is otherwise corrupted."
		return null, e
	}
	return byteaV(out), nil
}

const base64Symbols = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

func unknownFormat(name string) error {
	return errorf(CodeInvalidParameter, noPos, "unrecognized encoding: \"%s\"", name)
}

// encodingName is the encoding a name stands for, as pg_char_to_encoding
// reads names (case and punctuation aside): "UTF8", "LATIN1" or
// "SQL_ASCII"; "" for any other.
func encodingName(name string) string {
	clean := strings.Map(func(r rune) rune {
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, name)
	switch clean {
	case "utf8", "unicode":
		return "UTF8"
	case "latin1", "iso88591":
		return "LATIN1"
	case "sqlascii":
		return "SQL_ASCII"
	}
	return ""
}

func convertFrom(_ *evaluator, a []Value, _ []uint32) (Value, error) {
	b := byteaBytes(a[0])
	switch encodingName(a[1].s) {
	case "LATIN1":
		r := make([]rune, len(b))
		for i, c := range b {
			r[i] = rune(c)
		}
		return textV(string(r)), nil
	case "UTF8", "SQL_ASCII":
		if err := checkUTF8(b); err != nil {
			return null, err
		}
		return textV(string(b)), nil
	}
	return null, errorf(CodeInvalidParameter, noPos, "invalid source encoding name \"%s\"", a[1].s)
}

func convertTo(_ *evaluator, a []Value, _ []uint32) (Value, error) {
	s := a[0].s
	switch encodingName(a[1].s) {
	case "LATIN1":
		b := make([]byte, 0, len(s))
		for _, r := range s {
			if r > 0xff {
				seq := []byte(string(r))
				parts := make([]string, len(seq))
				for i, c := range seq {
					parts[i] = fmt.Sprintf("0x%02x", c)
				}
				return null, errorf("22P05", noPos, "character with byte sequence %s in encoding \"UTF8\" has no equivalent in encoding \"LATIN1\"",
					strings.Join(parts, " "))
			}
			b = append(b, byte(r))
		}
		return byteaV(b), nil
	case "UTF8", "SQL_ASCII":
		return byteaV([]byte(s)), nil
	}
	return null, errorf(CodeInvalidParameter, noPos, "invalid destination encoding name \"%s\"", a[1].s)
}

// checkUTF8 fails as PostgreSQL does on the first byte that does not start
// a valid UTF-8 sequence (or a NUL, which text cannot hold).
func checkUTF8(b []byte) error {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 || r == 0 {
			// PostgreSQL shows the bytes of the sequence the first one
			// starts, as far as there are any.
			l := 1
			switch c := b[i]; {
			case c >= 0xf0 && c <= 0xf7:
				l = 4
			case c >= 0xe0:
				l = 3
			case c >= 0xc0:
				l = 2
			}
			parts := make([]string, 0, 4)
			for _, c := range b[i:min(i+l, len(b))] {
				parts = append(parts, fmt.Sprintf("0x%02x", c))
			}
			return errorf("22021", noPos, "invalid byte sequence for encoding \"UTF8\": %s", strings.Join(parts, " "))
		}
		i += n
	}
	return nil
}

func chr(_ *evaluator, a []Value, _ []uint32) (Value, error) {
	n := a[0].i
	switch {
	case n == 0:
		return null, errorf("54000", noPos, "null character not permitted")
	case n < 0:
		return null, errorf(CodeInvalidParameter, noPos, "character number must be positive")
	case n > utf8.MaxRune:
		return null, errorf("54000", noPos, "requested character too large for encoding: %d", n)
	case n >= 0xd800 && n <= 0xdfff:
		return null, errorf("54000", noPos, "requested character not valid for encoding: %d", n)
	}
	return textV(string(rune(n))), nil
}

// get_byte, set_byte, get_bit and set_bit read and write one byte or bit
// of a bytea (bit n is bit n%8, least significant first, of byte n/8).
func init() {
	register("get_byte", &builtin{min: 2, args: []uint32{tBytea, tInt4}, ret: tInt4, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		b := byteaBytes(a[0])
		i, err := byteaIndex(a[1].i, int64(len(b)))
		if err != nil {
			return null, err
		}
		return intV(int64(b[i])), nil
	}})
	register("set_byte", &builtin{min: 3, args: []uint32{tBytea, tInt4, tInt4}, ret: tBytea, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		b := byteaBytes(a[0])
		i, err := byteaIndex(a[1].i, int64(len(b)))
		if err != nil {
			return null, err
		}
		b[i] = byte(a[2].i)
		return byteaV(b), nil
	}})
	register("get_bit", &builtin{min: 2, args: []uint32{tBytea, tInt8}, ret: tInt4, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		b := byteaBytes(a[0])
		n, err := byteaIndex(a[1].i, int64(len(b))*8)
		if err != nil {
			return null, err
		}
		return intV(int64(b[n/8] >> (n % 8) & 1)), nil
	}})
	register("set_bit", &builtin{min: 3, args: []uint32{tBytea, tInt8, tInt4}, ret: tBytea, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		b := byteaBytes(a[0])
		n, err := byteaIndex(a[1].i, int64(len(b))*8)
		if err != nil {
			return null, err
		}
		switch a[2].i {
		case 0:
			b[n/8] &^= 1 << (n % 8)
		case 1:
			b[n/8] |= 1 << (n % 8)
		default:
			return null, errorf(CodeInvalidParameter, noPos, "new bit must be 0 or 1")
		}
		return byteaV(b), nil
	}})
}

// byteaIndex checks a byte or bit index against the count there are.
func byteaIndex(i, n int64) (int64, error) {
	if i < 0 || i >= n {
		return 0, errorf("2202E", noPos, "index %d out of valid range, 0..%d", i, n-1)
	}
	return i, nil
}
