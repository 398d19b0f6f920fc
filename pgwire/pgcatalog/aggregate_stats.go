package pgcatalog

import (
	"math"
	"strings"
)

// Statistical, ordered-set and JSON aggregates: what BI tools ask for
// beyond count, sum and avg. Metabase's "standard deviation" and "median"
// are stddev and percentile_cont(0.5) WITHIN GROUP (ORDER BY x).

func init() {
	for name, def := range map[string]*aggDef{
		"stddev":      {ret: spreadType, final: spread(true, true), takes: numberInput},
		"stddev_samp": {ret: spreadType, final: spread(true, true), takes: numberInput},
		"stddev_pop":  {ret: spreadType, final: spread(false, true), takes: numberInput},
		"variance":    {ret: spreadType, final: spread(true, false), takes: numberInput},
		"var_samp":    {ret: spreadType, final: spread(true, false), takes: numberInput},
		"var_pop":     {ret: spreadType, final: spread(false, false), takes: numberInput},
		"percentile_cont": {ordered: true, ret: func(t []uint32) uint32 {
			r := uint32(tFloat8)
			if t[1] == tInterval {
				r = tInterval
			}
			if isArrayType(t[0]) {
				return arrayOf(r)
			}
			return r
		}, final: func(_ *evaluator, in [][]Value, t []uint32) (Value, error) {
			return percentile(in, true, t[1] == tInterval)
		}, takes: func(t []uint32) bool { return numberRank(t[1]) > 0 || t[1] == tInterval }},
		"percentile_disc": {ordered: true, ret: func(t []uint32) uint32 {
			if isArrayType(t[0]) {
				return arrayOf(outputType(t[1]))
			}
			return t[1]
		}, final: func(_ *evaluator, in [][]Value, _ []uint32) (Value, error) {
			return percentile(in, false, false)
		}},
		"mode":             {ordered: true, nargs: -1, ret: func(t []uint32) uint32 { return t[0] }, final: mode},
		"json_agg":         {ret: constType(tJSON), final: jsonAgg(tJSON)},
		"jsonb_agg":        {ret: constType(tJSONB), final: jsonAgg(tJSONB)},
		"json_object_agg":  {nargs: 2, ret: constType(tJSON), final: jsonObjectAgg(tJSON)},
		"jsonb_object_agg": {nargs: 2, ret: constType(tJSONB), final: jsonObjectAgg(tJSONB)},
	} {
		aggregates[name] = def
	}
}

// spread is the variance or standard deviation of the non-NULL inputs, of
// a sample (NULL for fewer than two) or of the population.
func spread(sample, root bool) func(*evaluator, [][]Value, []uint32) (Value, error) {
	return func(_ *evaluator, in [][]Value, t []uint32) (Value, error) {
		vals := nonNull(in)
		n := float64(len(vals))
		if n == 0 || sample && n < 2 {
			return null, nil
		}
		if spreadType(t) == tNumeric {
			return numericSpread(vals, sample, root)
		}
		var mean float64
		for _, v := range vals {
			mean += num(v)
		}
		mean /= n
		var ss float64
		for _, v := range vals {
			d := num(v) - mean
			ss += d * d
		}
		if sample {
			n--
		}
		if root {
			return floatV(math.Sqrt(ss / n)), nil
		}
		return floatV(ss / n), nil
	}
}

// spreadType is the variance's and standard deviation's type: double
// precision for floats, numeric for integers and numerics.
func spreadType(t []uint32) uint32 {
	if t[0] == tFloat4 || t[0] == tFloat8 {
		return tFloat8
	}
	return tNumeric
}

// numericSpread is spread over integers and numerics, computed exactly
// as PostgreSQL's numeric_stddev_internal does: (N·Σx² − (Σx)²) divided by
// N·(N−1) (or N²) at the quotient's scale, and its square root at that
// scale.
func numericSpread(vals []Value, sample, root bool) (Value, error) {
	sum, sumSq := numericFromInt(0), numericFromInt(0)
	for _, v := range vals {
		x, err := numericOf(v)
		if err != nil {
			return null, err
		}
		sum, sumSq = sum.add(x, false), sumSq.add(x.mul(x), false)
	}
	n := numericFromInt(int64(len(vals)))
	num := n.mul(sumSq).add(sum.mul(sum), true)
	if num.unscaled.Sign() <= 0 {
		return numericV(numericFromInt(0)), nil
	}
	den := n.mul(n)
	if sample {
		den = n.mul(numericFromInt(int64(len(vals) - 1)))
	}
	variance, err := num.div(den)
	if err != nil || !root {
		return numericV(variance), err
	}
	return numericV(variance.sqrt(variance.scale)), nil
}

// percentile is percentile_cont (interpolated) or percentile_disc (the
// first value at or past the fraction) of the sorted, non-NULL ORDER BY
// values; each input row is (fraction, value).
func percentile(in [][]Value, cont, interval bool) (Value, error) {
	var vals []Value
	frac := null
	for _, r := range in {
		frac = r[0]
		if !r[1].isNull() {
			vals = append(vals, r[1])
		}
	}
	if len(vals) == 0 || frac.isNull() {
		return null, nil
	}
	if frac.k == kArray { // percentile_cont(ARRAY[0.25, 0.5]): an array of percentiles
		out := make([]Value, len(frac.a))
		for i, f := range frac.a {
			if f.isNull() {
				out[i] = null
				continue
			}
			v, err := percentileOf(vals, num(f), cont, interval)
			if err != nil {
				return null, err
			}
			out[i] = v
		}
		return arrayV(out), nil
	}
	return percentileOf(vals, num(frac), cont, interval)
}

// percentileOf is the fraction f's percentile of sorted values (of
// intervals, for percentile_cont, when interval is set).
func percentileOf(vals []Value, f float64, cont, interval bool) (Value, error) {
	if f < 0 || f > 1 || math.IsNaN(f) {
		return null, errorf("22003", noPos, "percentile value %s is not between 0 and 1", formatFloat(f))
	}
	if !cont {
		i := int(math.Ceil(f*float64(len(vals)))) - 1
		return vals[max(i, 0)], nil
	}
	pos := f * float64(len(vals)-1)
	lo, hi := int(math.Floor(pos)), int(math.Ceil(pos))
	if interval { // lo + (hi - lo) * fraction, as interval_lerp
		a, err := parseInterval(vals[lo].s)
		if err != nil {
			return null, err
		}
		b, err := parseInterval(vals[hi].s)
		if err != nil {
			return null, err
		}
		if lo == hi {
			return vals[lo], nil
		}
		d := b.add(a.scale(-1, false)).scale(pos-float64(lo), false)
		return textV(a.add(d).String()), nil
	}
	a, b := num(vals[lo]), num(vals[hi])
	return floatV(a + (b-a)*(pos-float64(lo))), nil
}

// mode is the most frequent non-NULL ORDER BY value, the first in order
// among equals.
func mode(_ *evaluator, in [][]Value, _ []uint32) (Value, error) {
	best, bestN := null, 0
	for i := 0; i < len(in); {
		v := in[i][0]
		j := i + 1
		for j < len(in) && compare(in[j][0], v) == 0 {
			j++
		}
		if !v.isNull() && j-i > bestN {
			best, bestN = v, j-i
		}
		i = j
	}
	return best, nil
}

// jsonAgg is json_agg or jsonb_agg: the inputs as a JSON array, NULL for
// none.
func jsonAgg(typ uint32) func(*evaluator, [][]Value, []uint32) (Value, error) {
	return func(ev *evaluator, in [][]Value, t []uint32) (Value, error) {
		if len(in) == 0 {
			return null, nil
		}
		var b strings.Builder
		b.WriteByte('[')
		// Rows and arrays each start a line of their own, as PostgreSQL's
		// json_agg writes them.
		sep := ", "
		if t[0] == tRecord || isArrayType(t[0]) {
			sep = ", \n "
		}
		for i, r := range in {
			if i > 0 {
				b.WriteString(sep)
			}
			ev.writeJSON(&b, r[0], t[0])
		}
		b.WriteByte(']')
		return jsonValue(b.String(), typ)
	}
}

// jsonObjectAgg is json_object_agg or jsonb_object_agg: the (key, value)
// inputs as a JSON object, NULL for none; a NULL key is an error.
func jsonObjectAgg(typ uint32) func(*evaluator, [][]Value, []uint32) (Value, error) {
	return func(ev *evaluator, in [][]Value, t []uint32) (Value, error) {
		if len(in) == 0 {
			return null, nil
		}
		var b strings.Builder
		b.WriteString("{ ")
		for i, r := range in {
			if r[0].isNull() {
				return null, errorf(CodeInvalidParameter, noPos, "field name must not be null")
			}
			if i > 0 {
				b.WriteString(", ")
			}
			writeJSONString(&b, ev.text(r[0], t[0]))
			b.WriteString(" : ")
			ev.writeJSON(&b, r[1], t[1])
		}
		b.WriteString(" }")
		return jsonValue(b.String(), typ)
	}
}
