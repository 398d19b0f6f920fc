package pgcatalog

import "strings"

// jsonb values hold their canonical text (normalized by parseJSON: unique
// keys, jsonb's key order and spacing). cf->'q' and cf->>'q' on a family
// column read one key of every row, so they find it by scanning that text
// rather than parsing the whole object into a tree: a key's value is a
// slice of the text, and since the text is canonical so is the slice.

// jsonbFieldOp binds l -> r and l ->> r (asText) for a jsonb l and a text
// key r.
func jsonbFieldOp(l, r *cexpr, asText bool) *cexpr {
	typ := uint32(tJSONB)
	if asText {
		typ = tText
	}
	return strictBinary(typ, l, r, func(x, y Value) (Value, error) {
		raw, found, ok := jsonbField(x.s, y.s)
		if !ok { // not the text expected: the parser decides
			n, err := jsonArg(x, tJSONB)
			if err != nil {
				return null, err
			}
			if asText {
				return jsonText(n.field(y.s), true), nil
			}
			return jsonResult(n.field(y.s), tJSONB), nil
		}
		switch {
		case !found:
			return null, nil
		case !asText:
			return textV(raw), nil
		case raw == "null":
			return null, nil
		case raw[0] != '"':
			return textV(raw), nil
		case strings.IndexByte(raw, '\\') < 0:
			return textV(raw[1 : len(raw)-1]), nil
		}
		n, err := parseJSON(raw, true) // a string with escapes
		if err != nil {
			return null, err
		}
		return textV(n.str), nil
	})
}

// jsonbField returns the text of key's value in s, a jsonb object's text;
// found is false when s is not an object or has no such key, ok false
// when s is not JSON text as expected.
func jsonbField(s, key string) (raw string, found, ok bool) {
	i := skipJSONSpace(s, 0)
	if i == len(s) {
		return "", false, false
	}
	if s[i] != '{' {
		return "", false, true // a scalar or an array: -> 'key' is NULL
	}
	i = skipJSONSpace(s, i+1)
	if i < len(s) && s[i] == '}' {
		return "", false, true
	}
	for i < len(s) {
		kEnd, kEsc := scanJSONString(s, i)
		if kEnd < 0 {
			return "", false, false
		}
		k := s[i:kEnd]
		i = skipJSONSpace(s, kEnd)
		if i == len(s) || s[i] != ':' {
			return "", false, false
		}
		vStart := skipJSONSpace(s, i+1)
		vEnd := skipJSONValue(s, vStart)
		if vEnd < 0 {
			return "", false, false
		}
		if kEsc {
			n, err := parseJSON(k, true)
			if err != nil {
				return "", false, false
			}
			if n.str == key {
				return s[vStart:vEnd], true, true
			}
		} else if k[1:len(k)-1] == key {
			return s[vStart:vEnd], true, true
		}
		i = skipJSONSpace(s, vEnd)
		switch {
		case i == len(s):
			return "", false, false
		case s[i] == '}':
			return "", false, true
		case s[i] != ',':
			return "", false, false
		}
		i = skipJSONSpace(s, i+1)
	}
	return "", false, false
}

func skipJSONSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// scanJSONString returns the index after the string starting at s[i] (-1
// when there is none) and whether it has escapes.
func scanJSONString(s string, i int) (end int, escaped bool) {
	if i >= len(s) || s[i] != '"' {
		return -1, false
	}
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			escaped = true
			j++
		case '"':
			return j + 1, escaped
		}
	}
	return -1, false
}

// skipJSONValue returns the index after the value starting at s[i], or -1.
func skipJSONValue(s string, i int) int {
	if i >= len(s) {
		return -1
	}
	switch s[i] {
	case '"':
		end, _ := scanJSONString(s, i)
		return end
	case '{', '[':
		depth := 0
		for j := i; j < len(s); j++ {
			switch s[j] {
			case '"':
				end, _ := scanJSONString(s, j)
				if end < 0 {
					return -1
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(s) && !strings.ContainsRune(",}] \t\n\r", rune(s[j])) {
		j++
	}
	if j == i {
		return -1
	}
	return j
}
