package pgcatalog

import (
	"strconv"
	"sync"
)

// pg_operator and pg_cast: the operators and casts this package evaluates,
// as PostgreSQL 15 lists them (operator_data.go, written by
// scripts/gen-pg-operators.sh, which asks a running Shale which of
// PostgreSQL's operators and casts it accepts). The functions implementing
// them join pg_proc (procs.go) so that \do+ prints oprcode by name and \dC
// names each cast's function; their comments are the operators' fallback
// descriptions in \do.

func init() {
	rowFuncs["pg_catalog.pg_operator"] = operatorRows
	rowFuncs["pg_catalog.pg_cast"] = pgCastRows
}

// operDef is a pg_operator row and its comment.
type operDef struct {
	oid                 uint32
	name                string
	kind                byte // oprkind: 'b' infix, 'l' prefix
	canMerge, canHash   bool
	left, right, result uint32
	com, negate, code   uint32
	rest, join          uint32 // oprrest, oprjoin: the selectivity estimators
	description         string
}

// castDef is a pg_cast row.
type castDef struct {
	oid, source, target, fn uint32
	context, method         byte
}

func operatorRows(s *snapshot, b *rowBuilder) {
	for _, o := range pgOperators {
		b.add("oid", o.oid, "oprname", o.name, "oprnamespace", uint32(nspCatalog), "oprowner", uint32(roleOID),
			"oprkind", o.kind, "oprcanmerge", o.canMerge, "oprcanhash", o.canHash, "oprleft", o.left,
			"oprright", o.right, "oprresult", o.result, "oprcom", o.com, "oprnegate", o.negate,
			"oprcode", o.code, "oprrest", o.rest, "oprjoin", o.join)
	}
}

func pgCastRows(s *snapshot, b *rowBuilder) {
	for _, c := range pgCasts {
		b.add("oid", c.oid, "castsource", c.source, "casttarget", c.target, "castfunc", c.fn,
			"castcontext", c.context, "castmethod", c.method)
	}
}

var (
	operDescOnce sync.Once
	operDescs    map[uint32]string
)

// operatorDescription is an operator's comment, "" for none.
func operatorDescription(oid uint32) string {
	operDescOnce.Do(func() {
		operDescs = map[uint32]string{}
		for _, o := range pgOperators {
			if o.description != "" {
				operDescs[o.oid] = o.description
			}
		}
	})
	return operDescs[oid]
}

// The OID alias types of operators. Shale renders them (regoperout,
// regoperatorout) but does not read them back from names.
const (
	tRegoper     = 2203
	tRegoperator = 2204
)

var (
	operOnce    sync.Once
	operByOID   map[uint32]*operDef
	opersByName map[string]int
)

// regoperName is a regoper's or regoperator's text: the operator's name,
// qualified when other operators share it (regoper), or its name and
// operand types, NONE for a prefix operator's left (regoperator); the OID
// itself for 0 or an operator pg_operator does not list.
func regoperName(oid int64, typ uint32) string {
	operOnce.Do(func() {
		operByOID, opersByName = map[uint32]*operDef{}, map[string]int{}
		for i := range pgOperators {
			o := &pgOperators[i]
			operByOID[o.oid] = o
			opersByName[o.name]++
		}
	})
	o, ok := operByOID[uint32(oid)]
	if !ok || oid != int64(uint32(oid)) {
		return strconv.FormatInt(oid, 10)
	}
	if typ == tRegoperator {
		left := "NONE"
		if o.left != 0 {
			left = formatType(o.left, -1)
		}
		return o.name + "(" + left + "," + formatType(o.right, -1) + ")"
	}
	if opersByName[o.name] == 1 {
		return o.name
	}
	return "pg_catalog." + o.name
}
