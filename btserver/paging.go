package btserver

import (
	"encoding/base64"
	"fmt"
	"sort"

	"github.com/shale-db/shale/storage"
)

// page returns the [lo, hi) slice of sorted names that a List call with
// pageSize and pageToken answers, and the token of the next page ("" at the
// end). A token is the base64 of the last name returned, so pages stay
// consistent while objects come and go. pageSize 0 means everything.
func page(names []string, pageSize int32, pageToken string) (lo, hi int, next string, err error) {
	if pageSize < 0 {
		return 0, 0, "", fmt.Errorf("%w: page_size %d is negative", storage.ErrInvalidArgument, pageSize)
	}
	if pageToken != "" {
		last, err := base64.RawURLEncoding.DecodeString(pageToken)
		if err != nil {
			return 0, 0, "", fmt.Errorf("%w: invalid page_token %q", storage.ErrInvalidArgument, pageToken)
		}
		lo = sort.SearchStrings(names, string(last))
		if lo < len(names) && names[lo] == string(last) {
			lo++
		}
	}
	hi = len(names)
	if pageSize > 0 && hi-lo > int(pageSize) {
		hi = lo + int(pageSize)
		next = base64.RawURLEncoding.EncodeToString([]byte(names[hi-1]))
	}
	return lo, hi, next, nil
}
