package pgcatalog

import (
	"fmt"
	"strings"
)

// The functions that describe functions, over pg_proc's rows (procs): what
// psql's \sf, \df+ and \ef and tools' function browsers call. Every
// function here is built in, LANGUAGE internal, and pg_proc lists no
// argument types for it, so its arguments print as "".

func init() {
	register("pg_get_functiondef", procDescriber(func(p proc) (Value, error) {
		if p.agg {
			return null, &Error{Code: CodeWrongObjectType, Message: fmt.Sprintf("%q is an aggregate function", p.name)}
		}
		return textV(functionDef(p)), nil
	}))
	register("pg_get_function_result", procDescriber(func(p proc) (Value, error) {
		if p.retType == 0 {
			return null, nil // an aggregate: pg_proc does not say
		}
		return textV(functionResult(p)), nil
	}))
	for _, n := range []string{"pg_get_function_arguments", "pg_get_function_identity_arguments"} {
		register(n, procDescriber(func(proc) (Value, error) { return textV(""), nil }))
	}
}

// procDescriber builds a function of a pg_proc OID: NULL for an OID that
// names no function, as in PostgreSQL.
func procDescriber(fn func(p proc) (Value, error)) *builtin {
	return &builtin{min: 1, args: []uint32{tOid}, ret: tText, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		p, ok := procByOID(uint32(a[0].i))
		if !ok {
			return null, nil
		}
		return fn(p)
	}}
}

// functionResult is the RETURNS clause's type, as pg_get_function_result
// prints it.
func functionResult(p proc) string {
	if p.retSet {
		return "SETOF " + formatType(p.retType, -1)
	}
	return formatType(p.retType, -1)
}

// functionDef is pg_get_functiondef's text for a built-in function, laid out
// as PostgreSQL's ruleutils.c lays it out (every pg_proc row here is STABLE
// and PARALLEL SAFE, at the default cost).
func functionDef(p proc) string {
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE OR REPLACE FUNCTION pg_catalog.%s()\n", quoteIdent(p.name))
	fmt.Fprintf(&b, " RETURNS %s\n", functionResult(p))
	b.WriteString(" LANGUAGE internal\n")
	b.WriteString(" STABLE PARALLEL SAFE")
	if p.strict {
		b.WriteString(" STRICT")
	}
	fmt.Fprintf(&b, "\nAS $function$%s$function$\n", p.name)
	return b.String()
}
