package pgcatalog

import "strings"

// unitAliases are the other spellings extract, date_part and date_trunc
// take for a field (PostgreSQL reads the units of interval input there
// too), by the name the functions switch on.
var unitAliases = map[string]string{
	"microsecond": "microseconds", "us": "microseconds", "usec": "microseconds", "usecs": "microseconds", "useconds": "microseconds",
	"millisecond": "milliseconds", "ms": "milliseconds", "msec": "milliseconds", "msecs": "milliseconds", "mseconds": "milliseconds",
	"s": "second", "sec": "second", "secs": "second", "seconds": "second",
	"m": "minute", "min": "minute", "mins": "minute", "minutes": "minute",
	"h": "hour", "hr": "hour", "hrs": "hour", "hours": "hour",
	"d": "day", "days": "day",
	"w": "week", "weeks": "week",
	"mon": "month", "mons": "month", "months": "month",
	"qtr": "quarter",
	"y":   "year", "yr": "year", "yrs": "year", "years": "year",
	"dec": "decade", "decs": "decade", "decades": "decade",
	"c": "century", "cent": "century", "centuries": "century",
	"mil": "millennium", "mils": "millennium", "millennia": "millennium",
}

// byUnit calls fn, a function whose first argument names a date/time
// field, with that name lower-cased and in its canonical spelling; an
// error naming the unit names it as the caller spelled it, as
// PostgreSQL's does.
func byUnit(fn func(*evaluator, []Value, []uint32) (Value, error)) func(*evaluator, []Value, []uint32) (Value, error) {
	return func(ev *evaluator, a []Value, t []uint32) (Value, error) {
		raw := strings.ToLower(a[0].s)
		canon, ok := unitAliases[raw]
		if !ok {
			if raw == a[0].s {
				return fn(ev, a, t)
			}
			canon = raw
		}
		b := append([]Value(nil), a...)
		b[0] = textV(canon)
		v, err := fn(ev, b, t)
		if e, isPG := err.(*Error); isPG && canon != raw {
			e.Message = strings.Replace(e.Message, `unit "`+canon+`"`, `unit "`+raw+`"`, 1)
		}
		return v, err
	}
}

// knownUnits are the field names PostgreSQL knows, whether or not a type
// has the field: an unknown one is "not recognized", a known one a type
// lacks "not supported".
var knownUnits = map[string]bool{
	"microseconds": true, "milliseconds": true, "second": true, "minute": true, "hour": true, "day": true,
	"week": true, "month": true, "quarter": true, "year": true, "decade": true, "century": true, "millennium": true,
	"dow": true, "isodow": true, "doy": true, "isoyear": true, "julian": true, "epoch": true,
	"timezone": true, "timezone_hour": true, "timezone_minute": true,
}
