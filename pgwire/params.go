package pgwire

import (
	"slices"
	"strconv"
	"strings"
)

// placeholders is a statement's parameters as pgwire numbers them:
// PostgreSQL's $1…$n first (the GoogleSQL parameter @pn is the same
// parameter as $n), then other @name parameters in order of first
// appearance. Bind binds values in this order and ParameterDescription
// lists them so.
type placeholders struct {
	text  string   // the statement with $n rewritten to @pn
	names []string // parameter names in bind order
	first []int    // offset in text of each parameter's first use (-1: unused)
	edits []edit   // the rewrites, in text order
}

// edit records that the original bytes [orig, orig+oldLen) became
// [at, at+newLen) of the rewritten text.
type edit struct{ orig, oldLen, at, newLen int }

// paramName is the GoogleSQL name of placeholder $n.
func paramName(n int) string { return "p" + strconv.Itoa(n) }

// scanPlaceholders rewrites $n to @pn and numbers the parameters; declared
// is the number of types Parse declared (they count as parameters even
// when unused).
func scanPlaceholders(text string, declared int) (placeholders, error) {
	var ph placeholders
	var b strings.Builder
	l := lexer{text: text}
	last, maxN := 0, declared
	type use struct {
		name string
		at   int
	}
	var uses []use
	var named []string
	for {
		t := l.next()
		if t.kind == tokEOF {
			break
		}
		switch t.kind {
		case tokPositional:
			n, err := strconv.Atoi(text[t.start+1 : t.end])
			if err != nil || n < 1 || n > 65535 {
				return placeholders{}, &pgError{code: codeUndefinedParameter, msg: "there is no parameter " + text[t.start:t.end], pos: t.start}
			}
			maxN = max(maxN, n)
			b.WriteString(text[last:t.start])
			at := b.Len()
			b.WriteString("@" + paramName(n))
			ph.edits = append(ph.edits, edit{orig: t.start, oldLen: t.end - t.start, at: at, newLen: b.Len() - at})
			last = t.end
			uses = append(uses, use{paramName(n), at})
		case tokNamed:
			name := text[t.start+1 : t.end]
			at := b.Len() + t.start - last
			if n, ok := positionalName(name); ok {
				maxN = max(maxN, n)
			} else if !slices.Contains(named, name) {
				named = append(named, name)
			}
			uses = append(uses, use{name, at})
		}
	}
	if last == 0 { // no $n: the text is unchanged (don't copy it)
		ph.text = text
	} else {
		b.WriteString(text[last:])
		ph.text = b.String()
	}
	for n := 1; n <= maxN; n++ {
		ph.names = append(ph.names, paramName(n))
	}
	ph.names = append(ph.names, named...)
	ph.first = make([]int, len(ph.names))
	for i, name := range ph.names {
		ph.first[i] = -1
		for _, u := range uses {
			if u.name == name {
				ph.first[i] = u.at
				break
			}
		}
	}
	return ph, nil
}

// positionalName reports whether an @name is @pn, the name of $n.
func positionalName(name string) (int, bool) {
	if len(name) < 2 || name[0] != 'p' {
		return 0, false
	}
	n, err := strconv.Atoi(name[1:])
	return n, err == nil && n >= 1 && n <= 65535 && name[1] != '0' && name[1] != '+'
}

// origOffset maps an offset in the rewritten text to the client's text; an
// offset inside a rewritten placeholder maps to its $.
func (ph *placeholders) origOffset(r int) int {
	delta := 0
	for _, e := range ph.edits {
		if r < e.at {
			break
		}
		if r < e.at+e.newLen {
			return e.orig
		}
		delta += e.oldLen - e.newLen
	}
	return r + delta
}
