package pgcatalog

import (
	"strings"
	"time"
	"unicode/utf8"

	pg_query "github.com/pganalyze/pg_query_go/v6"
)

// Type modifiers of casts: varchar(n) and char(n) cut a value to n
// characters (char pads it with spaces), numeric(p, s) rounds it to s
// places and fails when it needs more than p digits, the time and
// timestamp types' (p) round the seconds to p digits, as PostgreSQL's
// explicit casts do.

// typmods reads a type name's integer modifiers (varchar(10): [10]).
func typmods(tn *pg_query.TypeName) ([]int64, error) {
	var out []int64
	for _, m := range tn.Typmods {
		c := m.GetAConst()
		if c == nil || c.GetIval() == nil {
			return nil, errorf(CodeSyntax, tn.Location, "type modifiers must be simple constants or identifiers")
		}
		out = append(out, int64(c.GetIval().Ival))
	}
	return out, nil
}

// withTypmod applies a cast's modifiers to e, of type typ; e as it is when
// there are none or typ takes none.
func withTypmod(e *cexpr, typ uint32, mods []int64, pos int32) (*cexpr, error) {
	if len(mods) == 0 {
		return e, nil
	}
	var apply func(ev *evaluator, v Value) (Value, error)
	switch typ {
	case tVarchar, tBpchar:
		n := int(mods[0])
		if n < 1 {
			return nil, errorf(CodeSyntax, pos, "length for type %s must be at least 1", formatType(typ, -1))
		}
		pad := typ == tBpchar
		apply = func(_ *evaluator, v Value) (Value, error) {
			s := v.s
			if utf8.RuneCountInString(s) > n {
				s = string([]rune(s)[:n])
			}
			if pad {
				if k := utf8.RuneCountInString(s); k < n {
					s += strings.Repeat(" ", n-k)
				}
			}
			return textV(s), nil
		}
	case tNumeric:
		prec, scale := mods[0], int64(0)
		if len(mods) > 1 {
			scale = mods[1]
		}
		if prec < 1 || prec > 1000 {
			return nil, errorf(CodeSyntax, pos, "NUMERIC precision %d must be between 1 and 1000", prec)
		}
		apply = func(_ *evaluator, v Value) (Value, error) {
			n, err := numericOf(v)
			if err != nil || n.nan {
				return v, err
			}
			r := n.round(int32(scale), false)
			if digits := len(r.abs().unscaled.String()) - int(r.scale); r.unscaled.Sign() != 0 && digits > int(prec-scale) {
				e := errorf(CodeOutOfRange, noPos, "numeric field overflow")
				e.Detail = numericOverflowDetail(prec, scale)
				return null, e
			}
			return numericV(r), nil
		}
	case tTimestamp, tTimestamptz:
		// timestamp(p) and timestamptz(p) round the fraction of the
		// second to p digits; infinity and text that is no timestamp
		// Shale reads stay as they are.
		p := mods[0]
		apply = func(_ *evaluator, v Value) (Value, error) {
			t, ok := parseTime(v.s)
			if !ok {
				return v, nil
			}
			us := roundTimePrecision(t.UTC().UnixMicro()-pgEpochMicros, p)
			return timeValue(time.UnixMicro(us+pgEpochMicros).UTC(), typ), nil
		}
	case tTime, tTimetz:
		// time(p) and timetz(p) round the fraction of the second to p
		// digits; like PostgreSQL, past 6 is taken as 6 (it warns).
		p := mods[0] // the grammar takes no negative one
		apply = func(ev *evaluator, v Value) (Value, error) {
			if typ == tTime {
				us, err := parseTimeOfDay(v.s)
				if err != nil {
					return null, err
				}
				return timeOfDay(roundTimePrecision(us, p)), nil
			}
			us, off, err := ev.parseTimetz(v.s)
			if err != nil {
				return null, err
			}
			return timetzText(roundTimePrecision(us, p), off), nil
		}
	default:
		return e, nil
	}
	inner := e.fn
	out := *e
	out.tableCol = nil // no longer the bare column (byKey)
	out.fn = func(ev *evaluator, en *env) (Value, error) {
		v, err := inner(ev, en)
		if err != nil || v.isNull() {
			return v, err
		}
		return apply(ev, v)
	}
	return &out, nil
}

func numericOverflowDetail(prec, scale int64) string {
	return "A field with precision " + itoa(prec) + ", scale " + itoa(scale) +
		" must round to an absolute value less than 10^" + itoa(prec-scale) + "."
}
