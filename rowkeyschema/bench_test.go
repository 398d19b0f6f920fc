package rowkeyschema_test

import (
	"testing"

	"github.com/shale-db/shale/rowkeyschema"
	"github.com/shale-db/shale/sql/types"
)

// BenchmarkAppendKey encodes (and BenchmarkDecodeKey decodes) keys into
// reused buffers: neither may allocate.
func BenchmarkAppendKey(b *testing.B) {
	for _, c := range benchCases() {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			buf := make([]byte, 0, 64)
			for i := 0; i < b.N; i++ {
				var err error
				if buf, err = c.s.AppendKey(buf[:0], c.vals); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkDecodeKey(b *testing.B) {
	for _, c := range benchCases() {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			key, err := c.s.AppendKey(nil, c.vals)
			if err != nil {
				b.Fatal(err)
			}
			out := make([]types.Value, 0, len(c.vals))
			for i := 0; i < b.N; i++ {
				if out, err = c.s.DecodeKey(out, key); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

type benchCase struct {
	name string
	s    *rowkeyschema.Schema
	vals []types.Value
}

func benchCases() []benchCase {
	must := func(text string) *rowkeyschema.Schema {
		s, err := rowkeyschema.Parse(text)
		if err != nil {
			panic(err)
		}
		return s
	}
	return []benchCase{
		{"int64", must(`singleton (n INT64 ordered_code_bytes)`), []types.Value{types.Int64Value(1245427)}},
		{"string", must(`singleton (s STRING utf8_bytes)`), []types.Value{types.StringValue("phone#4c410523")}},
		{"composite", must(`delimited_bytes("#") (device_type STRING utf8_bytes, device_id STRING utf8_bytes, ts TIMESTAMP unix_micros_int64(big_endian_bytes))`),
			[]types.Value{types.StringValue("phone"), types.StringValue("4c410523"), types.TimestampValue(1588291200000000)}},
		{"composite-ordered", must(`ordered_code_bytes (device_type STRING utf8_bytes, device_id STRING utf8_bytes, ts TIMESTAMP unix_micros_int64(ordered_code_bytes))`),
			[]types.Value{types.StringValue("phone"), types.StringValue("4c410523"), types.TimestampValue(1588291200000000)}},
	}
}
