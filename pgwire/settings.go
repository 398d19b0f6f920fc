package pgwire

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/shale-db/shale/pgwire/pgcatalog"
)

// ServerVersion is the PostgreSQL version pgwire reports. psql, pgJDBC and
// BI tools choose their catalog queries by it (spec §4.2, "version lever").
const ServerVersion = "15.0"

// setting describes one run-time parameter.
type setting struct {
	name   string // canonical spelling (SHOW's column name, ParameterStatus)
	def    string
	report bool // sent in ParameterStatus at startup and on change
	desc   string
	// check validates and normalizes a new value (nil: anything goes).
	check func(s *settings, v string) (string, error)
	// readOnly settings cannot be SET.
	readOnly bool
}

// knownSettings are the parameters with defaults and checks; any other name
// may be SET (drivers send many) and is then SHOWn as set.
var knownSettings = []setting{
	{name: "application_name", report: true, desc: "Sets the application name to be reported."},
	{name: "client_encoding", def: "UTF8", report: true, check: checkEncoding, desc: "Sets the client's character set encoding."},
	{name: "DateStyle", def: "ISO, MDY", report: true, check: checkDateStyle, desc: "Sets the display format for date and time values."},
	{name: "default_transaction_isolation", def: "read committed", check: checkIsolation, desc: "Sets the transaction isolation level of each new transaction."},
	{name: "default_transaction_read_only", def: "off", report: true, desc: "Sets the default read-only status of new transactions."},
	{name: "extra_float_digits", def: "1", check: checkFloatDigits, desc: "Sets the number of digits displayed for floating-point values."},
	{name: "in_hot_standby", def: "off", report: true, readOnly: true, desc: "Shows whether hot standby is currently active."},
	{name: "integer_datetimes", def: "on", report: true, readOnly: true, desc: "Shows whether datetimes are integer based."},
	{name: "IntervalStyle", def: "postgres", report: true, desc: "Sets the display format for interval values."},
	{name: "is_superuser", def: "off", report: true, readOnly: true, desc: "Shows whether the current user is a superuser."},
	{name: "lc_collate", def: "C", readOnly: true, desc: "Shows the collation order locale."},
	{name: "lc_ctype", def: "C", readOnly: true, desc: "Shows the character classification and case conversion locale."},
	{name: "max_identifier_length", def: "63", readOnly: true, desc: "Shows the maximum identifier length."},
	{name: "max_index_keys", def: "32", readOnly: true, desc: "Shows the maximum number of index keys."},
	{name: "search_path", def: `"$user", public`, desc: "Sets the schema search order for names that are not schema-qualified."},
	{name: "server_encoding", def: "UTF8", report: true, readOnly: true, desc: "Shows the server (database) character set encoding."},
	{name: "server_version", def: ServerVersion, report: true, readOnly: true, desc: "Shows the server version."},
	{name: "server_version_num", def: "150000", readOnly: true, desc: "Shows the server version as an integer."},
	{name: "session_authorization", report: true, readOnly: true, desc: "Sets the session user name."},
	{name: "standard_conforming_strings", def: "on", report: true, check: checkOn, desc: "Causes '...' strings to treat backslashes literally."},
	{name: "statement_timeout", def: "0", check: checkTimeout, desc: "Sets the maximum allowed duration of any statement."},
	{name: "TimeZone", def: "UTC", report: true, check: checkTimeZone, desc: "Sets the time zone for displaying and interpreting time stamps."},
	{name: "transaction_isolation", def: "read committed", check: checkIsolation, desc: "Sets the current transaction's isolation level."},
	{name: "transaction_read_only", def: "off", desc: "Sets the current transaction's read-only status."},
	{name: "bytea_output", def: "hex", check: checkHex, desc: "Sets the output format for bytea."},
	// The memory a PostgreSQL-dialect sort holds before it spills to a
	// temporary file. PostgreSQL's 4MB default is Shale's too: sorting
	// 1,000,000 rows took 6.6 s and grew the server by 209 MiB at 4MB,
	// 9.2 s and 792 MiB at 64MB (the collector runs at GOGC 400).
	{name: "work_mem", def: "4MB", check: checkMemory, desc: "Sets the maximum memory to be used for query workspaces."},
}

var settingByKey = func() map[string]*setting {
	m := make(map[string]*setting, len(knownSettings))
	for i := range knownSettings {
		m[strings.ToLower(knownSettings[i].name)] = &knownSettings[i]
	}
	return m
}()

// settings are a session's run-time parameters. Keys are lower-case.
type settings struct {
	vals       map[string]string
	defaults   map[string]string // after startup: RESET and DISCARD ALL return here
	fromClient map[string]bool   // set by the StartupMessage
	loc        *time.Location
	timeout    time.Duration
}

func newSettings(user string) *settings {
	s := &settings{vals: map[string]string{}, fromClient: map[string]bool{}, loc: time.UTC}
	for _, k := range knownSettings {
		s.vals[strings.ToLower(k.name)] = k.def
	}
	s.vals["session_authorization"] = user
	return s
}

// freezeDefaults records the current values as the session defaults
// (called after the StartupMessage's options are applied).
func (s *settings) freezeDefaults() {
	s.defaults = make(map[string]string, len(s.vals))
	for k, v := range s.vals {
		s.defaults[k] = v
	}
}

// get returns a setting by any spelling of its name.
func (s *settings) get(name string) (string, bool) {
	v, ok := s.vals[strings.ToLower(name)]
	return v, ok
}

// canonical is the display name of a setting.
func canonical(name string) string {
	if k, ok := settingByKey[strings.ToLower(name)]; ok {
		return k.name
	}
	return strings.ToLower(name)
}

// set validates and stores a value; it returns the stored (normalized)
// value and whether clients must be told with ParameterStatus.
func (s *settings) set(name, v string, startup bool) (string, bool, error) {
	key := strings.ToLower(name)
	k := settingByKey[key]
	if k != nil && k.readOnly && !startup {
		return "", false, errorf("55P02", `parameter "`+key+`" cannot be changed`)
	}
	if k != nil && k.readOnly {
		return s.vals[key], false, nil // startup options cannot override facts either
	}
	if k != nil && k.check != nil {
		var err error
		if v, err = k.check(s, v); err != nil {
			return "", false, err
		}
	}
	s.vals[key] = v
	s.apply(key, v)
	if startup {
		s.fromClient[key] = true
	}
	return v, k != nil && k.report, nil
}

// source is where a setting's value came from, as pg_settings.source says:
// "session" for a value SET in the session, "client" for one the
// StartupMessage gave, else "default".
func (s *settings) source(key string) string {
	switch {
	case s.defaults != nil && s.vals[key] != s.defaults[key]:
		return "session"
	case s.fromClient[key]:
		return "client"
	}
	return "default"
}

// reset returns a setting to its session default.
func (s *settings) reset(name string) (string, bool) {
	key := strings.ToLower(name)
	v, ok := s.defaults[key]
	if !ok {
		delete(s.vals, key)
		return "", false
	}
	s.vals[key] = v
	s.apply(key, v)
	k := settingByKey[key]
	return v, k != nil && k.report
}

// apply updates the derived state of a setting.
func (s *settings) apply(key, v string) {
	switch key {
	case "timezone":
		s.loc, _ = pgcatalog.LoadZone(v)
	case "statement_timeout":
		s.timeout, _ = parseTimeout(v)
	}
}

// list returns every setting with its source, sorted by name.
func (s *settings) list() []SettingValue {
	out := make([]SettingValue, 0, len(s.vals))
	for k, v := range s.vals {
		out = append(out, SettingValue{Name: canonical(k), Value: v, Source: s.source(k)})
	}
	sort.Slice(out, func(i, j int) bool { return strings.ToLower(out[i].Name) < strings.ToLower(out[j].Name) })
	return out
}

// description is a setting's SHOW ALL description ("" for a name set
// without one).
func description(name string) string {
	if ks := settingByKey[strings.ToLower(name)]; ks != nil {
		return ks.desc
	}
	return ""
}

func invalidValue(name, v string) error {
	return errorf(codeInvalidParamValue, `invalid value for parameter "`+name+`": "`+v+`"`)
}

// checkEncoding reads an encoding name as PostgreSQL's
// clean_encoding_name does, ignoring case and every character but letters
// and digits: asyncpg sends client_encoding 'utf-8', quotes included.
func checkEncoding(_ *settings, v string) (string, error) {
	clean := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return -1
	}, v)
	switch clean {
	case "utf8", "unicode":
		return "UTF8", nil
	case "sqlascii":
		return "SQL_ASCII", nil
	}
	return "", errorf(codeNotSupported, `Shale supports only client_encoding UTF8, not "`+v+`"`)
}

// checkMemory reads a memory size as PostgreSQL does (kB when no unit is
// given, 64kB to 2147483647kB) and prints it as SHOW does, in the largest
// unit that divides it.
func checkMemory(_ *settings, v string) (string, error) {
	kb, ok := pgcatalog.ParseMemory(v)
	if !ok {
		e := errorf(codeInvalidParamValue, `invalid value for parameter "work_mem": "`+v+`"`)
		e.hint = `Valid units for this parameter are "B", "kB", "MB", "GB", and "TB".`
		return "", e
	}
	if kb < 64 || kb > 2147483647 {
		return "", errorf(codeInvalidParamValue, fmt.Sprintf(`%d kB is outside the valid range for parameter "work_mem" (64 .. 2147483647)`, kb))
	}
	for _, u := range []struct {
		unit string
		kb   int64
	}{{"TB", 1 << 30}, {"GB", 1 << 20}, {"MB", 1 << 10}} {
		if kb%u.kb == 0 {
			return strconv.FormatInt(kb/u.kb, 10) + u.unit, nil
		}
	}
	return strconv.FormatInt(kb, 10) + "kB", nil
}

func checkDateStyle(_ *settings, v string) (string, error) {
	order := "MDY"
	for _, p := range strings.Split(v, ",") {
		switch strings.ToUpper(strings.TrimSpace(p)) {
		case "ISO", "":
		case "MDY", "US", "NONEURO", "NONEUROPEAN":
			order = "MDY"
		case "DMY", "EURO", "EUROPEAN":
			order = "DMY"
		case "YMD":
			order = "YMD"
		default:
			return "", errorf(codeNotSupported, `Shale supports only DateStyle ISO, not "`+v+`"`)
		}
	}
	return "ISO, " + order, nil
}

func checkIsolation(_ *settings, v string) (string, error) {
	switch l := strings.ToLower(strings.Join(strings.Fields(v), " ")); l {
	case "read uncommitted", "read committed", "repeatable read", "serializable":
		return l, nil
	}
	return "", invalidValue("transaction_isolation", v)
}

func checkFloatDigits(_ *settings, v string) (string, error) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < -15 || n > 3 {
		return "", invalidValue("extra_float_digits", v)
	}
	return strconv.Itoa(n), nil
}

func checkOn(_ *settings, v string) (string, error) {
	switch strings.ToLower(v) {
	case "on", "true", "1", "yes":
		return "on", nil
	}
	return "", errorf(codeNotSupported, "Shale supports only standard_conforming_strings on")
}

func checkHex(_ *settings, v string) (string, error) {
	if strings.EqualFold(v, "hex") {
		return "hex", nil
	}
	return "", errorf(codeNotSupported, "Shale supports only bytea_output hex")
}

func checkTimeZone(_ *settings, v string) (string, error) {
	if iv, ok := zoneIntervalText(v); ok {
		return checkZoneInterval(v, iv)
	}
	if east, ok := pgcatalog.HoursZoneOffset(v); ok {
		return pgcatalog.OffsetZoneName(east), nil
	}
	if _, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
		return "", invalidZone(v, zoneOutOfRange)
	}
	if _, err := pgcatalog.LoadZone(v); err != nil {
		return "", invalidZone(v, "")
	}
	if strings.EqualFold(v, "utc") || strings.EqualFold(v, "local") || strings.EqualFold(v, "default") {
		return "UTC", nil
	}
	return v, nil
}

// zoneIntervalText is the interval text of a TimeZone value that SET TIME
// ZONE INTERVAL '…' wrote (parseZoneInterval): INTERVAL '1 mon'.
func zoneIntervalText(v string) (string, bool) {
	if len(v) < len("interval ''") || !strings.EqualFold(v[:len("interval '")], "interval '") || v[len(v)-1] != '\'' {
		return "", false
	}
	return v[len("interval '") : len(v)-1], true
}

// checkZoneInterval reads the interval of SET TIME ZONE INTERVAL as
// check_timezone does: hours and minutes east of UTC, named as
// PostgreSQL names a fixed offset.
func checkZoneInterval(v, iv string) (string, error) {
	months, days, micros, err := pgcatalog.ParseInterval(iv)
	if err != nil {
		return "", err
	}
	switch {
	case months != 0:
		return "", invalidZone(v, "Cannot specify months in time zone interval.")
	case days != 0:
		return "", invalidZone(v, "Cannot specify days in time zone interval.")
	case micros/1e6 >= pgcatalog.MaxZoneOffset || micros/1e6 <= -pgcatalog.MaxZoneOffset:
		return "", invalidZone(v, zoneOutOfRange)
	}
	return pgcatalog.OffsetZoneName(int(micros / 1e6)), nil
}

const zoneOutOfRange = "UTC timezone offset is out of range."

// invalidZone is check_timezone's error for TimeZone value v, with a
// DETAIL when detail is not empty.
func invalidZone(v, detail string) error {
	e := errorf(codeInvalidParamValue, `invalid value for parameter "TimeZone": "`+v+`"`)
	e.detail = detail
	return e
}

func checkTimeout(_ *settings, v string) (string, error) {
	if _, err := parseTimeout(v); err != nil {
		return "", invalidValue("statement_timeout", v)
	}
	return v, nil
}

// parseTimeout reads a duration setting as pgcatalog.ParseDuration does:
// an integer of milliseconds, or a number with a unit.
func parseTimeout(v string) (time.Duration, error) {
	d, ok := pgcatalog.ParseDuration(v)
	if !ok {
		return 0, strconv.ErrSyntax
	}
	return d, nil
}
