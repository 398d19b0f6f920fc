package pgwire

import (
	"bytes"
	"errors"
	"testing"

	"github.com/shale-db/shale/sql/types"
)

// TestJSONProtoHook: a PROTO value renders through its type's AppendJSON
// hook, re-spaced as jsonb prints, wherever it sits (column, ARRAY
// element, STRUCT field, MAP value), in the text and binary jsonb
// encodings alike; without a hook or when the hook fails it renders as
// BYTES do.
func TestJSONProtoHook(t *testing.T) {
	var calls [][]byte
	msgT := types.ProtoOf("b.pkg.Msg")
	msgT.AppendJSON = func(dst, wire []byte) ([]byte, error) {
		calls = append(calls, wire)
		if bytes.Equal(wire, []byte("bad")) {
			return dst, errors.New("does not parse")
		}
		// protojson's spacing is unstable on purpose; any spacing must
		// come out as jsonb's.
		return append(dst, "{\"title\":\"a, b: \\\"c\\\"\",  \"artist\" :{\"name\":\"M\"},\n\"tags\":[\"x\" ,\"y\"],\"n\":\"5\"}"...), nil
	}
	const want = `{"title": "a, b: \"c\"", "artist": {"name": "M"}, "tags": ["x", "y"], "n": "5"}`
	bare := types.ProtoOf("b.pkg.Msg") // no hook

	good := types.ProtoValue(msgT, []byte{0x0a, 0x01, 'a'})
	bad := types.ProtoValue(msgT, []byte("bad"))
	structT := types.StructOf(types.Field{Name: "k", Type: types.Int64}, types.Field{Name: "m", Type: msgT})
	mapT := types.MapOf(types.String, msgT)
	for _, tc := range []struct {
		name string
		v    types.Value
		want string
	}{
		{"message", good, want},
		{"no hook", types.ProtoValue(bare, []byte{0x0a, 0x01, 0xff}), `"\\x0a01ff"`},
		{"no hook, UTF-8", types.ProtoValue(bare, []byte("hi")), `"hi"`},
		{"hook fails", bad, `"bad"`},
		{"empty message", types.ProtoValue(msgT, []byte{}), want},
		{"array", types.ArrayValue(types.ArrayOf(msgT), []types.Value{good, types.NullOf(msgT), bad}),
			`[` + want + `, null, "bad"]`},
		{"struct", types.StructValue(structT, []types.Value{types.Int64Value(1), good}), `{"k": 1, "m": ` + want + `}`},
		{"map", types.MapValue(mapT, []types.Value{types.StringValue("x"), good}), `{"x": ` + want + `}`},
	} {
		e := newEncoder()
		if oid := typeOID(tc.v.Type()); oid != oidJSONB {
			t.Errorf("%s: OID %d, want jsonb", tc.name, oid)
		}
		text, err := e.appendValue(nil, tc.v, oidJSONB, formatText)
		if err != nil || string(text) != tc.want {
			t.Errorf("%s: text %s, %v\nwant %s", tc.name, text, err, tc.want)
		}
		bin, err := e.appendValue([]byte("p"), tc.v, oidJSONB, formatBinary)
		if err != nil || string(bin) != "p\x01"+tc.want {
			t.Errorf("%s: binary %q, %v\nwant %q", tc.name, bin, err, "p\x01"+tc.want)
		}
	}
	if len(calls) == 0 || !bytes.Equal(calls[0], []byte{0x0a, 0x01, 'a'}) {
		t.Errorf("hook called with %q, want the wire bytes", calls)
	}
	if !msgT.Equal(bare) {
		t.Error("AppendJSON changes the type's identity")
	}
}

func TestJSONSpaced(t *testing.T) {
	for in, want := range map[string]string{
		`{}`:                        `{}`,
		` [ 1 , 2 ,{ "a" : [ ] } ]`: `[1, 2, {"a": []}]`,
		`{"a\\":"b ,:\"x"}`:         `{"a\\": "b ,:\"x"}`,
		"{\"a\":\n  \"\\u00e9 \"}":  `{"a": "\u00e9 "}`,
	} {
		if got := string(appendJSONSpaced(nil, []byte(in))); got != want {
			t.Errorf("%s: got %s, want %s", in, got, want)
		}
	}
}

// TestJSONBytes: bytes are their text when that is UTF-8 PostgreSQL's jsonb
// can hold, else \x and hex.
func TestJSONBytes(t *testing.T) {
	for in, want := range map[string]string{
		"1":                             `"1"`,
		"é":                             `"é"`,
		`\xab`:                          `"\\x5c786162"`,
		"\xff":                          `"\\xff"`,
		"\x00\x00\x00\x00\x00\x00\x00;": `"\\x000000000000003b"`, // jsonb has no \u0000
		"a\x00b":                        `"\\x610062"`,
		"\x01":                          `"\u0001"`,
		"":                              `""`,
		"a b~\x7f":                      "\"a b~\x7f\"", // DEL is not escaped
		`say "hi"`:                      `"say \"hi\""`,
		`a\b`:                           `"a\\b"`,
		"tab\there":                     `"tab\there"`,
	} {
		if got := string(appendJSONBytes(nil, []byte(in))); got != want {
			t.Errorf("%q: got %s, want %s", in, got, want)
		}
	}
}

// TestJSONMapKeyOrder: a map's keys print in jsonb's order (length, then
// bytes), whatever order the map holds them in; a map already in that
// order is left as it is.
func TestJSONMapKeyOrder(t *testing.T) {
	mt := types.MapOf(types.Bytes, types.String)
	for _, tc := range []struct {
		keys []string
		want string
	}{
		{[]string{"a", "b", "c"}, `{"a": "v", "b": "v", "c": "v"}`},
		{[]string{"connected_cell", "connected_wifi", "os_build"}, `{"os_build": "v", "connected_cell": "v", "connected_wifi": "v"}`},
		{[]string{"bb", "a", "\x00"}, `{"a": "v", "bb": "v", "\\x00": "v"}`},
	} {
		var entries []types.Value
		for _, k := range tc.keys {
			entries = append(entries, types.BytesValue([]byte(k)), types.StringValue("v"))
		}
		got := string(newEncoder().appendJSON(nil, types.MapValue(mt, entries)))
		if got != tc.want {
			t.Errorf("%q: %s, want %s", tc.keys, got, tc.want)
		}
	}
}

// FuzzQualifierOfKey: QualifierOfKey inverts the key text a qualifier
// renders as, and finds a qualifier only for texts some qualifier renders
// as.
func FuzzQualifierOfKey(f *testing.F) {
	for _, s := range []string{"q", "", `\x`, `\x00`, `\xff`, `\xFF`, "\x00", "a\x00", "\xff", "é", `\x5c78`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		key := string(jsonKeyText(types.BytesValue(b)))
		if q, ok := QualifierOfKey(key); !ok || !bytes.Equal(q, b) {
			t.Fatalf("qualifier %q renders as key %q, read back as %q (%v)", b, key, q, ok)
		}
		if q, ok := QualifierOfKey(string(b)); ok {
			if back := string(jsonKeyText(types.BytesValue(q))); back != string(b) {
				t.Fatalf("key %q gave qualifier %q, which renders as %q", b, q, back)
			}
		}
	})
}
