package pgwire

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"

	"github.com/shale-db/shale/sql/types"
)

// appendNumeric appends numeric_send's binary form of a numeric value:
// ndigits, weight, sign and display scale, then the base-10000 digits
// from the most significant, without leading or trailing zero digits.
// The value arrives as its decimal text (the PostgreSQL-dialect catalog's
// numerics) or as a number.
func appendNumeric(dst []byte, v types.Value) ([]byte, error) {
	var text string
	switch v.Kind() {
	case types.KindString:
		text = v.Str()
	case types.KindInt64:
		text = strconv.FormatInt(v.Int64(), 10)
	case types.KindFloat64:
		text = strconv.FormatFloat(v.Float64(), 'f', -1, 64)
	default:
		return nil, fmt.Errorf("pgwire: no binary encoding of %s as numeric", v.Type())
	}
	be := binary.BigEndian
	switch text {
	case "NaN":
		return be.AppendUint16(be.AppendUint16(be.AppendUint16(be.AppendUint16(dst, 0), 0), 0xC000), 0), nil
	case "Infinity", "+Infinity":
		return be.AppendUint16(be.AppendUint16(be.AppendUint16(be.AppendUint16(dst, 0), 0), 0xD000), 0), nil
	case "-Infinity":
		return be.AppendUint16(be.AppendUint16(be.AppendUint16(be.AppendUint16(dst, 0), 0), 0xF000), 0), nil
	}
	sign := uint16(0)
	if rest, ok := strings.CutPrefix(text, "-"); ok {
		sign, text = 0x4000, rest
	}
	intPart, frac, _ := strings.Cut(text, ".")
	if intPart == "" && frac == "" || strings.Trim(intPart+frac, "0123456789") != "" {
		return nil, fmt.Errorf("pgwire: %q is not a numeric", v.Str())
	}
	// Align both parts to whole base-10000 digits around the point.
	intPart = strings.Repeat("0", (4-len(intPart)%4)%4) + intPart
	dscale := len(frac)
	frac += strings.Repeat("0", (4-len(frac)%4)%4)
	all := intPart + frac
	weight := len(intPart)/4 - 1
	digits := make([]uint16, 0, len(all)/4)
	for i := 0; i < len(all); i += 4 {
		d, _ := strconv.Atoi(all[i : i+4])
		digits = append(digits, uint16(d))
	}
	for len(digits) > 0 && digits[0] == 0 {
		digits, weight = digits[1:], weight-1
	}
	for len(digits) > 0 && digits[len(digits)-1] == 0 {
		digits = digits[:len(digits)-1]
	}
	if len(digits) == 0 {
		weight, sign = 0, 0
	}
	dst = be.AppendUint16(dst, uint16(len(digits)))
	dst = be.AppendUint16(dst, uint16(int16(weight)))
	dst = be.AppendUint16(dst, sign)
	dst = be.AppendUint16(dst, uint16(dscale))
	for _, d := range digits {
		dst = be.AppendUint16(dst, d)
	}
	return dst, nil
}
