package textdist

import (
	"cmp"
	"slices"
	"strings"
)

// Distance is the Levenshtein distance between a and b, by bytes (the
// names it compares are ASCII identifiers).
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Closeness scores how near candidate is to name, smaller being nearer:
// their edit distance ignoring case, and at most 1 when one contains the
// other (names of four bytes or more: "year" is near "release_year") or
// when both are qualified and end in the same last part ("music.Album" is
// near "records.Album").
func Closeness(name, candidate string) int {
	n, c := strings.ToLower(name), strings.ToLower(candidate)
	d := Distance(n, c)
	if len(n) >= 4 && len(c) >= 4 && (strings.Contains(c, n) || strings.Contains(n, c)) {
		d = min(d, 1)
	}
	if i, j := strings.LastIndexByte(n, '.'), strings.LastIndexByte(c, '.'); i >= 0 && j >= 0 && n[i+1:] == c[j+1:] {
		d = min(d, 1)
	}
	return d
}

// Nearest returns up to k of names nearest to name by Closeness, nearest
// first (ties in the order given, duplicates once), leaving out those
// farther than maxDist (negative: no bound).
func Nearest(name string, names []string, k, maxDist int) []string {
	type cand struct {
		name string
		dist int
	}
	var cs []cand
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		if seen[n] {
			continue
		}
		seen[n] = true
		if d := Closeness(name, n); maxDist < 0 || d <= maxDist {
			cs = append(cs, cand{n, d})
		}
	}
	slices.SortStableFunc(cs, func(a, b cand) int { return cmp.Compare(a.dist, b.dist) })
	out := make([]string, 0, min(k, len(cs)))
	for _, c := range cs[:min(k, len(cs))] {
		out = append(out, c.name)
	}
	return out
}
