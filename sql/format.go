package sql

import (
	"strings"
)

// Operator functions print infix.
var infix = map[string]bool{
	"=": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true,
	"+": true, "-": true, "*": true, "/": true, "||": true, "LIKE": true,
}

func (e *Const) String() string { return e.V.String() }
func (e *Param) String() string { return "@" + e.Name }
func (e *ColRef) String() string {
	return e.Name
}

func (e *Call) String() string {
	if infix[e.Fn.Name] && len(e.Args) == 2 {
		return wrap(e.Args[0]) + " " + e.Fn.Name + " " + wrap(e.Args[1])
	}
	if e.Fn.Name == "NEG" {
		return "-" + wrap(e.Args[0])
	}
	name := e.Fn.Name
	if e.Safe {
		name = "SAFE." + name
	}
	return name + "(" + joinExprs(e.Args) + ")"
}

func (e *And) String() string { return joinWrapped(e.Args, " AND ") }
func (e *Or) String() string  { return joinWrapped(e.Args, " OR ") }
func (e *Not) String() string { return "NOT " + wrap(e.X) }

func (e *IsNull) String() string {
	if e.Neg {
		return wrap(e.X) + " IS NOT NULL"
	}
	return wrap(e.X) + " IS NULL"
}

func (e *IsBool) String() string {
	s := wrap(e.X) + " IS "
	if e.Neg {
		s += "NOT "
	}
	if e.Val {
		return s + "TRUE"
	}
	return s + "FALSE"
}

func (e *In) String() string {
	return wrap(e.X) + notStr(e.Neg) + " IN (" + joinExprs(e.List) + ")"
}

func (e *InArray) String() string {
	return wrap(e.X) + notStr(e.Neg) + " IN UNNEST(" + e.Array.String() + ")"
}

func (e *Case) String() string {
	var b strings.Builder
	b.WriteString("CASE")
	for _, w := range e.Whens {
		b.WriteString(" WHEN " + w.Cond.String() + " THEN " + w.Then.String())
	}
	if e.Else != nil {
		b.WriteString(" ELSE " + e.Else.String())
	}
	b.WriteString(" END")
	return b.String()
}

func (e *Coalesce) String() string { return "COALESCE(" + joinExprs(e.Args) + ")" }

func (e *Cast) String() string {
	fn := "CAST"
	if e.Safe {
		fn = "SAFE_CAST"
	}
	return fn + "(" + e.X.String() + " AS " + e.T.String() + ")"
}

func (e *MapGet) String() string { return wrap(e.Map) + "[" + e.Key.String() + "]" }

var modeNames = [...]string{"OFFSET", "SAFE_OFFSET", "ORDINAL", "SAFE_ORDINAL"}

func (e *Index) String() string {
	return wrap(e.Arr) + "[" + modeNames[e.Mode] + "(" + e.Idx.String() + ")]"
}

func (e *Field) String() string     { return wrap(e.X) + "." + e.Name }
func (e *MakeArray) String() string { return "[" + joinExprs(e.Elems) + "]" }
func (e *MakeStruct) String() string {
	return "STRUCT(" + joinExprs(e.Fields) + ")"
}

func notStr(neg bool) string {
	if neg {
		return " NOT"
	}
	return ""
}

// wrap parenthesizes compound operands so the printed form is unambiguous.
func wrap(e Expr) string {
	switch e := e.(type) {
	case *And, *Or, *Not, *IsNull, *IsBool, *In, *InArray:
		return "(" + e.String() + ")"
	case *Call:
		if infix[e.Fn.Name] {
			return "(" + e.String() + ")"
		}
	}
	return e.String()
}

func joinExprs(es []Expr) string {
	s := make([]string, len(es))
	for i, e := range es {
		s[i] = e.String()
	}
	return strings.Join(s, ", ")
}

func joinWrapped(es []Expr, sep string) string {
	s := make([]string, len(es))
	for i, e := range es {
		s[i] = wrap(e)
	}
	return strings.Join(s, sep)
}
