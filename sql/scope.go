package sql

import (
	"strings"

	"github.com/cloudspannerecosystem/memefish/ast"

	"github.com/shale-db/shale/sql/sqlerr"
	"github.com/shale-db/shale/sql/types"
)

// scope is the row a FROM clause produces, as names: column i of the scope
// is column i of the source's rows.
type scope struct {
	cols []scopeCol
	// tables maps a table's range variable (alias or name) to the scope
	// indexes of its columns.
	tables map[string][]int
	// lambda holds the parameters of the lambdas around the expression
	// being bound, innermost last; they shadow columns (bind_lambda.go).
	lambda []lambdaParam
}

type scopeCol struct {
	name string
	t    *types.Type
	// hidden columns resolve by name but are not part of * (`_key` of a
	// table with a row-key schema).
	hidden bool
	// fields marks the value of UNNEST over an ARRAY<STRUCT> (a value
	// table): its fields resolve as names and * expands to them.
	fields bool
}

func (s *scope) add(name string, t *types.Type) int {
	s.cols = append(s.cols, scopeCol{name: name, t: t})
	return len(s.cols) - 1
}

// find returns the index of the column called name among idx (all columns
// when idx is nil): an exact match, else a unique case-insensitive one.
func (s *scope) find(name string, idx []int) (int, bool) {
	if idx == nil {
		idx = make([]int, len(s.cols))
		for i := range idx {
			idx[i] = i
		}
	}
	found := -1
	for _, i := range idx {
		if s.cols[i].name == name {
			return i, true
		}
		if strings.EqualFold(s.cols[i].name, name) {
			if found >= 0 {
				return -1, false
			}
			found = i
		}
	}
	return found, found >= 0
}

// field finds a field called name of the value-table columns (scopeCol.fields):
// the column and the field's index. Like find, an exact match wins, else
// a unique case-insensitive one; ambiguous reports a name found twice.
func (s *scope) field(name string) (col, idx int, ok, ambiguous bool) {
	col, idx = -1, -1
	exact := false
	for c, sc := range s.cols {
		if !sc.fields {
			continue
		}
		for i, f := range sc.t.Fields {
			switch {
			case f.Name == name:
				if exact {
					return -1, -1, false, true
				}
				col, idx, exact = c, i, true
			case !exact && strings.EqualFold(f.Name, name):
				if col >= 0 {
					ambiguous = true
				}
				col, idx = c, i
			}
		}
	}
	if exact {
		return col, idx, true, false
	}
	if ambiguous {
		return -1, -1, false, true
	}
	return col, idx, col >= 0, false
}

func (s *scope) table(name string) ([]int, bool) {
	for k, v := range s.tables {
		if strings.EqualFold(k, name) {
			return v, true
		}
	}
	return nil, false
}

// resolvePath binds a dotted name: a column then struct fields, or a table
// range variable, its column, then fields.
func (b *binder) resolvePath(ids []*ast.Ident, sc *scope) (Expr, error) {
	first := ids[0]
	rest := ids[1:]
	var e Expr
	if v, ok := sc.lambdaVar(first); ok {
		e = v
	} else if i, ok := sc.find(first.Name, nil); ok {
		e = &ColRef{Idx: i, Name: sc.cols[i].name, T: sc.cols[i].t, Pos: int(first.Pos())}
	} else if c, f, ok, ambiguous := sc.field(first.Name); ok || ambiguous {
		if ambiguous {
			return nil, b.errAt(first, sqlerr.InvalidArgument, "column name %s is ambiguous", first.Name)
		}
		e = valueField(sc, c, f, int(first.Pos()))
	} else if cols, ok := sc.table(first.Name); ok && len(rest) > 0 {
		i, ok := sc.find(rest[0].Name, cols)
		if !ok {
			return nil, b.errAt(rest[0], sqlerr.UndefinedColumn, "name %s not found inside %s", rest[0].Name, first.Name)
		}
		e = &ColRef{Idx: i, Name: sc.cols[i].name, T: sc.cols[i].t, Pos: int(rest[0].Pos())}
		rest = rest[1:]
	} else {
		return nil, b.errAt(first, sqlerr.UndefinedColumn, "unrecognized name: %s", first.Name)
	}
	for _, id := range rest {
		var err error
		if e, err = b.fieldAccess(e, id); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// valueField reads field f of value-table column c.
func valueField(sc *scope, c, f, pos int) Expr {
	col := sc.cols[c]
	return &Field{X: &ColRef{Idx: c, Name: col.name, T: col.t, Pos: pos}, Idx: f, Name: col.t.Fields[f].Name}
}

func (b *binder) fieldAccess(e Expr, id *ast.Ident) (Expr, error) {
	t := e.Type()
	switch t.Kind {
	case types.KindStruct:
		for i, f := range t.Fields {
			if strings.EqualFold(f.Name, id.Name) {
				return &Field{X: e, Idx: i, Name: f.Name}, nil
			}
		}
		return nil, b.errAt(id, sqlerr.UndefinedColumn, "field %s not found in %s", id.Name, t)
	case types.KindProto:
		return b.protoField(e, id)
	case types.KindMap:
		return nil, b.errAt(id, sqlerr.TypeMismatch,
			"cannot access field %s on a value of type %s; use %s['%s']", id.Name, t, e, id.Name)
	}
	return nil, b.errAt(id, sqlerr.TypeMismatch, "cannot access field %s on a value of type %s", id.Name, t)
}
