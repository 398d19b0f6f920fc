package pgcatalog

import (
	"slices"
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
				return null, errorf(CodeUndefinedObject, noPos, "unrecognized configuration parameter \"%s\"", a[0].s)
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
// As in PostgreSQL, the privilege list must name the function's
// privileges, a relation or schema given by name must exist (one given by
// OID that does not is NULL), and a sequence's must be a sequence.
func registerPrivileges() {
	for n, privs := range privilegeNames {
		n, privs := n, privs
		register(n, &builtin{min: 2, max: 4, ret: tBool, fn: func(ev *evaluator, a []Value, t []uint32) (Value, error) {
			// In PostgreSQL's order: an object given by name is looked up,
			// then the privileges read, then an object given by OID looked
			// up (NULL when there is none).
			obj := len(a) - 2 // the object: after the user, if given
			if n == "has_column_privilege" {
				obj = len(a) - 3
			}
			byName := obj >= 0 && (t[obj] == tText || t[obj] == tName || t[obj] == tVarchar)
			var r *rel
			missing := false
			switch {
			case obj < 0:
			case n == "has_table_privilege" || n == "has_any_column_privilege" || n == "has_column_privilege" || n == "has_sequence_privilege":
				snap, err := ev.catalog()
				if err != nil {
					return null, err
				}
				oid := uint32(a[obj].i)
				if byName {
					v, err := ev.regIn(a[obj].s, tRegclass)
					if err != nil {
						return null, err
					}
					oid = uint32(v.i)
				}
				r = snap.relByOID[oid]
				missing = r == nil
			case n == "has_schema_privilege" && byName:
				if _, ok := nspOID(a[obj].s); !ok {
					return null, errorf("3F000", noPos, "schema \"%s\" does not exist", a[obj].s)
				}
			}
			if err := checkPrivileges(n, privs, a[len(a)-1].s); err != nil {
				return null, err
			}
			if missing {
				return null, nil
			}
			if n == "has_sequence_privilege" && r != nil && r.kind != 'S' {
				return null, errorf(CodeWrongObjectType, noPos, "\"%s\" is not a sequence", ev.asText(a[obj], t[obj]))
			}
			return boolV(true), nil
		}})
	}
}

// privilegeNames are the privileges each function takes (PostgreSQL's
// convert_*_priv_string), each also WITH GRANT OPTION (pg_has_role's also
// WITH ADMIN OPTION).
var privilegeNames = map[string][]string{
	"has_table_privilege":                {"select", "insert", "update", "delete", "truncate", "references", "trigger"},
	"has_any_column_privilege":           {"select", "insert", "update", "references"},
	"has_column_privilege":               {"select", "insert", "update", "references"},
	"has_schema_privilege":               {"create", "usage"},
	"has_database_privilege":             {"create", "connect", "temporary", "temp"},
	"has_function_privilege":             {"execute"},
	"has_sequence_privilege":             {"usage", "select", "update"},
	"has_type_privilege":                 {"usage"},
	"has_tablespace_privilege":           {"create"},
	"has_foreign_data_wrapper_privilege": {"usage"},
	"has_server_privilege":               {"usage"},
	"has_language_privilege":             {"usage"},
	"pg_has_role":                        {"member", "usage"},
}

// checkPrivileges refuses a privilege list (comma-separated, white space
// around each, any case) naming one the function does not know.
func checkPrivileges(fn string, privs []string, list string) error {
	for _, p := range strings.Split(list, ",") {
		w := strings.ToLower(strings.TrimSpace(p))
		base := strings.TrimSuffix(w, " with grant option")
		if fn == "pg_has_role" {
			base = strings.TrimSuffix(base, " with admin option")
		}
		if !slices.Contains(privs, base) {
			return errorf(CodeInvalidParameter, noPos, "unrecognized privilege type: \"%s\"", strings.TrimSpace(p))
		}
	}
	return nil
}
