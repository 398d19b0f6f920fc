package sql

import (
	"sort"
	"strings"

	"github.com/shale-db/shale/internal/textdist"
)

// suggestFunctions returns ", did you mean X, Y?" naming the registered
// functions closest to an unknown name (by edit distance, and names that
// contain it), or "" when nothing is close.
func suggestFunctions(name string) string {
	type cand struct {
		name string
		dist int
	}
	var cs []cand
	limit := max(2, len(name)/3)
	for n := range registry {
		if !isUserFunction(n) {
			continue
		}
		d := textdist.Distance(name, n)
		if len(name) >= 4 && (strings.Contains(n, name) || strings.Contains(name, n)) {
			d = min(d, 1)
		}
		if d <= limit {
			cs = append(cs, cand{n, d})
		}
	}
	if len(cs) == 0 {
		return ""
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].dist != cs[j].dist {
			return cs[i].dist < cs[j].dist
		}
		return cs[i].name < cs[j].name
	})
	if len(cs) > 3 {
		cs = cs[:3]
	}
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = c.name
	}
	return "; did you mean " + strings.Join(names, ", ") + "?"
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
// nearest to name by case-insensitive edit distance (ties in the order
// given), or "" when there are no names.
func nearestNames(name string, names []string) string {
	type cand struct {
		name string
		dist int
	}
	var cs []cand
	seen := map[string]bool{}
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			cs = append(cs, cand{n, textdist.Distance(strings.ToLower(name), strings.ToLower(n))})
		}
	}
	if len(cs) == 0 {
		return ""
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].dist < cs[j].dist })
	pick := make([]string, 0, 3)
	for _, c := range cs[:min(3, len(cs))] {
		pick = append(pick, c.name)
	}
	return "; nearest: " + strings.Join(pick, ", ")
}
