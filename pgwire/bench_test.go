package pgwire

import (
	"io"
	"testing"

	"github.com/shale-db/shale/sql/types"
)

// BenchmarkDataRowEncode encodes rows of an int, a string and a bytes
// map into the reused write buffer (text and binary).
func BenchmarkDataRowEncode(b *testing.B) {
	m := types.MapOf(types.Bytes, types.Bytes)
	row := []types.Value{types.Int64Value(123456789), types.StringValue("phone#4c410523#20190501"),
		types.MapValue(m, []types.Value{types.BytesValue([]byte("os_build")), types.BytesValue([]byte("PQ2A.190405.003"))})}
	cols := []column{{oid: oidInt8}, {oid: oidText}, {oid: oidJSONB}}
	for _, f := range []int16{formatText, formatBinary} {
		b.Run(map[int16]string{0: "text", 1: "binary"}[f], func(b *testing.B) {
			c := &conn{enc: newEncoder(), w: msgWriter{w: io.Discard}}
			fmts := []int16{f, f, f}
			b.ReportAllocs()
			for b.Loop() {
				if err := c.sendRow(row, cols, fmts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
