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
