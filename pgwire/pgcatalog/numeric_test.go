package pgcatalog

import (
	"math"
	"strconv"
	"testing"
)

// TestNumericArith pins results against PostgreSQL 15's (SELECT a op b).
func TestNumericArith(t *testing.T) {
	for _, tc := range []struct{ a, op, b, want string }{
		{"10", "/", "4", "2.5000000000000000"},
		{"1", "/", "3", "0.33333333333333333333"},
		{"2", "/", "3.0", "0.66666666666666666667"},
		{"12345", "/", "7", "1763.5714285714285714"},
		{"0.0001", "/", "3", "0.000033333333333333333333"},
		{"-7", "/", "2", "-3.5000000000000000"},
		{"1.50", "*", "2.5", "3.750"},
		{"0.1", "+", "0.2", "0.3"},
		{"7.00", "-", "0.5", "6.50"},
		{"-1.5", "%", "1", "-0.5"},
		{"10", "%", "3.5", "3.0"},
	} {
		a, _ := parseNumeric(tc.a)
		b, _ := parseNumeric(tc.b)
		got, err := numericArith(tc.op, a, b)
		if err != nil || got.String() != tc.want {
			t.Errorf("%s %s %s = %v (%v), want %s", tc.a, tc.op, tc.b, got, err, tc.want)
		}
	}
}

func TestNumericRound(t *testing.T) {
	for _, tc := range []struct {
		x      string
		places int32
		trunc  bool
		want   string
	}{
		{"2.345", 2, false, "2.35"}, {"-2.5", 0, false, "-3"}, {"1234.567", -2, false, "1200"},
		{"-2.55", 1, true, "-2.5"}, {"2.5", 3, false, "2.500"}, {"1250", -2, false, "1300"}, {"1299", -2, true, "1200"},
	} {
		x, _ := parseNumeric(tc.x)
		if got := x.round(tc.places, tc.trunc).String(); got != tc.want {
			t.Errorf("round(%s, %d, trunc=%v) = %s, want %s", tc.x, tc.places, tc.trunc, got, tc.want)
		}
	}
}

// FuzzNumeric checks that numeric text reads back as itself, agrees with
// float parsing, and that arithmetic on what parses never panics.
func FuzzNumeric(f *testing.F) {
	for _, s := range []string{"0", "1.50", "-0.0001", "1e-7", "123456789012345678901234567890", "NaN", "2.5E3", ".5", "5."} {
		f.Add(s, "3")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		x, err := parseNumeric(a)
		if err != nil || len(x.String()) > 2000 { // huge exponents only cost time
			return
		}
		back, err := parseNumeric(x.String())
		if err != nil || back.String() != x.String() {
			t.Fatalf("%q prints %q, which reads back as %v (%v)", a, x.String(), back, err)
		}
		if want, err := strconv.ParseFloat(a, 64); err == nil && !x.nan && !math.IsInf(want, 0) {
			if got := x.float(); math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
				t.Fatalf("%q reads as %v, float parsing says %v", a, got, want)
			}
		}
		y, err := parseNumeric(b)
		if err != nil || len(a)+len(b) > 200 {
			return
		}
		for _, op := range []string{"+", "-", "*", "/", "%"} {
			_, _ = numericArith(op, x, y)
		}
		_ = x.round(2, false)
		_ = x.floorCeil(true)
		_, _ = x.integer()
		// The transcendental functions agree with float64 where it has the
		// range (and the time to compute stays small: |x| < 1000).
		// tol is the relative error float64's own result may have.
		near := func(name string, got *numeric, err error, want, tol float64) {
			if err != nil || got.nan || math.IsInf(want, 0) || math.IsNaN(want) || math.Abs(want) > 1e300 || math.Abs(want) < 1e-300 {
				return
			}
			if g := got.float(); math.Abs(g-want) > tol*math.Abs(want)+1e-12 {
				t.Fatalf("%s of %q, %q: %v, float64 says %v", name, a, b, g, want)
			}
		}
		xf, yf := x.float(), y.float()
		if math.Abs(xf) < 1000 && math.Abs(yf) < 1000 {
			l, err := x.ln()
			near("ln", l, err, math.Log(xf), 1e-9)
			e, err := x.exp()
			near("exp", e, err, math.Exp(xf), 1e-12*(1+math.Abs(xf)))
			if lx := math.Log(xf); math.Abs(lx) > 1e-3 {
				lg, err := y.log(x)
				near("log", lg, err, math.Log(yf)/lx, 1e-9)
			}
			if y.round(0, true).cmp(y) != 0 {
				p, err := x.powFrac(y)
				near("power", p, err, math.Pow(xf, yf), 1e-12*(1+math.Abs(yf*math.Log(xf))))
			}
		}
	})
}
