package sql

import (
	"sort"
	"strings"

	"github.com/shale-db/shale/sql/types"
)

// Functions returns the functions callable by name, sorted by name (the
// operators, registered under their symbols, are left out). The
// conformance table docs/functions.md is generated from it.
func Functions() []*Function {
	var fs []*Function
	for n, f := range registry {
		if isUserFunction(n) {
			fs = append(fs, f)
		}
	}
	sort.Slice(fs, func(i, j int) bool { return fs[i].Name < fs[j].Name })
	return fs
}

// Signatures renders the function's overloads as GoogleSQL-style
// signatures, e.g. "SUBSTR(STRING, INT64, INT64) -> STRING". An argument
// checked by the overload itself prints as ANY; a computed result as ANY.
// An aggregate prints as "aggregate".
func (f *Function) Signatures() []string {
	if f.Agg != nil {
		return []string{f.Name + "(…) aggregate"}
	}
	out := make([]string, 0, len(f.Overloads))
	for _, ov := range f.Overloads {
		args := make([]string, len(ov.Args))
		for i, a := range ov.Args {
			args[i] = typeName(a)
			if words := keywordArgs[f.Name][i]; len(words) > 0 && a != nil && a.Kind == types.KindString {
				args[i] = "part"
			}
		}
		if ov.Variadic && len(args) > 0 {
			args[len(args)-1] += ", …"
		}
		ret := "ANY"
		if ov.Ret != nil {
			ret = ov.Ret.String()
		}
		out = append(out, f.Name+"("+strings.Join(args, ", ")+") -> "+ret)
	}
	return out
}

func typeName(t *types.Type) string {
	if t == nil {
		return "ANY"
	}
	return t.String()
}

// SyntaxForms are the functions the binder handles as syntax rather than
// through the registry, with the form they are written in.
var SyntaxForms = map[string]string{
	"CAST":      "CAST(x AS type)",
	"SAFE_CAST": "SAFE_CAST(x AS type)",
	"IF":        "IF(cond, then, else)",
	"COALESCE":  "COALESCE(x, …)",
	"IFNULL":    "IFNULL(x, default)",
	"NULLIF":    "NULLIF(x, y)",
	"EXTRACT":   "EXTRACT(part FROM date_or_timestamp [AT TIME ZONE tz])",
}
