package protoschema

import (
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// FuzzConsumeField checks consumeField's fast path, and shortField, against
// protowire's general tag and value parsing.
func FuzzConsumeField(f *testing.F) {
	for _, s := range []string{"\x08\x01", "\x09\x00\x00\x00\x00\x00\x00\x00\x00", "\x12\x03abc", "\x12\x05ab",
		"\x0d\x01\x02\x03\x04", "\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01", "\x00\x01", "\x0b\x0c", "\x80\x01\x00"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) == 0 {
			return
		}
		n, typ, tl, vl := consumeField(b)
		if svl := shortField(b); svl > 0 && (tl != 1 || vl != svl) {
			t.Fatalf("%x: shortField %d, consumeField tag %d value %d", b, svl, tl, vl)
		}
		wn, wtyp, wtl := protowire.ConsumeTag(b)
		if wtl < 0 {
			if tl >= 0 {
				t.Fatalf("%x: tag accepted (%d), protowire says %d", b, tl, wtl)
			}
			return
		}
		wvl := protowire.ConsumeFieldValue(wn, wtyp, b[wtl:])
		if n != wn || typ != wtyp || tl != wtl || (vl < 0) != (wvl < 0) || vl >= 0 && vl != wvl {
			t.Fatalf("%x: got (%d %d %d %d), protowire (%d %d %d %d)", b, n, typ, tl, vl, wn, wtyp, wtl, wvl)
		}
	})
}
