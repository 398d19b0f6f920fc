package btserver_test

import (
	"sort"
	"strconv"

	"cloud.google.com/go/bigtable"
)

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func sortedFamilies(r bigtable.Row) []string {
	fams := make([]string, 0, len(r))
	for f := range r {
		fams = append(fams, f)
	}
	sort.Strings(fams)
	return fams
}
