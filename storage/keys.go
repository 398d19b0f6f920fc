package storage

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// Pebble key layout.
//
//	metadata:  0x00 <kind> ...                       (catalog.go)
//	cell:      0x01 <table id: 8B BE> esc(row) 0x00 0x01 <family> 0x00 esc(qualifier) 0x00 0x01 ^ts(8B BE)
//
// esc escapes 0x00 as 0x00 0xFF; 0x00 0x01 terminates an escaped field. The
// escaping is byte-wise and order preserving, so:
//   - cells sort by table, row (unsigned bytes), family, qualifier, then
//     timestamp descending (^ts);
//   - esc(p) is a byte prefix of esc(k) whenever p is a prefix of k, so a row
//     prefix is a Pebble key prefix.
//
// Family names never contain 0x00 (they match [-_.a-zA-Z0-9]+).
const (
	metaPrefix = 0x00
	cellPrefix = 0x01

	escByte  = 0x00
	escMark  = 0xFF // 0x00 0xFF encodes a literal 0x00
	termMark = 0x01 // 0x00 0x01 ends a field
	// tableKeyLen is the length of the cell prefix plus table id.
	tableKeyLen = 9
)

// appendEscaped appends esc(b) 0x00 0x01 to dst.
func appendEscaped(dst, b []byte) []byte {
	for {
		i := bytes.IndexByte(b, escByte)
		if i < 0 {
			dst = append(dst, b...)
			break
		}
		dst = append(dst, b[:i+1]...)
		dst = append(dst, escMark)
		b = b[i+1:]
	}
	return append(dst, escByte, termMark)
}

// appendEscapedOpen appends esc(b) without the terminator: the smallest key
// of every row that has b as a prefix.
func appendEscapedOpen(dst, b []byte) []byte {
	dst = appendEscaped(dst, b)
	return dst[:len(dst)-2]
}

// decodeEscaped splits an escaped field off the front of k. The decoded value
// is appended to buf; when the field holds no escapes it aliases k instead
// and buf is returned unchanged.
func decodeEscaped(k, buf []byte) (val, rest, newBuf []byte, err error) {
	i := bytes.IndexByte(k, escByte)
	if i < 0 || i+1 >= len(k) {
		return nil, nil, buf, errCorruptKey
	}
	if k[i+1] == termMark {
		return k[:i], k[i+2:], buf, nil
	}
	start := len(buf)
	for {
		if i < 0 || i+1 >= len(k) {
			return nil, nil, buf, errCorruptKey
		}
		switch k[i+1] {
		case termMark:
			buf = append(buf, k[:i]...)
			return buf[start:], k[i+2:], buf, nil
		case escMark:
			buf = append(buf, k[:i+1]...)
			k = k[i+2:]
		default:
			return nil, nil, buf, errCorruptKey
		}
		i = bytes.IndexByte(k, escByte)
	}
}

var errCorruptKey = fmt.Errorf("storage: corrupt cell key")

// tablePrefix returns the key prefix of every cell of a table.
func tablePrefix(id uint64) []byte {
	return appendTablePrefix(make([]byte, 0, tableKeyLen), id)
}

func appendTablePrefix(dst []byte, id uint64) []byte {
	dst = append(dst, cellPrefix)
	return binary.BigEndian.AppendUint64(dst, id)
}

// appendRowPrefix appends the key prefix of every cell of row.
func appendRowPrefix(dst []byte, id uint64, row []byte) []byte {
	return appendEscaped(appendTablePrefix(dst, id), row)
}

// appendFamilyPrefix appends the key prefix of a row's cells in family.
func appendFamilyPrefix(dst []byte, id uint64, row []byte, family string) []byte {
	dst = appendRowPrefix(dst, id, row)
	dst = append(dst, family...)
	return append(dst, escByte)
}

// appendColumnPrefix appends the key prefix of a column's cells.
func appendColumnPrefix(dst []byte, id uint64, row []byte, family string, qual []byte) []byte {
	return appendEscaped(appendFamilyPrefix(dst, id, row, family), qual)
}

// appendCellKey appends the key of one cell.
func appendCellKey(dst []byte, id uint64, row []byte, family string, qual []byte, ts int64) []byte {
	dst = appendColumnPrefix(dst, id, row, family, qual)
	return binary.BigEndian.AppendUint64(dst, ^uint64(ts))
}

// prefixSuccessor returns the smallest key greater than every key with
// prefix p, or nil when there is none.
func prefixSuccessor(p []byte) []byte {
	s := append([]byte(nil), p...)
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] != 0xff {
			s[i]++
			return s[:i+1]
		}
	}
	return nil
}

// cellKey is a decoded cell key; slices alias the key or a decode buffer.
type cellKey struct {
	table     uint64
	row       []byte
	family    []byte
	qualifier []byte
	ts        int64
	// rowPrefixLen is the length of the key up to and including the row's
	// terminator: keys of the same row share these bytes.
	rowPrefixLen int
}

// decodeCellKey decodes a full cell key. Decoded row and qualifier bytes
// that needed unescaping are appended to buf.
func decodeCellKey(k, buf []byte) (ck cellKey, newBuf []byte, err error) {
	if len(k) < tableKeyLen+2+1+2+8 || k[0] != cellPrefix {
		return ck, buf, errCorruptKey
	}
	ck.table = binary.BigEndian.Uint64(k[1:tableKeyLen])
	var rest []byte
	ck.row, rest, buf, err = decodeRowKey(k, buf)
	if err != nil {
		return ck, buf, err
	}
	ck.rowPrefixLen = len(k) - len(rest)
	ck.family, ck.qualifier, ck.ts, buf, err = decodeColumnSuffix(rest, buf)
	return ck, buf, err
}

// decodeRowKey decodes the row of a cell key and returns the rest of the key
// (the column part); see decodeEscaped for buf.
func decodeRowKey(k, buf []byte) (row, rest, newBuf []byte, err error) {
	if len(k) < tableKeyLen+2 || k[0] != cellPrefix {
		return nil, nil, buf, errCorruptKey
	}
	return decodeEscaped(k[tableKeyLen:], buf)
}

// decodeColumnSuffix decodes the part of a cell key after the row.
func decodeColumnSuffix(rest, buf []byte) (family, qual []byte, ts int64, newBuf []byte, err error) {
	i := bytes.IndexByte(rest, escByte)
	if i < 0 {
		return nil, nil, 0, buf, errCorruptKey
	}
	family, rest = rest[:i], rest[i+1:]
	qual, rest, buf, err = decodeEscaped(rest, buf)
	if err != nil {
		return nil, nil, 0, buf, err
	}
	if len(rest) != 8 {
		return nil, nil, 0, buf, errCorruptKey
	}
	return family, qual, int64(^binary.BigEndian.Uint64(rest)), buf, nil
}
