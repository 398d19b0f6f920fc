package pgcatalog

import (
	"math"
	"strconv"
	"strings"
)

// Evaluating a jsonpath over a jsonb value, as PostgreSQL 15's
// jsonpath_exec.c does. In lax mode (the default) accessors unwrap arrays
// one level and structural mismatches (a key of a non-object, a subscript
// out of bounds) yield nothing; in strict mode they are errors. Predicates
// are three-valued: a comparison of items that cannot be compared is
// unknown, and a comparison of sequences is true when some pair is.

// jpEval is one evaluation: the root, the variables and the mode.
type jpEval struct {
	ev     *evaluator
	strict bool
	root   *jsonNode
	vars   *jsonNode // an object, or nil
	// last is the last subscript of the array being subscripted, when
	// inArray.
	last    int
	inArray bool
}

// jpTruth is a predicate's three-valued result.
type jpTruth uint8

const (
	jpFalse jpTruth = iota
	jpTrue
	jpUnknown
)

// jpError is an error of the path's evaluation (not a syntax error):
// silent evaluation suppresses these.
type jpError struct{ err *Error }

func (e *jpError) Error() string { return e.err.Message }

func jpErrorf(code, format string, args ...any) error {
	return &jpError{errorf(code, noPos, format, args...)}
}

// evalJSONPath runs path over root.
func evalJSONPath(ev *evaluator, path *jpPath, root, vars *jsonNode) ([]*jsonNode, error) {
	x := &jpEval{ev: ev, strict: path.strict, root: root, vars: vars}
	return x.expr(path.expr, root)
}

func jpNum(n *numeric) *jsonNode  { return &jsonNode{kind: jsonNumber, str: n.String()} }
func jpStr(s string) *jsonNode    { return &jsonNode{kind: jsonString, str: s} }
func jpBoolNode(b bool) *jsonNode { return &jsonNode{kind: jsonBool, b: b} }
func jpNullNode() *jsonNode       { return &jsonNode{kind: jsonNull} }
func jpNumeric(n *jsonNode) *numeric {
	v, err := parseNumeric(n.str)
	if err != nil {
		return numericFromInt(0)
	}
	return v
}

// expr evaluates e with @ = cur: its primary, then its accessors in turn.
func (x *jpEval) expr(e *jpExpr, cur *jsonNode) ([]*jsonNode, error) {
	items, err := x.primary(e, cur)
	if err != nil {
		return nil, err
	}
	for _, st := range e.steps {
		var next []*jsonNode
		for _, it := range items {
			out, err := x.step(st, it, !x.strict)
			if err != nil {
				return nil, err
			}
			next = append(next, out...)
		}
		items = next
	}
	return items, nil
}

func (x *jpEval) primary(e *jpExpr, cur *jsonNode) ([]*jsonNode, error) {
	switch e.kind {
	case jpRoot:
		return []*jsonNode{x.root}, nil
	case jpCurrent:
		return []*jsonNode{cur}, nil
	case jpVar:
		if x.vars != nil {
			if v := x.vars.field(e.str); v != nil {
				return []*jsonNode{v}, nil
			}
		}
		return nil, errorf(CodeUndefinedObject, noPos, "could not find jsonpath variable \"%s\"", e.str)
	case jpLast:
		if !x.inArray {
			return nil, jpErrorf("22000", "evaluating jsonpath LAST outside of array subscript")
		}
		return []*jsonNode{jpNum(numericFromInt(int64(x.last)))}, nil
	case jpNumber:
		return []*jsonNode{{kind: jsonNumber, str: e.str}}, nil
	case jpString:
		return []*jsonNode{jpStr(e.str)}, nil
	case jpBool:
		return []*jsonNode{jpBoolNode(e.b)}, nil
	case jpNull:
		return []*jsonNode{jpNullNode()}, nil
	case jpUnary:
		if e.op != "!" {
			return x.unaryArith(e, cur)
		}
	case jpBinary:
		switch e.op {
		case "+", "-", "*", "/", "%":
			return x.binaryArith(e, cur)
		}
	}
	// A predicate as a value: true, false, or null for unknown.
	t, err := x.pred(e, cur)
	if err != nil {
		return nil, err
	}
	if t == jpUnknown {
		return []*jsonNode{jpNullNode()}, nil
	}
	return []*jsonNode{jpBoolNode(t == jpTrue)}, nil
}

// operand evaluates an operator's operand, unwrapping arrays in lax mode.
func (x *jpEval) operand(e *jpExpr, cur *jsonNode) ([]*jsonNode, error) {
	items, err := x.expr(e, cur)
	if err != nil || x.strict {
		return items, err
	}
	return unwrapArrays(items), nil
}

func unwrapArrays(items []*jsonNode) []*jsonNode {
	var out []*jsonNode
	for _, it := range items {
		if it.kind == jsonArray {
			out = append(out, it.elems...)
		} else {
			out = append(out, it)
		}
	}
	return out
}

func (x *jpEval) binaryArith(e *jpExpr, cur *jsonNode) ([]*jsonNode, error) {
	var ns [2]*numeric
	for i, side := range []string{"left", "right"} {
		items, err := x.operand(e.args[i], cur)
		if err != nil {
			return nil, err
		}
		if len(items) != 1 || items[0].kind != jsonNumber {
			return nil, jpErrorf("22038", "%s operand of jsonpath operator %s is not a single numeric value", side, e.op)
		}
		ns[i] = jpNumeric(items[0])
	}
	n, err := numericArith(e.op, ns[0], ns[1])
	if err != nil {
		if pe, ok := err.(*Error); ok {
			return nil, &jpError{pe}
		}
		return nil, err
	}
	return []*jsonNode{jpNum(n)}, nil
}

func (x *jpEval) unaryArith(e *jpExpr, cur *jsonNode) ([]*jsonNode, error) {
	items, err := x.operand(e.args[0], cur)
	if err != nil {
		return nil, err
	}
	out := make([]*jsonNode, 0, len(items))
	for _, it := range items {
		if it.kind != jsonNumber {
			return nil, jpErrorf("2203B", "operand of unary jsonpath operator %s is not a numeric value", e.op)
		}
		if e.op == "-" {
			it = jpNum(jpNumeric(it).neg())
		}
		out = append(out, it)
	}
	return out, nil
}

// pred evaluates a predicate. Errors inside it make it unknown; only a
// missing variable escapes.
func (x *jpEval) pred(e *jpExpr, cur *jsonNode) (jpTruth, error) {
	switch e.kind {
	case jpBinary:
		switch e.op {
		case "&&":
			l, err := x.pred(e.args[0], cur)
			if err != nil || l == jpFalse {
				return jpFalse, err
			}
			r, err := x.pred(e.args[1], cur)
			if err != nil || l == jpTrue || r == jpFalse {
				return r, err
			}
			return jpUnknown, nil
		case "||":
			l, err := x.pred(e.args[0], cur)
			if err != nil || l == jpTrue {
				return jpTrue, err
			}
			r, err := x.pred(e.args[1], cur)
			if err != nil || l == jpFalse || r == jpTrue {
				return r, err
			}
			return jpUnknown, nil
		case "+", "-", "*", "/", "%":
		default:
			return x.compare(e, cur)
		}
	case jpUnary:
		if e.op == "!" {
			t, err := x.pred(e.args[0], cur)
			switch t {
			case jpTrue:
				return jpFalse, err
			case jpFalse:
				return jpTrue, err
			}
			return jpUnknown, err
		}
	case jpIsUnknown:
		t, err := x.pred(e.args[0], cur)
		if t == jpUnknown {
			return jpTrue, err
		}
		return jpFalse, err
	case jpExists:
		items, err := x.expr(e.args[0], cur)
		if err != nil {
			return x.unknown(err)
		}
		if len(items) > 0 {
			return jpTrue, nil
		}
		return jpFalse, nil
	case jpStartsWith, jpLikeRegex:
		return x.stringPred(e, cur)
	}
	// Not a predicate: a path whose single boolean result decides it.
	items, err := x.expr(e, cur)
	if err != nil {
		return x.unknown(err)
	}
	if len(items) == 1 && items[0].kind == jsonBool {
		if items[0].b {
			return jpTrue, nil
		}
		return jpFalse, nil
	}
	return jpUnknown, nil
}

// unknown is what an error makes a predicate: unknown, unless the error is
// a missing variable, which fails the query.
func (x *jpEval) unknown(err error) (jpTruth, error) {
	if _, ok := err.(*jpError); ok {
		return jpUnknown, nil
	}
	return jpUnknown, err
}

// compare is a comparison of two sequences: true if some pair compares
// true (lax mode stops there), unknown if a pair cannot be compared.
func (x *jpEval) compare(e *jpExpr, cur *jsonNode) (jpTruth, error) {
	ls, err := x.operand(e.args[0], cur)
	if err != nil {
		return x.unknown(err)
	}
	rs, err := x.operand(e.args[1], cur)
	if err != nil {
		return x.unknown(err)
	}
	var some jpSome
	for _, l := range ls {
		for _, r := range rs {
			if t, done := some.add(jpCompareItems(e.op, l, r), x.strict); done {
				return t, nil
			}
		}
	}
	return some.result(), nil
}

// jpSome folds a predicate's results over a sequence, as PostgreSQL's
// executePredicate does: true when one is true (lax mode stops there),
// else unknown when one is unknown (strict mode stops there), else false.
type jpSome struct{ found, unknown bool }

// add folds in one result; done says the predicate is decided, as t.
func (s *jpSome) add(t jpTruth, strict bool) (_ jpTruth, done bool) {
	switch t {
	case jpUnknown:
		if strict {
			return jpUnknown, true
		}
		s.unknown = true
	case jpTrue:
		if !strict {
			return jpTrue, true
		}
		s.found = true
	}
	return jpFalse, false
}

func (s *jpSome) result() jpTruth {
	switch {
	case s.found:
		return jpTrue
	case s.unknown:
		return jpUnknown
	}
	return jpFalse
}

func jpCompareItems(op string, a, b *jsonNode) jpTruth {
	if a.kind != b.kind {
		if a.kind == jsonNull || b.kind == jsonNull {
			return jpTruthOf(op == "!=")
		}
		return jpUnknown
	}
	var c int
	switch a.kind {
	case jsonNull:
	case jsonBool:
		switch {
		case a.b == b.b:
		case a.b:
			c = 1
		default:
			c = -1
		}
	case jsonNumber:
		c = jpNumeric(a).cmp(jpNumeric(b))
	case jsonString:
		c = strings.Compare(a.str, b.str)
	default:
		return jpUnknown // arrays and objects do not compare
	}
	switch op {
	case "==":
		return jpTruthOf(c == 0)
	case "!=":
		return jpTruthOf(c != 0)
	case "<":
		return jpTruthOf(c < 0)
	case "<=":
		return jpTruthOf(c <= 0)
	case ">":
		return jpTruthOf(c > 0)
	}
	return jpTruthOf(c >= 0)
}

func jpTruthOf(b bool) jpTruth {
	if b {
		return jpTrue
	}
	return jpFalse
}

// stringPred is starts with or like_regex over each item of the left
// operand: true if one matches, unknown if one is not a string.
func (x *jpEval) stringPred(e *jpExpr, cur *jsonNode) (jpTruth, error) {
	ls, err := x.operand(e.args[0], cur)
	if err != nil {
		return x.unknown(err)
	}
	var prefix string
	if e.kind == jpStartsWith {
		rs, err := x.expr(e.args[1], cur)
		if err != nil {
			return x.unknown(err)
		}
		if len(rs) != 1 || rs[0].kind != jsonString {
			return jpUnknown, nil
		}
		prefix = rs[0].str
	}
	var some jpSome
	for _, l := range ls {
		if l.kind != jsonString {
			if t, done := some.add(jpUnknown, x.strict); done {
				return t, nil
			}
			continue
		}
		var ok bool
		if e.kind == jpStartsWith {
			ok = strings.HasPrefix(l.str, prefix)
		} else {
			pattern := e.str
			if strings.Contains(e.flags, "q") {
				pattern = literalPattern(pattern)
			}
			fold := strings.Contains(e.flags, "i")
			for _, f := range []struct{ flag, inline string }{{"s", "(?s)"}, {"m", "(?m)"}} {
				if strings.Contains(e.flags, f.flag) {
					pattern = f.inline + pattern
				}
			}
			re, err := x.ev.regexp(pattern, fold)
			if err != nil {
				return jpUnknown, err
			}
			ok = re.MatchString(l.str)
		}
		if t, done := some.add(jpTruthOf(ok), x.strict); done {
			return t, nil
		}
	}
	return some.result(), nil
}

// literalPattern escapes a like_regex pattern flagged q (literal).
func literalPattern(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`\.+*?()|[]{}^$`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// step applies an accessor to one item.
func (x *jpEval) step(st *jpStep, it *jsonNode, unwrap bool) ([]*jsonNode, error) {
	if unwrap && it.kind == jsonArray {
		switch st.kind {
		case jpKey, jpAnyKey, jpFilter:
			return x.each(st, it.elems)
		case jpMethod:
			if st.name != "type" && st.name != "size" {
				return x.each(st, it.elems)
			}
		}
	}
	switch st.kind {
	case jpKey:
		if it.kind != jsonObject {
			return x.structural("2203A", "jsonpath member accessor can only be applied to an object")
		}
		if v := it.field(st.name); v != nil {
			return []*jsonNode{v}, nil
		}
		return x.structural("2203A", "JSON object does not contain key \""+st.name+"\"")
	case jpAnyKey:
		if it.kind != jsonObject {
			return x.structural("2203C", "jsonpath wildcard member accessor can only be applied to an object")
		}
		return it.vals, nil
	case jpAnyIndex:
		if it.kind != jsonArray {
			if x.strict {
				return nil, jpErrorf("22039", "jsonpath wildcard array accessor can only be applied to an array")
			}
			return []*jsonNode{it}, nil
		}
		return it.elems, nil
	case jpIndex:
		return x.subscript(st, it)
	case jpAny:
		var out []*jsonNode
		if st.from == 0 || st.from == -1 && it.kind != jsonArray && it.kind != jsonObject {
			out = append(out, it)
		}
		jpDescend(it, 1, st.from, st.to, &out)
		return out, nil
	case jpFilter:
		t, err := x.pred(st.pred, it)
		if err != nil || t != jpTrue {
			return nil, err
		}
		return []*jsonNode{it}, nil
	case jpMethod:
		return x.method(st.name, it)
	}
	return nil, nil
}

func (x *jpEval) each(st *jpStep, items []*jsonNode) ([]*jsonNode, error) {
	var out []*jsonNode
	for _, e := range items {
		r, err := x.step(st, e, false)
		if err != nil {
			return nil, err
		}
		out = append(out, r...)
	}
	return out, nil
}

// structural is a structural error: nothing in lax mode, an error in
// strict.
func (x *jpEval) structural(code, msg string) ([]*jsonNode, error) {
	if x.strict {
		return nil, jpErrorf(code, "%s", msg)
	}
	return nil, nil
}

// jpDescend collects .**'s items below n, depth first: those at levels
// from to to (-1: last, the leaves when from is -1 too).
func jpDescend(n *jsonNode, level, from, to int, out *[]*jsonNode) {
	var kids []*jsonNode
	switch n.kind {
	case jsonArray:
		kids = n.elems
	case jsonObject:
		kids = n.vals
	default:
		return
	}
	for _, k := range kids {
		container := k.kind == jsonArray || k.kind == jsonObject
		if from == -1 && to == -1 {
			if !container {
				*out = append(*out, k)
			}
		} else if level >= from && (to == -1 || level <= to) {
			*out = append(*out, k)
		}
		if to == -1 || level < to {
			jpDescend(k, level+1, from, to, out)
		}
	}
}

// subscript applies [subscripts] to an item: an array, or in lax mode any
// item as an array of itself.
func (x *jpEval) subscript(st *jpStep, it *jsonNode) ([]*jsonNode, error) {
	elems := it.elems
	if it.kind != jsonArray {
		if x.strict {
			return nil, jpErrorf("22039", "jsonpath array accessor can only be applied to an array")
		}
		elems = []*jsonNode{it}
	}
	savedLast, savedIn := x.last, x.inArray
	x.last, x.inArray = len(elems)-1, true
	defer func() { x.last, x.inArray = savedLast, savedIn }()
	var out []*jsonNode
	for _, s := range st.subs {
		from, err := x.index(s[0], it)
		if err != nil {
			return nil, err
		}
		to := from
		if s[1] != nil {
			if to, err = x.index(s[1], it); err != nil {
				return nil, err
			}
		}
		if x.strict && (from < 0 || from > to || to >= len(elems)) {
			return nil, jpErrorf("22033", "jsonpath array subscript is out of bounds")
		}
		from = max(from, 0)
		to = min(to, len(elems)-1)
		for i := from; i <= to; i++ {
			out = append(out, elems[i])
		}
	}
	return out, nil
}

// index evaluates a subscript: one number, truncated to an integer.
func (x *jpEval) index(e *jpExpr, cur *jsonNode) (int, error) {
	items, err := x.operand(e, cur)
	if err != nil {
		return 0, err
	}
	if len(items) != 1 || items[0].kind != jsonNumber {
		return 0, jpErrorf("22033", "jsonpath array subscript is not a single numeric value")
	}
	n, ok := jpNumeric(items[0]).round(0, true).integer()
	if !ok || n > math.MaxInt32 || n < math.MinInt32 {
		return 0, jpErrorf("22033", "jsonpath array subscript is out of integer range")
	}
	return int(n), nil
}

// method applies an item method.
func (x *jpEval) method(name string, it *jsonNode) ([]*jsonNode, error) {
	switch name {
	case "type":
		return []*jsonNode{jpStr(it.typeName())}, nil
	case "size":
		if it.kind != jsonArray {
			if x.strict {
				return nil, jpErrorf("22039", "jsonpath item method .size() can only be applied to an array")
			}
			return []*jsonNode{jpNum(numericFromInt(1))}, nil
		}
		return []*jsonNode{jpNum(numericFromInt(int64(len(it.elems))))}, nil
	case "double":
		var f float64
		switch it.kind {
		case jsonNumber:
			f = jpNumeric(it).float()
		case jsonString:
			var err error
			if f, err = strconv.ParseFloat(strings.TrimSpace(it.str), 64); err != nil {
				return nil, jpErrorf("22038", "string argument of jsonpath item method .double() is not a valid representation of a double precision number")
			}
		default:
			return nil, jpErrorf("2203C", "jsonpath item method .double() can only be applied to a string or numeric value")
		}
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, jpErrorf("22038", "NaN or Infinity is not allowed for jsonpath item method .double()")
		}
		n, err := numericFromFloat(f)
		if err != nil {
			return nil, err
		}
		return []*jsonNode{jpNum(n)}, nil
	case "ceiling", "floor", "abs":
		if it.kind != jsonNumber {
			return nil, jpErrorf("2203C", "jsonpath item method .%s() can only be applied to a numeric value", name)
		}
		n := jpNumeric(it)
		switch name {
		case "ceiling":
			n = n.floorCeil(true)
		case "floor":
			n = n.floorCeil(false)
		default:
			n = n.abs()
		}
		return []*jsonNode{jpNum(n)}, nil
	}
	return nil, errorf(CodeNotSupported, noPos, "jsonpath item method .%s() is not supported", name)
}
