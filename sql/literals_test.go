package sql

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestLiteralize(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"SELECT _key, cf['a'] FROM t WHERE _key = 'k1'", "SELECT _key, cf['a'] FROM t WHERE _key = @__lit1"},
		{"SELECT _key FROM t WHERE _key = CAST(CAST(12 AS STRING) AS BYTES);", "SELECT _key FROM t WHERE _key = CAST(CAST(@__lit1 AS STRING) AS BYTES);"},
		{"SELECT * FROM t WHERE x >= 1.5 AND y < b'z' ORDER BY x", "SELECT * FROM t WHERE x >= @__val1 AND y < @__val2 ORDER BY x"},
		// Not operands that end there, or positions that need constants.
		{"SELECT cf['a'] FROM t WHERE x = 1 + y", ""},
		{"SELECT x FROM t WHERE STARTS_WITH(_key, 'a') LIMIT 5", ""},
		{"SELECT x FROM t WHERE x IN (1, 2)", ""},
		{"SELECT x FROM t WHERE x = @p", ""},
		{"EXPLAIN SELECT x FROM t WHERE x = 1", ""},
		{"SELECT x FROM t WHERE x = 99999999999999999999", ""},
		// Edges of the token stream.
		{"SELECT 1", ""},
		{"5", ""},
		{"x = 5", "x = @__lit1"},
		{"= 'a'", "= @__lit1"},
		{"CAST(5 AS STRING)", "CAST(@__lit1 AS STRING)"},
		{"SELECT a FROM t WHERE a = 1 AND b = 2 OR c < 'z'", "SELECT a FROM t WHERE a = @__lit1 AND b = @__lit2 OR c < @__lit3"},
		{"SELECT a FROM t WHERE a = 'it''s' AND b = \"x\"", "SELECT a FROM t WHERE a = 'it''s' AND b = @__lit1"},
	} {
		l, ok := Literalize(tc.in)
		if got := l.Text; ok != (tc.want != "") || got != tc.want {
			t.Errorf("Literalize(%q) = %q, %v; want %q", tc.in, got, ok, tc.want)
		}
		if _, sure := findOperands(tc.in, nil); !sure && !strings.Contains(tc.in, "@") {
			t.Errorf("Literalize(%q) needs memefish", tc.in)
		}
	}
	l, _ := Literalize("SELECT a FROM t WHERE a = 'xy' AND b = 7 AND DIV(1, 0) = 1")
	if off := l.OriginalOffset(strings.Index(l.Text, "DIV")); off != strings.Index("SELECT a FROM t WHERE a = 'xy' AND b = 7 AND DIV(1, 0) = 1", "DIV") {
		t.Errorf("OriginalOffset: %d", off)
	}
}

// TestHasExplain: hasExplain is containsFold(text, "explain").
func TestHasExplain(t *testing.T) {
	for _, s := range []string{"", "x", "explain", "EXPLAIN", "eXplain", "xexplain", "explai", "xplain", "exxplain",
		"explaiN x", "ex", "e", "xxexplainxx", "éxplain", "explaın", "eexplain", "explain explain"} {
		for _, affix := range []string{"", "a", "x", "X", "é"} {
			text := affix + s + affix
			if got, want := hasExplain(text), containsFold(text, "explain"); got != want {
				t.Errorf("hasExplain(%q) = %v, want %v", text, got, want)
			}
		}
	}
}

// FuzzLiteralize: Literalize agrees with literalizeMemefish, and offsets
// map into the original text, in order. The seeds are the logic test
// queries and lexCases.
func FuzzLiteralize(f *testing.F) {
	f.Add("SELECT a FROM t WHERE a = 'xy' AND b = 7")
	f.Add("SELECT a FROM t WHERE a = CAST(5 AS STRING) OR b = 1.5")
	for _, q := range lexCases {
		f.Add(q)
	}
	for _, q := range logicQueries(f) {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, text string) {
		checkLiteralize(t, text)
		l, ok := Literalize(text)
		if !ok {
			return
		}
		prev := 0
		for off := 0; off <= len(l.Text); off++ {
			o := l.OriginalOffset(off)
			if o < prev || o > len(text) {
				t.Fatalf("%q: offset %d maps to %d (previous %d)", text, off, o, prev)
			}
			prev = o
		}
		if len(l.Params) != len(l.Values) || len(l.Params) == 0 {
			t.Fatalf("%q: %d params, %d values", text, len(l.Params), len(l.Values))
		}
	})
}

// TestLiteralizeMatchesMemefish holds Literalize's own scanner to
// memefish's lexer over every query of the engine's logic tests and the
// lexical corner cases below. Few logic test queries may need memefish,
// or the test would hold memefish to itself.
func TestLiteralizeMatchesMemefish(t *testing.T) {
	queries := logicQueries(t)
	if len(queries) < 500 {
		t.Fatalf("only %d logic test queries", len(queries))
	}
	replaced, unsure := 0, 0
	for _, q := range queries {
		if checkLiteralize(t, q) {
			replaced++
		}
		if _, sure := findOperands(q, nil); !sure && !strings.Contains(q, "@") {
			unsure++
			t.Logf("scanned by memefish: %q", q)
		}
	}
	if unsure > len(queries)/100 {
		t.Errorf("%d of %d logic test queries scanned by memefish", unsure, len(queries))
	}
	for _, q := range lexCases {
		checkLiteralize(t, q)
	}
	t.Logf("%d logic test queries, %d literalized, %d scanned by memefish", len(queries), replaced, unsure)
}

// TestLiteralizeTokenSoup compares Literalize with literalizeMemefish on
// random sequences of query fragments, run together or not: where the
// byte-level fuzzer rarely goes (a field name after ".", a keyword before
// it, literal prefixes, comments between tokens).
func TestLiteralizeTokenSoup(t *testing.T) {
	fragments := []string{
		"a", "b", "r", "rb", "x1", "_k", "select", "AND", "or", "as", "Cast", "SAFE_CAST", "order", "LIMIT", "array",
		".", "5", "0", "1.5", ".5", "1e3", "1E-2", "0x1f", "0X", "09", "99999999999999999999",
		"'s'", `"s"`, "''", "'''t'''", `r'\d'`, `b'\x01'`, "B'b'", "rb'r'", `'\u00e9'`, `'\'`, "'é'", "`q`", "``",
		"(", ")", "[", "]", "=", "!=", "<>", "<", "<=", ">", ">=", "<<", "=>", "->", "||", "|", "!", "-", "+", "*", "/",
		",", ";", "{", "}", "?", "$", "~", ":", "#c\n", "--c\n", "/*c*/", "/*/", " ", " ", " ", "\n", "\t",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range 1 + rng.IntN(8) {
			b.WriteString(fragments[rng.IntN(len(fragments))])
			if rng.IntN(2) == 0 {
				b.WriteByte(' ')
			}
		}
		checkLiteralize(t, b.String())
	}
}

// checkLiteralize fails t unless Literalize(text) and
// literalizeMemefish(text) agree: ok, text, parameters, values and the
// mapping of every offset.
func checkLiteralize(t testing.TB, text string) (ok bool) {
	t.Helper()
	got, ok := Literalize(text)
	want, wantOK := literalizeMemefish(text)
	if ok != wantOK || got.Text != want.Text {
		t.Fatalf("Literalize(%q) = %q, %v; memefish: %q, %v", text, got.Text, ok, want.Text, wantOK)
	}
	if !reflect.DeepEqual(got.Params, want.Params) || !reflect.DeepEqual(got.Values, want.Values) {
		t.Fatalf("Literalize(%q): params %v, values %v; memefish: %v, %v", text, got.Params, got.Values, want.Params, want.Values)
	}
	for off := 0; off <= len(got.Text)+1; off++ {
		if g, w := got.OriginalOffset(off), want.OriginalOffset(off); g != w {
			t.Fatalf("Literalize(%q): offset %d maps to %d; memefish: %d", text, off, g, w)
		}
	}
	return ok
}

// logicQueries returns the queries of the engine's logic tests
// (engine/testdata/logic): each "query" command's input.
func logicQueries(t testing.TB) []string {
	files, err := filepath.Glob("../engine/testdata/logic/*")
	if err != nil || len(files) == 0 {
		t.Fatalf("no logic tests: %v", err)
	}
	var queries []string
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		queries = append(queries, queryInputs(string(data))...)
	}
	return queries
}

// queryInputs returns the inputs of the "query" commands of a datadriven
// test file. A command starts after a blank line; its input runs to
// "----", its output to a blank line (after "----" twice, to "----"
// twice).
func queryInputs(file string) []string {
	var queries, input []string
	inQuery, inOutput, double, blank := false, false, false, true
	lines := strings.Split(file, "\n")
	for i, line := range lines {
		switch {
		case inOutput && double:
			if line == "----" && i+1 < len(lines) && lines[i+1] == "----" {
				inOutput, double = false, false
			}
		case inOutput:
			inOutput = line != ""
		case inQuery && line == "----":
			queries = append(queries, strings.Join(input, "\n"))
			inQuery, inOutput = false, true
			double = i+1 < len(lines) && lines[i+1] == "----"
		case inQuery:
			input = append(input, line)
		case line == "----":
			inOutput = true
		case blank && (line == "query" || strings.HasPrefix(line, "query ")):
			inQuery, input = true, nil
		}
		blank = line == "" || strings.HasPrefix(line, "#")
	}
	return queries
}

// lexCases are lexical corner cases, mostly as the operand of a
// comparison, where the tokens matter.
var lexCases = []string{
	// String and bytes literals in all their forms.
	`x = 'a\'b' AND y = "a\"b"`, `x = '''a'b''' AND y = """a"b"""`, "x = '''a\nb'''", "x = \"\"\"a\n\"\"\" AND y = 1",
	`x = r'\d' AND y = R"\""`, `x = r'\'' AND y = 1`, "x = r'a\\\n'", `x = R"\"`, `x = r'\`,
	`x = b'\x00\xff' AND y = B"abc"`, `x = rb'\x' OR y = br'a' OR z = bR'a' OR w = Rb"a"`,
	`x = bb'a'`, `x = rr'a'`, `x = brb'a'`, `x = b`, `x = b AND y = r`, `x = a.b'x'`, `x = a.rb'x'`,
	`x = '\u00e9' AND y = '\U0001F600'`, `x = '\ud800'`, `x = '\U00110000'`, `x = b'\u0041'`, `x = '\UFFFFFFFF'`,
	`x = '\101\377' AND y = '\400'`, `x = '\8'`, `x = '\x4'`, `x = '\xg0'`, `x = '\u12'`, `x = '\u12g4'`,
	"x = '\\a\\b\\f\\n\\r\\t\\v\\\\\\?\\\"\\'\\`'", `x = '\q'`, `x = '\`, `x = 'a`, `x = '''a''`, `x = '''a''''`,
	"x = 'a\nb'", "x = 'a\rb'", `x = ''`, `x = b''`, `x = ''''''`, `x = """"""`, `x = 'a' 'b'`, `x = 'a''`,
	`x = 'é' AND y = b'ü'`, "x = '\xff'", `x = "it's"`, `x = 'it''s'`, `x = '\x41\X42' AND y = b'\101'`,
	// Numbers.
	`x = 0x1F AND y = 0X1f AND z = 0x`, `x = 010 AND y = 0`, `x = 09`, `x = 1.5e3 AND y = 1e+3 AND z = 2E-3`,
	`x = 1e`, `x = 1e+`, `x = .5 AND y = 1. AND z = 1.e5`, `x = 5.5.5`, `x = 1abc`, `x = 1e5e`, `x = 0x1p`,
	`x = 99999999999999999999`, `x = 1e400`, `x = 0x8000000000000000`, `x = 0x7fffffffffffffff`,
	`x = 1_000`, `x = -1`, `x = +1`, `x = - 1`, `x = 1.5.`, `x = 0x1.5`, `x = 1.5e3.5`,
	// Comments and spaces.
	`x = 1 -- c`, "x = 1 # c\n AND y = 2", `x = /* c */ 1`, `x = 1 /* unclosed`, `/*/ x = 1`, `/**/x = 1`,
	`x = 1--c`, "x = 1 --c\n;", "x\t=\v1\f\r\n", "x = 1 \u00a0", "x\u00a0= 1", "x = 1 \u0085", `x = 1 -- ö`,
	"x = 1 /* ö */ AND y = 2", "x = 1 é", "x = 1 \x00", "x = 1 \x7f", "x = 1\x01", "# only a comment", "-- x = 1",
	"", " ", "x = 1 -", "x = 1 /", "x = 1 /*", "x = 1 */", "x = 1 #", "x = 1 \xff",
	// Field names after ".".
	`a.5 = 1`, `t.x = 5`, `SELECT.5 = 1`, `a . 5 = 1`, `a. 5 = 1`, "a./* c */5 = 1", `(a).b = 1`, `a[0].b = 'x'`,
	"`a`.`b` = 1", "x = ``", "x = `a", "`a\\x41` = 1", "`\\x` = 1", `a.select = 1`, `a.select.5 = 1`, `AND.5 = 1`,
	`x = a.and AND y = 2`, `x = 1 AND.5`, `a..5 = 1`, `a.*.5 = 1`, `x.1e5 = 2`, `a.b.c = 'd'`, `select.x = 1`,
	`x = (1).5`, `x = f(1).a = 2`, `x = a[1].5`, `x = 1 .5`, `x = a .5`, `x = a .and = 5`, "x = a.`b`.5",
	`x = a.'s'`, `x = a.(1)`, `x = a.5 AND y = 1`, `x = t.5e3 AND y = 2`,
	// Operators around literals.
	`x <= 1 AND y >= 2 AND z <> 3 OR w != 4 AND v < 5 AND u > 6`, `x => 1`, `x -> 1`, `x <<1`, `x >>1`, `x ||'a'`,
	`x |> 1`, `x += 1`, `x -= 1`, `!x = 1`, `x != 1`, `x ! = 1`, `x < = 1`, `x = = 1`, `x == 1`, `x = 1 = 2`,
	`x = ~1`, `x = $1`, `x = ?`, `x = \1`, `x = {1}`, `x = 1, y = 2`, `x = 1 : 2`, `x = 1 ^ 2 & 3 % 4 * 5 / 6`,
	`x = 1 | 2`, `x <>1`, `x >=1`, `x<1`, `x>1`, `x=1`,
	// What may follow a replaced literal.
	`SAFE_CAST(1 AS STRING)`, `safe_cast ( 'x' as bytes )`, `cast(1 as int64) = 1`, `CAST(1.5 AS STRING)`,
	`CAST(1 + 2 AS STRING)`, `CAST(b'x' AS STRING)`, `CAST('x')`, `CAST(1`, `(CAST(1 AS STRING))`, "`CAST`(1 AS STRING)",
	`a.CAST(1 AS STRING)`, `x = 1 order by x`, `x = 1 Group by x`, `x = 1 having y`, `x = 1 limit 5`, `x = 1;`,
	`x = 1)`, `x = (1)`, `x = 1 or y = 2`, `x = 1 ANDY`, "x = 1 `AND` y", `x = 1 AS y`, `x = 1 + 2`, `x = 1 ;`,
	`x = 1 ORDER`, `x = 1 and`, `x = 'a' and y = "b" and z = b'c' and w = 1.5 and v = 7`, `x = 1 AND.b`,
	// What Literalize leaves alone.
	`x = @p`, `x = 'a@b'`, `EXPLAIN x = 1`, `x = 'explain'`, `x = 1 -- explain`, `x = 1 @`,
	// Many parameters.
	`a = 1 AND b = 2 AND c = 3 AND d = 4 AND e = 5 AND f = 6 AND g = 7 AND h = 8 AND i = 9 AND j = 10 AND k = 11 AND l = 12 AND m = 13 AND n = 14 AND o = 15 AND p = 16 AND q = 17 AND r = 18 AND s = 1.5 AND t = b'x'`,
}

// BenchmarkLiteralize: what a pgbench -M simple point lookup pays per
// query, and a range with two string literals.
func BenchmarkLiteralize(b *testing.B) {
	for _, bc := range []struct{ name, text string }{
		{"pgbench", "SELECT _key, cf['a'] FROM t WHERE _key = CAST(CAST(123456 AS STRING) AS BYTES)"},
		{"strings", "SELECT * FROM t WHERE _key >= 'a' AND _key < 'b'"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, ok := Literalize(bc.text); !ok {
					b.Fatal("not literalized")
				}
			}
		})
	}
}
