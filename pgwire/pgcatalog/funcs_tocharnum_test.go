package pgcatalog

import "testing"

// FuzzToCharNumber: any template and number render without panicking.
func FuzzToCharNumber(f *testing.F) {
	for _, s := range [][2]string{{"9,999.99", "-1234.5"}, {"FM990.0", "0.05"}, {"S999", "12"}, {"9.99EEEE", "12345"},
		{"99V99", "12.345"}, {`"$"999.99th`, "5.5"}, {"RN", "1994"}, {"FMSG00.00PL", "NaN"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, format, value string) {
		n, err := parseNumeric(value)
		if err != nil || len(format) > 200 || len(n.String()) > 200 {
			return
		}
		_, _ = toCharNumber(n, format)
	})
}
