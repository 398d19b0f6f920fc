package sql

import (
	"strconv"
	"strings"

	"github.com/cloudspannerecosystem/memefish"
	"github.com/cloudspannerecosystem/memefish/token"

	"github.com/shale-db/shale/sql/types"
)

// literalizeMemefish is Literalize on memefish's lexer: the reference the
// tests hold Literalize to, and what Literalize falls back on where its
// own scanner (litScanner) is unsure. It was Literalize before that
// scanner; keep the two in step.
func literalizeMemefish(text string) (l Literalized, ok bool) {
	if strings.Contains(text, "@") || containsFold(text, "explain") {
		return l, false
	}
	// memefish's lexer can panic on some malformed input (see lex); the
	// text then simply is not literalized.
	defer func() {
		if recover() != nil {
			l, ok = Literalized{}, false
		}
	}()
	lx := &memefish.Lexer{File: &token.File{Buffer: text}}
	// The tokens stream through a window: w[0], w[1] before the token a
	// literal is judged at, w[2], and w[3] after it (n: how many are set).
	var w [4]token.Token
	n := 0
	var b strings.Builder
	b.Grow(len(text) + 16)
	last := 0
	for done := false; !done; {
		if err := lx.NextToken(); err != nil || lx.Token.Kind == token.TokenEOF {
			if done = true; n == 0 {
				break
			}
		}
		if !done {
			w[0], w[1], w[2], w[3] = w[1], w[2], w[3], lx.Token
			if n < 4 {
				n++
			}
			if n < 2 {
				continue
			}
		}
		// The token judged is the one before the newest, or at the end
		// the newest itself; older is how many tokens precede it.
		cur, next, older := &w[2], &w[3], n-2
		if done {
			cur, next, older = &w[3], nil, n-1
		}
		var prev, prev2 *token.Token
		if older >= 1 {
			prev = &w[1]
			if done {
				prev = &w[2]
			}
		}
		if older >= 2 {
			prev2 = &w[0]
			if done {
				prev2 = &w[1]
			}
		}
		if !replaceable(prev2, prev, cur, next) {
			continue
		}
		v, ok := literalValue(*cur)
		if !ok {
			return Literalized{}, false // e.g. an INT64 overflow: the binder's error
		}
		if l.Params == nil {
			l.Params, l.Values = map[string]*types.Type{}, map[string]types.Value{}
		}
		// INT64 and STRING literals still coerce (Const.Lit); FLOAT64 and
		// BYTES ones bind as typed values, so their parameters are plain.
		prefix := LiteralParamPrefix
		if cur.Kind == token.TokenFloat || cur.Kind == token.TokenBytes {
			prefix = valueParamPrefix
		}
		name := prefix + strconv.Itoa(len(l.Params)+1)
		l.Params[name], l.Values[name] = v.Type(), v
		b.WriteString(text[last:cur.Pos])
		l.edits = append(l.edits, litEdit{at: b.Len(), oldLen: int(cur.End - cur.Pos), newLen: len(name) + 1})
		b.WriteString("@")
		b.WriteString(name)
		last = int(cur.End)
	}
	if len(l.Params) == 0 {
		return Literalized{}, false
	}
	b.WriteString(text[last:])
	l.Text = b.String()
	return l, true
}

// replaceable reports whether the literal cur, after prev2 and prev and
// before next (nil when absent), is one Literalize replaces.
func replaceable(prev2, prev, cur, next *token.Token) bool {
	switch cur.Kind {
	case token.TokenInt, token.TokenString, token.TokenFloat, token.TokenBytes:
	default:
		return false
	}
	if prev == nil {
		return false
	}
	castOperand := prev.Kind == "(" && prev2 != nil && (isWord(*prev2, "CAST") || isWord(*prev2, "SAFE_CAST"))
	switch prev.Kind {
	case "=", "!=", "<>", "<", "<=", ">", ">=":
	default:
		if !castOperand {
			return false
		}
	}
	if next == nil {
		return !castOperand
	}
	if castOperand {
		return isWord(*next, "AS")
	}
	if next.Kind == ")" || next.Kind == ";" {
		return true
	}
	for _, w := range []string{"AND", "OR", "ORDER", "LIMIT", "GROUP", "HAVING"} {
		if isWord(*next, w) {
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
