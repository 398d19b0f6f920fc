package rowkeyschema

import (
	"encoding/binary"
	"math/bits"
)

// The OrderedCode signed varint (spec §5.3; github.com/google/orderedcode
// appendInt64). A value v ≥ 0 (x itself, or ^x for negative x) takes the
// smallest n in 1..10 with v < 2^(7n-1) bytes: n one bits, a zero bit, then
// v big-endian in the remaining 7n-1 bits; negative x then has every byte
// inverted. Byte order of encodings is numeric order.

// appendOCInt64 appends the OrderedCode encoding of x.
func appendOCInt64(dst []byte, x int64) []byte {
	if x >= -64 && x < 64 {
		return append(dst, byte(x)^0x80)
	}
	var inv byte
	v := uint64(x)
	if x < 0 {
		v, inv = ^v, 0xff
	}
	n := ocLen(v)
	var buf [10]byte
	binary.BigEndian.PutUint64(buf[2:], v)
	enc := buf[10-n:]
	setHeader(enc, n)
	for _, b := range enc {
		dst = append(dst, b^inv)
	}
	return dst
}

// ocLen is the encoded length of v ≥ 0 (v < 2^63).
func ocLen(v uint64) int {
	need := 64 - bits.LeadingZeros64(v) // value bits
	for n := 1; n < 10; n++ {
		if need <= 7*n-1 {
			return n
		}
	}
	return 10
}

// setHeader sets the n leading one bits (the zero bit after them is
// already zero because v fits).
func setHeader(enc []byte, n int) {
	for i := 0; i < n; i++ {
		enc[i/8] |= 0x80 >> (i % 8)
	}
}

// decodeOCInt64 decodes one OrderedCode integer at the start of b and
// returns it with its length. It accepts only the canonical (shortest)
// form, so re-encoding gives the same bytes.
func decodeOCInt64(b []byte) (int64, int, bool) {
	if len(b) == 0 {
		return 0, 0, false
	}
	var inv byte
	if b[0]&0x80 == 0 {
		inv = 0xff
	}
	b0 := b[0] ^ inv
	n := bits.LeadingZeros8(^b0)
	if n == 8 {
		if len(b) < 2 {
			return 0, 0, false
		}
		n += bits.LeadingZeros8(^(b[1] ^ inv))
		if n > 10 {
			return 0, 0, false
		}
	}
	if len(b) < n {
		return 0, 0, false
	}
	var buf [10]byte
	for i := 0; i < n; i++ {
		buf[10-n+i] = b[i] ^ inv
	}
	// Clear the header bits.
	for i := 0; i < n; i++ {
		buf[10-n+i/8] &^= 0x80 >> (i % 8)
	}
	if buf[0] != 0 || buf[1] != 0 {
		return 0, 0, false // more than 63 value bits
	}
	v := binary.BigEndian.Uint64(buf[2:])
	if v>>63 != 0 || ocLen(v) != n {
		return 0, 0, false
	}
	x := int64(v)
	if inv != 0 {
		x = ^x
	}
	return x, n, true
}
