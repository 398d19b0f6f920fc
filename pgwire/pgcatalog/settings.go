package pgcatalog

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
)

// defaultSettings are the run-time parameters a PostgreSQL 15 server would
// report, used where the Session does not say otherwise (pgwire's session
// lists the parameters it keeps; these are the rest, and what tests without
// a session see).
var defaultSettings = map[string]string{
	"server_version":                "15.0",
	"server_version_num":            "150000",
	"server_encoding":               "UTF8",
	"client_encoding":               "UTF8",
	"datestyle":                     "ISO, MDY",
	"timezone":                      "UTC",
	"intervalstyle":                 "postgres",
	"integer_datetimes":             "on",
	"standard_conforming_strings":   "on",
	"search_path":                   `"$user", public`,
	"max_index_keys":                "32",
	"max_identifier_length":         "63",
	"max_function_args":             "100",
	"block_size":                    "8192",
	"lc_collate":                    "C",
	"lc_ctype":                      "C",
	"lc_messages":                   "C",
	"lc_monetary":                   "C",
	"lc_numeric":                    "C",
	"lc_time":                       "C",
	"transaction_isolation":         "read committed",
	"default_transaction_isolation": "read committed",
	"transaction_read_only":         "off",
	"default_transaction_read_only": "off",
	"extra_float_digits":            "1",
	"application_name":              "",
	"is_superuser":                  "on",
	"session_authorization":         "",
	"max_connections":               "100",
	"bytea_output":                  "hex",
	"escape_string_warning":         "on",
	"statement_timeout":             "0",
	"lock_timeout":                  "0",
	"ssl":                           "off",
	"data_directory_mode":           "0700",
	"default_tablespace":            "",
	"row_security":                  "on",
	"track_activities":              "on",
	"wal_level":                     "replica",
	"work_mem":                      "4MB",
}

// setting returns a run-time parameter: the Session's value, else the
// default, else "" (names are case-insensitive).
func setting(sess *Session, name string) string {
	v, _ := lookupSetting(sess, name)
	return v
}

func lookupSetting(sess *Session, name string) (string, bool) {
	name = strings.ToLower(name)
	for k, v := range sess.Settings {
		if strings.ToLower(k) == name {
			return v, true
		}
	}
	switch name {
	case "application_name":
		return sess.ApplicationName, true
	case "session_authorization":
		return sess.User, true
	}
	v, ok := defaultSettings[name]
	return v, ok
}

// settingNames lists every known parameter name, sorted.
func settingNames(sess *Session) []string {
	seen := map[string]bool{}
	for k := range defaultSettings {
		seen[k] = true
	}
	for k := range sess.Settings {
		seen[strings.ToLower(k)] = true
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// ParseMemory reads a memory setting as PostgreSQL does: an integer with
// an optional unit (B, kB, MB, GB, TB; kB when none), in kB. ok is false
// for anything else.
func ParseMemory(s string) (kb int64, ok bool) {
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || i == 0 && (s[i] == '-' || s[i] == '+')) {
		i++
	}
	n, err := strconv.ParseInt(s[:i], 10, 64)
	if err != nil {
		return 0, false
	}
	mult := map[string]float64{"": 1, "B": 1.0 / 1024, "kB": 1, "MB": 1 << 10, "GB": 1 << 20, "TB": 1 << 30}[strings.TrimSpace(s[i:])]
	if mult == 0 {
		return 0, false
	}
	f := math.Round(float64(n) * mult)
	if f > math.MaxInt64/1024 || f < math.MinInt64/1024 {
		return 0, false
	}
	return int64(f), true
}

// ParseDuration reads a time setting (statement_timeout): a number with an
// optional unit (us, ms, s, min, h, d; ms when none). ok is false for
// anything else.
func ParseDuration(v string) (d time.Duration, ok bool) {
	v = strings.TrimSpace(v)
	i := 0
	for i < len(v) && (v[i] >= '0' && v[i] <= '9' || v[i] == '.') {
		i++
	}
	n, err := strconv.ParseFloat(v[:i], 64)
	if err != nil {
		return 0, false
	}
	unit, ok := map[string]time.Duration{"": time.Millisecond, "us": time.Microsecond, "ms": time.Millisecond,
		"s": time.Second, "min": time.Minute, "h": time.Hour, "d": 24 * time.Hour}[strings.ToLower(strings.TrimSpace(v[i:]))]
	if !ok {
		return 0, false
	}
	return time.Duration(n * float64(unit)), true
}
