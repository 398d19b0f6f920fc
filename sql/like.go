package sql

import (
	"unicode/utf8"

	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

func likeOp(a []types.Value, _ *types.Type) (types.Value, error) {
	ok, err := Like(a[0].Bytes(), a[1].Bytes(), a[0].Kind() == types.KindString)
	if err != nil {
		return types.Value{}, err
	}
	return types.BoolValue(ok), nil
}

// Like matches s against a LIKE pattern: % any sequence, _ one character
// (one byte for BYTES), backslash escapes the next character.
func Like(s, pat []byte, utf bool) (bool, error) {
	// Iterative wildcard matching with backtracking to the last %.
	si, pi := 0, 0
	starP, starS := -1, 0
	for si < len(s) {
		if pi < len(pat) {
			c := pat[pi]
			switch {
			case c == '%':
				starP, starS = pi, si
				pi++
				continue
			case c == '_':
				si += charLen(s[si:], utf)
				pi++
				continue
			default:
				lit, n, err := literalAt(pat[pi:], utf)
				if err != nil {
					return false, err
				}
				if len(s)-si >= len(lit) && string(s[si:si+len(lit)]) == string(lit) {
					si += len(lit)
					pi += n
					continue
				}
			}
		}
		if starP < 0 {
			return false, nil
		}
		starS += charLen(s[starS:], utf)
		si, pi = starS, starP+1
	}
	for pi < len(pat) && pat[pi] == '%' {
		pi++
	}
	return pi == len(pat), nil
}

// literalAt returns the literal character at the start of pat (after an
// escape) and the pattern bytes it used.
func literalAt(pat []byte, utf bool) ([]byte, int, error) {
	if pat[0] == '\\' {
		if len(pat) < 2 {
			return nil, 0, sqlerr.New(sqlerr.InvalidValue, "LIKE pattern ends with a backslash")
		}
		n := charLen(pat[1:], utf)
		return pat[1 : 1+n], 1 + n, nil
	}
	n := charLen(pat, utf)
	return pat[:n], n, nil
}

func charLen(b []byte, utf bool) int {
	if !utf || b[0] < utf8.RuneSelf {
		return 1
	}
	_, n := utf8.DecodeRune(b)
	return n
}

// LikePrefix returns the literal prefix of a LIKE pattern and whether the
// pattern is exactly that prefix followed by one trailing % (spec §4.9
// rule 4: such a pattern is a prefix range with no residual).
func LikePrefix(pat []byte) (prefix []byte, exact bool) {
	for i := 0; i < len(pat); i++ {
		switch pat[i] {
		case '\\':
			if i+1 >= len(pat) {
				return prefix, false
			}
			i++
			prefix = append(prefix, pat[i])
		case '%':
			return prefix, i == len(pat)-1
		case '_':
			return prefix, false
		default:
			prefix = append(prefix, pat[i])
		}
	}
	return prefix, false // no wildcard: an equality, treated as a prefix + residual
}
