package pgcatalog

import "testing"

// FuzzToNumber: any text read through any template returns a number or an
// error, without panicking.
func FuzzToNumber(f *testing.F) {
	for _, s := range [][2]string{{"12,454.8-", "99G999D9S"}, {"$1,234.56", "L9G999D99"}, {"<123>", "999PR"}, {"123", "99V9"},
		{"  12.5", "999.99"}, {"5.01-", "FM9.999999MI"}, {"1ab2", `9"ab"9`}, {"€12", "L99th"}, {"1.5e3", "9.9EEEE"}, {"-", `\"9SG`}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, value, format string) {
		if len(format) > 300 || len(value) > 300 {
			return
		}
		n, err := toNumber(value, format)
		if err == nil && n == nil {
			t.Fatalf("to_number(%q, %q): no number and no error", value, format)
		}
		if err == nil {
			_ = n.String()
		}
	})
}
