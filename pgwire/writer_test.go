package pgwire

import (
	"bytes"
	"testing"

	"github.com/jackc/pgx/v5/pgproto3"
)

// TestOwnEncodings: the messages pgwire encodes itself, rather than through
// pgproto3's message structs, are byte for byte what pgproto3 encodes.
func TestOwnEncodings(t *testing.T) {
	check := func(name string, got []byte, want pgproto3.BackendMessage) {
		t.Helper()
		w, err := want.Encode(nil)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, w) {
			t.Errorf("%s:\n got %q\nwant %q", name, got, w)
		}
	}

	cols := []column{{name: "k", oid: oidBytea}, {name: "n", oid: oidInt8}, {name: "héllo", oid: oidText}}
	for _, fmts := range [][]int16{nil, {formatText, formatBinary, formatText}} {
		got, err := appendRowDescription(nil, cols, fmts)
		if err != nil {
			t.Fatal(err)
		}
		want := &pgproto3.RowDescription{}
		for i, col := range cols {
			f := pgproto3.FieldDescription{Name: []byte(col.name), DataTypeOID: col.oid,
				DataTypeSize: typeSize(col.oid), TypeModifier: -1}
			if fmts != nil {
				f.Format = fmts[i]
			}
			want.Fields = append(want.Fields, f)
		}
		check("RowDescription", got, want)
	}

	for _, tc := range []struct {
		tag  commandTag
		n    int64
		want string
	}{
		{commandTag{verb: "SELECT", count: true}, 42, "SELECT 42"},
		{commandTag{verb: "FETCH", count: true}, 0, "FETCH 0"},
		{commandTag{verb: "EXPLAIN"}, 3, "EXPLAIN"},
		{commandTag{}, 7, ""},
	} {
		var w msgWriter
		w.sendComplete(tc.tag, tc.n)
		check("CommandComplete "+tc.want, w.buf, &pgproto3.CommandComplete{CommandTag: []byte(tc.want)})
	}

	var w msgWriter
	w.sendReady(txFailed)
	check("ReadyForQuery", w.buf, &pgproto3.ReadyForQuery{TxStatus: txFailed})
}
