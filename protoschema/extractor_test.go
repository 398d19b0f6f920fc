package protoschema

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/shale-db/shale/sql/types"
)

// sameValue reports whether a and b are the same value: same type
// (pointer), NULL-ness, bits and elements.
func sameValue(a, b types.Value) bool {
	if a.Type() != b.Type() || a.IsNull() != b.IsNull() || a.Int64() != b.Int64() ||
		math.Float64bits(a.Float64()) != math.Float64bits(b.Float64()) ||
		!bytes.Equal(a.Bytes(), b.Bytes()) || (a.Bytes() == nil) != (b.Bytes() == nil) ||
		len(a.Elems()) != len(b.Elems()) || (a.Elems() == nil) != (b.Elems() == nil) {
		return false
	}
	for i := range a.Elems() {
		if !sameValue(a.Elems()[i], b.Elems()[i]) {
			return false
		}
	}
	return true
}

// checkExtractPaths compares ExtractPaths with ExtractPath for each path:
// without an error every value is the same and no path fails alone; an
// error means at least one path fails alone.
func checkExtractPaths(t *testing.T, wire []byte, paths []Path) []types.Value {
	t.Helper()
	out := make([]types.Value, len(paths))
	err := ExtractPaths(wire, paths, out)
	failed := -1
	for i, p := range paths {
		want, werr := ExtractPath(wire, p)
		if werr != nil {
			if err == nil {
				t.Fatalf("%x: path %s fails alone (%v), ExtractPaths %s does not", wire, p, werr, pathList(paths))
			}
			failed = i
			continue
		}
		if err == nil && !sameValue(out[i], want) {
			t.Fatalf("%x: paths %s: %s = %v, ExtractPath: %v", wire, pathList(paths), p, out[i], want)
		}
	}
	if err != nil && failed < 0 {
		t.Fatalf("%x: ExtractPaths %s: %v, but every path decodes alone", wire, pathList(paths), err)
	}
	if err != nil {
		return nil
	}
	return out
}

func pathList(ps []Path) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p[0].parent.FullName() + ":" + p.String()
	}
	return "{" + strings.Join(s, ", ") + "}"
}

// allPaths lists every path of m up to depth fields deep, through
// singular and repeated message fields alike.
func allPaths(m *Message, depth int) []Path {
	var out []Path
	var walk func(prefix Path, m *Message)
	walk = func(prefix Path, m *Message) {
		for _, f := range m.Fields() {
			p := append(append(Path(nil), prefix...), f)
			out = append(out, p)
			if sub := f.Message(); sub != nil && len(p) < depth {
				walk(p, sub)
			}
		}
	}
	walk(nil, m)
	return out
}

// FuzzExtractPaths: for random bytes and random sets of paths (of one
// message type, or mixed), ExtractPaths is ExtractPath once per path.
func FuzzExtractPaths(f *testing.F) {
	b := testBundle(f)
	var pools [][]Path
	var all []Path
	for _, n := range b.MessageNames() {
		m, _ := b.Message(n)
		ps := allPaths(m, 4)
		pools = append(pools, ps)
		all = append(all, ps...)
	}
	pools = append(pools, all)
	album, _ := b.Message("package_name.Album")
	legacy, _ := b.Message("legacy.Legacy")
	f.Add(encode(f, album, `{"title":"Go","artist":{"name":"Dana A."},"releaseYear":2024,"tags":["a","b"],"genre":"JAZZ",
		"ratings":{"x":3,"y":4},"producer":{"name":"P"},"trackLengths":[10,20,30],"big":"5","delta":-3,
		"score":1.5,"ratio":0.25,"live":true,"opt":4,"guests":[{"name":"g1"},{"name":"g2"}]}`), uint64(0))
	f.Add(encode(f, legacy, `{"count":1,"label":"l","level":"LOW","item":{"id":9},"nums":[-1,2],
		"child":{"child":{"label":"deep","item":{"id":3}}}}`), uint64(1))
	f.Add(append(encode(f, album, `{"artist":{"name":"A"},"vinylSku":"V"}`),
		encode(f, album, `{"artist":{"name":"B"},"producer":{"name":"Q"},"trackLengths":[1]}`)...), uint64(2))
	f.Add([]byte{0x12, 0x03, 0x0a, 0x05, 'D'}, uint64(3))
	f.Add([]byte{0x23, 0x28, 0x01, 0x24}, uint64(4))
	f.Add([]byte{0x3a, 0x02, 0x08, 0x01, 0x3a, 0x02, 0x08, 0x02}, uint64(5))
	f.Fuzz(func(t *testing.T, wire []byte, sel uint64) {
		r := rand.New(rand.NewPCG(sel, sel>>32))
		for _, pool := range pools {
			for range 4 {
				paths := make([]Path, 1+r.IntN(8))
				for i := range paths {
					paths[i] = pool[r.IntN(len(pool))]
				}
				checkExtractPaths(t, wire, paths)
			}
			checkExtractPaths(t, wire, pool)
		}
	})
}

// wireOf builds wire bytes from (number, type, value) triples: a value
// is a uint64 (varint, fixed32, fixed64) or a []byte/string (bytes, or
// the body of a group).
func wireOf(fields ...any) []byte {
	var w []byte
	for i := 0; i < len(fields); i += 3 {
		n, typ := protowire.Number(fields[i].(int)), fields[i+1].(protowire.Type)
		w = protowire.AppendTag(w, n, typ)
		switch v := fields[i+2].(type) {
		case uint64:
			switch typ {
			case protowire.VarintType:
				w = protowire.AppendVarint(w, v)
			case protowire.Fixed32Type:
				w = protowire.AppendFixed32(w, uint32(v))
			case protowire.Fixed64Type:
				w = protowire.AppendFixed64(w, v)
			}
		case string:
			w = protowire.AppendString(w, v)
		case []byte:
			if typ == protowire.StartGroupType {
				w = append(w, v...)
				w = protowire.AppendTag(w, n, protowire.EndGroupType)
			} else {
				w = protowire.AppendBytes(w, v)
			}
		}
	}
	return w
}

// TestExtractPaths: merging, oneofs, maps and repeated fields decoded in
// one pass, against fixed values and ExtractPath.
func TestExtractPaths(t *testing.T) {
	b := testBundle(t)
	album, _ := b.Message("package_name.Album")
	legacy, _ := b.Message("legacy.Legacy")
	const (
		varint = protowire.VarintType
		blob   = protowire.BytesType
		fixed  = protowire.Fixed32Type
		group  = protowire.StartGroupType
	)
	for _, tc := range []struct {
		name  string
		msg   *Message
		wire  []byte
		paths string
		want  string
	}{
		{"nested message repeated: occurrences merge", album,
			wireOf(2, blob, wireOf(1, blob, "A"), 3, varint, uint64(7), 2, blob, wireOf(1, blob, "B"), 2, blob, []byte{}),
			"artist.name,release_year,artist,title",
			`"B" | 7 | b"\n\x01A\n\x01B" | ""`},
		{"merge two levels deep", legacy,
			wireOf(7, blob, wireOf(7, blob, wireOf(2, blob, "x")), 1, varint, uint64(4),
				7, blob, wireOf(7, blob, wireOf(1, varint, uint64(3)), 4, group, wireOf(5, varint, uint64(8)))),
			"child.child.label,child.child.count,count,child.item.id,child.count,child.child.item.id,child",
			`"x" | 3 | 4 | 8 | 7 | NULL | b":\x03\x12\x01x:\x02\b\x03#(\b$"`},
		{"group occurrences merge", legacy,
			wireOf(4, group, wireOf(5, varint, uint64(1)), 4, group, wireOf(), 4, group, wireOf(5, varint, uint64(2))),
			"item.id,item,label", `2 | b"(\x01(\x02" | "none"`},
		{"oneof: the last member wins", album,
			wireOf(8, blob, wireOf(1, blob, "P"), 7, blob, "V", 8, blob, wireOf(1, blob, "Q"), 8, blob, wireOf()),
			"vinyl_sku,producer.name,producer", `"" | "Q" | b"\n\x01Q"`},
		{"oneof: a scalar member clears the message", album,
			wireOf(8, blob, wireOf(1, blob, "P"), 7, blob, "V"),
			"producer.name,vinyl_sku,producer", `NULL | "V" | NULL`},
		{"oneof: another wire type is unknown, not a member", album,
			wireOf(7, blob, "V", 8, varint, uint64(1)),
			"vinyl_sku,producer.name", `"V" | NULL`},
		{"maps", album,
			wireOf(6, blob, wireOf(1, blob, "x", 2, varint, uint64(3)), 3, varint, uint64(1),
				6, blob, wireOf(2, varint, uint64(4)), 6, blob, wireOf(1, blob, "x", 1, blob, "y", 2, varint, uint64(5))),
			"ratings,release_year,ratings", `[("x", 3), ("", 4), ("y", 5)] | 1 | [("x", 3), ("", 4), ("y", 5)]`},
		{"packed and unpacked repeated", album,
			wireOf(9, varint, uint64(1), 9, blob, string(protowire.AppendVarint(protowire.AppendVarint(nil, 2), 3)),
				4, blob, "t", 9, varint, uint64(4), 4, blob, "u"),
			"track_lengths,tags", `[1, 2, 3, 4] | ["t", "u"]`},
		{"unpacked and packed sfixed32", legacy,
			wireOf(6, fixed, uint64(math.MaxUint32), 6, blob, string(protowire.AppendFixed32(protowire.AppendFixed32(nil, 2), 3)), 6, fixed, uint64(4)),
			"nums,count", `[-1, 2, 3, 4] | 7`},
		{"repeated message and a path through it", album,
			wireOf(16, blob, wireOf(1, blob, "g1"), 16, blob, wireOf(1, blob, "g2")),
			"guests,guests.name", `[b"\n\x02g1", b"\n\x02g2"] | "g2"`},
		{"scalars: the last occurrence wins; another wire type is unknown", album,
			wireOf(12, protowire.Fixed64Type, math.Float64bits(1), 3, varint, uint64(5), 12, protowire.Fixed64Type, math.Float64bits(2),
				1, varint, uint64(1), 14, varint, uint64(1), 14, varint, uint64(0)),
			"score,release_year,title,live,score", `2 | 5 | "" | FALSE | 2`},
		{"proto2 defaults and absent messages", legacy, nil,
			"count,label,level,item.id,child.child.label,nums", `7 | "none" | 2 | NULL | NULL | []`},
		{"an error in a field no path reads", album, wireOf(1, blob, "\xff", 3, varint, uint64(2)),
			"release_year,artist.name", `2 | NULL`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var ps []Path
			for _, p := range strings.Split(tc.paths, ",") {
				ps = append(ps, path(t, tc.msg, p))
			}
			out := checkExtractPaths(t, tc.wire, ps)
			if out == nil {
				t.Fatal("error")
			}
			var got []string
			for _, v := range out {
				got = append(got, v.String())
			}
			if g := strings.Join(got, " | "); g != tc.want {
				t.Errorf("got  %s\nwant %s", g, tc.want)
			}
		})
	}
}

// TestExtractPathsErrors: an error reading any path is an error; paths of
// different messages mix.
func TestExtractPathsErrors(t *testing.T) {
	b := testBundle(t)
	album, _ := b.Message("package_name.Album")
	legacy, _ := b.Message("legacy.Legacy")
	for _, tc := range []struct {
		name  string
		wire  []byte
		paths []Path
	}{
		{"invalid utf8 in a leaf", wireOf(1, protowire.BytesType, "\xff"), []Path{path(t, album, "release_year"), path(t, album, "title")}},
		{"truncated nested", []byte{0x12, 0x03, 0x0a, 0x05, 'D'}, []Path{path(t, album, "title"), path(t, album, "artist.name")}},
		{"bad tag", []byte{0x00}, []Path{path(t, album, "title")}},
		{"uint64 overflow", wireOf(10, protowire.VarintType, uint64(1<<63)), []Path{path(t, album, "big"), path(t, album, "title")}},
	} {
		out := make([]types.Value, len(tc.paths))
		if err := ExtractPaths(tc.wire, tc.paths, out); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	// Field 2 is Album.artist and Legacy.label: each path reads its own.
	wire := wireOf(2, protowire.BytesType, "\x0a\x01A", 1, protowire.VarintType, uint64(3))
	out := make([]types.Value, 3)
	if err := ExtractPaths(wire, []Path{path(t, album, "artist.name"), path(t, legacy, "label"), path(t, legacy, "count")}, out); err != nil {
		t.Fatal(err)
	}
	if g := out[0].String() + " " + out[1].String() + " " + out[2].String(); g != `"A" "\n\x01A" 3` {
		t.Errorf("mixed: %s", g)
	}
	if _, err := NewExtractor([]Path{nil}); err == nil {
		t.Error("empty path: no error")
	}
	if err := ExtractPaths(wire, nil, nil); err != nil {
		t.Errorf("no paths: %v", err)
	}
}

// TestExtractorAllocs: scalars and a nested field of one-occurrence
// messages decode without allocating.
func TestExtractorAllocs(t *testing.T) {
	b := testBundle(t)
	album, _ := b.Message("package_name.Album")
	wire := encode(t, album, benchAlbum)
	x, err := NewExtractor([]Path{path(t, album, "score"), path(t, album, "artist.name"), path(t, album, "release_year"),
		path(t, album, "producer.name"), path(t, album, "genre"), path(t, album, "vinyl_sku"), path(t, album, "artist")})
	if err != nil {
		t.Fatal(err)
	}
	out := make([]types.Value, x.Len())
	if n := testing.AllocsPerRun(100, func() {
		if err := x.Extract(wire, out); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("%v allocs per run", n)
	}
	if out[1].Str() != "John Coltrane Quartet" || out[0].Float64() != 4.75 {
		t.Errorf("got %v", out)
	}
}
