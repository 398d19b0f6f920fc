package storage

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// Cell is one timestamped value of a column. Cells read from an iterator
// alias buffers the iterator owns; they stay valid until the next call to
// Next or Close (see RowIterator).
type Cell struct {
	Family    string
	Qualifier []byte
	// Timestamp is in microseconds since the Unix epoch; it is only a
	// version number to the engine, except to max-age GC rules.
	Timestamp int64
	Value     []byte
	// Labels are applied by the apply-label filter; never stored.
	Labels []string
}

// Row is a row key and its cells in (family, qualifier, timestamp desc) order.
type Row struct {
	Key   []byte
	Cells []Cell
}

// String renders a cell as family:qualifier@ts=value with the qualifier and
// value quoted as Go strings, the form the tests print.
func (c Cell) String() string {
	var b strings.Builder
	b.WriteString(c.Family)
	b.WriteByte(':')
	b.WriteString(quoteBytes(c.Qualifier))
	b.WriteByte('@')
	b.WriteString(strconv.FormatInt(c.Timestamp, 10))
	b.WriteByte('=')
	b.WriteString(quoteBytes(c.Value))
	if len(c.Labels) > 0 {
		fmt.Fprintf(&b, " [%s]", strings.Join(c.Labels, ","))
	}
	return b.String()
}

// quoteBytes prints printable ASCII as is and everything else escaped.
func quoteBytes(b []byte) string {
	plain := true
	for _, c := range b {
		if c < 0x21 || c > 0x7e || c == '"' || c == '\\' || c == '=' || c == '@' {
			plain = false
			break
		}
	}
	if plain && len(b) > 0 {
		return string(b)
	}
	return strconv.Quote(string(b))
}

// compareColumns orders cells by family, then qualifier.
func compareColumns(a, b *Cell) int {
	if c := strings.Compare(a.Family, b.Family); c != 0 {
		return c
	}
	return bytes.Compare(a.Qualifier, b.Qualifier)
}

// compareCells orders cells as a row presents them: family, qualifier, then
// timestamp descending.
func compareCells(a, b *Cell) int {
	if c := compareColumns(a, b); c != 0 {
		return c
	}
	switch {
	case a.Timestamp > b.Timestamp:
		return -1
	case a.Timestamp < b.Timestamp:
		return 1
	}
	return 0
}
