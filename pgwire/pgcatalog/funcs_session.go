package pgcatalog

import (
	"strings"
	"time"
)

// processStart is reported by pg_postmaster_start_time.
var processStart = time.Now().UTC()

func init() {
	register("version", constFn(tText, func(ev *evaluator) Value {
		return textV("PostgreSQL " + setting(ev.sess, "server_version") + " (Shale) on x86_64-pc-linux-gnu, compiled by Go, 64-bit")
	}))
	register("current_database", constFn(tName, func(ev *evaluator) Value { return textV(ev.sess.Database) }))
	register("current_catalog", constFn(tName, func(ev *evaluator) Value { return textV(ev.sess.Database) }))
	for _, n := range []string{"current_user", "session_user", "user", "current_role", "getpgusername"} {
		register(n, constFn(tName, func(ev *evaluator) Value { return textV(ev.sess.User) }))
	}
	register("current_schema", &builtin{ret: tName, fn: func(ev *evaluator, _ []Value, _ []uint32) (Value, error) {
		return currentSchema(ev, nil)
	}})
	register("current_schemas", &builtin{min: 1, args: []uint32{tBool}, ret: tNameArray, fn: func(ev *evaluator, a []Value, _ []uint32) (Value, error) {
		return textArray(searchPath(ev.sess, a[0].truthy())...), nil
	}})
	register("current_setting", &builtin{min: 1, max: 2, args: []uint32{tText, tBool}, ret: tText,
		fn: func(ev *evaluator, a []Value, _ []uint32) (Value, error) {
			v, ok := lookupSetting(ev.sess, a[0].s)
			if !ok {
				if len(a) > 1 && a[1].truthy() {
					return null, nil
				}
				return null, errorf(CodeUndefinedObject, noPos, "unrecognized configuration parameter %q", a[0].s)
			}
			return textV(v), nil
		}})
	// set_config reports the value; the connection's settings belong to
	// pgwire, which applies SET itself.
	register("set_config", &builtin{min: 3, args: []uint32{tText, tText, tBool}, ret: tText, lenient: true,
		fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) { return a[1], nil }})
	register("pg_backend_pid", constFn(tInt4, func(ev *evaluator) Value { return intV(int64(ev.sess.BackendPID)) }))
	register("txid_current", constFn(tInt8, func(*evaluator) Value { return intV(1) }))
	register("pg_current_xact_id", constFn(28, func(*evaluator) Value { return intV(1) }))
	register("pg_is_in_recovery", constFn(tBool, func(*evaluator) Value { return boolV(false) }))
	register("pg_postmaster_start_time", constFn(tTimestamptz, func(*evaluator) Value {
		return textV(processStart.Format(timestampLayout))
	}))
	for _, n := range []string{"now", "statement_timestamp", "transaction_timestamp"} {
		register(n, constFn(tTimestamptz, func(ev *evaluator) Value { return textV(ev.now.Format(timestampLayout)) }))
	}
	// clock_timestamp and timeofday read the clock at each call, not the
	// statement's start.
	register("clock_timestamp", constFn(tTimestamptz, func(*evaluator) Value {
		return textV(time.Now().UTC().Format(timestampLayout))
	}))
	register("timeofday", constFn(tText, func(ev *evaluator) Value {
		return textV(time.Now().In(ev.zone()).Format("Mon Jan 02 15:04:05.000000 2006 MST"))
	}))
	register("pg_client_encoding", constFn(tName, func(*evaluator) Value { return textV("UTF8") }))
	for _, n := range []string{"inet_server_addr", "inet_client_addr"} {
		register(n, constFn(869, func(*evaluator) Value { return null }))
	}
	for _, n := range []string{"inet_server_port", "inet_client_port"} {
		register(n, constFn(tInt4, func(*evaluator) Value { return null }))
	}
	registerPrivileges()
}

// registerPrivileges: the session user owns everything and may read it
// all (Shale is read-only over SQL, but PostgreSQL's privilege functions
// answer for the owner, and tools hide tables they think unreadable).
func registerPrivileges() {
	for _, n := range []string{"has_schema_privilege", "has_table_privilege", "has_any_column_privilege",
		"has_database_privilege", "has_column_privilege", "has_function_privilege", "has_sequence_privilege",
		"has_type_privilege", "has_tablespace_privilege", "has_foreign_data_wrapper_privilege",
		"has_server_privilege", "has_language_privilege", "pg_has_role"} {
		n := n
		register(n, &builtin{min: 2, max: 4, ret: tBool, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
			priv := strings.ToLower(a[len(a)-1].s)
			if priv == "" {
				return null, errorf(CodeInvalidText, noPos, "unrecognized privilege type: %q", a[len(a)-1].s)
			}
			return boolV(true), nil
		}})
	}
}
