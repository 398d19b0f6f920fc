package sql

import (
	"fmt"
	"strings"
	"time"

	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

// Date and time functions the §9 queries need. A date part (HOUR, DAY...)
// is bound as an upper-case STRING constant.
func init() {
	Register("TIMESTAMP_TRUNC", fixed(types.Timestamp, timestampTrunc, types.Timestamp, types.String))
	for p := range DateParts {
		RegisterKeywordArg("TIMESTAMP_TRUNC", 1, p)
	}
	Register("TIMESTAMP_MILLIS", fixed(types.Timestamp, func(a []types.Value, _ *types.Type) (types.Value, error) {
		return types.TimestampValue(a[0].Int64() * 1000), nil
	}, types.Int64))
	Register("TIMESTAMP_FROM_UNIX_MILLIS", fixed(types.Timestamp, func(a []types.Value, _ *types.Type) (types.Value, error) {
		return types.TimestampValue(a[0].Int64() * 1000), nil
	}, types.Int64))
	Register("TIMESTAMP_MICROS", fixed(types.Timestamp, identityAs(types.Timestamp), types.Int64))
	Register("UNIX_MICROS", fixed(types.Int64, identityAs(types.Int64), types.Timestamp))
	Register("UNIX_MILLIS", fixed(types.Int64, func(a []types.Value, _ *types.Type) (types.Value, error) {
		return types.Int64Value(floorDiv(a[0].Int64(), 1000)), nil
	}, types.Timestamp))
	Register("DATE",
		fixed(types.Date, dateFromParts, types.Int64, types.Int64, types.Int64),
		fixed(types.Date, func(a []types.Value, _ *types.Type) (types.Value, error) {
			return types.DateValue(floorDiv(a[0].Int64(), 86400e6)), nil
		}, types.Timestamp))
}

// dateFromParts is DATE(year, month, day); out-of-range parts are an error,
// not a normalized date (GoogleSQL does not roll 2024-02-30 over).
func dateFromParts(a []types.Value, _ *types.Type) (types.Value, error) {
	y, m, d := a[0].Int64(), a[1].Int64(), a[2].Int64()
	tm := time.Date(int(y), time.Month(m), int(d), 0, 0, 0, 0, time.UTC)
	if y < 1 || y > 9999 || int64(tm.Month()) != m || int64(tm.Day()) != d {
		return types.Value{}, sqlerr.New(sqlerr.OutOfRange, "DATE(%d, %d, %d) is not a valid date", y, m, d)
	}
	return types.DateValue(floorDiv(tm.Unix(), 86400)), nil
}

func identityAs(t *types.Type) func([]types.Value, *types.Type) (types.Value, error) {
	return func(a []types.Value, _ *types.Type) (types.Value, error) {
		if t.Kind == types.KindTimestamp {
			return types.TimestampValue(a[0].Int64()), nil
		}
		return types.Int64Value(a[0].Int64()), nil
	}
}

// DateParts are the parts TIMESTAMP_TRUNC accepts.
var DateParts = map[string]bool{"MICROSECOND": true, "MILLISECOND": true, "SECOND": true, "MINUTE": true,
	"HOUR": true, "DAY": true, "MONTH": true, "YEAR": true}

func timestampTrunc(a []types.Value, _ *types.Type) (types.Value, error) {
	us := a[0].Int64()
	unit := map[string]int64{"MICROSECOND": 1, "MILLISECOND": 1000, "SECOND": 1e6, "MINUTE": 60e6,
		"HOUR": 3600e6, "DAY": 86400e6}
	part := strings.ToUpper(a[1].Str())
	if u, ok := unit[part]; ok {
		return types.TimestampValue(floorDiv(us, u) * u), nil
	}
	tm := a[0].Time()
	switch part {
	case "MONTH":
		return types.TimeValue(time.Date(tm.Year(), tm.Month(), 1, 0, 0, 0, 0, time.UTC)), nil
	case "YEAR":
		return types.TimeValue(time.Date(tm.Year(), 1, 1, 0, 0, 0, 0, time.UTC)), nil
	}
	return types.Value{}, sqlerr.New(sqlerr.InvalidValue, "%s", fmt.Sprintf("TIMESTAMP_TRUNC: unknown part %q", part))
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}
