package storage

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// TestKeys runs testdata/keys: `encode` prints the Pebble key of a cell
// (row, family, qualifier and ts as arguments; row and qualifier are Go
// strings) and decodes it back; `order` checks that cell keys sort as
// Bigtable orders cells.
func TestKeys(t *testing.T) {
	datadriven.RunTest(t, "testdata/keys", func(t *testing.T, d *datadriven.TestData) string {
		switch d.Cmd {
		case "encode":
			var out strings.Builder
			for _, line := range strings.Split(strings.TrimSpace(d.Input), "\n") {
				row, fam, qual, ts := parseKeyLine(t, line)
				k := appendCellKey(nil, 7, row, fam, qual, ts)
				ck, _, err := decodeCellKey(k, nil)
				if err != nil {
					fmt.Fprintf(&out, "%s → error: %v\n", line, err)
					continue
				}
				ok := bytes.Equal(ck.row, row) && string(ck.family) == fam && bytes.Equal(ck.qualifier, qual) && ck.ts == ts && ck.table == 7
				fmt.Fprintf(&out, "%s → %s [round-trip %v]\n", line, spacedHex(k), ok)
			}
			return out.String()
		case "order":
			lines := strings.Split(strings.TrimSpace(d.Input), "\n")
			var prev []byte
			for i, line := range lines {
				row, fam, qual, ts := parseKeyLine(t, line)
				k := appendCellKey(nil, 7, row, fam, qual, ts)
				if i > 0 && bytes.Compare(prev, k) >= 0 {
					return fmt.Sprintf("out of order: %s sorts before line %d\n", line, i)
				}
				prev = k
			}
			return "ok\n"
		}
		return "unknown command " + d.Cmd
	})
}

// parseKeyLine parses `"row" family "qualifier" ts`.
func parseKeyLine(t *testing.T, line string) (row []byte, fam string, qual []byte, ts int64) {
	f := splitQuoted(line)
	if len(f) != 4 {
		t.Fatalf("want \"row\" family \"qual\" ts: %q", line)
	}
	r, err1 := strconv.Unquote(f[0])
	q, err2 := strconv.Unquote(f[2])
	n, err3 := strconv.ParseInt(f[3], 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		t.Fatalf("bad key line %q", line)
	}
	return []byte(r), f[1], []byte(q), n
}

// splitQuoted splits on spaces outside double quotes.
func splitQuoted(s string) []string {
	var out []string
	var cur strings.Builder
	inQ, esc := false, false
	for _, c := range s {
		switch {
		case esc:
			esc = false
		case c == '\\' && inQ:
			esc = true
		case c == '"':
			inQ = !inQ
		case c == ' ' && !inQ:
			if cur.Len() > 0 {
				out = append(out, cur.String())
				cur.Reset()
			}
			continue
		}
		cur.WriteRune(c)
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

func spacedHex(k []byte) string {
	// table prefix | row... : group for readability.
	return hex.EncodeToString(k[:tableKeyLen]) + " " + hex.EncodeToString(k[tableKeyLen:len(k)-8]) + " " + hex.EncodeToString(k[len(k)-8:])
}

// FuzzCellKey: decoding arbitrary bytes never panics; encoding then
// decoding any cell gives it back; and key order is cell order.
func FuzzCellKey(f *testing.F) {
	f.Add([]byte("phone#4c410523#20200501"), "cf", []byte("q"), int64(1000), []byte("a\x00b"), []byte(""))
	f.Add([]byte("\x00\x01"), "f", []byte("\x00\xff"), int64(0), []byte("\x00"), []byte("\x00\x00"))
	f.Fuzz(func(t *testing.T, row []byte, fam string, qual []byte, ts int64, row2, qual2 []byte) {
		_, _, _ = decodeCellKey(row, nil) // arbitrary bytes: no panic
		if len(row) == 0 || ts < 0 || !familyIDPattern.MatchString(fam) {
			return
		}
		k := appendCellKey(nil, 3, row, fam, qual, ts)
		ck, _, err := decodeCellKey(k, nil)
		if err != nil || !bytes.Equal(ck.row, row) || string(ck.family) != fam || !bytes.Equal(ck.qualifier, qual) || ck.ts != ts {
			t.Fatalf("round trip of (%q %q %q %d): %+v, %v", row, fam, qual, ts, ck, err)
		}
		if len(row2) == 0 {
			return
		}
		k2 := appendCellKey(nil, 3, row2, fam, qual2, ts)
		want := bytes.Compare(row, row2)
		if want == 0 {
			want = bytes.Compare(qual, qual2)
		}
		if got := bytes.Compare(k, k2); got != want {
			t.Fatalf("order of (%q,%q) vs (%q,%q): keys compare %d, cells %d", row, qual, row2, qual2, got, want)
		}
		// A row's keys lie inside its prefix span and outside its
		// neighbours'.
		lo := appendRowPrefix(nil, 3, row)
		if !bytes.HasPrefix(k, lo) {
			t.Fatalf("cell key %x lacks its row prefix %x", k, lo)
		}
		if bytes.Equal(row, row2) != bytes.HasPrefix(k2, lo) {
			t.Fatalf("row prefix of %q matches a key of row %q", row, row2)
		}
	})
}
