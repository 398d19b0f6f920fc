package pgcatalog

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// pgEncodings are PostgreSQL's server and client encodings, by number.
var pgEncodings = []string{"SQL_ASCII", "EUC_JP", "EUC_CN", "EUC_KR", "EUC_TW", "EUC_JIS_2004", "UTF8",
	"MULE_INTERNAL", "LATIN1", "LATIN2", "LATIN3", "LATIN4", "LATIN5", "LATIN6", "LATIN7", "LATIN8", "LATIN9",
	"LATIN10", "WIN1256", "WIN1258", "WIN866", "WIN874", "KOI8R", "WIN1251", "WIN1252", "ISO_8859_5",
	"ISO_8859_6", "ISO_8859_7", "ISO_8859_8", "WIN1250", "WIN1253", "WIN1254", "WIN1255", "WIN1257", "KOI8U",
	"SJIS", "BIG5", "GBK", "UHC", "GB18030", "JOHAB", "SHIFT_JIS_2004"}

// cleanEncodingName is an encoding name as PostgreSQL compares them:
// letters and digits only, lowercase.
func cleanEncodingName(s string) string {
	var sb strings.Builder
	for _, c := range strings.ToLower(s) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' {
			sb.WriteRune(c)
		}
	}
	return sb.String()
}

func init() {
	register("pg_get_userbyid", &builtin{min: 1, args: []uint32{tOid}, ret: tName, fn: func(ev *evaluator, a []Value, _ []uint32) (Value, error) {
		if name, ok := ev.roleName(a[0].i); ok {
			return textV(name), nil
		}
		return textV("unknown (OID=" + itoa(a[0].i) + ")"), nil
	}})
	register("pg_table_is_visible", withSnapshot(1, tBool, func(s *snapshot, a []Value) Value {
		r := s.relByOID[uint32(a[0].i)]
		if r == nil {
			return null
		}
		return boolV(s.visible(r))
	}))
	// The types are pg_catalog's, and the tables' row types are in public,
	// except information_schema's domains, visible only when it is on
	// the search path.
	register("pg_type_is_visible", &builtin{min: 1, args: []uint32{tOid}, ret: tBool,
		fn: func(ev *evaluator, a []Value, _ []uint32) (Value, error) {
			if _, ok := infoDomainName(uint32(a[0].i)); ok {
				return boolV(slices.Contains(searchPath(ev.sess, true), "information_schema")), nil
			}
			return boolV(true), nil
		}})
	for _, n := range []string{"pg_function_is_visible", "pg_collation_is_visible",
		"pg_opclass_is_visible", "pg_opfamily_is_visible", "pg_operator_is_visible", "pg_conversion_is_visible",
		"pg_statistics_obj_is_visible", "pg_ts_config_is_visible", "pg_ts_dict_is_visible", "pg_ts_parser_is_visible",
		"pg_ts_template_is_visible"} {
		register(n, &builtin{min: 1, args: []uint32{tOid}, ret: tBool, fn: func(*evaluator, []Value, []uint32) (Value, error) {
			return boolV(true), nil
		}})
	}
	register("format_type", &builtin{min: 2, args: []uint32{tOid, tInt4}, ret: tText, lenient: true,
		fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
			if a[0].isNull() {
				return null, nil
			}
			if a[0].i == 0 {
				return textV("-"), nil
			}
			if a[1].isNull() {
				return textV(formatType(uint32(a[0].i), -1)), nil
			}
			mod, _ := a[1].asInt()
			return textV(formatTypeGiven(uint32(a[0].i), mod)), nil
		}})
	// Expression trees are stored as their text, so deparsing is the
	// identity (the emulated catalog has no defaults, checks or policies).
	register("pg_get_expr", &builtin{min: 2, max: 3, args: []uint32{tNodeTree, tOid, tBool}, ret: tText,
		fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) { return textV(a[0].s), nil }})
	register("pg_get_indexdef", withSnapshot(1, tText, func(s *snapshot, a []Value) Value {
		idx := s.relByOID[uint32(a[0].i)]
		if idx == nil || idx.kind != 'i' {
			return null
		}
		col, pretty := int64(0), false
		if len(a) > 1 {
			col = a[1].i
		}
		if len(a) > 2 {
			pretty = a[2].k == kBool && a[2].b
		}
		return textV(s.indexDef(idx, col, pretty))
	}, 3))
	register("pg_get_constraintdef", withSnapshot(1, tText, func(s *snapshot, a []Value) Value {
		pretty := len(a) > 1 && a[1].k == kBool && a[1].b
		if d, ok := s.constraintDef(uint32(a[0].i), pretty); ok {
			return textV(d)
		}
		return null
	}, 2))
	register("pg_get_viewdef", &builtin{min: 1, max: 2, args: []uint32{tOid}, ret: tText,
		fn: func(*evaluator, []Value, []uint32) (Value, error) { return null, nil }})
	// pg_description holds the schemas' comments (roles.go), the
	// built-in functions' and types' (proc_data.go), the operators'
	// (operator_data.go), the access methods' and the languages'.
	register("obj_description", &builtin{min: 1, max: 2, args: []uint32{tOid, tName}, ret: tText,
		fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
			oid := uint32(a[0].i)
			if d, ok := namespaceDescriptions[oid]; ok && (len(a) == 1 || a[1].s == "pg_namespace") {
				return textV(d), nil
			}
			if p, ok := procByOID(oid); ok && p.description != "" && (len(a) == 1 || a[1].s == "pg_proc") {
				return textV(p.description), nil
			}
			if d, ok := typeDescriptions[oid]; ok && (len(a) == 1 || a[1].s == "pg_type") {
				return textV(d), nil
			}
			if d := operatorDescription(oid); d != "" && (len(a) == 1 || a[1].s == "pg_operator") {
				return textV(d), nil
			}
			if d, ok := amDescriptions[oid]; ok && len(a) == 2 && a[1].s == "pg_am" {
				return textV(d), nil
			}
			if d, ok := languageDescription(oid); ok && len(a) == 2 && a[1].s == "pg_language" {
				return textV(d), nil
			}
			return null, nil
		}})
	for _, n := range []string{"col_description", "shobj_description"} {
		register(n, &builtin{min: 1, max: 2, args: []uint32{tOid, tName}, ret: tText,
			fn: func(*evaluator, []Value, []uint32) (Value, error) { return null, nil }})
	}
	for _, n := range []string{"pg_get_function_sqlbody", "pg_get_triggerdef", "pg_get_ruledef", "pg_get_partkeydef",
		"pg_get_statisticsobjdef_columns", "pg_tablespace_location"} {
		register(n, &builtin{min: 1, max: 2, args: []uint32{tOid}, ret: tText,
			fn: func(*evaluator, []Value, []uint32) (Value, error) { return null, nil }})
	}
	// pg_get_serial_sequence reads the table's name as an identifier and
	// the column's literally; no column of the emulated tables owns a
	// sequence, so an existing column gives NULL.
	register("pg_get_serial_sequence", &builtin{min: 2, args: []uint32{tText, tText}, ret: tText,
		fn: func(ev *evaluator, a []Value, _ []uint32) (Value, error) {
			snap, err := ev.catalog()
			if err != nil {
				return null, err
			}
			parts := splitQualified(strings.TrimSpace(a[0].s))
			schema, name := "", parts[len(parts)-1]
			if len(parts) > 1 {
				schema = parts[len(parts)-2]
			}
			r := snap.resolveRel(schema, name)
			if r == nil {
				return null, errorf(CodeUndefinedTable, noPos, "relation \"%s\" does not exist", strings.Join(parts, "."))
			}
			for _, c := range r.cols {
				if c.name == a[1].s {
					return null, nil
				}
			}
			return null, errorf(CodeUndefinedColumn, noPos, "column \"%s\" of relation \"%s\" does not exist", a[1].s, r.name)
		}})
	register("pg_encoding_to_char", &builtin{min: 1, args: []uint32{tInt4}, ret: tName, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		if a[0].i >= 0 && a[0].i < int64(len(pgEncodings)) {
			return textV(pgEncodings[a[0].i]), nil
		}
		return textV(""), nil
	}})
	register("pg_char_to_encoding", &builtin{min: 1, args: []uint32{tName}, ret: tInt4, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		clean := cleanEncodingName(a[0].s)
		if clean == "unicode" {
			return intV(6), nil
		}
		for i, e := range pgEncodings {
			if cleanEncodingName(e) == clean {
				return intV(int64(i)), nil
			}
		}
		return intV(-1), nil
	}})
	register("getdatabaseencoding", &builtin{ret: tName, fn: func(*evaluator, []Value, []uint32) (Value, error) {
		return textV("UTF8"), nil
	}})
	register("pg_relation_is_publishable", &builtin{min: 1, args: []uint32{tRegclass}, ret: tBool,
		fn: func(ev *evaluator, a []Value, _ []uint32) (Value, error) {
			s, err := ev.catalog()
			if err != nil {
				return null, err
			}
			r := s.relByOID[uint32(a[0].i)]
			return boolV(r != nil && r.table != nil), nil
		}})
	// A Shale table's size is its data's (Table.Size), all in the main
	// fork; its primary key index and the catalog take no space.
	for _, n := range []string{"pg_relation_size", "pg_table_size", "pg_total_relation_size"} {
		register(n, &builtin{min: 1, max: 2, args: []uint32{tRegclass, tText}, ret: tInt8,
			fn: func(ev *evaluator, a []Value, _ []uint32) (Value, error) {
				if len(a) > 1 && a[1].s != "main" {
					return intV(0), nil
				}
				s, err := ev.catalog()
				if err != nil {
					return null, err
				}
				if r := s.relByOID[uint32(a[0].i)]; r != nil && r.table != nil {
					return intV(r.table.Size), nil
				}
				return intV(0), nil
			}})
	}
	register("pg_indexes_size", &builtin{min: 1, args: []uint32{tRegclass}, ret: tInt8,
		fn: func(*evaluator, []Value, []uint32) (Value, error) { return intV(0), nil }})
	register("pg_database_size", &builtin{min: 1, args: []uint32{tName}, ret: tInt8,
		fn: func(ev *evaluator, a []Value, t []uint32) (Value, error) {
			s, err := ev.catalog()
			if err != nil {
				return null, err
			}
			switch {
			case kindOf(t[0]) == kInt:
				if uint32(a[0].i) != s.databaseOID(s.sess.Database) {
					return null, nil
				}
			case a[0].s != s.sess.Database:
				if s.databaseOID(a[0].s) == 0 {
					return null, errorf("3D000", noPos, "database \"%s\" does not exist", a[0].s)
				}
				return intV(0), nil // another instance: its tables are not in this snapshot
			}
			return intV(s.tablesSize()), nil
		}})
	// Every table is in pg_default; pg_global holds nothing of Shale's.
	register("pg_tablespace_size", &builtin{min: 1, args: []uint32{tName}, ret: tInt8,
		fn: func(ev *evaluator, a []Value, t []uint32) (Value, error) {
			s, err := ev.catalog()
			if err != nil {
				return null, err
			}
			space := a[0].s
			if kindOf(t[0]) == kInt {
				switch a[0].i {
				case 1663:
					space = "pg_default"
				case 1664:
					space = "pg_global"
				default:
					return null, nil
				}
			}
			switch space {
			case "pg_default":
				return intV(s.tablesSize()), nil
			case "pg_global":
				return intV(0), nil
			}
			return null, errorf(CodeUndefinedObject, noPos, "tablespace \"%s\" does not exist", space)
		}})
	register("pg_size_pretty", &builtin{min: 1, args: []uint32{tInt8}, ret: tText, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		n, _ := a[0].asInt()
		return textV(sizePretty(n)), nil
	}})
	register("pg_size_bytes", &builtin{min: 1, args: []uint32{tText}, ret: tInt8, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		n, err := sizeBytes(a[0].s)
		if err != nil {
			return null, err
		}
		return intV(n), nil
	}})
	register("to_regclass", toReg(tRegclass))
	register("to_regtype", toReg(tRegtype))
	register("to_regnamespace", toReg(tRegnamespace))
	register("to_regproc", toReg(tRegproc))
	register("to_regprocedure", toReg(tRegprocedure))
	register("to_regrole", toReg(tRegrole))
	register("pg_typeof", &builtin{min: 1, args: []uint32{tUnknown}, ret: tRegtype, lenient: true,
		fn: func(_ *evaluator, _ []Value, t []uint32) (Value, error) { return oidV(t[0]), nil }})
}

// withSnapshot makes a strict function over OID-typed first arguments
// that reads the statement's catalog. maxArgs defaults to minArgs.
func withSnapshot(minArgs int, ret uint32, fn func(s *snapshot, a []Value) Value, maxArgs ...int) *builtin {
	mx := minArgs
	if len(maxArgs) > 0 {
		mx = maxArgs[0]
	}
	return &builtin{min: minArgs, max: mx, args: []uint32{tOid, tInt4, tBool}, ret: ret,
		fn: func(ev *evaluator, a []Value, _ []uint32) (Value, error) {
			s, err := ev.catalog()
			if err != nil {
				return null, err
			}
			return fn(s, a), nil
		}}
}

// toReg is to_regclass and friends: the name's OID, or NULL.
func toReg(t uint32) *builtin {
	return &builtin{min: 1, ret: t, fn: func(ev *evaluator, a []Value, _ []uint32) (Value, error) {
		v, err := ev.regIn(a[0].s, t)
		if err != nil {
			if _, ok := err.(*Error); ok {
				return null, nil
			}
			return null, err
		}
		return v, nil
	}}
}

// sizePretty formats a byte count as PostgreSQL 15's pg_size_pretty:
// bytes below 10 kB, then each unit while below 20 479 half-units, rounded
// half away from zero.
func sizePretty(n int64) string {
	const limit, limit2 = 10 * 1024, 10*1024*2 - 1
	if abs(n) < limit {
		return strconv.FormatInt(n, 10) + " bytes"
	}
	n /= 1 << 9 // keep one extra bit for rounding
	for _, unit := range []string{"kB", "MB", "GB", "TB"} {
		if abs(n) < limit2 || unit == "TB" {
			return strconv.FormatInt(halfRounded(n), 10) + " " + unit
		}
		n /= 1 << 10
	}
	return ""
}

// sizeBytes parses a size as PostgreSQL 15's pg_size_bytes does: a
// number (sign, fraction and exponent allowed) and an optional unit,
// bytes or kB to PB in powers of 1024, in any case; the product is
// rounded half away from zero.
func sizeBytes(text string) (int64, error) {
	s := strings.TrimLeft(text, " \t\n\r\f\v")
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for ; i < len(s) && asciiDigit(s[i]); i++ {
		digits++
	}
	if i < len(s) && s[i] == '.' {
		for i++; i < len(s) && asciiDigit(s[i]); i++ {
			digits++
		}
	}
	if digits == 0 {
		return 0, errorf(CodeInvalidParameter, noPos, "invalid size: \"%s\"", text)
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && asciiDigit(s[j]) {
			for i = j; i < len(s) && asciiDigit(s[i]); i++ {
			}
		}
	}
	n, err := parseNumeric(s[:i])
	if err != nil {
		return 0, errorf(CodeInvalidParameter, noPos, "invalid size: \"%s\"", text)
	}
	if unit := strings.TrimSpace(s[i:]); unit != "" {
		shift := -1
		for k, u := range []string{"bytes", "kB", "MB", "GB", "TB", "PB"} {
			if strings.EqualFold(unit, u) {
				shift = 10 * k
			}
		}
		if shift < 0 {
			e := errorf(CodeInvalidParameter, noPos, "invalid size: \"%s\"", text)
			e.Detail = fmt.Sprintf("Invalid size unit: \"%s\".", unit)
			e.Hint = `Valid units are "bytes", "kB", "MB", "GB", "TB", and "PB".`
			return 0, e
		}
		n = n.mul(numericFromInt(1 << shift))
	}
	v, ok := n.integer()
	if !ok {
		return 0, errorf(CodeOutOfRange, noPos, "bigint out of range")
	}
	return v, nil
}

func asciiDigit(c byte) bool { return '0' <= c && c <= '9' }

func abs(n int64) int64 {
	if n < 0 {
		return -n
	}
	return n
}

func halfRounded(n int64) int64 {
	if n < 0 {
		return (n - 1) / 2
	}
	return (n + 1) / 2
}

// tablesSize is the size of the snapshot's tables: the database's size.
func (s *snapshot) tablesSize() int64 {
	var total int64
	for _, r := range s.rels {
		if r.table != nil {
			total += r.table.Size
		}
	}
	return total
}

// formatTypeGiven is format_type with a typmod given: a negative one shows
// bpchar and bit under their own names, since "character" and "bit" alone
// would mean a length of 1.
func formatTypeGiven(oid uint32, typmod int64) string {
	if typmod < 0 {
		switch oid {
		case tBpchar:
			return "bpchar"
		case 1560: // bit
			return `"bit"`
		}
		if t := typeByOID[oid]; t != nil && t.category == 'A' && t.elem != 0 && oid != tInt2Vector && oid != tOidVector {
			return formatTypeGiven(t.elem, typmod) + "[]"
		}
	}
	return formatType(oid, typmod)
}
