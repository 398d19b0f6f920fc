package sql

import (
	"sort"
	"strings"

	"github.com/shale-db/shale/internal/textdist"
)

// suggestFunctions returns ", did you mean X, Y?" naming the registered
// functions closest to an unknown name (textdist.Closeness), or "" when
// nothing is close.
func suggestFunctions(name string) string {
	var names []string
	for n := range registry {
		if isUserFunction(n) {
			names = append(names, n)
		}
	}
	sort.Strings(names) // ties in a stable order
	near := textdist.Nearest(name, names, 3, max(2, len(name)/3))
	if len(near) == 0 {
		return ""
	}
	return "; did you mean " + strings.Join(near, ", ") + "?"
}

// isUserFunction reports whether a registry name is callable by name (the
// operators are registered under their symbols and NEG).
func isUserFunction(n string) bool {
	if n == "NEG" || n == "LIKE" {
		return false
	}
	for _, r := range n {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// nearestNames renders "; nearest: a, b, c": up to three of names
// nearest to name (textdist.Closeness; ties in the order given), or ""
// when there are no names.
func nearestNames(name string, names []string) string {
	near := textdist.Nearest(name, names, 3, -1)
	if len(near) == 0 {
		return ""
	}
	return "; nearest: " + strings.Join(near, ", ")
}
