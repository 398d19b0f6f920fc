package pgcatalog

import (
	"math"
	"regexp"
	"strings"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

func (b *binder) bindAExpr(a *pg_query.A_Expr, sc *scope) (*cexpr, error) {
	op := lastName(a.Name)
	switch a.Kind {
	case pg_query.A_Expr_Kind_AEXPR_OP:
		if lr, rr := a.Lexpr.GetRowExpr(), a.Rexpr.GetRowExpr(); lr != nil && rr != nil {
			return b.rowComparison(op, lr.Args, rr.Args, sc, a.Location)
		}
		if lr, sub := a.Lexpr.GetRowExpr(), a.Rexpr.GetSubLink(); lr != nil && sub != nil && sub.SubLinkType == pg_query.SubLinkType_EXPR_SUBLINK {
			return b.rowSubqueryComparison(op, lr.Args, sub, sc, a.Location)
		}
		r, err := b.bindExpr(a.Rexpr, sc)
		if err != nil {
			return nil, err
		}
		if a.Lexpr == nil {
			return b.unaryOp(op, r, a.Location)
		}
		l, err := b.bindExpr(a.Lexpr, sc)
		if err != nil {
			return nil, err
		}
		return b.binaryOp(op, l, r, a.Location)
	case pg_query.A_Expr_Kind_AEXPR_LIKE, pg_query.A_Expr_Kind_AEXPR_ILIKE:
		l, r, err := b.bindPair(a, sc)
		if err != nil {
			return nil, err
		}
		return b.binaryOp(op, l, r, a.Location)
	case pg_query.A_Expr_Kind_AEXPR_OP_ANY, pg_query.A_Expr_Kind_AEXPR_OP_ALL:
		l, r, err := b.bindPair(a, sc)
		if err != nil {
			return nil, err
		}
		return b.anyAll(op, l, r, a.Kind == pg_query.A_Expr_Kind_AEXPR_OP_ALL, a.Location)
	case pg_query.A_Expr_Kind_AEXPR_IN:
		return b.bindIn(a, op, sc)
	case pg_query.A_Expr_Kind_AEXPR_DISTINCT, pg_query.A_Expr_Kind_AEXPR_NOT_DISTINCT:
		l, r, err := b.bindPair(a, sc)
		if err != nil {
			return nil, err
		}
		l, r = b.unify(l, r)
		want := a.Kind == pg_query.A_Expr_Kind_AEXPR_NOT_DISTINCT
		return &cexpr{typ: tBool, name: "?column?", fn: func(ev *evaluator, e *env) (Value, error) {
			x, y, err := eval2(ev, e, l, r)
			if err != nil {
				return null, err
			}
			return boolV(notDistinct(x, y) == want), nil
		}}, nil
	case pg_query.A_Expr_Kind_AEXPR_NULLIF:
		l, r, err := b.bindPair(a, sc)
		if err != nil {
			return nil, err
		}
		l, r = b.unify(l, r)
		// The result is the first argument of the = operator chosen, which
		// promotes an integer compared with a numeric or a float, and a
		// numeric compared with a float: NULLIF(1, 2.5) is numeric.
		typ := outputType(l.typ)
		switch {
		case kindOf(l.typ) == kInt && !isRegType(l.typ) && r.typ == tNumeric:
			typ = tNumeric
		case (kindOf(l.typ) == kInt && !isRegType(l.typ) || l.typ == tNumeric) && kindOf(r.typ) == kFloat:
			typ = tFloat8
		}
		return &cexpr{typ: typ, name: "nullif", fn: func(ev *evaluator, e *env) (Value, error) {
			x, y, err := eval2(ev, e, l, r)
			if err != nil || x.isNull() || y.isNull() {
				return x, err
			}
			if compare(x, y) == 0 {
				return null, nil
			}
			if typ != l.typ && typ != tText {
				return ev.cast(x, l.typ, typ)
			}
			return x, nil
		}}, nil
	case pg_query.A_Expr_Kind_AEXPR_SIMILAR: // the pattern is similar_to_escape(...), a regex
		l, r, err := b.bindPair(a, sc)
		if err != nil {
			return nil, err
		}
		return b.binaryOp(op, l, r, a.Location)
	case pg_query.A_Expr_Kind_AEXPR_BETWEEN, pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN,
		pg_query.A_Expr_Kind_AEXPR_BETWEEN_SYM, pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN_SYM:
		l, err := b.bindExpr(a.Lexpr, sc)
		if err != nil {
			return nil, err
		}
		items := a.Rexpr.GetList().GetItems()
		lo, err := b.bindExpr(items[0], sc)
		if err != nil {
			return nil, err
		}
		hi, err := b.bindExpr(items[1], sc)
		if err != nil {
			return nil, err
		}
		ge, err := b.binaryOp(">=", l, lo, a.Location)
		if err != nil {
			return nil, err
		}
		le, err := b.binaryOp("<=", l, hi, a.Location)
		if err != nil {
			return nil, err
		}
		e := andAll([]*cexpr{ge, le})
		if a.Kind == pg_query.A_Expr_Kind_AEXPR_BETWEEN_SYM || a.Kind == pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN_SYM {
			// SYMMETRIC: either bound may be the lower one.
			geHi, err := b.binaryOp(">=", l, hi, a.Location)
			if err != nil {
				return nil, err
			}
			leLo, err := b.binaryOp("<=", l, lo, a.Location)
			if err != nil {
				return nil, err
			}
			e = orAll([]*cexpr{e, andAll([]*cexpr{geHi, leLo})})
		}
		if a.Kind == pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN || a.Kind == pg_query.A_Expr_Kind_AEXPR_NOT_BETWEEN_SYM {
			e = notExpr(e)
		}
		return e, nil
	}
	return nil, errorf(CodeNotSupported, a.Location, "unsupported operator in catalog query")
}

func (b *binder) bindPair(a *pg_query.A_Expr, sc *scope) (*cexpr, *cexpr, error) {
	l, err := b.bindExpr(a.Lexpr, sc)
	if err != nil {
		return nil, nil, err
	}
	r, err := b.bindExpr(a.Rexpr, sc)
	return l, r, err
}

func eval2(ev *evaluator, e *env, l, r *cexpr) (Value, Value, error) {
	x, err := l.fn(ev, e)
	if err != nil {
		return null, null, err
	}
	y, err := r.fn(ev, e)
	return x, y, err
}

// unify gives untyped operands the other operand's type (text if both are
// untyped), as PostgreSQL resolves unknown literals, and a date or time
// operand of an earlier type the later one's.
func (b *binder) unify(l, r *cexpr) (*cexpr, *cexpr) {
	switch {
	case l.untyped && r.untyped:
		return b.coerce(l, tText), b.coerce(r, tText)
	case l.untyped:
		return b.coerce(l, r.typ), r
	case r.untyped:
		return l, b.coerce(r, l.typ)
	case l.typ != r.typ && timeRank(l.typ) > 0 && timeRank(r.typ) > 0:
		// date, timestamp and timestamptz compare and combine as the
		// later type, through PostgreSQL's implicit casts: their text
		// forms do not order as their values.
		t := unifyTypes(l.typ, r.typ)
		return b.coerce(l, t), b.coerce(r, t)
	}
	return l, r
}

func (b *binder) bindIn(a *pg_query.A_Expr, op string, sc *scope) (*cexpr, error) {
	l, err := b.bindExpr(a.Lexpr, sc)
	if err != nil {
		return nil, err
	}
	var conds []*cexpr
	for _, item := range a.Rexpr.GetList().GetItems() {
		if lr, rr := a.Lexpr.GetRowExpr(), item.GetRowExpr(); lr != nil && rr != nil {
			// (a, b) IN ((1, 2), ...): row comparisons, NULL when a field is
			c, err := b.rowComparison(op, lr.Args, rr.Args, sc, a.Location)
			if err != nil {
				return nil, err
			}
			conds = append(conds, c)
			continue
		}
		r, err := b.bindExpr(item, sc)
		if err != nil {
			return nil, err
		}
		c, err := b.binaryOp(op, l, r, a.Location)
		if err != nil {
			return nil, err
		}
		conds = append(conds, c)
	}
	if op == "<>" {
		return andAll(conds), nil
	}
	return orAll(conds), nil
}

// mathOperators are the operators PostgreSQL defines as functions of
// double precision or numeric: |/ square root, ||/ cube root, @ absolute
// value, ^ power.
var mathOperators = map[string]string{"|/": "sqrt", "||/": "cbrt", "@": "abs", "^": "power"}

func (b *binder) unaryOp(op string, r *cexpr, pos int32) (*cexpr, error) {
	if r.untyped {
		r = b.coerce(r, tNumeric)
	}
	if fn, ok := mathOperators[op]; ok && op != "^" {
		if op != "@" { // the roots are double precision's alone
			r = b.coerce(r, tFloat8)
		}
		e, err := b.applyBuiltin(fn, funcs[fn], []*cexpr{r}, pos)
		if e != nil {
			e.name = "?column?"
		}
		return e, err
	}
	switch op {
	case "-", "+", "~":
		return &cexpr{typ: r.typ, name: "?column?", fn: func(ev *evaluator, e *env) (Value, error) {
			v, err := r.fn(ev, e)
			if err != nil || v.isNull() {
				return null, err
			}
			switch {
			case op == "+":
				return v, nil
			case op == "~" && v.k == kInt:
				return intV(^v.i), nil
			case v.k == kInt:
				if err := intRange(-v.i, r.typ, "-", 0, v.i); err != nil && isIntegerType(r.typ) {
					return null, err
				}
				return intV(-v.i), nil
			case v.k == kFloat:
				return floatV(-v.f), nil
			case v.k == kNumeric:
				n, err := parseNumeric(v.s)
				if err != nil {
					return null, err
				}
				return numericV(n.neg()), nil
			case r.typ == tInterval && op == "-":
				iv, err := parseInterval(v.s)
				if err != nil {
					return null, err
				}
				return textV(interval{-iv.months, -iv.days, -iv.micros}.String()), nil
			}
			return null, noOperator(pos, 0, op, r.typ)
		}}, nil
	}
	return nil, noOperator(pos, 0, op, r.typ)
}

// binaryOp binds l op r.
func (b *binder) binaryOp(op string, l, r *cexpr, pos int32) (*cexpr, error) {
	if e, ok := b.jsonEditOp(op, l, r); ok {
		return e, nil
	}
	if e, ok := b.jsonOp(op, l, r); ok {
		return e, nil
	}
	if e, ok := b.jsonPathOp(op, l, r); ok {
		return e, nil
	}
	switch op {
	case "=", "<>", "!=", "<", ">", "<=", ">=":
		if l.typ == tJSONPath || r.typ == tJSONPath { // jsonpath has no comparison operators
			return nil, noOperator(pos, l.typ, op, r.typ)
		}
		if l.typ == tInterval || r.typ == tInterval {
			return intervalCmp(op, b.coerce(l, tInterval), b.coerce(r, tInterval)), nil
		}
		l, r = b.unify(l, r)
		return cmpExpr(op, l, r), nil
	case "~", "!~", "~*", "!~*", "~~", "!~~", "~~*", "!~~*":
		if l.typ == tBytea || r.typ == tBytea && l.untyped {
			if op != "~~" && op != "!~~" || r.typ != tBytea && !r.untyped {
				return nil, noOperator(pos, tBytea, op, r.typ)
			}
			return likeBytesExpr(op == "!~~", b.coerce(l, tBytea), b.coerce(r, tBytea)), nil
		}
		l, r = b.coerce(l, tText), b.coerce(r, tText)
		return matchExpr(op, l, r), nil
	case "||":
		return b.concatExpr(l, r), nil
	case "^", "^@":
		name := map[string]string{"^": "power", "^@": "starts_with"}[op]
		if op == "^@" && (l.typ != tText && !l.untyped || r.typ != tText && !r.untyped) {
			return nil, noOperator(pos, l.typ, op, r.typ)
		}
		e, err := b.applyBuiltin(name, funcs[name], []*cexpr{l, r}, pos)
		if e != nil {
			e.name = "?column?"
		}
		return e, err
	case "+", "-", "*", "/", "%", "&", "|", "#", "<<", ">>":
		if e, ok := b.timeOfDayArith(op, l, r); ok {
			return e, nil
		}
		if e, ok := b.timeArith(op, l, r); ok {
			return e, nil
		}
		l, r = b.unify(l, r)
		return arithExpr(op, l, r, pos)
	case "@>", "<@", "&&":
		l, r = b.unify(l, r)
		return arrayOpExpr(op, l, r), nil
	}
	return nil, noOperator(pos, l.typ, op, r.typ)
}

func cmpExpr(op string, l, r *cexpr) *cexpr {
	// Dates past 9999, timetz and "char", whose text does not order as
	// their values do (compareAs).
	if l.typ == r.typ && (timeRank(l.typ) > 0 || l.typ == tTimetz || l.typ == tChar) {
		return strictBinary(tBool, l, r, func(x, y Value) (Value, error) {
			return boolV(cmpResult(op, compareAs(x, y, l.typ))), nil
		})
	}
	return &cexpr{typ: tBool, name: "?column?", fn: func(ev *evaluator, e *env) (Value, error) {
		x, y, err := eval2(ev, e, l, r)
		if err != nil || x.isNull() || y.isNull() {
			return null, err
		}
		return boolV(cmpResult(op, compare(x, y))), nil
	}}
}

func cmpResult(op string, c int) bool {
	switch op {
	case "=":
		return c == 0
	case "<>", "!=":
		return c != 0
	case "<":
		return c < 0
	case ">":
		return c > 0
	case "<=":
		return c <= 0
	}
	return c >= 0
}

// matchExpr binds the regular-expression and LIKE operators.
func matchExpr(op string, l, r *cexpr) *cexpr {
	negate := strings.HasPrefix(op, "!")
	fold := strings.HasSuffix(op, "*")
	like := strings.Contains(op, "~~")
	if like && !fold && r.isConst && !r.val.isNull() && !likeHasAnyChar(r.val.s) {
		return likeTextExpr(negate, l, r.val.s)
	}
	return &cexpr{typ: tBool, name: "?column?", fn: func(ev *evaluator, e *env) (Value, error) {
		x, y, err := eval2(ev, e, l, r)
		if err != nil || x.isNull() || y.isNull() {
			return null, err
		}
		var re *regexp.Regexp
		if like {
			re, err = ev.likeRegexp(y.s, fold)
		} else {
			re, err = ev.pgRegexp(y.s, reOptions{fold: fold, newline: 's'})
		}
		if err != nil {
			return null, err
		}
		return boolV(re.MatchString(x.s) != negate), nil
	}}
}

// likeTextExpr binds text LIKE (NOT LIKE when negate) with a constant
// pattern that has no _: % matches any run of characters, and every
// literal is whole UTF-8 sequences, which can only match at a character's
// start, so matching bytes (likeBytes) is matching characters, with no
// regular expression to build or run per row.
func likeTextExpr(negate bool, l *cexpr, pattern string) *cexpr {
	return &cexpr{typ: tBool, name: "?column?", fn: func(ev *evaluator, e *env) (Value, error) {
		x, err := l.fn(ev, e)
		if err != nil || x.isNull() {
			return null, err
		}
		ok, err := likeBytes(x.s, pattern)
		if err != nil {
			return null, err
		}
		return boolV(ok != negate), nil
	}}
}

// likeHasAnyChar reports whether LIKE pattern p holds an unescaped _,
// which matches one character (not one byte).
func likeHasAnyChar(p string) bool {
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '_':
			return true
		}
	}
	return false
}

// likeBytesExpr binds bytea LIKE (NOT LIKE when negate): it matches bytes,
// not the text of their hex form. A constant pattern is decoded once.
func likeBytesExpr(negate bool, l, r *cexpr) *cexpr {
	var pattern []byte
	if r.isConst && !r.val.isNull() {
		pattern = byteaBytes(r.val)
	}
	return &cexpr{typ: tBool, name: "?column?", fn: func(ev *evaluator, e *env) (Value, error) {
		x, y, err := eval2(ev, e, l, r)
		if err != nil || x.isNull() || y.isNull() {
			return null, err
		}
		p := pattern
		if p == nil {
			p = byteaBytes(y)
		}
		ok, err := likeBytes(byteaBytes(x), p)
		if err != nil {
			return null, err
		}
		return boolV(ok != negate), nil
	}}
}

func (b *binder) concatExpr(l, r *cexpr) *cexpr {
	if isArrayType(l.typ) || isArrayType(r.typ) {
		typ := l.typ
		if !isArrayType(typ) {
			typ = r.typ
		}
		if l.untyped {
			l = b.coerce(l, typ)
		}
		if r.untyped {
			r = b.coerce(r, typ)
		}
		return &cexpr{typ: typ, name: "?column?", fn: func(ev *evaluator, e *env) (Value, error) {
			x, y, err := eval2(ev, e, l, r)
			if err != nil {
				return null, err
			}
			var out []Value
			for _, v := range []Value{x, y} {
				switch v.k {
				case kArray:
					out = append(out, v.a...)
				case kNull:
				default:
					out = append(out, v)
				}
			}
			if x.isNull() && y.isNull() {
				return null, nil
			}
			return arrayV(out), nil
		}}
	}
	if l.typ == tBytea && (r.typ == tBytea || r.untyped) || r.typ == tBytea && l.untyped {
		l, r = b.coerce(l, tBytea), b.coerce(r, tBytea)
		return &cexpr{typ: tBytea, name: "?column?", fn: func(ev *evaluator, e *env) (Value, error) {
			x, y, err := eval2(ev, e, l, r)
			if err != nil || x.isNull() || y.isNull() {
				return null, err
			}
			if len(x.s)+len(y.s) > 2*maxRepeatBytes {
				return null, textTooLong(len(x.s)/2, len(y.s)/2)
			}
			return textV(x.s + strings.TrimPrefix(y.s, `\x`)), nil // byteaV's \x hex, appended
		}}
	}
	lt, rt := l.typ, r.typ
	return &cexpr{typ: tText, name: "?column?", fn: func(ev *evaluator, e *env) (Value, error) {
		x, y, err := eval2(ev, e, l, r)
		if err != nil || x.isNull() || y.isNull() {
			return null, err
		}
		xs, ys := castToText(ev, x, lt), castToText(ev, y, rt) // anytextcat casts to text
		if len(xs)+len(ys) > maxRepeatBytes {
			return null, textTooLong(len(xs), len(ys))
		}
		return textV(xs + ys), nil
	}}
}

// asText is a value as text reads it: its output form, but a char(n)'s
// padding spaces dropped (bpchar's cast to text).
func (ev *evaluator) asText(v Value, typ uint32) string {
	if typ == tBpchar {
		return strings.TrimRight(ev.text(v, typ), " ")
	}
	return ev.text(v, typ)
}

func arithExpr(op string, l, r *cexpr, pos int32) (*cexpr, error) {
	typ := arithType(l.typ, r.typ)
	if !isNumericType(l.typ) || !isNumericType(r.typ) {
		return nil, noOperator(pos, l.typ, op, r.typ)
	}
	shift := (op == "<<" || op == ">>") && kindOf(l.typ) == kInt && kindOf(r.typ) == kInt
	if shift {
		typ = l.typ // int2 << int4 is int2
	}
	return &cexpr{typ: typ, name: "?column?", fn: func(ev *evaluator, e *env) (Value, error) {
		x, y, err := eval2(ev, e, l, r)
		if err != nil || x.isNull() || y.isNull() {
			return null, err
		}
		if shift && x.k == kInt && y.k == kInt {
			return intV(shiftInt(op, x.i, y.i, typ)), nil
		}
		if x.k == kInt && y.k == kInt {
			v, err := intArith(op, x.i, y.i, pos)
			if err == nil && v.k == kInt {
				err = intRange(v.i, typ, op, x.i, y.i)
			}
			return v, err
		}
		if typ == tNumeric {
			return numericBinary(op, x, y)
		}
		xf, _ := x.asFloat()
		yf, _ := y.asFloat()
		infIn := math.IsInf(xf, 0) || math.IsInf(yf, 0)
		if typ == tFloat4 && op != "%" { // real arithmetic rounds to real
			return float4Arith(op, float32(xf), float32(yf), infIn)
		}
		switch op {
		case "+":
			return floatResult(xf+yf, infIn, true)
		case "-":
			return floatResult(xf-yf, infIn, true)
		case "*":
			return floatResult(xf*yf, infIn, xf == 0 || yf == 0)
		case "/":
			if yf == 0 { // found running, as PostgreSQL's: no position
				return null, errorf(CodeDivisionByZero, noPos, "division by zero")
			}
			return floatResult(xf/yf, math.IsInf(xf, 0), xf == 0 || math.IsInf(yf, 0))
		case "%":
			return floatV(math.Mod(xf, yf)), nil
		}
		return null, noOperator(pos, l.typ, op, r.typ)
	}}, nil
}

// float4Arith is a real operator, computed in single precision.
func float4Arith(op string, x, y float32, infIn bool) (Value, error) {
	var r float32
	zeroIn := x == 0 || y == 0
	switch op {
	case "+":
		r, zeroIn = x+y, true
	case "-":
		r, zeroIn = x-y, true
	case "*":
		r = x * y
	case "/":
		if y == 0 {
			return null, errorf(CodeDivisionByZero, noPos, "division by zero")
		}
		r, infIn, zeroIn = x/y, math.IsInf(float64(x), 0), x == 0 || math.IsInf(float64(y), 0)
	}
	return floatResult(float64(r), infIn, zeroIn)
}

// floatResult is a float8 operator's result, checked as PostgreSQL's
// check_float8_val checks it: infinite from finite operands is an
// overflow, zero from nonzero ones an underflow (22003).
func floatResult(r float64, infIn, zeroIn bool) (Value, error) {
	switch {
	case math.IsInf(r, 0) && !infIn:
		return null, errorf(CodeOutOfRange, noPos, "value out of range: overflow")
	case r == 0 && !zeroIn:
		return null, errorf(CodeOutOfRange, noPos, "value out of range: underflow")
	}
	return floatV(r), nil
}

// arithType is the type of an arithmetic result: float8 when either
// operand is a float (numeric converts to float8 implicitly), else numeric
// when either is, else the wider integer.
func arithType(a, b uint32) uint32 {
	switch {
	case a == tFloat4 && b == tFloat4:
		return tFloat4
	case kindOf(a) == kFloat || kindOf(b) == kFloat:
		return tFloat8
	case a == tNumeric || b == tNumeric:
		return tNumeric
	case a == tInt8 || b == tInt8:
		return tInt8
	case a == tInt2 && b == tInt2:
		return tInt2
	case a == tOid || b == tOid:
		return tInt8
	}
	return tInt4
}

// notDistinct is x IS NOT DISTINCT FROM y: equal, or both NULL.
func notDistinct(x, y Value) bool {
	return x.isNull() && y.isNull() || !x.isNull() && !y.isNull() && compare(x, y) == 0
}

// numericBinary applies an arithmetic operator to two values of numeric
// kinds as numerics.
func numericBinary(op string, x, y Value) (Value, error) {
	a, c, err := numericPair(x, y)
	if err != nil {
		return null, err
	}
	n, err := numericArith(op, a, c)
	if err != nil {
		return null, err
	}
	return numericV(n), nil
}

// intRange reports 22003 when an integer result does not fit its type
// (int2, int4) or when int8 arithmetic wrapped.
func intRange(r int64, typ uint32, op string, x, y int64) error {
	name, lo, hi := "bigint", int64(math.MinInt64), int64(math.MaxInt64)
	switch typ {
	case tInt2:
		name, lo, hi = "smallint", math.MinInt16, math.MaxInt16
	case tInt4:
		name, lo, hi = "integer", math.MinInt32, math.MaxInt32
	}
	wrapped := false
	switch op {
	case "+":
		wrapped = (x >= 0) == (y >= 0) && (r >= 0) != (x >= 0)
	case "-":
		wrapped = (x >= 0) != (y >= 0) && (r >= 0) != (x >= 0)
	case "*":
		wrapped = x != 0 && (r/x != y || x == -1 && y == math.MinInt64)
	case "/":
		wrapped = x == math.MinInt64 && y == -1
	}
	if wrapped || r < lo || r > hi {
		return errorf(CodeOutOfRange, noPos, "%s out of range", name)
	}
	return nil
}

// shiftInt is x << n or x >> n for an integer x of type typ, as
// PostgreSQL's int2shl..int8shr compute them in C on x86-64: bits shifted
// out are lost (no overflow error), the count is taken modulo 32 (modulo
// 64 for bigint), and a smallint is shifted as an integer, then
// truncated.
func shiftInt(op string, x, n int64, typ uint32) int64 {
	if typ == tInt8 {
		if op == "<<" {
			return x << (n & 63)
		}
		return x >> (n & 63)
	}
	v := int32(x) >> (n & 31)
	if op == "<<" {
		v = int32(x) << (n & 31)
	}
	if typ == tInt2 {
		return int64(int16(v))
	}
	return int64(v)
}

func intArith(op string, x, y int64, pos int32) (Value, error) {
	switch op {
	case "+":
		return intV(x + y), nil
	case "-":
		return intV(x - y), nil
	case "*":
		return intV(x * y), nil
	case "/", "%":
		if y == 0 {
			return null, errorf(CodeDivisionByZero, noPos, "division by zero") // found running, as PostgreSQL's: no position
		}
		if op == "/" {
			return intV(x / y), nil
		}
		return intV(x % y), nil
	case "&":
		return intV(x & y), nil
	case "|":
		return intV(x | y), nil
	case "#":
		return intV(x ^ y), nil
	case "<<":
		return intV(x << (y & 63)), nil
	case ">>":
		return intV(x >> (y & 63)), nil
	}
	return null, errorf(CodeUndefinedFunc, pos, "operator does not exist: %s", op)
}

func arrayOpExpr(op string, l, r *cexpr) *cexpr {
	return &cexpr{typ: tBool, name: "?column?", fn: func(ev *evaluator, e *env) (Value, error) {
		x, y, err := eval2(ev, e, l, r)
		if err != nil || x.k != kArray || y.k != kArray {
			return null, err
		}
		has := func(set []Value, v Value) bool {
			for _, s := range set {
				if !s.isNull() && !v.isNull() && compare(s, v) == 0 {
					return true
				}
			}
			return false
		}
		switch op {
		case "@>":
			x, y = y, x
			fallthrough
		case "<@":
			for _, v := range x.a {
				if !has(y.a, v) {
					return boolV(false), nil
				}
			}
			return boolV(true), nil
		}
		for _, v := range x.a {
			if has(y.a, v) {
				return boolV(true), nil
			}
		}
		return boolV(false), nil
	}}
}

// anyAll binds l op ANY|ALL (array).
func (b *binder) anyAll(op string, l, r *cexpr, all bool, pos int32) (*cexpr, error) {
	if r.untyped {
		et := l.typ
		if l.untyped {
			et = tText
		}
		r = b.coerce(r, arrayOf(et))
	}
	if !isArrayType(r.typ) {
		return nil, errorf(CodeDatatypeMismatch, pos, "op ANY/ALL (array) requires array on right side")
	}
	if l.untyped {
		l = b.coerce(l, elemType(r.typ))
	}
	elem := &cexpr{typ: elemType(r.typ)}
	cmp, err := b.binaryOp(op, &cexpr{typ: l.typ, fn: func(_ *evaluator, e *env) (Value, error) { return e.row[0], nil }},
		&cexpr{typ: elem.typ, fn: func(_ *evaluator, e *env) (Value, error) { return e.row[1], nil }}, pos)
	if err != nil {
		return nil, err
	}
	return &cexpr{typ: tBool, name: "?column?", fn: func(ev *evaluator, e *env) (Value, error) {
		x, y, err := eval2(ev, e, l, r)
		if err != nil || y.isNull() {
			return null, err
		}
		return quantify(ev, cmp, x, y.a, all)
	}}, nil
}

// quantify applies cmp to x and each element: ANY is true if one is true,
// ALL if all are; otherwise NULL if any comparison was NULL.
func quantify(ev *evaluator, cmp *cexpr, x Value, elems []Value, all bool) (Value, error) {
	sawNull := false
	for _, el := range elems {
		v, err := cmp.fn(ev, &env{row: []Value{x, el}})
		if err != nil {
			return null, err
		}
		switch {
		case v.isNull():
			sawNull = true
		case v.b && !all:
			return boolV(true), nil
		case !v.b && all:
			return boolV(false), nil
		}
	}
	if sawNull {
		return null, nil
	}
	return boolV(all), nil
}

// noOperator is PostgreSQL's error, with its hint, for an operator no
// signature matches; left is 0 for a prefix operator.
func noOperator(pos int32, left uint32, op string, right uint32) *Error {
	if left == 0 {
		err := errorf(CodeUndefinedFunc, pos, "operator does not exist: %s %s", op, formatType(right, -1))
		err.Hint = "No operator matches the given name and argument type. You might need to add an explicit type cast."
		return err
	}
	err := errorf(CodeUndefinedFunc, pos, "operator does not exist: %s %s %s", formatType(left, -1), op, formatType(right, -1))
	err.Hint = "No operator matches the given name and argument types. You might need to add explicit type casts."
	return err
}
