package pgwire

import (
	"testing"

	"github.com/shale-db/shale/sql/types"
)

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
		`SET TIME ZONE INTERVAL(0) '-08:45' HOUR TO MINUTE`,
		`SET LOCAL TIME ZONE INTERVAL '1:30' MINUTE`,
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
		{`COPY t TO STDOUT (NULL E'it''s\\')`, `"`, `it's\`},
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

// TestSplitStatements: a Query's text splits at top-level semicolons,
// strings lexed as GoogleSQL's except a COPY's options (PostgreSQL's, as
// parseCopy reads them).
func TestSplitStatements(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{`SELECT 1; SELECT 2;`, []string{`SELECT 1`, ` SELECT 2`}},
		{`SELECT 'a;\'b'; SELECT "c;"`, []string{`SELECT 'a;\'b'`, ` SELECT "c;"`}},
		{` -- only a comment ;`, nil},
		{`COPY t TO STDOUT (FORMAT csv, ESCAPE '\'); SELECT 1`,
			[]string{`COPY t TO STDOUT (FORMAT csv, ESCAPE '\')`, ` SELECT 1`}},
		{`COPY (SELECT 'x\'y;' FROM t) TO STDOUT WITH CSV NULL AS 'a\' QUOTE '"';`,
			[]string{`COPY (SELECT 'x\'y;' FROM t) TO STDOUT WITH CSV NULL AS 'a\' QUOTE '"'`}},
		{`COPY t TO STDOUT (NULL E'it''s;'); SELECT '\';'`,
			[]string{`COPY t TO STDOUT (NULL E'it''s;')`, ` SELECT '\';'`}},
	} {
		var got []string
		for _, sp := range splitStatements(nil, tc.text) {
			got = append(got, tc.text[sp.start:sp.end])
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: got %q, want %q", tc.text, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: got %q, want %q", tc.text, got, tc.want)
				break
			}
		}
	}
}

// TestDecodeBoolParam: a boolean parameter's text is read as PostgreSQL's
// boolin reads it, unique prefixes included.
func TestDecodeBoolParam(t *testing.T) {
	for in, want := range map[string]bool{"t": true, " TRUE ": true, "ye": true, "on": true, "1": true, "of": false, "n": false, "0": false} {
		v, err := decodeText(types.Bool, in)
		if err != nil || v.Bool() != want {
			t.Errorf("decodeText(bool, %q) = %v, %v; want %v", in, v, err, want)
		}
	}
	for _, in := range []string{"o", "", "yess", "2"} {
		if _, err := decodeText(types.Bool, in); err == nil {
			t.Errorf("decodeText(bool, %q) took it", in)
		}
	}
}
