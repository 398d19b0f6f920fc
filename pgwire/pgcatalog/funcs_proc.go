package pgcatalog

import (
	"fmt"
	"strconv"
	"strings"
)

// The functions that describe functions, over pg_proc's rows (procs): what
// psql's \df, \sf and \ef and tools' function browsers call. Every function
// here is built in, LANGUAGE internal.

func init() {
	register("pg_get_functiondef", procDescriber(func(p *procDef) (Value, error) {
		if p.kind == 'a' {
			return null, &Error{Code: CodeWrongObjectType, Message: fmt.Sprintf("\"%s\" is an aggregate function", p.name)}
		}
		return textV(functionDef(p)), nil
	}))
	register("pg_get_function_result", procDescriber(func(p *procDef) (Value, error) {
		if p.result == "" {
			return null, nil
		}
		return textV(p.result), nil
	}))
	register("pg_get_function_arguments", procDescriber(func(p *procDef) (Value, error) { return textV(p.args), nil }))
	register("pg_get_function_identity_arguments", procDescriber(func(p *procDef) (Value, error) {
		return textV(p.identityArgs), nil
	}))
}

// procDescriber builds a function of a pg_proc OID: NULL for an OID that
// names no function, as in PostgreSQL.
func procDescriber(fn func(p *procDef) (Value, error)) *builtin {
	return &builtin{min: 1, args: []uint32{tOid}, ret: tText, fn: func(_ *evaluator, a []Value, _ []uint32) (Value, error) {
		p, ok := procByOID(uint32(a[0].i))
		if !ok {
			return null, nil
		}
		return fn(p)
	}}
}

// functionDef is pg_get_functiondef's text for a built-in function, laid out
// as PostgreSQL's ruleutils.c lays it out.
func functionDef(p *procDef) string {
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE OR REPLACE FUNCTION %s.%s(%s)\n", quoteIdent(nspName(p.nsp)), quoteIdent(p.name), p.args)
	fmt.Fprintf(&b, " RETURNS %s\n", p.result)
	b.WriteString(" LANGUAGE internal\n")
	if p.kind == 'w' {
		b.WriteString(" WINDOW")
	}
	switch p.volatility {
	case 'i':
		b.WriteString(" IMMUTABLE")
	case 's':
		b.WriteString(" STABLE")
	}
	switch p.parallel {
	case 's':
		b.WriteString(" PARALLEL SAFE")
	case 'r':
		b.WriteString(" PARALLEL RESTRICTED")
	}
	if p.strict {
		b.WriteString(" STRICT")
	}
	if p.leakproof {
		b.WriteString(" LEAKPROOF")
	}
	if p.cost != 1 {
		b.WriteString(" COST " + strconv.FormatFloat(p.cost, 'g', -1, 64))
	}
	if p.rows > 0 && p.rows != 1000 {
		b.WriteString(" ROWS " + strconv.FormatFloat(p.rows, 'g', -1, 64))
	}
	if p.support != "" {
		b.WriteString(" SUPPORT " + p.support)
	}
	fmt.Fprintf(&b, "\nAS $function$%s$function$\n", p.src)
	return b.String()
}
