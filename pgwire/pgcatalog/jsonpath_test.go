package pgcatalog

import (
	"context"
	"testing"
)

// FuzzJSONPath parses arbitrary jsonpath text: no panic, and a path that
// parses prints (as jsonpath_out) text that parses back to the same text.
// Each parsed path is also evaluated, in both modes, over a document with
// every kind of JSON value, which must not panic either.
func FuzzJSONPath(f *testing.F) {
	for _, s := range []string{"$.a", "strict $.a[*] ? (@ > 1)", "$.a.b[1 to 3, 5]", "lax $.\"k\".**{2 to last}",
		"$.a ? (@.b == \"x\" && (@.c < 2 || !(@.d starts with \"q\")))", "$.a + 1 * -$.b", "($.a + 1).type()",
		"$.** ? (@ like_regex \"^a\" flag \"i\")", "$[last - 1]", "exists($.a ? (@ == null))", "$x.a ? (@ == $y)",
		"$.a.double().floor()", "-1e3", "$.a[*].size()", "$ ? ((@ > 1) is unknown)", "\"\\u00e9\\x41\""} {
		f.Add(s)
	}
	doc, err := parseJSON(`{"a": [1, 2.5, "x", null, true, {"b": "xy", "c": 1}], "b": {"c": [[3]]}, "x": {"a": 1}, "y": 1}`, true)
	if err != nil {
		f.Fatal(err)
	}
	ev, err := newEvaluator(context.Background(), nil, &Session{}, nil, nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := parseJSONPath(s)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("%q: error %T %v", s, err, err)
			}
			return
		}
		text := p.String()
		q, err := parseJSONPath(text)
		if err != nil {
			t.Fatalf("%q printed as %q, which does not parse: %v", s, text, err)
		}
		if again := q.String(); again != text {
			t.Fatalf("%q printed as %q, then as %q", s, text, again)
		}
		for _, strict := range []bool{false, true} {
			p.strict = strict
			evalJSONPath(ev, p, doc, doc.field("x"))
		}
	})
}
