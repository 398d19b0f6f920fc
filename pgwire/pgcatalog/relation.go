package pgcatalog

import (
	"strconv"
	"strings"
)

// shape is a relation's transcribed PostgreSQL definition (shapes.go).
type shape struct {
	oid  uint32
	kind byte
	cols string
}

type colDef struct {
	name string
	typ  uint32
}

// relDef is an emulated catalog relation: its columns and how to compute
// its rows from a snapshot. Relations without a row function are empty.
type relDef struct {
	nsp  uint32
	name string
	oid  uint32
	kind byte
	cols []colDef
	idx  map[string]int
	rows func(s *snapshot, b *rowBuilder)
}

// relDefs holds every emulated relation by qualified name.
var relDefs = map[string]*relDef{}

// rowFuncs attaches row generators to relations (set by the rel_*.go files).
var rowFuncs = map[string]func(*snapshot, *rowBuilder){}

func init() {
	for qname, sh := range shapes {
		schema, name, _ := strings.Cut(qname, ".")
		nsp, _ := nspOID(schema)
		d := &relDef{nsp: nsp, name: name, oid: sh.oid, kind: sh.kind, idx: map[string]int{}}
		for _, f := range strings.Fields(sh.cols) {
			n, t, _ := strings.Cut(f, ":")
			oid, err := strconv.ParseUint(t, 10, 32)
			if err != nil {
				panic("pgcatalog: bad shape " + qname)
			}
			d.idx[n] = len(d.cols)
			d.cols = append(d.cols, colDef{name: n, typ: uint32(oid)})
		}
		relDefs[qname] = d
	}
	for qname, f := range rowFuncs {
		d, ok := relDefs[qname]
		if !ok {
			panic("pgcatalog: rows for unknown relation " + qname)
		}
		d.rows = f
	}
}

// rowBuilder accumulates the rows of one relation. Columns not set are
// NULL in views; in catalog tables they take their type's zero value
// (false, 0, ”), or NULL for arrays and expression trees, as in a freshly
// created catalog row.
type rowBuilder struct {
	d    *relDef
	rows [][]Value
}

// add appends a row from name/value pairs. An unknown column name is a bug
// in this package and panics (the relation tests build every relation).
func (b *rowBuilder) add(pairs ...any) {
	row := make([]Value, len(b.d.cols))
	if b.d.kind == 'r' {
		for i, c := range b.d.cols {
			row[i] = zeroValue(c.typ)
		}
	}
	for i := 0; i+1 < len(pairs); i += 2 {
		name := pairs[i].(string)
		j, ok := b.d.idx[name]
		if !ok {
			panic("pgcatalog: " + b.d.name + " has no column " + name)
		}
		row[j] = toValue(pairs[i+1])
	}
	b.rows = append(b.rows, row)
}

func toValue(x any) Value {
	switch v := x.(type) {
	case Value:
		return v
	case string:
		return textV(v)
	case bool:
		return boolV(v)
	case int:
		return intV(int64(v))
	case int64:
		return intV(v)
	case uint32:
		return oidV(v)
	case float64:
		return floatV(v)
	case byte:
		return textV(string(rune(v)))
	case nil:
		return null
	}
	panic("pgcatalog: bad row value")
}

func zeroValue(t uint32) Value {
	switch kindOf(t) {
	case kBool:
		return boolV(false)
	case kInt:
		return intV(0)
	case kFloat:
		return floatV(0)
	case kNumeric:
		return numericV(numericFromInt(0))
	case kArray, kRecord:
		return null
	}
	if t == tNodeTree {
		return null
	}
	return textV("")
}

// relationRows computes a relation's rows for a snapshot.
func (s *snapshot) relationRows(d *relDef) [][]Value {
	b := &rowBuilder{d: d}
	if d.rows != nil {
		d.rows(s, b)
	}
	return b.rows
}
