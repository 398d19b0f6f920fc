package pgcatalog

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// jsonpath, the SQL/JSON path language of PostgreSQL 15: its parser and
// its canonical text (what '…'::jsonpath prints). jsonpath_eval.go
// evaluates a path over a jsonb value; funcs_jsonpath.go has the functions
// and the @? and @@ operators. Not built: .datetime() and .keyvalue().

// jpPath is a parsed path: its mode and its expression.
type jpPath struct {
	strict bool
	expr   *jpExpr
}

type jpKind uint8

const (
	jpRoot    jpKind = iota // $
	jpCurrent               // @
	jpVar                   // $name
	jpLast                  // last
	jpNumber
	jpString
	jpBool
	jpNull
	jpBinary     // arithmetic, comparison, && and ||: op, args[0], args[1]
	jpUnary      // + - ! on args[0]
	jpExists     // exists (args[0])
	jpIsUnknown  // (args[0]) is unknown
	jpStartsWith // args[0] starts with args[1]
	jpLikeRegex  // args[0] like_regex str flag flags
)

// jpExpr is a path expression: a primary and the accessors applied to it.
type jpExpr struct {
	kind  jpKind
	op    string // jpBinary, jpUnary
	str   string // a string, a number's text, a variable's name, like_regex's pattern
	flags string // like_regex's flags
	b     bool
	args  []*jpExpr
	steps []*jpStep
	paren bool // written in parentheses (printing keeps a predicate's)
}

type jpStepKind uint8

const (
	jpKey      jpStepKind = iota // .key
	jpAnyKey                     // .*
	jpAnyIndex                   // [*]
	jpIndex                      // [subscripts]
	jpAny                        // .** with levels
	jpFilter                     // ? (predicate)
	jpMethod                     // .name()
)

// jpStep is an accessor.
type jpStep struct {
	kind     jpStepKind
	name     string       // key or method
	subs     [][2]*jpExpr // subscripts: from and, for a range, to
	from, to int          // .** levels; -1 is last
	pred     *jpExpr
}

// jpMethods are the item methods the evaluator knows.
var jpMethods = map[string]bool{"type": true, "size": true, "double": true, "ceiling": true, "floor": true,
	"abs": true, "keyvalue": true, "datetime": true}

// parseJSONPath parses jsonpath text.
func parseJSONPath(s string) (*jpPath, error) {
	p := &jpParser{src: s}
	if err := p.lex(); err != nil {
		return nil, err
	}
	path := &jpPath{}
	if p.word("strict") {
		path.strict = true
		p.i++
	} else if p.word("lax") {
		p.i++
	}
	e, err := p.or()
	if err != nil {
		return nil, err
	}
	if p.i < len(p.toks) {
		return nil, p.fail()
	}
	path.expr = e
	return path, nil
}

// jpToken is a lexeme: an operator or punctuation, a word, a string, a
// number or a variable.
type jpToken struct {
	kind byte // 'o' operator, 'w' word, 's' string, 'n' number, 'v' variable
	text string
}

type jpParser struct {
	src  string
	toks []jpToken
	i    int
	// filters and inSubscript count the filters and array subscripts
	// being read: @ belongs in a filter, last in a subscript.
	filters, inSubscript int
}

func (p *jpParser) fail() error {
	if p.i >= len(p.toks) {
		return errorf(CodeSyntax, noPos, "syntax error at end of jsonpath input")
	}
	t := p.toks[p.i]
	text := t.text
	if t.kind == 's' {
		text = strconv.Quote(text)
	}
	return errorf(CodeSyntax, noPos, "syntax error at or near \"%s\" of jsonpath input", text)
}

func (p *jpParser) lex() error {
	s := p.src
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
		case c == '"':
			str, n, err := jpQuoted(s[i:])
			if err != nil {
				return err
			}
			p.toks = append(p.toks, jpToken{'s', str})
			i += n
		case c == '$' && i+1 < len(s) && s[i+1] == '"':
			str, n, err := jpQuoted(s[i+1:])
			if err != nil {
				return err
			}
			p.toks = append(p.toks, jpToken{'v', str})
			i += 1 + n
		case c == '$' && i+1 < len(s) && jpIdentByte(s[i+1]):
			j := i + 1
			for j < len(s) && jpIdentByte(s[j]) {
				j++
			}
			p.toks = append(p.toks, jpToken{'v', s[i+1 : j]})
			i = j
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' && !p.afterAccessor():
			j := i
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			if s[i] == '0' && j-i > 1 { // JSON's numbers have no leading zeros
				return errorf(CodeSyntax, noPos, "trailing junk after numeric literal at or near \"%s\" of jsonpath input", s[i:i+2])
			}
			if j < len(s) && s[j] == '.' && j+1 < len(s) && s[j+1] >= '0' && s[j+1] <= '9' {
				j++
				for j < len(s) && s[j] >= '0' && s[j] <= '9' {
					j++
				}
			}
			if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
				k := j + 1
				if k < len(s) && (s[k] == '+' || s[k] == '-') {
					k++
				}
				if k < len(s) && s[k] >= '0' && s[k] <= '9' {
					for k < len(s) && s[k] >= '0' && s[k] <= '9' {
						k++
					}
					j = k
				}
			}
			if j < len(s) && jpIdentByte(s[j]) {
				return errorf(CodeSyntax, noPos, "trailing junk after numeric literal at or near \"%s\" of jsonpath input", s[i:j+1])
			}
			p.toks = append(p.toks, jpToken{'n', s[i:j]})
			i = j
		case jpIdentByte(c) || c >= utf8.RuneSelf:
			j := i
			for j < len(s) && (jpIdentByte(s[j]) || s[j] >= utf8.RuneSelf) {
				j++
			}
			p.toks = append(p.toks, jpToken{'w', s[i:j]})
			i = j
		default:
			op := string(c)
			for _, two := range []string{"==", "!=", "<>", "<=", ">=", "&&", "||", "**"} {
				if strings.HasPrefix(s[i:], two) {
					op = two
					break
				}
			}
			if !strings.Contains("$@.[](),?{}<>=!+-*/%&|**", op[:1]) || op == "=" || op == "&" || op == "|" {
				return errorf(CodeSyntax, noPos, "syntax error at or near \"%s\" of jsonpath input", op)
			}
			p.toks = append(p.toks, jpToken{'o', op})
			i += len(op)
		}
	}
	return nil
}

// afterAccessor reports whether the last token ends a value, so that a
// following ".5" is an accessor's dot, not a number.
func (p *jpParser) afterAccessor() bool {
	if len(p.toks) == 0 {
		return false
	}
	t := p.toks[len(p.toks)-1]
	return t.kind != 'o' || t.text == ")" || t.text == "]" || t.text == "$" || t.text == "@" || t.text == "*"
}

func jpIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// jpQuoted reads a double-quoted string with JSON's escapes (and \xNN);
// it returns the text and the bytes read.
func jpQuoted(s string) (string, int, error) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			return b.String(), i + 1, nil
		case c != '\\':
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(s) {
			break
		}
		switch s[i] {
		case 'b', 'f', 'n', 'r', 't':
			b.WriteByte(controlEscapes[s[i]])
		case 'v':
			b.WriteByte('\v')
		case 'x':
			if i+2 < len(s) {
				if n, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
					b.WriteRune(rune(n))
					i += 2
					continue
				}
			}
			return "", 0, errorf(CodeSyntax, noPos, "invalid hexadecimal character sequence at or near \"\\x\" of jsonpath input")
		case 'u':
			if i+4 < len(s) {
				if n, err := strconv.ParseUint(s[i+1:i+5], 16, 16); err == nil {
					r := rune(n)
					i += 4
					if r >= 0xd800 && r < 0xdc00 && i+6 < len(s) && s[i+1] == '\\' && s[i+2] == 'u' {
						if lo, err := strconv.ParseUint(s[i+3:i+7], 16, 16); err == nil && lo >= 0xdc00 && lo < 0xe000 {
							r = (r-0xd800)<<10 + rune(lo) - 0xdc00 + 0x10000
							i += 6
						}
					}
					b.WriteRune(r)
					continue
				}
			}
			return "", 0, errorf(CodeSyntax, noPos, "invalid Unicode escape sequence at or near \"\\u\" of jsonpath input")
		default:
			b.WriteByte(s[i])
		}
	}
	return "", 0, errorf(CodeSyntax, noPos, "unexpected end of quoted string at end of jsonpath input")
}

func (p *jpParser) peek() jpToken {
	if p.i < len(p.toks) {
		return p.toks[p.i]
	}
	return jpToken{}
}

func (p *jpParser) is(op string) bool {
	t := p.peek()
	return t.kind == 'o' && t.text == op
}

func (p *jpParser) word(w string) bool {
	t := p.peek()
	return t.kind == 'w' && t.text == w
}

func (p *jpParser) expect(op string) error {
	if !p.is(op) {
		return p.fail()
	}
	p.i++
	return nil
}

func (p *jpParser) or() (*jpExpr, error)  { return p.binaryLevel(p.and, true, "||") }
func (p *jpParser) and() (*jpExpr, error) { return p.binaryLevel(p.not, true, "&&") }

// binaryLevel parses operand (op operand)… left-associatively, for the
// operators of one priority; predicates says they join predicates only
// (&& and ||).
func (p *jpParser) binaryLevel(operand func() (*jpExpr, error), predicates bool, ops ...string) (*jpExpr, error) {
	l, err := operand()
	for err == nil && p.peek().kind == 'o' && slices.Contains(ops, p.peek().text) {
		op := p.peek().text
		p.i++
		var r *jpExpr
		if r, err = operand(); err == nil {
			if predicates && (!l.isPredicate() || !r.isPredicate()) || !predicates && (l.bare() || r.bare()) {
				return nil, p.fail()
			}
			l = &jpExpr{kind: jpBinary, op: op, args: []*jpExpr{l, r}}
		}
	}
	return l, err
}

func (p *jpParser) not() (*jpExpr, error) {
	if p.is("!") {
		p.i++
		if !p.is("(") && !p.word("exists") {
			return nil, p.fail()
		}
		e, err := p.not()
		if err != nil {
			return nil, err
		}
		if !e.isPredicate() {
			return nil, p.fail()
		}
		return &jpExpr{kind: jpUnary, op: "!", args: []*jpExpr{e}}, nil
	}
	return p.comparison()
}

var jpComparisons = map[string]string{"==": "==", "!=": "!=", "<>": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}

func (p *jpParser) comparison() (*jpExpr, error) {
	l, err := p.additive()
	if err != nil {
		return nil, err
	}
	t := p.peek()
	switch {
	case t.kind == 'o' && jpComparisons[t.text] != "":
		if l.bare() {
			return nil, p.fail()
		}
		p.i++
		r, err := p.additive()
		if err != nil {
			return nil, err
		}
		if r.bare() {
			return nil, p.fail()
		}
		return &jpExpr{kind: jpBinary, op: jpComparisons[t.text], args: []*jpExpr{l, r}}, nil
	case p.word("starts"):
		p.i++
		if !p.word("with") {
			return nil, p.fail()
		}
		p.i++
		var r *jpExpr
		switch t := p.peek(); {
		case t.kind == 's':
			p.i++
			r = &jpExpr{kind: jpString, str: t.text}
		case t.kind == 'v':
			p.i++
			r = &jpExpr{kind: jpVar, str: t.text}
		default:
			return nil, p.fail()
		}
		return &jpExpr{kind: jpStartsWith, args: []*jpExpr{l, r}}, nil
	case p.word("like_regex"):
		p.i++
		t := p.peek()
		if t.kind != 's' {
			return nil, p.fail()
		}
		p.i++
		e := &jpExpr{kind: jpLikeRegex, str: t.text, args: []*jpExpr{l}}
		if p.word("flag") {
			p.i++
			f := p.peek()
			if f.kind != 's' {
				return nil, p.fail()
			}
			p.i++
			for _, c := range f.text {
				if !strings.ContainsRune("isxmq", c) {
					return nil, errorf(CodeSyntax, noPos, "invalid input syntax for type jsonpath")
				}
			}
			e.flags = f.text
		}
		return e, nil
	}
	return l, nil
}

func (p *jpParser) additive() (*jpExpr, error) {
	return p.binaryLevel(p.multiplicative, false, "+", "-")
}
func (p *jpParser) multiplicative() (*jpExpr, error) {
	return p.binaryLevel(p.unary, false, "*", "/", "%")
}

func (p *jpParser) unary() (*jpExpr, error) {
	if p.is("+") || p.is("-") {
		op := p.peek().text
		p.i++
		e, err := p.unary()
		if err != nil {
			return nil, err
		}
		if e.bare() {
			return nil, p.fail()
		}
		if e.kind == jpNumber && len(e.steps) == 0 { // a signed literal, parenthesized or not
			if op == "-" {
				n, _ := parseNumeric(e.str)
				e.str = n.neg().String()
			}
			return e, nil
		}
		return &jpExpr{kind: jpUnary, op: op, args: []*jpExpr{e}}, nil
	}
	return p.accessorExpr()
}

func (p *jpParser) accessorExpr() (*jpExpr, error) {
	e, err := p.primary()
	if err != nil {
		return nil, err
	}
	for {
		switch {
		case p.is("."):
			p.i++
			st, err := p.dotStep()
			if err != nil {
				return nil, err
			}
			e.steps = append(e.steps, st)
		case p.is("["):
			p.i++
			st, err := p.subscripts()
			if err != nil {
				return nil, err
			}
			e.steps = append(e.steps, st)
		case p.is("?"):
			p.i++
			if err := p.expect("("); err != nil {
				return nil, err
			}
			p.filters++
			pred, err := p.or()
			p.filters--
			if err != nil {
				return nil, err
			}
			if !pred.isPredicate() {
				return nil, p.fail()
			}
			if err := p.expect(")"); err != nil {
				return nil, err
			}
			e.steps = append(e.steps, &jpStep{kind: jpFilter, pred: pred})
		default:
			return e, nil
		}
	}
}

func (p *jpParser) primary() (*jpExpr, error) {
	t := p.peek()
	p.i++
	switch t.kind {
	case 'o':
		switch t.text {
		case "$":
			return &jpExpr{kind: jpRoot}, nil
		case "@":
			if p.filters == 0 {
				return nil, errorf(CodeSyntax, noPos, "@ is not allowed in root expressions")
			}
			return &jpExpr{kind: jpCurrent}, nil
		case "(":
			e, err := p.or()
			if err != nil {
				return nil, err
			}
			if err := p.expect(")"); err != nil {
				return nil, err
			}
			if p.word("is") { // (predicate) is unknown
				p.i++
				if !p.word("unknown") {
					return nil, p.fail()
				}
				p.i++
				return &jpExpr{kind: jpIsUnknown, args: []*jpExpr{e}}, nil
			}
			e.paren = true
			return e, nil
		}
	case 's':
		return &jpExpr{kind: jpString, str: t.text}, nil
	case 'n':
		n, err := parseNumeric(t.text)
		if err != nil {
			return nil, errorf(CodeSyntax, noPos, "syntax error at or near \"%s\" of jsonpath input", t.text)
		}
		return &jpExpr{kind: jpNumber, str: n.String()}, nil
	case 'v':
		return &jpExpr{kind: jpVar, str: t.text}, nil
	case 'w':
		switch t.text {
		case "true", "false":
			return &jpExpr{kind: jpBool, b: t.text == "true"}, nil
		case "null":
			return &jpExpr{kind: jpNull}, nil
		case "last":
			if p.inSubscript == 0 {
				return nil, errorf(CodeSyntax, noPos, "LAST is allowed only in array subscripts")
			}
			return &jpExpr{kind: jpLast}, nil
		case "exists":
			if err := p.expect("("); err != nil {
				return nil, err
			}
			e, err := p.or()
			if err != nil {
				return nil, err
			}
			if err := p.expect(")"); err != nil {
				return nil, err
			}
			return &jpExpr{kind: jpExists, args: []*jpExpr{e}}, nil
		}
	}
	p.i--
	return nil, p.fail()
}

// isPredicate reports whether e is a predicate, as a filter needs: a
// comparison, starts with, like_regex, exists, is unknown, or a negation
// or a conjunction of predicates.
func (e *jpExpr) isPredicate() bool {
	switch e.kind {
	case jpBinary:
		switch e.op {
		case "&&", "||":
			return e.args[0].isPredicate() && e.args[1].isPredicate()
		case "+", "-", "*", "/", "%":
			return false
		}
		return true
	case jpUnary:
		return e.op == "!" && e.args[0].isPredicate()
	case jpExists, jpIsUnknown, jpStartsWith, jpLikeRegex:
		return true
	}
	return false
}

// bare reports whether e is a predicate with no accessors after it, which
// cannot be an operand of arithmetic or a comparison: ($ > 1).type() can,
// ($ > 1) cannot.
func (e *jpExpr) bare() bool { return e.isPredicate() && len(e.steps) == 0 }

// dotStep reads what follows a '.': a key, *, ** with levels, or a method.
func (p *jpParser) dotStep() (*jpStep, error) {
	t := p.peek()
	switch {
	case t.kind == 'o' && t.text == "*":
		p.i++
		return &jpStep{kind: jpAnyKey}, nil
	case t.kind == 'o' && t.text == "**":
		p.i++
		st := &jpStep{kind: jpAny, from: 0, to: -1}
		if p.is("{") {
			p.i++
			var err error
			if st.from, err = p.level(); err != nil {
				return nil, err
			}
			st.to = st.from
			if p.word("to") {
				p.i++
				if st.to, err = p.level(); err != nil {
					return nil, err
				}
			}
			if err := p.expect("}"); err != nil {
				return nil, err
			}
		}
		return st, nil
	case t.kind == 's':
		p.i++
		return &jpStep{kind: jpKey, name: t.text}, nil
	case t.kind == 'w' || t.kind == 'n' && !strings.ContainsAny(t.text, ".eE"):
		p.i++
		if t.kind == 'w' && jpMethods[t.text] && p.is("(") {
			p.i++
			if err := p.expect(")"); err != nil {
				return nil, err
			}
			return &jpStep{kind: jpMethod, name: t.text}, nil
		}
		return &jpStep{kind: jpKey, name: t.text}, nil
	}
	return nil, p.fail()
}

// level reads a .** level: a non-negative integer or last.
func (p *jpParser) level() (int, error) {
	t := p.peek()
	if t.kind == 'w' && t.text == "last" {
		p.i++
		return -1, nil
	}
	if t.kind == 'n' {
		if n, err := strconv.Atoi(t.text); err == nil && n >= 0 {
			p.i++
			return n, nil
		}
	}
	return 0, p.fail()
}

// subscripts reads an array accessor after its '[': [*] or a list of
// subscripts and ranges.
func (p *jpParser) subscripts() (*jpStep, error) {
	if p.is("*") {
		p.i++
		if err := p.expect("]"); err != nil {
			return nil, err
		}
		return &jpStep{kind: jpAnyIndex}, nil
	}
	st := &jpStep{kind: jpIndex}
	p.inSubscript++
	defer func() { p.inSubscript-- }()
	for {
		from, err := p.or()
		if err != nil {
			return nil, err
		}
		var to *jpExpr
		if p.word("to") {
			p.i++
			if to, err = p.or(); err != nil {
				return nil, err
			}
		}
		st.subs = append(st.subs, [2]*jpExpr{from, to})
		if p.is("]") {
			p.i++
			return st, nil
		}
		if err := p.expect(","); err != nil {
			return nil, err
		}
	}
}

// String is the path's canonical text, as jsonpath_out prints it.
func (jp *jpPath) String() string {
	var b strings.Builder
	if jp.strict {
		b.WriteString("strict ")
	}
	jp.expr.print(&b, true)
	return b.String()
}

// priority orders operators as PostgreSQL's printer does: an operand that
// binds no tighter than its operator is parenthesized.
func (e *jpExpr) priority() int {
	switch e.kind {
	case jpBinary:
		switch e.op {
		case "||":
			return 0
		case "&&":
			return 1
		case "+", "-":
			return 3
		case "*", "/", "%":
			return 4
		}
		return 2 // comparisons
	case jpStartsWith:
		return 2
	case jpUnary:
		if e.op != "!" {
			return 5
		}
	}
	return 6
}

// print writes e as printJsonPathItem does; brackets parenthesizes an
// operator expression (the whole path's is, a filter's is not).
func (e *jpExpr) print(b *strings.Builder, brackets bool) {
	open := func() {
		if brackets {
			b.WriteByte('(')
		}
	}
	closing := func() {
		if brackets {
			b.WriteByte(')')
		}
	}
	switch e.kind {
	case jpRoot:
		b.WriteByte('$')
	case jpCurrent:
		b.WriteByte('@')
	case jpVar:
		b.WriteByte('$')
		writeJSONString(b, e.str)
	case jpLast:
		b.WriteString("last")
	case jpNumber:
		if len(e.steps) > 0 { // (1).type(): 1.type() would not read back
			b.WriteString("(" + e.str + ")")
		} else {
			b.WriteString(e.str)
		}
	case jpString:
		writeJSONString(b, e.str)
	case jpBool:
		b.WriteString(strconv.FormatBool(e.b))
	case jpNull:
		b.WriteString("null")
	case jpBinary:
		open()
		e.args[0].print(b, e.args[0].priority() <= e.priority())
		b.WriteString(" " + e.op + " ")
		e.args[1].print(b, e.args[1].priority() <= e.priority())
		closing()
	case jpUnary:
		if e.op == "!" {
			b.WriteString("!(")
			e.args[0].print(b, false)
			b.WriteByte(')')
			break
		}
		open()
		b.WriteString(e.op)
		e.args[0].print(b, e.args[0].priority() <= e.priority())
		closing()
	case jpExists:
		b.WriteString("exists (")
		e.args[0].print(b, false)
		b.WriteByte(')')
	case jpIsUnknown:
		b.WriteByte('(')
		e.args[0].print(b, false)
		b.WriteString(") is unknown")
	case jpStartsWith:
		open()
		e.args[0].print(b, false)
		b.WriteString(" starts with ")
		e.args[1].print(b, false)
		closing()
	case jpLikeRegex:
		open()
		e.args[0].print(b, false)
		b.WriteString(" like_regex ")
		writeJSONString(b, e.str)
		if e.flags != "" {
			b.WriteString(" flag ")
			writeJSONString(b, e.flags)
		}
		closing()
	}
	for _, st := range e.steps {
		st.print(b)
	}
}

func (st *jpStep) print(b *strings.Builder) {
	switch st.kind {
	case jpKey:
		b.WriteByte('.')
		writeJSONString(b, st.name)
	case jpAnyKey:
		b.WriteString(".*")
	case jpAnyIndex:
		b.WriteString("[*]")
	case jpIndex:
		b.WriteByte('[')
		for i, s := range st.subs {
			if i > 0 {
				b.WriteByte(',')
			}
			s[0].print(b, false)
			if s[1] != nil {
				b.WriteString(" to ")
				s[1].print(b, false)
			}
		}
		b.WriteByte(']')
	case jpAny:
		b.WriteString(".**")
		level := func(n int) string {
			if n < 0 {
				return "last"
			}
			return strconv.Itoa(n)
		}
		switch {
		case st.from == 0 && st.to == -1:
		case st.from == st.to:
			fmt.Fprintf(b, "{%s}", level(st.from))
		default:
			fmt.Fprintf(b, "{%s to %s}", level(st.from), level(st.to))
		}
	case jpFilter:
		b.WriteString("?(")
		st.pred.print(b, false)
		b.WriteByte(')')
	case jpMethod:
		b.WriteString("." + st.name + "()")
	}
}
