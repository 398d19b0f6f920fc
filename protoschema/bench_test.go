package protoschema

import (
	"fmt"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/shale-db/shale/sql/types"
)

// benchAlbum is a ~200-byte Album with the nested field artist.name near
// the front and most of the bytes after it.
const benchAlbum = `{"title":"A Love Supreme (Deluxe Edition)","artist":{"name":"John Coltrane Quartet"},
	"releaseYear":1965,"tags":["jazz","modal","spiritual","classic"],"genre":"JAZZ",
	"ratings":{"allmusic":5,"pitchfork":10,"rollingstone":5},"producer":{"name":"Bob Thiele"},
	"trackLengths":[1947,1069,1063,1063],"big":"123456789","delta":-3,"score":4.75,"ratio":0.5,
	"live":false,"guests":[{"name":"McCoy Tyner"},{"name":"Jimmy Garrison"}]}`

// BenchmarkExtractNested compares extracting one nested field
// (artist.name) from a ~200-byte message with a full dynamicpb unmarshal
// of the same bytes (issue 7 target: ≥ 20× faster, 0 allocs):
//
//	go test ./protoschema -run XXX -bench ExtractNested -benchmem
func BenchmarkExtractNested(b *testing.B) {
	bu := testBundle(b)
	album, err := bu.Message("package_name.Album")
	if err != nil {
		b.Fatal(err)
	}
	wire := encode(b, album, benchAlbum)
	b.Logf("message: %d bytes", len(wire))
	p := path(b, album, "artist.name")
	b.Run("extract", func(b *testing.B) {
		b.SetBytes(int64(len(wire)))
		b.ReportAllocs()
		for b.Loop() {
			v, err := ExtractPath(wire, p)
			if err != nil || v.Str() != "John Coltrane Quartet" {
				b.Fatalf("got %v, %v", v, err)
			}
		}
	})
	b.Run("dynamicpb", func(b *testing.B) {
		b.SetBytes(int64(len(wire)))
		b.ReportAllocs()
		for b.Loop() {
			m := dynamicpb.NewMessage(album.d)
			if err := proto.Unmarshal(wire, m); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkExtractPaths compares decoding three fields of a ~200-byte
// message (two scalars and a nested one) with an Extractor, in one pass,
// against ExtractPath once per field:
//
//	go test ./protoschema -run XXX -bench ExtractPaths -benchmem
func BenchmarkExtractPaths(b *testing.B) {
	bu := testBundle(b)
	album, err := bu.Message("package_name.Album")
	if err != nil {
		b.Fatal(err)
	}
	wire := encode(b, album, benchAlbum)
	for _, set := range [][]string{{"score"}, {"score", "release_year", "artist.name"}} {
		var paths []Path
		for _, s := range set {
			paths = append(paths, path(b, album, s))
		}
		out := make([]types.Value, len(paths))
		b.Run(fmt.Sprintf("%d/per-path", len(paths)), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for i, p := range paths {
					v, err := ExtractPath(wire, p)
					if err != nil {
						b.Fatal(err)
					}
					out[i] = v
				}
			}
		})
		x, err := NewExtractor(paths)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("%d/extractor", len(paths)), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := x.Extract(wire, out); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
