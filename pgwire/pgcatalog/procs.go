package pgcatalog

import (
	"sort"
	"strings"
	"sync"
)

// pg_proc: the functions this package evaluates, as PostgreSQL 15 lists
// them. A function PostgreSQL has keeps its rows there (proc_data.go,
// written by scripts/gen-pg-catalog.sh): every overload, its OID, argument
// types and names, volatility and description, so that \df, \sf, the
// regproc types and tools' function browsers show what PostgreSQL shows.
// A function PostgreSQL lacks gets a row made from its registration, with
// no argument types.

func init() {
	rowFuncs["pg_catalog.pg_proc"] = procRows
}

// procDef is a pg_proc row.
type procDef struct {
	oid                        uint32
	nsp                        uint32
	name, src                  string
	kind, volatility, parallel byte // prokind, provolatile, proparallel
	strict, retSet, leakproof  bool
	cost, rows                 float64
	variadic                   uint32
	nargDefaults               int
	ret                        uint32
	argTypes, allArgTypes      []uint32 // allArgTypes is nil unless there are OUT arguments
	argModes                   string   // proargmodes, one letter per argument; "" for all IN
	argNames                   []string
	// support is prosupport's name ("" for none), which
	// pg_get_functiondef prints; pg_proc lists no support functions, so
	// the column is 0.
	support string
	// args, identityArgs and result are pg_get_function_arguments,
	// pg_get_function_identity_arguments and pg_get_function_result.
	args, identityArgs, result string
	description                string
}

// notFunctions are registered as functions but are SQL keywords, which
// pg_proc does not list.
var notFunctions = map[string]bool{"user": true, "current_role": true, "current_catalog": true}

// syntheticProcOIDs start where PostgreSQL's release catalogs never assign
// (8000–9999 are reserved for patches in development).
const syntheticProcOIDs = 8000

var (
	procsOnce   sync.Once
	procList    []*procDef
	procsByName map[string][]*procDef
	procsByOID  map[uint32]*procDef
)

// procs lists pg_proc's rows in OID order.
func procs() []*procDef {
	procsOnce.Do(buildProcs)
	return procList
}

func buildProcs() {
	names := map[string]*procDef{} // the evaluated names, with a row for those PostgreSQL lacks
	for _, t := range builtinTypes {
		names[t.input] = &procDef{ret: t.oid, strict: true}
		names[t.output] = &procDef{ret: 2275, strict: true} // cstring
		if t.receive != "" {
			names[t.receive] = &procDef{ret: t.oid, strict: true}
			names[t.send] = &procDef{ret: tBytea, strict: true}
		}
	}
	for name, f := range funcs {
		names[name] = &procDef{ret: f.staticRet, strict: !f.lenient}
	}
	for name, f := range srfs {
		names[name] = &procDef{ret: f.retType, retSet: true, strict: true}
	}
	for name := range aggregates {
		names[name] = &procDef{kind: 'a'}
	}
	for name := range recordSRFs {
		names[name] = &procDef{ret: tRecord, retSet: true, strict: true}
	}
	for name, w := range winFuncs {
		names[name] = &procDef{kind: 'w', ret: w.ret}
	}
	procsByName = map[string][]*procDef{}
	procsByOID = map[uint32]*procDef{}
	for i := range pgProcs {
		p := &pgProcs[i]
		if names[p.name] != nil {
			procList = append(procList, p)
			procsByName[p.name] = append(procsByName[p.name], p)
		}
	}
	// The functions implementing the operators and casts (rel_operator.go)
	// that are not otherwise listed.
	listed := map[uint32]bool{}
	for _, p := range procList {
		listed[p.oid] = true
	}
	for i := range pgOperatorProcs {
		if p := &pgOperatorProcs[i]; !listed[p.oid] {
			listed[p.oid] = true
			procList = append(procList, p)
			procsByName[p.name] = append(procsByName[p.name], p)
		}
	}
	var missing []string
	for n := range names {
		if procsByName[n] == nil && !notFunctions[n] {
			missing = append(missing, n)
		}
	}
	sort.Strings(missing)
	for i, n := range missing {
		p := names[n]
		p.oid, p.nsp, p.name, p.src = syntheticProcOIDs+uint32(i), nspCatalog, n, n
		if p.kind == 0 {
			p.kind = 'f'
		}
		p.volatility, p.parallel, p.cost = 's', 's', 1
		if p.ret != 0 {
			p.result = formatType(p.ret, -1)
			if p.retSet {
				p.result = "SETOF " + p.result
			}
		}
		procList = append(procList, p)
		procsByName[n] = []*procDef{p}
	}
	sort.Slice(procList, func(i, j int) bool { return procList[i].oid < procList[j].oid })
	for _, p := range procList {
		procsByOID[p.oid] = p
	}
}

// procOID is the OID of the function of that name, for names with one
// version (the types' I/O functions); 0 when there is none.
func procOID(name string) uint32 {
	procs()
	if ps := procsByName[name]; len(ps) > 0 {
		return ps[0].oid
	}
	return 0
}

func procByOID(oid uint32) (*procDef, bool) {
	procs()
	p, ok := procsByOID[oid]
	return p, ok
}

// procSignature is a regprocedure's text: the name and the argument types,
// comma-separated without spaces.
func procSignature(p *procDef) string {
	var b strings.Builder
	b.WriteString(quoteIdent(p.name))
	b.WriteByte('(')
	for i, t := range p.argTypes {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(formatType(t, -1))
	}
	b.WriteByte(')')
	return b.String()
}

// regprocIn resolves a regproc's text, a function name that must name one
// function.
func regprocIn(s string) (Value, error) {
	parts := splitQualified(s)
	ps := procsNamed(parts)
	switch {
	case len(ps) == 0:
		return null, errorf(CodeUndefinedFunc, noPos, "function \"%s\" does not exist", s)
	case len(ps) > 1:
		return null, errorf(CodeAmbiguousFunc, noPos, "more than one function named \"%s\"", s)
	}
	return oidV(ps[0].oid), nil
}

// regprocedureIn resolves a regprocedure's text, a name and its argument
// types: lower(text).
func regprocedureIn(s string) (Value, error) {
	open := strings.IndexByte(s, '(')
	if open < 0 || !strings.HasSuffix(strings.TrimSpace(s), ")") {
		return null, errorf(CodeInvalidText, noPos, "expected a left parenthesis")
	}
	var want []uint32
	if list := strings.TrimSpace(strings.TrimSpace(s)[open+1 : len(strings.TrimSpace(s))-1]); list != "" {
		for _, tn := range splitTopLevel(list) {
			t, ok := lookupTypeName(strings.TrimSpace(tn))
			if !ok {
				return null, errorf(CodeUndefinedObject, noPos, "type \"%s\" does not exist", strings.TrimSpace(tn))
			}
			want = append(want, t.oid)
		}
	}
	for _, p := range procsNamed(splitQualified(strings.TrimSpace(s[:open]))) {
		if equalOIDs(p.argTypes, want) {
			return oidV(p.oid), nil
		}
	}
	return null, errorf(CodeUndefinedFunc, noPos, "function \"%s\" does not exist", s)
}

// procsNamed are the versions of a possibly schema-qualified function name.
func procsNamed(parts []string) []*procDef {
	procs()
	if len(parts) == 0 {
		return nil
	}
	ps := procsByName[parts[len(parts)-1]]
	if len(parts) < 2 {
		return ps
	}
	var in []*procDef
	for _, p := range ps {
		if nspName(p.nsp) == parts[len(parts)-2] {
			in = append(in, p)
		}
	}
	return in
}

// splitTopLevel splits a list at the commas outside parentheses and
// double quotes: numeric(10,2), text.
func splitTopLevel(s string) []string {
	var out []string
	depth, quoted, start := 0, false, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == ',' && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

func equalOIDs(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func procRows(s *snapshot, b *rowBuilder) {
	for _, p := range procs() {
		b.add("oid", p.oid, "proname", p.name, "pronamespace", p.nsp, "proowner", uint32(roleOID),
			"prolang", uint32(12), "procost", p.cost, "prorows", p.rows, "provariadic", p.variadic,
			"prosupport", uint32(0), "prokind", string(p.kind), "prosecdef", false, "proleakproof", p.leakproof,
			"proisstrict", p.strict, "proretset", p.retSet, "provolatile", string(p.volatility),
			"proparallel", string(p.parallel), "pronargs", len(p.argTypes), "pronargdefaults", p.nargDefaults,
			"prorettype", p.ret, "proargtypes", oidsV(p.argTypes), "proallargtypes", nullableOIDs(p.allArgTypes),
			"proargmodes", argModesV(p.argModes), "proargnames", nullableTexts(p.argNames), "prosrc", p.src)
	}
}

func oidsV(oids []uint32) Value {
	a := make([]Value, len(oids))
	for i, o := range oids {
		a[i] = oidV(o)
	}
	return arrayV(a)
}

func nullableOIDs(oids []uint32) Value {
	if oids == nil {
		return null
	}
	return oidsV(oids)
}

func nullableTexts(ss []string) Value {
	if ss == nil {
		return null
	}
	return textArray(ss...)
}

// argModesV is proargmodes: NULL when every argument is IN.
func argModesV(modes string) Value {
	if modes == "" {
		return null
	}
	a := make([]Value, len(modes))
	for i := range modes {
		a[i] = textV(modes[i : i+1])
	}
	return arrayV(a)
}
