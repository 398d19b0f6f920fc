package protoschema

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

// TestMessageJSON: a message type's SQL type carries the protojson hook,
// shared by Message.Type and every field of that message type; the hook
// renders with protojson's defaults and refuses bytes that do not parse.
func TestMessageJSON(t *testing.T) {
	b := testBundle(t)
	album, err := b.Message("package_name.Album")
	if err != nil {
		t.Fatal(err)
	}
	artist, err := b.Message("package_name.Artist")
	if err != nil {
		t.Fatal(err)
	}
	at := artist.Type()
	if at.AppendJSON == nil || album.Type().AppendJSON == nil {
		t.Fatal("message types lack AppendJSON")
	}
	for _, p := range []string{"artist", "producer"} {
		if got := path(t, album, p).Type(); got != at {
			t.Errorf("%s: type %p, want Artist's %p", p, got, at)
		}
	}
	if got := path(t, album, "guests").Type().Elem; got != at {
		t.Errorf("guests: element type %p, want Artist's %p", got, at)
	}
	legacy, _ := b.Message("legacy.Legacy")
	if got := path(t, legacy, "child").Type(); got != legacy.Type() || got.AppendJSON == nil {
		t.Errorf("recursive child: type %p, want Legacy's %p with a hook", got, legacy.Type())
	}

	wire := encode(t, album, `{"title":"Go","artist":{"name":"Dana A."},"releaseYear":2024,"tags":["a","b"],"genre":"JAZZ",
		"ratings":{"x":3},"producer":{"name":"P"},"trackLengths":[10,20],"big":"5","live":true,"guests":[{"name":"g1"},{}]}`)
	js, err := album.Type().AppendJSON([]byte("prefix"), wire)
	if err != nil {
		t.Fatal(err)
	}
	if string(js[:6]) != "prefix" {
		t.Fatalf("dst not appended to: %q", js)
	}
	var got map[string]any
	if err := json.Unmarshal(js[6:], &got); err != nil {
		t.Fatalf("%s: %v", js[6:], err)
	}
	want := map[string]any{
		"title": "Go", "artist": map[string]any{"name": "Dana A."}, "releaseYear": 2024.0,
		"tags": []any{"a", "b"}, "genre": "JAZZ", "ratings": map[string]any{"x": 3.0},
		"producer": map[string]any{"name": "P"}, "trackLengths": []any{"10", "20"}, "big": "5",
		"live": true, "guests": []any{map[string]any{"name": "g1"}, map[string]any{}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("protojson\n got %v\nwant %v", got, want)
	}

	// proto2: groups, set fields only (defaults are not emitted).
	lw := encode(t, legacy, `{"count":1,"item":{"id":9},"child":{"label":"deep"}}`)
	js, err = MessageJSON(nil, legacy, lw)
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	if err := json.Unmarshal(js, &got); err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	if want := map[string]any{"count": 1.0, "item": map[string]any{"id": 9.0}, "child": map[string]any{"label": "deep"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("legacy protojson\n got %v\nwant %v", got, want)
	}

	if js, err := at.AppendJSON(nil, nil); err != nil || string(js) != "{}" {
		t.Errorf("empty message: %s, %v", js, err)
	}
	for _, bad := range [][]byte{{0x0a, 0x05, 'a'}, {0xff}, {0x0a, 0x01, 0xff}} {
		js, err := at.AppendJSON([]byte("x"), bad)
		if !errors.Is(err, ErrMalformed) || string(js) != "x" {
			t.Errorf("%x: %q, %v; want ErrMalformed and dst unchanged", bad, js, err)
		}
	}
	// A ratings entry with key "a", then its key again as a varint: the
	// protobuf runtime panics on it (see unmarshalDynamic).
	twiceKeyed := []byte{0x32, 0x05, 0x0a, 0x01, 'a', 0x08, 0x05}
	if js, err := album.Type().AppendJSON([]byte("x"), twiceKeyed); !errors.Is(err, ErrMalformed) || string(js) != "x" {
		t.Errorf("%x: %q, %v; want ErrMalformed and dst unchanged", twiceKeyed, js, err)
	}
}
