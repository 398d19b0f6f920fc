package protoschema

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/dynamicpb"
)

// testBundle loads testdata/music.textproto as bundle "b".
func testBundle(t testing.TB) *Bundle {
	t.Helper()
	text, err := os.ReadFile("testdata/music.textproto")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := DescriptorSetFromText(string(text))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Load("b", raw)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// encode serializes a message given as protojson with dynamicpb (the
// oracle; the code under test never uses it).
func encode(t testing.TB, m *Message, js string) []byte {
	t.Helper()
	dm := dynamicpb.NewMessage(m.d)
	if err := protojson.Unmarshal([]byte(js), dm); err != nil {
		t.Fatal(err)
	}
	out, err := proto.MarshalOptions{Deterministic: true}.Marshal(dm)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func path(t testing.TB, m *Message, dotted string) Path {
	t.Helper()
	var p Path
	for _, name := range strings.Split(dotted, ".") {
		if m == nil {
			t.Fatalf("%s: not a message", dotted)
		}
		f, err := m.Field(name)
		if err != nil {
			t.Fatal(err)
		}
		p = append(p, f)
		m = f.Message()
	}
	return p
}

func TestExtract(t *testing.T) {
	b := testBundle(t)
	album, err := b.Message("package_name.Album")
	if err != nil {
		t.Fatal(err)
	}
	legacy, err := b.Message("legacy.Legacy")
	if err != nil {
		t.Fatal(err)
	}
	full := `{"title":"Go","artist":{"name":"Dana A."},"releaseYear":2024,"tags":["a","b"],"genre":"JAZZ",
		"ratings":{"x":3},"producer":{"name":"P"},"trackLengths":[10,20,30],"big":"5","delta":-3,
		"score":1.5,"ratio":0.25,"live":true,"guests":[{"name":"g1"},{"name":"g2"}]}`
	for _, tc := range []struct {
		msg   *Message
		js    string
		paths string // comma-separated
		want  string // values, " | "-separated
	}{
		// spec §6.4
		{album, `{"title":"Go","artist":{"name":"Dana A."},"releaseYear":2024}`, "title,artist.name,release_year",
			`"Go" | "Dana A." | 2024`},
		{album, full, "tags,genre,ratings,track_lengths,big,delta,score,ratio,live",
			`["a", "b"] | 2 | [("x", 3)] | [10, 20, 30] | 5 | -3 | 1.5 | 0.25 | TRUE`},
		{album, full, "vinyl_sku,producer.name,guests,opt", `"" | "P" | [b"\n\x02g1", b"\n\x02g2"] | 0`},
		// proto3 defaults; absent message is NULL and so is a path through it
		{album, `{}`, "title,release_year,artist,artist.name,tags,genre,live,opt",
			`"" | 0 | NULL | NULL | [] | 0 | FALSE | 0`},
		{album, `{"vinylSku":"V1"}`, "vinyl_sku,producer,producer.name", `"V1" | NULL | NULL`},
		// proto2 declared defaults; groups; packed=false repeated sfixed32
		{legacy, `{}`, "count,label,level,item,item.id", `7 | "none" | 2 | NULL | NULL`},
		{legacy, `{"count":1,"item":{"id":9},"nums":[-1,2],"child":{"child":{"label":"deep"}}}`,
			"count,item.id,nums,child.child.label,child.count", `1 | 9 | [-1, 2] | "deep" | 7`},
	} {
		wire := encode(t, tc.msg, tc.js)
		var ps []Path
		for _, p := range strings.Split(tc.paths, ",") {
			ps = append(ps, path(t, tc.msg, p))
		}
		vs, err := Extract(tc.msg, wire, ps)
		if err != nil {
			t.Errorf("%s %s: %v", tc.js, tc.paths, err)
			continue
		}
		var got []string
		for _, v := range vs {
			got = append(got, v.String())
		}
		if g := strings.Join(got, " | "); g != tc.want {
			t.Errorf("%s %s:\n got %s\nwant %s", tc.js, tc.paths, g, tc.want)
		}
		if err := Validate(tc.msg, wire); err != nil {
			t.Errorf("Validate(%s): %v", tc.js, err)
		}
	}
}

// TestMerge: repeated occurrences of a singular field merge as protobuf
// defines: the last scalar wins, messages concatenate, a later oneof
// member clears an earlier one, and a field of the wrong wire type is
// unknown.
func TestMerge(t *testing.T) {
	b := testBundle(t)
	album, _ := b.Message("package_name.Album")
	var w []byte
	w = protowire.AppendTag(w, 3, protowire.VarintType)
	w = protowire.AppendVarint(w, 1)
	w = protowire.AppendTag(w, 3, protowire.VarintType)
	w = protowire.AppendVarint(w, 2)
	w = protowire.AppendTag(w, 2, protowire.BytesType)
	w = protowire.AppendBytes(w, []byte("\x0a\x01A"))
	w = protowire.AppendTag(w, 2, protowire.BytesType)
	w = protowire.AppendBytes(w, []byte("\x0a\x01B"))
	w = protowire.AppendTag(w, 8, protowire.BytesType) // producer, then vinyl_sku clears it
	w = protowire.AppendBytes(w, []byte("\x0a\x01P"))
	w = protowire.AppendTag(w, 7, protowire.BytesType)
	w = protowire.AppendString(w, "V")
	w = protowire.AppendTag(w, 1, protowire.VarintType) // title with the wrong wire type
	w = protowire.AppendVarint(w, 5)
	vs, err := Extract(album, w, []Path{path(t, album, "release_year"), path(t, album, "artist.name"),
		path(t, album, "producer"), path(t, album, "vinyl_sku"), path(t, album, "title")})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range vs {
		got = append(got, v.String())
	}
	if g, want := strings.Join(got, " | "), `2 | "B" | NULL | "V" | ""`; g != want {
		t.Fatalf("got %s want %s", g, want)
	}
	// Message-typed, merged and validated as a whole.
	if err := Validate(album, w); err != nil {
		t.Fatal(err)
	}
}

func TestMalformed(t *testing.T) {
	b := testBundle(t)
	album, _ := b.Message("package_name.Album")
	good := encode(t, album, `{"title":"Go","artist":{"name":"Dana A."},"releaseYear":2024}`)
	for _, tc := range []struct {
		name string
		wire []byte
		path string
	}{
		{"truncated", good[:len(good)-1], "release_year"},
		{"bad length", []byte{0x0a, 0x7f, 'G'}, "title"},
		{"bad tag", []byte{0x00}, "title"},
		{"nested truncated", []byte{0x12, 0x03, 0x0a, 0x05, 'D'}, "artist.name"},
		{"invalid utf8", []byte{0x0a, 0x01, 0xff}, "title"},
		{"uint64 overflow", append([]byte{0x50}, protowire.AppendVarint(nil, 1<<63)...), "big"},
	} {
		_, err := ExtractPath(tc.wire, path(t, album, tc.path))
		if err == nil {
			t.Errorf("%s: no error", tc.name)
		}
		if err := Validate(album, tc.wire); err == nil {
			t.Errorf("%s: Validate: no error", tc.name)
		} else if tc.name != "uint64 overflow" && !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: %v is not ErrMalformed", tc.name, err)
		}
	}
}

func TestDescribe(t *testing.T) {
	b := testBundle(t)
	album, _ := b.Message("package_name.Album")
	var got []string
	for _, f := range album.Fields() {
		got = append(got, f.Name+" "+f.Type.String())
	}
	want := "title STRING, artist PROTO<b.package_name.Artist>, release_year INT64, tags ARRAY<STRING>, " +
		"genre ENUM<b.package_name.Genre>, ratings ARRAY<STRUCT<key STRING, value INT64>>, vinyl_sku STRING, " +
		"producer PROTO<b.package_name.Artist>, track_lengths ARRAY<INT64>, big INT64, delta INT64, score FLOAT64, " +
		"ratio FLOAT32, live BOOL, opt INT64, guests ARRAY<PROTO<b.package_name.Artist>>"
	if g := strings.Join(got, ", "); g != want {
		t.Errorf("got  %s\nwant %s", g, want)
	}
	if _, err := b.Message("package_name.Albm"); err == nil || !strings.Contains(err.Error(), "nearest: package_name.Album") {
		t.Errorf("unknown message: %v", err)
	}
	if _, err := album.Field("titel"); err == nil || !strings.Contains(err.Error(), "nearest: title") {
		t.Errorf("unknown field: %v", err)
	}
	if n := b.MessageNames(); strings.Join(n, ",") != "legacy.Legacy,legacy.Legacy.Item,package_name.Album,package_name.Artist" {
		t.Errorf("names %v", n)
	}
}

// FuzzDecode: arbitrary bytes × every test message type never panic
// (PS1), and bytes the protobuf runtime accepts are accepted too.
func FuzzDecode(f *testing.F) {
	b := testBundle(f)
	var msgs []*Message
	for _, n := range b.MessageNames() {
		m, _ := b.Message(n)
		msgs = append(msgs, m)
	}
	album, _ := b.Message("package_name.Album")
	f.Add(encode(f, album, `{"title":"Go","artist":{"name":"Dana A."},"releaseYear":2024,"ratings":{"x":3},"trackLengths":[1,2]}`))
	f.Add([]byte{0x12, 0x03, 0x0a, 0x05, 'D'})
	f.Add([]byte{0x23, 0x28, 0x01, 0x24})
	f.Fuzz(func(t *testing.T, wire []byte) {
		for _, m := range msgs {
			var paths []Path
			var walk func(prefix Path, m *Message, depth int)
			walk = func(prefix Path, m *Message, depth int) {
				for _, fd := range m.Fields() {
					p := append(append(Path(nil), prefix...), fd)
					paths = append(paths, p)
					if sub := fd.Message(); sub != nil && !fd.Repeated() && depth < 2 {
						walk(p, sub, depth+1)
					}
				}
			}
			walk(nil, m, 0)
			_, extractErr := Extract(m, wire, paths)
			validErr := Validate(m, wire)
			dm := dynamicpb.NewMessage(m.d)
			if unmarshalDynamic(wire, dm, nil) == nil && m.d.Syntax() == protoreflect.Proto3 && validErr != nil &&
				errors.Is(validErr, ErrMalformed) {
				t.Errorf("%s: protobuf accepts %x, Validate: %v", m.FullName(), wire, validErr)
			}
			if validErr == nil && extractErr != nil {
				t.Errorf("%s: valid %x but Extract: %v", m.FullName(), wire, extractErr)
			}
			if js, err := MessageJSON([]byte("x"), m, wire); err == nil && !json.Valid(js[1:]) {
				t.Errorf("%s: MessageJSON(%x) = %s, not JSON", m.FullName(), wire, js[1:])
			} else if err != nil && string(js) != "x" {
				t.Errorf("%s: MessageJSON(%x) failed (%v) but changed dst to %q", m.FullName(), wire, err, js)
			}
		}
	})
}
