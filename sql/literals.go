package sql

import (
	"strconv"
	"strings"

	"github.com/shale-db/shale/sql/types"
)

// LiteralParamPrefix starts the names of the parameters that Literalize
// puts in place of literals. Such a parameter binds like the literal it
// stands for: a STRING one coerces to BYTES and an INT64 one to FLOAT64
// (with a cast evaluated when the query runs). Where a literal would
// coerce otherwise (a STRING to DATE or TIMESTAMP), binding fails and the
// engine prepares the original text.
const LiteralParamPrefix = "__lit"

// valueParamPrefix names the parameters standing for FLOAT64 and BYTES
// literals, which the binder does not coerce.
const valueParamPrefix = "__val"

// Literalized is a query whose literal operands became parameters, so
// that queries differing only in those literals share one plan (the
// engine's plan cache; PostgreSQL's simple protocol sends every point
// lookup as new text).
type Literalized struct {
	// Text is the query with @__litN in place of the literals.
	Text string
	// Params and Values are the parameters' types and this query's values.
	Params map[string]*types.Type
	Values map[string]types.Value
	// edits record each replacement, for mapping offsets back.
	edits []litEdit
}

type litEdit struct{ at, oldLen, newLen int } // at: offset in Text

// Literalize replaces the literals that are the operand of a comparison
// (x = 'k', x < 5) or of CAST (CAST(5 AS STRING)) and end it (a ')',
// AND, OR, AS, a clause keyword or the end follows). Other literals stay:
// map keys (cf['q']), function arguments, LIMIT and IN lists may have to
// be constants. ok is false when nothing was replaced, the query is an
// EXPLAIN, already has parameters or does not lex.
//
// It runs for every simple-protocol query, so it lexes with litScanner,
// which allocates nothing, and leaves to memefish (literalizeMemefish)
// the queries that scanner is unsure of.
func Literalize(text string) (l Literalized, ok bool) {
	if strings.IndexByte(text, '@') >= 0 || hasExplain(text) {
		return Literalized{}, false
	}
	var buf [4]litToken
	ops, sure := findOperands(text, buf[:0])
	if !sure {
		return literalizeMemefish(text)
	}
	return replaceOperands(text, ops)
}

// hasExplain is containsFold(text, "explain"), but looks for the x,
// which few queries hold, with IndexByte: several times faster.
func hasExplain(text string) bool {
	for _, x := range [2]byte{'x', 'X'} {
		for from := 1; from < len(text); {
			i := strings.IndexByte(text[from:], x)
			if i < 0 {
				break
			}
			i += from // "explain" would start at i-1
			if i+6 <= len(text) && strings.EqualFold(text[i-1:i+6], "explain") {
				return true
			}
			from = i + 1
		}
	}
	return false
}

// findOperands appends the literals of text that Literalize replaces to
// ops; sure is false when litScanner cannot tell.
func findOperands(text string, ops []litToken) (_ []litToken, sure bool) {
	sc := litScanner{text: text}
	// The window's tokens rotate through four slots: the oldest takes the
	// next token, so none is copied.
	var slots [4]litToken
	w := litWindow{&slots[0], &slots[1], &slots[2], &slots[3]}
	if *w.cur, sure = sc.next(); !sure {
		return nil, false
	}
	for w.cur.kind != litEOF {
		if *w.next, sure = sc.next(); !sure {
			return nil, false
		}
		if w.cur.isLiteral() && w.replaceable(text) {
			ops = append(ops, *w.cur)
		}
		w = litWindow{w.prev, w.cur, w.next, w.prev2}
	}
	return ops, true
}

// litWindow holds the tokens around the one judged (cur): the two before
// it and the one after (litNone before the first token, litEOF after the
// last).
type litWindow struct{ prev2, prev, cur, next *litToken }

// replaceable reports whether the literal w.cur is one Literalize
// replaces: what literalizeMemefish's replaceable decides.
func (w *litWindow) replaceable(text string) bool {
	castOperand := w.prev.kind == litLParen && (w.prev2.isWord(text, "CAST") || w.prev2.isWord(text, "SAFE_CAST"))
	if w.prev.kind != litCompare && !castOperand {
		return false
	}
	switch {
	case w.next.kind == litEOF:
		return !castOperand
	case castOperand:
		return w.next.isWord(text, "AS")
	case w.next.kind == litRParen || w.next.kind == litSemi:
		return true
	}
	for _, word := range [...]string{"AND", "OR", "ORDER", "LIMIT", "GROUP", "HAVING"} {
		if w.next.isWord(text, word) {
			return true
		}
	}
	return false
}

// replaceOperands puts parameters in place of ops in text. It sizes
// everything first, so that the text, the edits, each map and the
// contents of all string and bytes literals take one allocation each.
func replaceOperands(text string, ops []litToken) (l Literalized, ok bool) {
	if len(ops) == 0 {
		return l, false
	}
	size, contents := len(text), 0
	for i, op := range ops {
		size += 1 + len(paramName(op.kind, i+1)) - (op.end - op.pos)
		if op.kind == litString || op.kind == litBytes {
			contents += op.end - op.pos // a literal's content is no longer than it
		}
	}
	sc := litScanner{text: text, keep: true}
	if contents > 0 {
		sc.content = make([]byte, 0, contents)
	}
	var b strings.Builder
	b.Grow(size)
	l.Params, l.Values = make(map[string]*types.Type, len(ops)), make(map[string]types.Value, len(ops))
	l.edits = make([]litEdit, len(ops))
	last := 0
	for i, op := range ops {
		v, ok := sc.value(op)
		if !ok {
			return Literalized{}, false // e.g. an INT64 overflow: the binder's error
		}
		name := paramName(op.kind, i+1)
		l.Params[name], l.Values[name] = v.Type(), v
		b.WriteString(text[last:op.pos])
		l.edits[i] = litEdit{at: b.Len(), oldLen: op.end - op.pos, newLen: 1 + len(name)}
		b.WriteByte('@')
		b.WriteString(name)
		last = op.end
	}
	b.WriteString(text[last:])
	l.Text = b.String()
	return l, true
}

// value is the value of the literal t, typed as the binder types it
// (INT64, FLOAT64, STRING, BYTES). A string or bytes literal is scanned
// again, to append its content to sc.content (sc.keep), which the value
// then shares.
func (sc *litScanner) value(t litToken) (types.Value, bool) {
	switch raw := sc.text[t.pos:t.end]; t.kind {
	case litInt:
		v, err := strconv.ParseInt(raw, 0, 64)
		return types.Int64Value(v), err == nil
	case litFloat:
		v, err := strconv.ParseFloat(raw, 64)
		return types.Float64Value(v), err == nil
	}
	at := len(sc.content)
	sc.pos = t.pos
	sc.token()
	// Capped, so that appending to the value cannot overwrite the next.
	content := sc.content[at:len(sc.content):len(sc.content)]
	if t.kind == litBytes {
		return types.BytesValue(content), true
	}
	return types.StringBytesValue(content), true
}

// litNames and valNames are the first parameter names of either prefix,
// so that naming a parameter allocates nothing.
var litNames, valNames = paramNames(LiteralParamPrefix), paramNames(valueParamPrefix)

func paramNames(prefix string) (names [16]string) {
	for i := range names {
		names[i] = prefix + strconv.Itoa(i+1)
	}
	return names
}

// paramName names the n-th (from 1) parameter, standing for a literal of
// kind: INT64 and STRING literals still coerce (Const.Lit); FLOAT64 and
// BYTES ones bind as typed values, so their parameters are plain.
func paramName(kind litKind, n int) string {
	names, prefix := &litNames, LiteralParamPrefix
	if kind == litFloat || kind == litBytes {
		names, prefix = &valNames, valueParamPrefix
	}
	if n <= len(names) {
		return names[n-1]
	}
	return prefix + strconv.Itoa(n)
}

// OriginalOffset maps a byte offset of l.Text to the original query.
func (l Literalized) OriginalOffset(off int) int {
	delta := 0
	for _, e := range l.edits {
		if off < e.at {
			break
		}
		if off < e.at+e.newLen {
			return e.at - delta // inside a parameter: its literal's start
		}
		delta += e.newLen - e.oldLen
	}
	return off - delta
}
