package pgcatalog

import (
	"crypto/rand"
	"fmt"
	"math"
	"strconv"
	"time"
)

// More of what hand-written PostgreSQL queries call: make_date, make_time, age,
// gen_random_uuid, regexp_split_to_array/_table and regexp_matches.

func init() {
	register("make_date", &builtin{min: 3, args: []uint32{tInt4}, ret: tDate, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		y, m, d := a[0].i, a[1].i, a[2].i
		t := time.Date(int(y), time.Month(m), int(d), 0, 0, 0, 0, time.UTC)
		if y == 0 || m < 1 || m > 12 || d < 1 || t.Day() != int(d) {
			return null, errorf("22008", noPos, "date field value out of range: %d-%02d-%02d", y, m, d)
		}
		return timeValue(t, tDate), nil
	}})
	register("make_time", &builtin{min: 3, args: []uint32{tInt4, tInt4, tFloat8}, ret: tTime, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		h, m := a[0].i, a[1].i
		sec, _ := a[2].asFloat()
		us := h*3600e6 + m*60e6 + int64(math.Round(sec*1e6))
		if h < 0 || h > 24 || m < 0 || m > 59 || sec < 0 || sec > 60 || us > microsPerDay {
			secs := strconv.FormatFloat(sec, 'g', 6, 64) // C's %02g
			if len(secs) < 2 {
				secs = "0" + secs
			}
			return null, errorf("22008", noPos, "time field value out of range: %d:%02d:%s", h, m, secs)
		}
		return timeOfDay(us), nil
	}})
	// age subtracts wall times: a timestamptz's in the session's zone, so
	// that across a daylight-saving change a day is a day.
	register("age", &builtin{min: 1, max: 2, args: []uint32{tTimestamptz}, ret: tInterval, fn: func(ev *evaluator, a []Value, t []uint32) (Value, error) {
		t2, err := ev.localTime(a[len(a)-1], t[len(a)-1])
		if err != nil {
			return null, err
		}
		loc := time.UTC
		if t[len(a)-1] == tTimestamptz {
			loc = ev.zone()
		}
		y, m, d := ev.now.In(ev.zone()).Date()   // current_date
		t1 := wallTime(y, m, d, 0, 0, 0, 0, loc) // age(t) is from midnight today
		if len(a) == 2 {
			if t1, err = ev.localTime(a[0], t[0]); err != nil {
				return null, err
			}
		}
		return textV(age(t1, t2).String()), nil
	}})
	register("gen_random_uuid", constFn(2950, func(*evaluator) Value {
		var b [16]byte
		rand.Read(b[:])
		b[6] = b[6]&0x0f | 0x40 // version 4
		b[8] = b[8]&0x3f | 0x80 // RFC 4122 variant
		return textV(fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:]))
	}))
	register("regexp_split_to_array", &builtin{min: 2, max: 3, ret: tTextArray, fn: func(ev *evaluator, a []Value, _ []uint32) (Value, error) {
		parts, err := ev.regexpSplit(a)
		if err != nil {
			return null, err
		}
		return arrayV(parts), nil
	}})
	srfs["string_to_table"] = &srfDef{min: 2, max: 3, retType: tText, ret: constType(tText),
		call: func(ev *evaluator, a []Value, t []uint32) ([]Value, error) {
			v, err := stringToArray(ev, a, t)
			return v.a, err
		}}
	srfs["regexp_split_to_table"] = &srfDef{min: 2, max: 3, retType: tText, ret: constType(tText),
		call: func(ev *evaluator, a []Value, _ []uint32) ([]Value, error) {
			if a[0].isNull() || a[1].isNull() {
				return nil, nil
			}
			return ev.regexpSplit(a)
		}}
	srfs["regexp_matches"] = &srfDef{min: 2, max: 3, retType: tTextArray, ret: constType(tTextArray),
		call: func(ev *evaluator, a []Value, _ []uint32) ([]Value, error) {
			if a[0].isNull() || a[1].isNull() {
				return nil, nil
			}
			o, err := reFlagsArg(a, 2, "")
			if err != nil {
				return nil, err
			}
			re, err := ev.pgRegexp(a[1].s, o)
			if err != nil {
				return nil, err
			}
			n := 1
			if o.global {
				n = -1
			}
			var out []Value
			for _, m := range findAllPG(re, a[0].s, n) {
				out = append(out, matchGroups(a[0].s, m))
			}
			return out, nil
		}}
}

// age is PostgreSQL's age(t1, t2): t1 - t2 in years, months and days (and
// time), subtracting field by field and borrowing from the next larger
// field; days borrow the length of the earlier date's month.
func age(t1, t2 time.Time) interval {
	neg := t1.Before(t2)
	if neg {
		t1, t2 = t2, t1
	}
	y1, m1, d1 := t1.Date()
	y2, m2, d2 := t2.Date()
	us := (int64(t1.Hour()-t2.Hour())*3600+int64(t1.Minute()-t2.Minute())*60+int64(t1.Second()-t2.Second()))*1e6 +
		int64(t1.Nanosecond()-t2.Nanosecond())/1e3
	days := d1 - d2
	months := int(m1 - m2)
	years := y1 - y2
	if us < 0 {
		us += 86400e6
		days--
	}
	for days < 0 {
		// PostgreSQL borrows the length of the earlier date's month.
		days += time.Date(y2, m2+1, 0, 0, 0, 0, 0, time.UTC).Day()
		months--
	}
	if months < 0 {
		months += 12
		years--
	}
	iv := interval{months: int64(years*12 + months), days: int64(days), micros: us}
	if neg {
		iv = interval{-iv.months, -iv.days, -iv.micros}
	}
	return iv
}

// regexpSplit splits a[0] at the matches of the pattern a[1], with the
// flags a[2] (i: case-insensitive).
func (ev *evaluator) regexpSplit(a []Value) ([]Value, error) {
	o, err := reFlagsArg(a, 2, "regexp_split_to_array")
	if err != nil {
		return nil, err
	}
	re, err := ev.pgRegexp(a[1].s, o)
	if err != nil {
		return nil, err
	}
	parts := re.Split(a[0].s, -1)
	out := make([]Value, len(parts))
	for i, p := range parts {
		out[i] = textV(p)
	}
	return out, nil
}
