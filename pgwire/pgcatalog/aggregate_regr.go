package pgcatalog

import "math"

// The two-variable statistics of SQL:2003, corr(Y, X), covar_pop,
// covar_samp and the regr_* family, over the rows where neither argument
// is NULL. They accumulate as PostgreSQL's float8_regr_accum does (the
// Youngs–Cramer updates), so that their float8 results carry
// PostgreSQL's digits.

func init() {
	for name, final := range map[string]func(s regrState) (float64, bool){
		"covar_pop":  func(s regrState) (float64, bool) { return s.sxy / s.n, s.n >= 1 },
		"covar_samp": func(s regrState) (float64, bool) { return s.sxy / (s.n - 1), s.n >= 2 },
		"corr": func(s regrState) (float64, bool) {
			return s.sxy / math.Sqrt(s.sxx*s.syy), s.n >= 1 && s.sxx != 0 && s.syy != 0
		},
		"regr_avgx": func(s regrState) (float64, bool) { return s.sx / s.n, s.n >= 1 },
		"regr_avgy": func(s regrState) (float64, bool) { return s.sy / s.n, s.n >= 1 },
		"regr_sxx":  func(s regrState) (float64, bool) { return s.sxx, s.n >= 1 },
		"regr_syy":  func(s regrState) (float64, bool) { return s.syy, s.n >= 1 },
		"regr_sxy":  func(s regrState) (float64, bool) { return s.sxy, s.n >= 1 },
		"regr_slope": func(s regrState) (float64, bool) {
			return s.sxy / s.sxx, s.n >= 1 && s.sxx != 0
		},
		"regr_intercept": func(s regrState) (float64, bool) {
			return (s.sy - s.sx*s.sxy/s.sxx) / s.n, s.n >= 1 && s.sxx != 0
		},
		"regr_r2": func(s regrState) (float64, bool) {
			if s.syy == 0 {
				return 1, s.n >= 1 && s.sxx != 0
			}
			return s.sxy * s.sxy / (s.sxx * s.syy), s.n >= 1 && s.sxx != 0
		},
	} {
		aggregates[name] = &aggDef{nargs: 2, ret: constType(tFloat8), refuse: nonNumeric,
			final: func(_ *evaluator, in [][]Value, _ []uint32) (Value, error) {
				s, err := regrAccumulate(in)
				if err != nil {
					return null, err
				}
				if v, ok := final(s); ok {
					return floatV(v), nil
				}
				return null, nil
			}}
	}
	aggregates["regr_count"] = &aggDef{nargs: 2, ret: constType(tInt8), refuse: nonNumeric,
		final: func(_ *evaluator, in [][]Value, _ []uint32) (Value, error) {
			s, err := regrAccumulate(in)
			return intV(int64(s.n)), err
		}}
}

// nonNumeric are the argument types no regression aggregate takes.
var nonNumeric = []uint32{tText, tBool, tBytea, tJSON, tJSONB, tDate, tTimestamp, tTimestamptz, tInterval}

// regrState is float8_regr_accum's transition state: N, Sx, Sxx, Sy, Syy
// and Sxy, the sums of squares and products about the means.
type regrState struct{ n, sx, sxx, sy, syy, sxy float64 }

// regrAccumulate folds the (Y, X) rows in, skipping those with a NULL. As
// in PostgreSQL, finite inputs whose sums overflow are an error, and the
// sums of squares of infinite inputs are NaN.
func regrAccumulate(in [][]Value) (regrState, error) {
	var s regrState
	for _, r := range in {
		if r[0].isNull() || r[1].isNull() {
			continue
		}
		y, x := num(r[0]), num(r[1])
		old, oldSx, oldSy := s.n, s.sx, s.sy
		s.n++
		s.sx += x
		s.sy += y
		if old > 0 {
			tx, ty := x*s.n-s.sx, y*s.n-s.sy
			scale := 1 / (s.n * old)
			s.sxx += tx * tx * scale
			s.syy += ty * ty * scale
			s.sxy += tx * ty * scale
			inf := func(f float64) bool { return math.IsInf(f, 0) }
			if inf(s.sx) || inf(s.sxx) || inf(s.sy) || inf(s.syy) || inf(s.sxy) {
				finiteX, finiteY := !inf(oldSx) && !inf(x), !inf(oldSy) && !inf(y)
				if (inf(s.sx) || inf(s.sxx)) && finiteX || (inf(s.sy) || inf(s.syy)) && finiteY || inf(s.sxy) && finiteX && finiteY {
					return s, errorf(CodeOutOfRange, noPos, "value out of range: overflow")
				}
				for _, f := range []*float64{&s.sxx, &s.syy, &s.sxy} {
					if inf(*f) {
						*f = math.NaN()
					}
				}
			}
			continue
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			s.sxx = math.NaN()
		}
		if math.IsNaN(y) || math.IsInf(y, 0) {
			s.syy = math.NaN()
		}
		if math.IsNaN(x) || math.IsNaN(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
			s.sxy = math.NaN()
		}
	}
	return s, nil
}
