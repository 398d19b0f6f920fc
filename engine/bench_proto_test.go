package engine_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/shale-db/shale/protoschema"
	"github.com/shale-db/shale/storage"
)

// The protobuf benchmarks (issue 7) use a third table, pb, of the same
// number of rows, each with one cell cf:p holding a ~100-byte pkg.Msg, and
// schema bundle b.
const benchBundle = `
file {
  name: "msg.proto"
  package: "pkg"
  syntax: "proto3"
  message_type {
    name: "Inner"
    field { name: "id" number: 1 label: LABEL_OPTIONAL type: TYPE_INT64 json_name: "id" }
    field { name: "label" number: 2 label: LABEL_OPTIONAL type: TYPE_STRING json_name: "label" }
  }
  message_type {
    name: "Msg"
    field { name: "name" number: 1 label: LABEL_OPTIONAL type: TYPE_STRING json_name: "name" }
    field { name: "inner" number: 2 label: LABEL_OPTIONAL type: TYPE_MESSAGE type_name: ".pkg.Inner" json_name: "inner" }
    field { name: "count" number: 3 label: LABEL_OPTIONAL type: TYPE_INT64 json_name: "count" }
    field { name: "tags" number: 4 label: LABEL_REPEATED type: TYPE_STRING json_name: "tags" }
    field { name: "score" number: 5 label: LABEL_OPTIONAL type: TYPE_DOUBLE json_name: "score" }
    field { name: "comment" number: 6 label: LABEL_OPTIONAL type: TYPE_STRING json_name: "comment" }
  }
}`

// benchMsg encodes row i's message; its score is i%100, so the average
// over n rows is known.
func benchMsg(i int) []byte {
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = protowire.AppendString(b, fmt.Sprintf("item-%07d", i))
	var in []byte
	in = protowire.AppendTag(in, 1, protowire.VarintType)
	in = protowire.AppendVarint(in, uint64(i))
	in = protowire.AppendTag(in, 2, protowire.BytesType)
	in = protowire.AppendString(in, "inner label")
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	b = protowire.AppendBytes(b, in)
	b = protowire.AppendTag(b, 3, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(i*3))
	for _, t := range []string{"alpha", "beta", "gamma"} {
		b = protowire.AppendTag(b, 4, protowire.BytesType)
		b = protowire.AppendString(b, t)
	}
	b = protowire.AppendTag(b, 5, protowire.Fixed64Type)
	b = protowire.AppendFixed64(b, math.Float64bits(float64(i%100)))
	b = protowire.AppendTag(b, 6, protowire.BytesType)
	b = protowire.AppendString(b, "a comment that pads the message to about one hundred bytes")
	return b
}

// loadProto creates and fills table pb with bundle b.
func loadProto(st *storage.Engine, n int) error {
	ctx := context.Background()
	raw, err := protoschema.DescriptorSetFromText(benchBundle)
	if err != nil {
		return err
	}
	if _, err := st.CreateTable(ctx, testInstance, "pb", storage.TableSpec{Families: []storage.Family{{Name: "cf"}}}); err != nil {
		return err
	}
	if _, err := st.AlterTable(ctx, testInstance, "pb", func(t *storage.Table) error {
		t.Bundles = append(t.Bundles, storage.SchemaBundle{Name: "b", Descriptors: raw, Etag: "1"})
		return nil
	}); err != nil {
		return err
	}
	tgt := storage.Target{Instance: testInstance, Table: "pb"}
	var batch []storage.RowMutations
	for i := 0; i < n; i++ {
		batch = append(batch, storage.RowMutations{Key: []byte(fmt.Sprintf("p%07d", i)), Mutations: []storage.Mutation{{
			Kind: storage.SetCell, Family: "cf", Qualifier: []byte("p"), Timestamp: 1000, Value: benchMsg(i)}}})
		if len(batch) == 1000 || i == n-1 {
			if _, err := st.MutateRows(ctx, tgt, batch); err != nil {
				return err
			}
			batch = batch[:0]
		}
	}
	return nil
}

// BenchmarkProtoField compares AVG over one proto field of every row with
// COUNT(*) over the same table (issue 7 target: avg ≤ 2× count), and
// SUM over three fields of the message:
//
//	go test ./engine -run XXX -bench ProtoField -benchtime 3x
func BenchmarkProtoField(b *testing.B) {
	_, eng, n := benchEngine(b)
	ctx := context.Background()
	var sum float64
	for i := 0; i < n; i++ {
		sum += float64(i % 100)
	}
	want := sum / float64(n)
	b.Logf("message: %d bytes", len(benchMsg(n/2)))
	b.Run("count", func(b *testing.B) {
		stmt, err := eng.Prepare(ctx, testInstance, "SELECT COUNT(*) FROM pb", nil)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if got := scalar(b, stmt, nil); got != int64(n) {
				b.Fatalf("COUNT(*) = %d, want %d", got, n)
			}
		}
	})
	b.Run("avg-field", func(b *testing.B) {
		stmt, err := eng.Prepare(ctx, testInstance, "SELECT AVG(CAST(cf['p'] AS b.pkg.Msg).score) FROM pb", nil)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			if got := firstRow(b, stmt)[0].Float64(); math.Abs(got-want) > 1e-6 {
				b.Fatalf("AVG = %v, want %v", got, want)
			}
		}
	})
	// Three fields of the same message, one of them nested: the scan
	// decodes them in one pass over the cell (protoschema.Extractor).
	var sumCount, sumID int64
	for i := 0; i < n; i++ {
		sumCount += int64(i * 3)
		sumID += int64(i)
	}
	b.Run("sum-3-fields", func(b *testing.B) {
		stmt, err := eng.Prepare(ctx, testInstance, "SELECT SUM(CAST(cf['p'] AS b.pkg.Msg).score), "+
			"SUM(CAST(cf['p'] AS b.pkg.Msg).count), SUM(CAST(cf['p'] AS b.pkg.Msg).inner.id) FROM pb", nil)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			r := firstRow(b, stmt)
			if got := r[0].Float64(); math.Abs(got-sum) > 1e-6 {
				b.Fatalf("SUM(score) = %v, want %v", got, sum)
			}
			if got := r[1].Int64(); got != sumCount {
				b.Fatalf("SUM(count) = %d, want %d", got, sumCount)
			}
			if got := r[2].Int64(); got != sumID {
				b.Fatalf("SUM(inner.id) = %d, want %d", got, sumID)
			}
		}
	})
}
