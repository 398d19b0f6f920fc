package storage

import (
	"bytes"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
)

// splitRow is Pebble's Split for Shale's keys: the prefix of a cell key is
// its row (0x01 | table id | esc(row) 0x00 0x01), so that bloom filters
// hold rows and a single-row read seeks with SeekPrefixGE, skipping every
// sstable whose filter says the row is absent. Any other key (metadata,
// bounds without a terminator) is its own prefix. Because the escaping is
// order preserving and its terminator unique, byte order on whole keys
// agrees with byte order on their prefixes, as Pebble requires.
func splitRow(k []byte) int {
	if n, ok := rowPrefixLen(k); ok {
		return n
	}
	return len(k)
}

// rowPrefixLen returns the length of the row prefix of a cell key, and
// false when k has none (not a cell key, or a bound without terminator).
func rowPrefixLen(k []byte) (int, bool) {
	if len(k) <= tableKeyLen || k[0] != cellPrefix {
		return 0, false
	}
	for i := tableKeyLen; ; {
		j := bytes.IndexByte(k[i:], escByte)
		if j < 0 || i+j+1 >= len(k) {
			return 0, false
		}
		i += j + 1
		if k[i] == termMark {
			return i + 1, true
		}
		i++ // an escaped 0x00
	}
}

// comparer is Pebble's default byte-wise comparer with splitRow. Its name is
// the default's: the order is the same, so data directories written before
// the split existed open unchanged (their sstables simply have no filters).
var comparer = func() *pebble.Comparer {
	c := *pebble.DefaultComparer
	c.Split = splitRow
	return &c
}()

// rowFilter is the bloom filter policy of every level: about 1% false
// positives at 10 bits per row.
var rowFilter = bloom.FilterPolicy(10)

// isRowSpan reports whether sp covers exactly one row: its lower bound is
// a row prefix and its upper bound that prefix's successor.
func isRowSpan(sp span) bool {
	n, ok := rowPrefixLen(sp.lower)
	return ok && n == len(sp.lower) &&
		len(sp.upper) == n && bytes.Equal(sp.upper[:n-1], sp.lower[:n-1]) && sp.upper[n-1] == termMark+1
}
