package rowkeyschema_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/shale-db/shale/rowkeyschema"
	"github.com/shale-db/shale/sql/types"
)

// fuzzSchemas cover every struct and field encoding.
var fuzzSchemas = func() []*rowkeyschema.Schema {
	var out []*rowkeyschema.Schema
	for _, text := range []string{
		`singleton (b BYTES raw)`,
		`singleton (n INT64 ordered_code_bytes)`,
		`singleton (n INT64 big_endian_bytes)`,
		`singleton (ts TIMESTAMP unix_micros_int64(ordered_code_bytes))`,
		`delimited_bytes("#") (s STRING utf8_bytes, n INT64 ordered_code_bytes, b BYTES raw)`,
		`delimited_bytes("::") (a BYTES raw, b BYTES raw)`,
		`delimited_bytes("#") (b BYTES raw, n INT64 big_endian_bytes, s STRING utf8_bytes)`,
		`ordered_code_bytes (a BYTES raw, n INT64 ordered_code_bytes, b BYTES raw)`,
		`ordered_code_bytes (s STRING utf8_bytes, n INT64 big_endian_bytes, ts TIMESTAMP unix_micros_int64(ordered_code_bytes), b BYTES raw)`,
		`ordered_code_bytes (a BYTES raw, b BYTES raw)`,
	} {
		s, err := rowkeyschema.Parse(text)
		if err != nil {
			panic(err)
		}
		if err := s.Validate(); err != nil {
			panic(err)
		}
		out = append(out, s)
	}
	return out
}()

// tuple builds one value per field from the fuzz inputs.
func tuple(s *rowkeyschema.Schema, a, b []byte, x, y int64) []types.Value {
	vals := make([]types.Value, len(s.Fields))
	bs, is := [][]byte{a, b}, []int64{x, y}
	for i, f := range s.Fields {
		switch f.Type.Kind {
		case types.KindBytes:
			vals[i] = types.BytesValue(bs[i%2])
		case types.KindString:
			vals[i] = types.StringValue(strings.ToValidUTF8(string(bs[i%2]), ""))
		case types.KindInt64:
			vals[i] = types.Int64Value(is[i%2])
		case types.KindTimestamp:
			vals[i] = types.TimestampValue(is[i%2])
		}
	}
	return vals
}

// FuzzRoundTrip: DecodeKey(AppendKey(v)) == v, and byte order of two
// encodings is tuple order wherever the encoding preserves order.
func FuzzRoundTrip(f *testing.F) {
	f.Add(uint8(4), []byte("phone"), []byte("4c410523"), int64(20200501), int64(-1), []byte("tablet"), int64(7))
	f.Add(uint8(7), []byte("a\x00b"), []byte("\xff"), int64(256), int64(-1<<62), []byte(""), int64(0))
	f.Add(uint8(5), []byte("x:"), []byte(":y"), int64(0), int64(0), []byte("x"), int64(1))
	f.Add(uint8(8), []byte(""), []byte(""), int64(-1), int64(1), []byte("\x00"), int64(-1))
	f.Fuzz(func(t *testing.T, which uint8, a, b []byte, x, y int64, a2 []byte, x2 int64) {
		s := fuzzSchemas[int(which)%len(fuzzSchemas)]
		v1, v2 := tuple(s, a, b, x, y), tuple(s, a2, b, x2, y)
		k1, err := s.AppendKey(nil, v1)
		if err != nil {
			if !errors.Is(err, rowkeyschema.ErrUnencodable) {
				t.Fatalf("%s: %v", s, err)
			}
			return
		}
		got, err := s.DecodeKey(nil, k1)
		if err != nil {
			t.Fatalf("%s: %x does not decode: %v", s, k1, err)
		}
		if !equalTuples(got, v1) {
			t.Fatalf("%s: %x decodes to %s, want %s", s, k1, tupleText(got), tupleText(v1))
		}
		k2, err := s.AppendKey(nil, v2)
		if err != nil || !orderPreserved(s, v1, v2) {
			return
		}
		if c, d := cmpTuples(v1, v2), bytes.Compare(k1, k2); c != d {
			t.Fatalf("%s: %s vs %s: tuple order %d, byte order %d (%x vs %x)", s, tupleText(v1), tupleText(v2), c, d, k1, k2)
		}
	})
}

// orderPreserved reports whether the encodings of two tuples must compare
// like the tuples: every field preserves order, or its values stay above
// the delimiter's first byte (delimited BYTES and STRING) or share a sign
// (big-endian integers).
func orderPreserved(s *rowkeyschema.Schema, v1, v2 []types.Value) bool {
	for i, f := range s.Fields {
		if s.OrderPreserving(i) {
			continue
		}
		switch f.Encoding {
		case rowkeyschema.Raw, rowkeyschema.UTF8Bytes:
			if !aboveAll(v1[i].Bytes(), s.Delimiter[0]) || !aboveAll(v2[i].Bytes(), s.Delimiter[0]) {
				return false
			}
		case rowkeyschema.BigEndianBytes:
			if (v1[i].Int64() < 0) != (v2[i].Int64() < 0) {
				return false
			}
		}
	}
	return true
}

func aboveAll(b []byte, d byte) bool {
	for _, c := range b {
		if c <= d {
			return false
		}
	}
	return true
}

// FuzzDecode: arbitrary bytes never panic the decoder, and a key that
// decodes re-encodes to the identical bytes.
func FuzzDecode(f *testing.F) {
	for _, k := range []string{"phone#4c410523#\x81", "a\x00\x01\x00\x00\x00\x01c", "\x00\x00", "\xff\xc0\x7f\xff\xff\xff\xff\xff\xff\xff",
		"x::y", "a\xff\x00\x00\x01\x81", "", "\x00?\x80\x00\x00\x00\x00\x00\x00\x00"} {
		for i := range fuzzSchemas {
			f.Add(uint8(i), []byte(k))
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, key []byte) {
		s := fuzzSchemas[int(which)%len(fuzzSchemas)]
		vals, err := s.DecodeKey(nil, key)
		if err != nil {
			if !errors.Is(err, rowkeyschema.ErrInvalidKey) {
				t.Fatalf("%s: %x: %v", s, key, err)
			}
			return
		}
		again, err := s.AppendKey(nil, vals)
		if err != nil {
			t.Fatalf("%s: %x decodes to %s, which does not encode: %v", s, key, tupleText(vals), err)
		}
		if !bytes.Equal(again, key) {
			t.Fatalf("%s: %x decodes to %s, which encodes to %x", s, key, tupleText(vals), again)
		}
	})
}
