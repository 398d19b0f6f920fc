package pgcatalog

import (
	"math"
	"strconv"
	"strings"
	"time"
)

const timestampLayout = "2006-01-02 15:04:05.999999-07"

// TimestamptzLayout is the layout timestamptz_out's ISO text of t has in
// t's zone: the offset's minutes and seconds only when it has them
// ("+05:30"), which timestampLayout's -07 would drop.
func TimestamptzLayout(t time.Time) string {
	switch _, off := t.Zone(); {
	case off%3600 == 0:
		return timestampLayout
	case off%60 == 0:
		return "2006-01-02 15:04:05.999999-07:00"
	}
	return "2006-01-02 15:04:05.999999-07:00:00"
}

// text renders a non-NULL value as its type's output function does.
func (ev *evaluator) text(v Value, typ uint32) string {
	if typ == tTimestamptz && v.k == kText && ev.zone() != time.UTC {
		if t, ok := parseTime(v.s); ok { // an instant, shown in the session's zone
			t = t.In(ev.loc)
			return t.Format(TimestamptzLayout(t))
		}
	}
	if typ == tInterval && v.k == kText {
		if style := setting(ev.sess, "intervalstyle"); !strings.EqualFold(style, "postgres") {
			if iv, err := parseInterval(v.s); err == nil {
				return iv.styled(style)
			}
		}
	}
	switch v.k {
	case kBool:
		if v.b {
			return "t"
		}
		return "f"
	case kInt:
		if isRegType(typ) {
			return ev.regName(v.i, typ)
		}
		if typ == tRegoper || typ == tRegoperator {
			return regoperName(v.i, typ)
		}
		return strconv.FormatInt(v.i, 10)
	case kFloat:
		if typ == tNumeric && !math.IsNaN(v.f) && !math.IsInf(v.f, 0) {
			if n, err := numericFromFloat(v.f); err == nil {
				return n.String() // numeric never takes an exponent
			}
		}
		if typ == tFloat4 {
			return formatFloatBits(v.f, 32)
		}
	case kArray:
		elem := elemType(typ)
		if typ == tInt2Vector || typ == tOidVector {
			parts := make([]string, len(v.a))
			for i, e := range v.a {
				parts[i] = ev.text(e, elem)
			}
			return strings.Join(parts, " ")
		}
		var sb strings.Builder
		sb.WriteByte('{')
		for i, e := range v.a {
			if i > 0 {
				sb.WriteByte(',')
			}
			if e.isNull() {
				sb.WriteString("NULL")
				continue
			}
			sb.WriteString(quoteArrayElem(ev.text(e, elem)))
		}
		sb.WriteByte('}')
		return sb.String()
	case kRecord:
		var sb strings.Builder
		sb.WriteByte('(')
		for i, e := range v.a {
			if i > 0 {
				sb.WriteByte(',')
			}
			if !e.isNull() {
				s := plainText(e)
				if e.k == kBool {
					s = ev.text(e, tBool)
				} else if i < len(v.types) && v.types[i] == tInterval {
					s = ev.text(e, tInterval) // in the session's IntervalStyle
				}
				sb.WriteString(quoteRecordField(s))
			}
		}
		sb.WriteByte(')')
		return sb.String()
	}
	return plainText(v)
}

// regName renders an OID alias type (regclass, regtype...) as its name.
func (ev *evaluator) regName(oid int64, typ uint32) string {
	if oid == 0 && typ != tRegclass {
		return "-"
	}
	switch typ {
	case tRegclass:
		if s, err := ev.catalog(); err == nil {
			return s.regclassName(uint32(oid))
		}
	case tRegtype:
		if _, ok := typeByOID[uint32(oid)]; ok {
			return formatType(uint32(oid), -1)
		}
		if name, ok := infoDomainName(uint32(oid)); ok {
			return name
		}
	case tRegnamespace:
		if n := nspName(uint32(oid)); n != "" {
			return quoteIdent(n)
		}
	case tRegrole:
		if name, ok := ev.roleName(oid); ok {
			return quoteIdent(name)
		}
	case tRegproc, tRegprocedure:
		if p, ok := procByOID(uint32(oid)); ok {
			if typ == tRegprocedure {
				return procSignature(p)
			}
			// A name that does not resolve to this one function alone
			// is qualified, as PostgreSQL's regprocout does.
			if len(procsByName[p.name]) != 1 {
				return quoteIdent(nspName(p.nsp)) + "." + quoteIdent(p.name)
			}
			return quoteIdent(p.name)
		}
	}
	return strconv.FormatInt(oid, 10)
}

// quoteIdent quotes an identifier when PostgreSQL would.
func quoteIdent(s string) string {
	safe := s != ""
	for i := 0; i < len(s) && safe; i++ {
		c := s[i]
		safe = c == '_' || c >= 'a' && c <= 'z' || (i > 0 && (c >= '0' && c <= '9' || c == '$'))
	}
	if safe && !reservedKeywords[s] {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// quoteRecordField quotes a record field's text as record_out does: empty
// text, or text with parentheses, commas, quotes, backslashes or white
// space, goes in double quotes, with quotes and backslashes doubled.
func quoteRecordField(s string) string {
	if s != "" && !strings.ContainsAny(s, "(),\"\\ \t\n\r\v\f") {
		return s
	}
	return `"` + strings.NewReplacer(`"`, `""`, `\`, `\\`).Replace(s) + `"`
}
