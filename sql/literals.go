package sql

import (
	"strconv"
	"strings"

	"github.com/cloudspannerecosystem/memefish/token"

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
func Literalize(text string) (l Literalized, ok bool) {
	if strings.Contains(text, "@") || containsFold(text, "explain") {
		return l, false
	}
	toks := lex(text)
	if len(toks) == 0 {
		return l, false
	}
	var b strings.Builder
	last := 0
	for i, t := range toks {
		if !replaceable(toks, i) {
			continue
		}
		v, ok := literalValue(t)
		if !ok {
			return Literalized{}, false // e.g. an INT64 overflow: the binder's error
		}
		if l.Params == nil {
			l.Params, l.Values = map[string]*types.Type{}, map[string]types.Value{}
		}
		// INT64 and STRING literals still coerce (Const.Lit); FLOAT64 and
		// BYTES ones bind as typed values, so their parameters are plain.
		prefix := LiteralParamPrefix
		if t.Kind == token.TokenFloat || t.Kind == token.TokenBytes {
			prefix = valueParamPrefix
		}
		name := prefix + strconv.Itoa(len(l.Params)+1)
		l.Params[name], l.Values[name] = v.Type(), v
		b.WriteString(text[last:t.Pos])
		l.edits = append(l.edits, litEdit{at: b.Len(), oldLen: int(t.End - t.Pos), newLen: len(name) + 1})
		b.WriteString("@" + name)
		last = int(t.End)
	}
	if len(l.Params) == 0 {
		return Literalized{}, false
	}
	b.WriteString(text[last:])
	l.Text = b.String()
	return l, true
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

// replaceable reports whether toks[i] is a literal Literalize replaces.
func replaceable(toks []token.Token, i int) bool {
	switch toks[i].Kind {
	case token.TokenInt, token.TokenString, token.TokenFloat, token.TokenBytes:
	default:
		return false
	}
	if i == 0 {
		return false
	}
	before := toks[i-1]
	castOperand := before.Kind == "(" && i >= 2 && (isWord(toks[i-2], "CAST") || isWord(toks[i-2], "SAFE_CAST"))
	switch before.Kind {
	case "=", "!=", "<>", "<", "<=", ">", ">=":
	default:
		if !castOperand {
			return false
		}
	}
	if i+1 == len(toks) {
		return !castOperand
	}
	next := toks[i+1]
	if castOperand {
		return isWord(next, "AS")
	}
	if next.Kind == ")" || next.Kind == ";" {
		return true
	}
	for _, w := range []string{"AND", "OR", "ORDER", "LIMIT", "GROUP", "HAVING"} {
		if isWord(next, w) {
			return true
		}
	}
	return false
}

// literalValue is the value of a literal token, typed as the binder types
// it (INT64, FLOAT64, STRING, BYTES).
func literalValue(t token.Token) (types.Value, bool) {
	switch t.Kind {
	case token.TokenInt:
		v, err := strconv.ParseInt(t.Raw, 0, 64)
		if err != nil {
			return types.Value{}, false
		}
		return types.Int64Value(v), true
	case token.TokenFloat:
		v, err := strconv.ParseFloat(t.Raw, 64)
		if err != nil {
			return types.Value{}, false
		}
		return types.Float64Value(v), true
	case token.TokenString:
		return types.StringValue(t.AsString), true
	case token.TokenBytes:
		return types.BytesValue([]byte(t.AsString)), true
	}
	return types.Value{}, false
}
