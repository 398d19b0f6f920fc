package pgcatalog

import "testing"

// FuzzJSONBField: finding a key by scanning a jsonb text agrees with
// parsing it, for any JSON text normalized as jsonb values are and any key.
func FuzzJSONBField(f *testing.F) {
	for _, s := range []string{
		`{"a": 1, "b": "x"}`, `{"a": {"b": [1, {"c": "]}"}]}, "bb": null}`, `[1, 2]`, `"s"`, `{}`,
		`{"k\"ey": "v\\"al", "é": "\u00e9\n"}`, `{"a": true, "abc": -1.5e3, "ab": [{}, []]}`,
	} {
		f.Add(s, "a")
	}
	f.Add(`{"k\"ey": 1}`, `k"ey`)
	f.Fuzz(func(t *testing.T, text, key string) {
		n, err := parseJSON(text, true)
		if err != nil {
			return
		}
		canon := textV(n.text(true))
		raw, found, ok := jsonbField(canon.s, key)
		want := n.field(key)
		switch {
		case !ok:
			t.Fatalf("jsonbField(%q, %q): not read", canon.s, key)
		case found != (want != nil):
			t.Fatalf("jsonbField(%q, %q): found %v", canon.s, key, found)
		case found && raw != want.text(true):
			t.Fatalf("jsonbField(%q, %q) = %q, want %q", canon.s, key, raw, want.text(true))
		}
		constant := func(typ uint32, v Value) *cexpr {
			return &cexpr{typ: typ, fn: func(*evaluator, *env) (Value, error) { return v, nil }}
		}
		for _, asText := range []bool{false, true} {
			got, err := jsonbFieldOp(constant(tJSONB, canon), constant(tText, textV(key)), asText).fn(nil, nil)
			wantV := jsonResult(want, tJSONB)
			if asText {
				wantV = jsonText(want, true)
			}
			if err != nil || got.isNull() != wantV.isNull() || got.s != wantV.s {
				t.Fatalf("%q ->(%v) %q = %v, %v; want %v", canon.s, asText, key, got, err, wantV)
			}
		}
	})
}
