package pgwire

import "testing"

// TestParseLocalPrefixes: every prefix of these session statements parses
// or fails with an error, never a panic (an unterminated "identifier" once
// did), and the whole ones parse.
func TestParseLocalPrefixes(t *testing.T) {
	for _, text := range []string{
		`COPY (SELECT a, (b) FROM t WHERE c = ')') TO STDOUT WITH (FORMAT csv, HEADER true, FORCE_QUOTE (a, b))`,
		`COPY public."t" (a, "B") TO STDOUT WITH CSV HEADER DELIMITER AS ';' NULL AS 'x' QUOTE '|' FORCE QUOTE a, b`,
		`copy t to stdout (format csv, delimiter ',', null '', encoding 'utf-8', escape E'\\')`,
		`SET "search_path" TO "public", 'x'`,
		`DECLARE "c" CURSOR WITH HOLD FOR SELECT 1`,
		`CLOSE "c"`,
		`DEALLOCATE PREPARE "s"`,
	} {
		for i := range len(text) {
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Fatalf("parseLocal(%q) panicked: %v", text[:i], r)
					}
				}()
				_, _ = parseLocal(text[:i])
			}()
		}
		if st, err := parseLocal(text); err != nil || st == nil {
			t.Errorf("parseLocal(%q) = %+v, %v", text, st, err)
		}
	}
}

// TestCopyOptionStrings: COPY's option strings are PostgreSQL strings
// (standard_conforming_strings on), whatever the dialect of its query.
func TestCopyOptionStrings(t *testing.T) {
	for _, tc := range []struct {
		text         string
		escape, null string
	}{
		{`COPY t TO STDOUT (FORMAT csv, ESCAPE '\')`, `\`, ``},
		{`COPY t TO STDOUT (FORMAT csv, ESCAPE E'\\')`, `\`, ``},
		{`COPY t TO STDOUT (NULL '\N')`, `"`, `\N`},
		{`COPY t TO STDOUT (NULL 'it''s')`, `"`, `it's`},
		{`COPY t TO STDOUT WITH CSV NULL AS '\' QUOTE ''''`, `'`, `\`},
		{`COPY (SELECT 'a\'b') TO STDOUT (FORMAT csv, NULL '\')`, `"`, `\`},
	} {
		st, err := parseLocal(tc.text)
		if err != nil || st == nil || st.copy == nil {
			t.Errorf("parseLocal(%q) = %+v, %v", tc.text, st, err)
			continue
		}
		if got := string(st.copy.escape); got != tc.escape || st.copy.null != tc.null {
			t.Errorf("%s: escape %q null %q, want %q %q", tc.text, got, st.copy.null, tc.escape, tc.null)
		}
	}
}
